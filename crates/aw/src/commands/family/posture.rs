//! `aw family posture [--root <dir>]… [--bundled <dir>]`

use super::survey::{roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::family::State;
use aw_core::family::bridge_settings::{active, env_rule, resolve};
use aw_core::family::posture::{BACKENDS, Declared, Judged, TIER_SETTING, configured_line, judge};
use aw_core::wire::family::{FamilyPosture, PostureBackend, PosturePins};
use aw_manifest::{PostureBlock, SettingEntry, SettingKind, Summary};
use aw_workspace::family::bridge_settings::{config_home, file_path, read as read_settings};
use aw_workspace::family::read_copy;
use aw_workspace::locate::env_value;
use clap::Args;
use std::path::PathBuf;

// Arguments of `aw family posture`.
#[derive(Debug, Args)]
#[command(
    long_about = "The configured dispatch posture: `codex model=… effort=… tier=… · agy model=…`, \
from the `posture` blocks of the execution backends (codex-cli-bridge first, then \
antigravity-cli-bridge), each checked with the validator's own rule. The manifests are the \
installed copies (the copy `aw family status` reports for each backend, whatever its rung, \
except a foreign one; its rung is shown), or \
`<dir>/<name>/capability.json` with --bundled <dir>. A tier shows only for a backend whose posture \
has the `tier` key (`null` reads `standard`). As the family's tools do, one malformed posture (or an unreadable bundled \
manifest) makes the whole line null; the backends list says why.\n\n\
JSON (when piped): {line, backends: [{name, label, dir, state, posture, errors}]}. Read-only."
)]
pub struct PostureArgs {
    /// Another skill root to search (repeatable).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// Read the bundled copies `<dir>/<name>/capability.json` instead of the installed ones.
    #[arg(long, value_name = "DIR")]
    pub bundled: Option<PathBuf>,
}

/// Runs `aw family posture`.
pub fn run(args: &PostureArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (cwd, roots) = roots(&args.roots, cx)?;
    let sources: Vec<Source> = match &args.bundled {
        Some(b) => BACKENDS
            .iter()
            .map(|(name, label)| {
                let dir = cwd.join(b).join(name);
                let copy = read_copy(&dir);
                Source {
                    name,
                    label,
                    dir: Some(dir),
                    summary: copy.summary.clone(),
                    settings: copy.settings(),
                    ladder: None,
                }
            })
            .collect(),
        None => {
            let surveyed = survey(&cwd, &roots, cx);
            BACKENDS
                .iter()
                .map(|(name, label)| {
                    // The copy that speaks for the member, whatever its rung: like the kit's
                    // posture reader, which parses the manifest without validating the folder,
                    // the posture block is judged on its own (a malformed one then silences the
                    // line instead of hiding as "not installed").
                    // A foreign copy is another member's manifest: never this one's posture.
                    let primary = surveyed
                        .iter()
                        .find(|s| s.member.name == *name)
                        .and_then(|s| s.primary());
                    let own = primary.filter(|p| p.class.state != State::Foreign);
                    Source {
                        name,
                        label,
                        dir: own.map(|p| p.dir.clone()),
                        summary: own.and_then(|p| p.copy.summary.clone()),
                        settings: own.map(|p| p.copy.settings()).unwrap_or_default(),
                        ladder: primary.map(|p| p.class.state),
                    }
                })
                .collect()
        }
    };
    let bundled = args.bundled.is_some();
    let backends: Vec<(Source, Judged)> = sources
        .into_iter()
        .map(|mut src| {
            let settings = std::mem::take(&mut src.settings);
            let expected = bundled || src.dir.is_some();
            let declared = src.summary.take().map(|s| declared(s.posture));
            // A copy found on disk (installed, or bundled with `--bundled`) has its host
            // setting read, and only when it counts.
            let on_disk = src.dir.is_some();
            let judged = judge(src.label, declared, expected, || {
                on_disk.then(|| settings_tier(&settings, cx)).flatten()
            });
            (src, judged)
        })
        .collect();
    let line = configured_line(backends.iter().map(|(_, j)| (j.state, j.pins.as_ref())));
    let model = FamilyPosture {
        line,
        backends: backends
            .iter()
            .map(|(b, j)| PostureBackend {
                name: b.name,
                label: b.label,
                dir: b.dir.as_ref().map(|d| d.display().to_string()),
                state: j.state.label(),
                ladder: b.ladder.map(State::label),
                posture: j.pins.as_ref().map(|p| PosturePins {
                    model: p.model.clone(),
                    effort: p.effort.clone(),
                    tier: p.tier.clone(),
                }),
                errors: j.errors.clone(),
            })
            .collect(),
    };
    Ok(Outcome::shown(&model, &style))
}

/// The active value of the tier setting a member declares in `settings` (env > file > default,
/// the value checked by its kind), when one is set other than its default.
fn settings_tier(settings: &[SettingEntry], cx: &Ctx<'_>) -> Option<String> {
    let entry = settings.iter().find(|e| e.key == TIER_SETTING)?;
    let state = config_home(cx.home().as_deref()).map(|c| read_settings(&file_path(&c)));
    let file = state.as_ref().and_then(|s| s.file());
    let env = env_value(TIER_SETTING);
    let eff = resolve(
        env.as_deref(),
        env_rule(TIER_SETTING, entry.kind == SettingKind::Enum),
        file.and_then(|f| f.value(TIER_SETTING)),
        entry.default.as_deref(),
        &|v| entry.accepts(v),
    );
    active(&eff, entry.default.as_deref()).map(str::to_owned)
}

/// Where one backend's posture is read from.
struct Source {
    name: &'static str,
    label: &'static str,
    dir: Option<PathBuf>,
    summary: Option<Summary>,
    /// Its `settings` entries (none unless its manifest is VALID).
    settings: Vec<SettingEntry>,
    /// The installed copy's rung on the detection ladder (none for a bundled copy).
    ladder: Option<State>,
}

/// What a manifest's `posture` block declares, in the core's terms.
fn declared(block: PostureBlock) -> Declared {
    match block {
        PostureBlock::Absent => Declared::Absent,
        PostureBlock::Invalid(findings) => {
            Declared::Invalid(findings.into_iter().map(|f| f.message).collect())
        }
        PostureBlock::Pins(p) => Declared::Pins {
            model: p.model,
            effort: p.effort,
            tier: p.tier,
            tier_declared: p.tier_declared,
        },
    }
}
