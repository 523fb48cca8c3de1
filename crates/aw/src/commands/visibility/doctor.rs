//! `aw visibility doctor`: whether the agent hosts' files list every source outside the
//! workspace, and nothing stale. Read-only: it writes nothing, not even the lock.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::error_code::ErrorCode;
use aw_core::project::visibility::{
    CLAUDE_FILE, CODEX_FILE, Doctor, DoctorInput, HostReport, WARP_REASON, doctor,
};
use aw_core::wire::visibility::{
    DoctorHosts, GitignoreCheck, HostCheck, Skipped, SourceSight, VisibilityDoctor,
};
use aw_workspace::project::visibility::{Inspection, inspect};
use clap::Args;
use serde_json::Value;

// Arguments of `aw visibility doctor`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check multi-root visibility, without changing anything: for every source of the \
project block whose folder lies outside the workspace, whether `.claude/settings.local.json` \
(Claude Code) and `.codex/config.toml` (Codex) list it; which folders those files list that no \
source has (stale); whether Codex's file marks the workspace trusted; and whether `.gitignore` \
keeps the files out of git. A folder counts in either spelling: absolute, or as the block gives \
it (`../api`, as the reference writes it), and in either of Codex's lists (`writable_roots`, or \
the reference's `additional_writable_roots`).\n\nEach host gets a status (`ok`, `not_needed`, \
`missing`, `stale`, `invalid`) and the next action. Any drift exits 1 with `VISIBILITY_DRIFT` \
(the report is in the envelope's `data`). Warp and its agent Oz have no per-project folder setting, so \
there is nothing of theirs to check. Codex reads a project's `.codex/config.toml` only once the \
project is trusted in the user's own Codex configuration, which aw does not read. `--global` is \
not offered."
)]
pub struct DoctorArgs {
    /// Refused: aw reads only the workspace's own host files.
    #[arg(long)]
    pub global: bool,
}

fn report(i: &Inspection) -> Doctor {
    let external: Vec<String> = i
        .sources
        .iter()
        .filter(|s| s.external)
        .map(|s| s.resolved.clone())
        .collect();
    let known: Vec<String> = i.sources.iter().map(|s| s.resolved.clone()).collect();
    doctor(DoctorInput {
        external: &external,
        known: &known,
        claude: &i.claude,
        codex: &i.codex,
        codex_trust: i.codex_trust.as_deref(),
        gitignore_missing: &i.gitignore_missing,
    })
}

fn host_check<'a>(file: &'a str, h: &'a HostReport, trusted: Option<bool>) -> HostCheck<'a> {
    HostCheck {
        file,
        status: h.status.as_str(),
        listed: &h.listed,
        missing: &h.missing,
        stale: &h.stale,
        action: h.action.as_deref(),
        trusted,
    }
}

fn model<'a>(i: &'a Inspection, r: &'a Doctor) -> VisibilityDoctor<'a> {
    VisibilityDoctor {
        workspace: i.root.to_string_lossy().into_owned(),
        block_found: i.block_found,
        ok: r.ok,
        sources: i
            .sources
            .iter()
            .map(|s| SourceSight {
                alias: &s.source.alias,
                path: &s.source.path,
                resolved_path: &s.resolved,
                exists: s.exists,
                external: s.external,
                claude: if s.external {
                    i.claude.names(&s.resolved)
                } else {
                    None
                },
                codex: if s.external {
                    i.codex.names(&s.resolved)
                } else {
                    None
                },
            })
            .collect(),
        hosts: DoctorHosts {
            claude: host_check(CLAUDE_FILE, &r.claude, None),
            codex: host_check(CODEX_FILE, &r.codex, Some(r.trusted)),
            warp: Skipped::because(WARP_REASON),
        },
        gitignore: GitignoreCheck {
            status: r.gitignore,
            missing: &i.gitignore_missing,
        },
        action: &r.action,
    }
}

/// Runs the command.
pub fn run(args: &DoctorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    if args.global {
        return Err(super::global_refused("visibility doctor"));
    }
    let ws = cx.workspace()?;
    let inspection = inspect(&ws)?;
    let r = report(&inspection);
    let drift = r.drift();
    let model = model(&inspection, &r);
    Ok(match (style.format, drift) {
        (Format::Json, None) => Outcome::json(&model),
        // A script gates on the exit code: drift is exit 1 with the reference's code, and the
        // whole report beside the action.
        (Format::Json, Some(message)) => {
            let report = serde_json::to_value(&model).unwrap_or_default();
            let mut f = Failure::new(ErrorCode::VisibilityDrift, message, r.action.clone());
            if let Value::Object(mut m) = report {
                m.shift_remove("action");
                f = f.with_data(|d| d.report = Some(m));
            }
            return Err(f);
        }
        (Format::Human, drift) => {
            Outcome::shown(&model, &style).with_exit(if drift.is_some() { 1 } else { 0 })
        }
    })
}
