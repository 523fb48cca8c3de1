//! `aw family sandbox [--project <dir>] [--member <dir>]…`: the sandbox-lane advice, the egress
//! hosts and writable state dirs the family members whose review wrapper is wired need, and the
//! recipe fingerprint the kit keys its acknowledgement by.

use super::read::{malformed, malformed_at, member};
use super::survey::{roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::family::State;
use aw_core::family::roster::BRIDGE_KIND;
use aw_core::family::sandbox::{Recipe, merge_hosts, recipe, resolve_writable_dir};
use aw_core::family::wiring::{Ack, ClaudeWiring, SETTINGS_FILES, acknowledgement, wiring};
use aw_manifest::Class;
use aw_manifest::sandbox_view_of;
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::family::{acks_text, claude_settings_files, read_copy};
use aw_workspace::install::on_path;
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use clap::Args;
use serde_json::{Value, json};
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
) -> Result<(Vec<Bridge>, Vec<Value>), Failure> {
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
                skipped.push(json!({
                    "dir": dir.to_string_lossy(),
                    "reason": format!("its manifest does not validate: {first}"),
                }));
            }
        }
        return Ok((dirs, skipped));
    }
    let (cwd, roots) = roots(&[], cx)?;
    let mut bridges: Vec<_> = survey(&cwd, &roots, cx)
        .into_iter()
        .filter(|s| s.member.kind == BRIDGE_KIND)
        .collect();
    // The kit walks its bundle folder, so the bridges come in name order.
    bridges.sort_by_key(|s| s.member.name);
    let mut dirs = Vec::new();
    for s in &bridges {
        let Some(copy) = s.primary() else { continue };
        if copy.class.state == State::Ok {
            dirs.push((copy.dir.clone(), copy.copy.text()));
        } else {
            skipped.push(json!({
                "dir": copy.dir.to_string_lossy(),
                "reason": format!(
                    "{} is {}{}",
                    s.member.name,
                    copy.class.state.label(),
                    copy.class.reason.as_ref().map_or(String::new(), |r| format!(": {r}"))
                ),
            }));
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
        for why in problems {
            settings_skipped.push(json!({"path": path.to_string_lossy(), "reason": why}));
        }
    }
    let mut members = Vec::new();
    let mut all_hosts: Vec<String> = Vec::new();
    let mut all_dirs: Vec<String> = Vec::new();
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
                skipped.push(json!({"dir": shown, "reason": f.message}));
                continue;
            }
        };
        let wired = view
            .review_cmd
            .as_deref()
            .map(|cmd| wiring(cmd, &claude, on_path(cmd).is_some()));
        let counted = args.all || wired.is_some_and(|w| w.wired());
        let resolved: Vec<Value> = view
            .dirs
            .iter()
            .map(|d| {
                let env = d.env.as_deref().and_then(env_value);
                let path = resolve_writable_dir(env.as_deref(), &d.default, &root);
                let from = if env.is_some_and(|e| !e.is_empty()) {
                    "env"
                } else {
                    "default"
                };
                if counted {
                    all_dirs.push(path.clone());
                }
                json!({"env": d.env, "default": d.default, "resolved": path, "from": from})
            })
            .collect();
        if counted {
            all_hosts.extend(view.hosts.iter().cloned());
        }
        members.push(json!({
            "dir": shown,
            "name": view.name,
            "reviewCmd": view.review_cmd,
            "wiring": wired,
            "counted": counted,
            "hosts": view.hosts,
            "dirs": resolved,
        }));
    }
    let hosts = merge_hosts(all_hosts.iter().map(String::as_str));
    let unique_dirs = merge_hosts(all_dirs.iter().map(String::as_str));
    let home_text = home.as_ref().map(|h| h.to_string_lossy().into_owned());
    let any_counted = members.iter().any(|m| m["counted"] == true);
    let recipe = any_counted.then(|| recipe(hosts, unique_dirs, home_text.as_deref()));
    let ack = recipe
        .as_ref()
        .map(|r| ack(&project, &claude, &r.fingerprint));
    let scope = if args.all { "all" } else { "wired" };
    let model = json!({
        "projectRoot": root,
        "scope": scope,
        "members": members,
        "skipped": skipped,
        "settingsSkipped": settings_skipped,
        "hosts": recipe.as_ref().map(|r| r.hosts.clone()).unwrap_or_default(),
        "dirs": recipe.as_ref().map(|r| r.dirs.clone()).unwrap_or_default(),
        "fingerprint": recipe.as_ref().map(|r| r.fingerprint.clone()),
        "acknowledged": ack.as_ref().and_then(|a| a.acknowledged),
        "ackSource": ack.as_ref().and_then(|a| a.source),
        "ackError": ack.as_ref().and_then(|a| a.error.clone()),
    });
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&human(recipe.as_ref(), &model)).into_owned()),
    })
}

/// Reads the acknowledgement as the kit does (`docs/ai/acks.json` never through a link, then
/// the older key of the Claude settings files); which one counts is the core's.
fn ack(project: &Path, claude: &ClaudeWiring, fingerprint: &str) -> Ack {
    acknowledgement(acks_text(project), &claude.legacy_acks, fingerprint)
}

fn human(recipe: Option<&Recipe>, v: &Value) -> String {
    let mut out = String::new();
    let members = v["members"].as_array().cloned().unwrap_or_default();
    let name = |m: &Value| -> String {
        m["name"]
            .as_str()
            .or(m["dir"].as_str())
            .unwrap_or("?")
            .to_owned()
    };
    match recipe {
        None if members.is_empty() => out.push_str("no family bridge is installed and ok\n"),
        None => {
            out.push_str(
                "no review wrapper is wired into this project, so there is no sandbox-lane \
                 advice (wired: named in sandbox.excludedCommands, allowed by Bash(<cmd> \
                 code:*), on PATH)\n",
            );
            for m in &members {
                out.push_str(&format!("  {}: {}\n", name(m), wiring_line(m)));
            }
            out.push_str("--all shows the recipe for every bridge, wired or not\n");
        }
        Some(r) => {
            out.push_str(&format!(
                "egress hosts [{}]; writable state dirs [{}]\n",
                r.hosts.join(", "),
                r.dirs.join(", ")
            ));
            let ack = match (&v["acknowledged"], v["ackSource"].as_str()) {
                (Value::Bool(true), Some(source)) => format!("acknowledged in {source}"),
                (Value::Bool(false), _) => "not acknowledged yet".to_owned(),
                _ => format!(
                    "acknowledgement unknown: {}",
                    v["ackError"].as_str().unwrap_or("?")
                ),
            };
            out.push_str(&format!("recipe fingerprint: {} ({ack})\n", r.fingerprint));
            let counted: Vec<String> = members
                .iter()
                .filter(|m| m["counted"] == true)
                .map(name)
                .collect();
            out.push_str(&format!("from: {}\n", counted.join(", ")));
            for m in members.iter().filter(|m| m["counted"] != true) {
                out.push_str(&format!("not counted {}: {}\n", name(m), wiring_line(m)));
            }
        }
    }
    for s in v["skipped"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "skipped {}: {}\n",
            s["dir"].as_str().unwrap_or("?"),
            s["reason"].as_str().unwrap_or("?")
        ));
    }
    for s in v["settingsSkipped"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "Claude Code settings {}: {}\n",
            s["path"].as_str().unwrap_or("?"),
            s["reason"].as_str().unwrap_or("?")
        ));
    }
    out
}

/// What a member's review wrapper lacks, in words.
fn wiring_line(m: &Value) -> String {
    let Some(cmd) = m["reviewCmd"].as_str() else {
        return "declares no review wrapper (roles.review.cmd)".to_owned();
    };
    let w = &m["wiring"];
    let mark = |k: &str| if w[k] == true { "yes" } else { "no" };
    format!(
        "{cmd} excluded from the sandbox: {}, on PATH: {}, allowed: {}",
        mark("excluded"),
        mark("onPath"),
        mark("allowed")
    )
}
