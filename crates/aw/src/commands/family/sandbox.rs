//! `aw family sandbox [--project <dir>] [--member <dir>]…`: the sandbox-lane advice, the egress
//! hosts and writable state dirs the family members need, and the recipe fingerprint the kit
//! keys its acknowledgement by.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::capability::inventory::skill_roots;
use aw_core::family::sandbox::{Recipe, merge_hosts, recipe, resolve_writable_dir};
use aw_manifest::sandbox_view_of;
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
or the folders given with --member. A writable dir resolves as the wrappers do: its env var when \
set and non-empty (`~`, `~/…` and absolute values as given, anything else relative to the \
project), else the default as written.\n\nJSON (when piped): {projectRoot, members[{dir, name, \
hosts, dirs[{env, default, resolved, from}]}], skipped[{dir, reason}], hosts, dirs, fingerprint}."
)]
pub struct SandboxArgs {
    /// The project root relative writable dirs resolve against (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub project: Option<String>,
    /// A member's skill folder to read instead of scanning the skill roots (repeatable).
    #[arg(long = "member", value_name = "SKILL_DIR")]
    pub members: Vec<String>,
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
                all_dirs.push(path.clone());
                json!({"env": d.env, "default": d.default, "resolved": path, "from": from})
            })
            .collect();
        all_hosts.extend(view.hosts.iter().cloned());
        members
            .push(json!({"dir": shown, "name": view.name, "hosts": view.hosts, "dirs": resolved}));
    }
    let hosts = merge_hosts(all_hosts.iter().map(String::as_str));
    let home_text = home.as_ref().map(|h| h.to_string_lossy().into_owned());
    let recipe = (!members.is_empty()).then(|| recipe(hosts, all_dirs, home_text.as_deref()));
    Ok(match style.format {
        Format::Json => Outcome::json(json!({
            "projectRoot": root,
            "members": members,
            "skipped": skipped,
            "hosts": recipe.as_ref().map(|r| r.hosts.clone()).unwrap_or_default(),
            "dirs": recipe.as_ref().map(|r| r.dirs.clone()).unwrap_or_default(),
            "fingerprint": recipe.as_ref().map(|r| r.fingerprint.clone()),
        })),
        Format::Human => {
            Outcome::text(clean_lines(&human(recipe.as_ref(), &members, &skipped)).into_owned())
        }
    })
}

fn human(recipe: Option<&Recipe>, members: &[Value], skipped: &[Value]) -> String {
    let mut out = String::new();
    match recipe {
        None => out.push_str("no family member declares egress hosts or writable dirs\n"),
        Some(r) => {
            out.push_str(&format!(
                "egress hosts [{}]; writable state dirs [{}]\n",
                r.hosts.join(", "),
                r.dirs.join(", ")
            ));
            out.push_str(&format!("recipe fingerprint: {}\n", r.fingerprint));
            let names: Vec<&str> = members
                .iter()
                .map(|m| m["name"].as_str().or(m["dir"].as_str()).unwrap_or("?"))
                .collect();
            out.push_str(&format!("from: {}\n", names.join(", ")));
        }
    }
    for s in skipped {
        out.push_str(&format!(
            "skipped {}: {}\n",
            s["dir"].as_str().unwrap_or("?"),
            s["reason"].as_str().unwrap_or("?")
        ));
    }
    out
}
