//! `aw family sandbox [--project <dir>] [--member <dir>]…`: the sandbox-lane advice, the egress
//! hosts and writable state dirs the family members whose review wrapper is wired need, and the
//! recipe fingerprint the kit keys its acknowledgement by.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::capability::inventory::skill_roots;
use aw_core::family::sandbox::{Recipe, merge_hosts, recipe, resolve_writable_dir};
use aw_core::family::wiring::{ClaudeWiring, wiring};
use aw_manifest::sandbox_view_of;
use aw_workspace::family::{acks_text, claude_settings_files};
use aw_workspace::install::on_path;
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use aw_workspace::skill::{member_dirs, resolve_arg};
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;

/// Arguments of `aw family sandbox`.
#[derive(Debug, Args)]
#[command(
    long_about = "Advise the sandbox lane: the egress hosts (`networkHosts`) and writable state \
dirs (`writableDirs`) the family members declare, and the 16-hex recipe fingerprint the family \
kit keys its acknowledgement by (the same value, byte for byte).\n\nMembers are the skill folders \
holding a capability.json under the hosts' standard skill roots (the project's, then the home's), \
or the folders given with --member. As in the kit, a member counts only when its review wrapper \
(`roles.review.cmd`) is wired into the project: listed in `sandbox.excludedCommands` of \
.claude/settings*.json, on PATH, and allowed by a `Bash(<cmd> code:*)` rule there. --all counts \
every member instead (that fingerprint is not the kit's unless every wrapper is wired).\n\nA \
writable dir resolves as the wrappers do: its env var when set and non-empty (`~`, `~/…` and \
absolute values as given, anything else relative to the project), else the default as written. \
The recipe is acknowledged when docs/ai/acks.json holds its fingerprint under `sandboxLaneAck`.\n\n\
JSON (when piped): {projectRoot, scope, members[{dir, name, reviewCmd, wiring{excluded, onPath, \
allowed} | null, counted, hosts, dirs[{env, default, resolved, from}]}], skipped[{dir, reason}], \
settingsSkipped[{path, reason}], hosts, dirs, fingerprint, acknowledged}."
)]
pub struct SandboxArgs {
    /// The project root relative writable dirs resolve against (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub project: Option<String>,
    /// A member's skill folder to read instead of scanning the skill roots (repeatable).
    #[arg(long = "member", value_name = "SKILL_DIR")]
    pub members: Vec<String>,
    /// Count every member, wired or not.
    #[arg(long)]
    pub all: bool,
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
    let dirs: Vec<PathBuf> = if args.members.is_empty() {
        member_dirs(&skill_roots(&project, home.as_deref()))
    } else {
        args.members.iter().map(|m| resolve_arg(&cwd, m)).collect()
    };
    let root = project.to_string_lossy().into_owned();
    let mut claude = ClaudeWiring::default();
    let mut settings_skipped = Vec::new();
    for (path, text) in claude_settings_files(&project) {
        if let Err(why) = text.and_then(|t| claude.add(&t)) {
            settings_skipped.push(json!({"path": path.to_string_lossy(), "reason": why}));
        }
    }
    let mut members = Vec::new();
    let mut skipped = Vec::new();
    let mut all_hosts: Vec<String> = Vec::new();
    let mut all_dirs: Vec<String> = Vec::new();
    for dir in &dirs {
        let shown = dir.to_string_lossy().into_owned();
        let read = member(&shown)
            .and_then(|m| sandbox_view_of(&m.text).map_err(|why| malformed(&m, &why)));
        let view = match read {
            Ok(r) => r,
            Err(f) => {
                skipped.push(json!({"dir": shown, "reason": f.message}));
                continue;
            }
        };
        if view.hosts.is_empty() && view.dirs.is_empty() {
            continue;
        }
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
    let home_text = home.as_ref().map(|h| h.to_string_lossy().into_owned());
    let any_counted = members.iter().any(|m| m["counted"] == true);
    let recipe = any_counted.then(|| recipe(hosts, all_dirs, home_text.as_deref()));
    let acknowledged = recipe.as_ref().map(|r| {
        acks_text(&project)
            .is_some_and(|t| aw_core::family::wiring::acknowledged(&t, &r.fingerprint))
    });
    let scope = if args.all { "all" } else { "wired" };
    Ok(match style.format {
        Format::Json => Outcome::json(json!({
            "projectRoot": root,
            "scope": scope,
            "members": members,
            "skipped": skipped,
            "settingsSkipped": settings_skipped,
            "hosts": recipe.as_ref().map(|r| r.hosts.clone()).unwrap_or_default(),
            "dirs": recipe.as_ref().map(|r| r.dirs.clone()).unwrap_or_default(),
            "fingerprint": recipe.as_ref().map(|r| r.fingerprint.clone()),
            "acknowledged": acknowledged,
        })),
        Format::Human => {
            let view = HumanView {
                recipe: recipe.as_ref(),
                acknowledged: acknowledged.unwrap_or(false),
                members: &members,
                skipped: &skipped,
                settings_skipped: &settings_skipped,
            };
            Outcome::text(clean_lines(&human(&view)).into_owned())
        }
    })
}

struct HumanView<'a> {
    recipe: Option<&'a Recipe>,
    acknowledged: bool,
    members: &'a [Value],
    skipped: &'a [Value],
    settings_skipped: &'a [Value],
}

fn human(v: &HumanView<'_>) -> String {
    let mut out = String::new();
    let name = |m: &Value| -> String {
        m["name"]
            .as_str()
            .or(m["dir"].as_str())
            .unwrap_or("?")
            .to_owned()
    };
    match v.recipe {
        None if v.members.is_empty() => {
            out.push_str("no family member declares egress hosts or writable dirs\n")
        }
        None => {
            out.push_str(
                "no review wrapper is wired into this project, so there is no sandbox-lane \
                 advice (wired: in sandbox.excludedCommands, on PATH, allowed by \
                 Bash(<cmd> code:*))\n",
            );
            for m in v.members {
                out.push_str(&format!("  {}: {}\n", name(m), wiring_line(m)));
            }
            out.push_str("--all shows the recipe for every member, wired or not\n");
        }
        Some(r) => {
            out.push_str(&format!(
                "egress hosts [{}]; writable state dirs [{}]\n",
                r.hosts.join(", "),
                r.dirs.join(", ")
            ));
            let ack = if v.acknowledged {
                "acknowledged in docs/ai/acks.json"
            } else {
                "not acknowledged in docs/ai/acks.json"
            };
            out.push_str(&format!("recipe fingerprint: {} ({ack})\n", r.fingerprint));
            let counted: Vec<String> = v
                .members
                .iter()
                .filter(|m| m["counted"] == true)
                .map(name)
                .collect();
            out.push_str(&format!("from: {}\n", counted.join(", ")));
            for m in v.members.iter().filter(|m| m["counted"] != true) {
                out.push_str(&format!("not counted {}: {}\n", name(m), wiring_line(m)));
            }
        }
    }
    for s in v.skipped {
        out.push_str(&format!(
            "skipped {}: {}\n",
            s["dir"].as_str().unwrap_or("?"),
            s["reason"].as_str().unwrap_or("?")
        ));
    }
    for s in v.settings_skipped {
        out.push_str(&format!(
            "unreadable Claude Code settings {}: {}\n",
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
