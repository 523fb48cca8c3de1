//! `aw family sandbox [--project <dir>] [--member <dir>]…`: the sandbox-lane advice, the egress
//! hosts and writable state dirs the family members whose review wrapper is wired need, and the
//! recipe fingerprint the kit keys its acknowledgement by.

use super::read::{malformed, malformed_at, member};
use super::survey::{roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use crate::views::View;
use aw_core::family::State;
use aw_core::family::sandbox::{bridges_in_kit_order, counts, lane_recipe, resolve_writable_dir};
use aw_core::family::wiring::{Ack, ClaudeWiring, SETTINGS_FILES, acknowledgement, wiring};
use aw_core::wire::family::{
    FamilySandbox, SandboxDir, SandboxMember, SandboxSkipped, SettingsSkipped,
};
use aw_manifest::Class;
use aw_manifest::sandbox_view_of;
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::family::{acks_text, claude_settings_files, read_copy};
use aw_workspace::install::on_path;
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use clap::Args;
use std::path::{Path, PathBuf};

// Arguments of `aw family sandbox`.
#[derive(Debug, Args)]
#[command(
    long_about = "Advise the sandbox lane: the egress hosts (`networkHosts`) and writable state \
dirs (`writableDirs`) the family's bridges declare, and the 16-hex recipe fingerprint the family \
kit keys its acknowledgement by (the same value, byte for byte, for the same bridges).\n\nThe \
bridges are the family's execution backends as `aw family status` finds them (a copy that is not \
ok is skipped, with why), or the folders given with --member (each must validate). As in the kit, \
a bridge counts only when its review wrapper (`roles.review.cmd`) is wired into the project: \
listed by name in `sandbox.excludedCommands` of .claude/settings.json, allowed by the rule \
`Bash(<cmd> code:*)` there or in .claude/settings.local.json, and on PATH. --all counts every \
bridge instead (that fingerprint is the kit's only when every wrapper is wired).\n\nA writable \
dir resolves as the wrappers do: its env var when set and non-empty (`~`, `~/…` and absolute \
values as given, anything else relative to the project), else the default as written. The recipe \
is acknowledged when docs/ai/acks.json's `sandboxLaneAck` (or the older \
`agentWorkflow.sandboxLaneAck` of those settings files) is its fingerprint.\n\n\
JSON (when piped): {projectRoot, scope, members[{dir, name, reviewCmd, wiring{excluded, onPath, \
allowed} | null, counted, hosts, dirs[{env, default, resolved, from}]}], skipped[{dir, reason}], \
settingsSkipped[{path, reason}], hosts, dirs, fingerprint, acknowledged, ackSource, ackError}."
)]
pub struct SandboxArgs {
    /// The project root relative writable dirs resolve against (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub project: Option<String>,
    /// A bridge's skill folder to read instead of the installed bridges (repeatable).
    #[arg(long = "member", value_name = "SKILL_DIR")]
    pub members: Vec<String>,
    /// Count every bridge, wired or not.
    #[arg(long)]
    pub all: bool,
}

/// A bridge folder and its manifest text, when it could be read.
type Bridge = (PathBuf, Option<String>);

/// The folders to read with their manifest text (each read once, when it was validated), and
/// the copies passed over with why.
fn bridge_dirs(
    args: &SandboxArgs,
    cwd: &Path,
    cx: &Ctx<'_>,
) -> Result<(Vec<Bridge>, Vec<SandboxSkipped>), Failure> {
    let mut skipped = Vec::new();
    if !args.members.is_empty() {
        let mut dirs = Vec::new();
        for m in &args.members {
            let dir = resolve_arg(cwd, m);
            let copy = read_copy(&dir);
            if copy.report.class == Class::Valid {
                dirs.push((dir, copy.text()));
            } else {
                let first = copy
                    .report
                    .errors
                    .first()
                    .map_or("", |e| e.message.as_str());
                skipped.push(SandboxSkipped {
                    dir: dir.to_string_lossy().into_owned(),
                    reason: format!("its manifest does not validate: {first}"),
                });
            }
        }
        return Ok((dirs, skipped));
    }
    let (cwd, roots) = roots(&[], cx)?;
    let bridges = bridges_in_kit_order(survey(&cwd, &roots, cx), |s| s.member);
    let mut dirs = Vec::new();
    for s in &bridges {
        let Some(copy) = s.primary() else { continue };
        if copy.class.state == State::Ok {
            dirs.push((copy.dir.clone(), copy.copy.text()));
        } else {
            skipped.push(SandboxSkipped {
                dir: copy.dir.to_string_lossy().into_owned(),
                reason: format!(
                    "{} is {}{}",
                    s.member.name,
                    copy.class.state.label(),
                    copy.class
                        .reason
                        .as_ref()
                        .map_or(String::new(), |r| format!(": {r}"))
                ),
            });
        }
    }
    Ok((dirs, skipped))
}

/// Runs `aw family sandbox`.
pub fn run(args: &SandboxArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let cwd = current_dir()?;
    let project = match &args.project {
        Some(p) => resolve_arg(&cwd, p),
        None => cwd.clone(),
    };
    let home = cx.home();
    let (dirs, mut skipped) = bridge_dirs(args, &cwd, cx)?;
    let root = project.to_string_lossy().into_owned();
    let mut claude = ClaudeWiring::default();
    let mut settings_skipped = Vec::new();
    for (name, path, text) in claude_settings_files(&project, &SETTINGS_FILES) {
        let problems = match text.and_then(|t| claude.add(&name, &t)) {
            Ok(problems) => problems,
            Err(why) => vec![why],
        };
        for reason in problems {
            settings_skipped.push(SettingsSkipped {
                path: path.to_string_lossy().into_owned(),
                reason,
            });
        }
    }
    let mut members = Vec::new();
    for (dir, text) in &dirs {
        let shown = dir.to_string_lossy().into_owned();
        // A copy that validated was read whole; only one that could not be read is read again,
        // for the failure that says why.
        let read = match text {
            Some(text) => sandbox_view_of(text).map_err(|why| malformed_at(dir, &why)),
            None => member(&shown)
                .and_then(|m| sandbox_view_of(&m.text).map_err(|why| malformed(&m, &why))),
        };
        let view = match read {
            Ok(r) => r,
            Err(f) => {
                skipped.push(SandboxSkipped {
                    dir: shown,
                    reason: f.message,
                });
                continue;
            }
        };
        let wiring = view
            .review_cmd
            .as_deref()
            .map(|cmd| wiring(cmd, &claude, on_path(cmd).is_some()));
        let dirs = view
            .dirs
            .into_iter()
            .map(|d| {
                let env = d.env.as_deref().and_then(env_value);
                let resolved = resolve_writable_dir(env.as_deref(), &d.default, &root);
                let from = if env.is_some_and(|e| !e.is_empty()) {
                    "env"
                } else {
                    "default"
                };
                SandboxDir {
                    env: d.env,
                    default: d.default,
                    resolved,
                    from,
                }
            })
            .collect();
        members.push(SandboxMember {
            dir: shown,
            name: view.name,
            review_cmd: view.review_cmd,
            wiring,
            counted: counts(args.all, wiring),
            hosts: view.hosts,
            dirs,
        });
    }
    let home_text = home.as_ref().map(|h| h.to_string_lossy().into_owned());
    let counted = members.iter().filter(|m| m.counted).map(|m| {
        (
            m.hosts.iter().map(String::as_str),
            m.dirs.iter().map(|d| d.resolved.as_str()),
        )
    });
    let recipe = lane_recipe(counted, home_text.as_deref());
    let ack = recipe
        .as_ref()
        .map(|r| ack(&project, &claude, &r.fingerprint));
    let (hosts, dirs, fingerprint) = match recipe {
        Some(r) => (r.hosts, r.dirs, Some(r.fingerprint)),
        None => (Vec::new(), Vec::new(), None),
    };
    let model = FamilySandbox {
        project_root: root,
        scope: if args.all { "all" } else { "wired" },
        members,
        skipped,
        settings_skipped,
        hosts,
        dirs,
        fingerprint,
        acknowledged: ack.as_ref().and_then(|a| a.acknowledged),
        ack_source: ack.as_ref().and_then(|a| a.source),
        ack_error: ack.and_then(|a| a.error),
    };
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&model.text(&style)).into_owned()),
    })
}

/// Reads the acknowledgement as the kit does (`docs/ai/acks.json` never through a link, then
/// the older key of the Claude settings files); which one counts is the core's.
fn ack(project: &Path, claude: &ClaudeWiring, fingerprint: &str) -> Ack {
    acknowledgement(acks_text(project), &claude.legacy_acks, fingerprint)
}
