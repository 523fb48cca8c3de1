//! `aw family status [--root <dir>]… [--bundled <dir>] [--project <dir>]`

use super::survey::{Seen, Surveyed, roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::family::roster::BRIDGE_KIND;
use aw_core::family::{Freshness, State, compares_with_bundle, freshness};
use aw_workspace::family::{bundled_manifest, deployed_stamp, folder_exists};
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;

// Arguments of `aw family status`.
#[derive(Debug, Args)]
#[command(
    long_about = "Detect each agent-workflow family member (kit, memory, engine, the codex and \
antigravity bridges). A member's folder is where `detect.installed` points (its environment \
variable when set and non-empty, else the default with `~` and `~/` meaning HOME; `~user/…` is not \
expanded and reads relative to the current folder); that folder alone decides, as in the family's \
tools. Copies at `<root>/<name>` under the hosts' skill roots and every --root are listed too. A \
folder counts when its marker file (SKILL.md) is a regular file.\n\n\
The member is placed on the ladder not-installed → unsupported → invalid → stub → foreign → ok \
(the first that applies; the reason quotes the validator's first error), with the authoritative \
version and where it came from (package.json, else SKILL.md metadata.version). --bundled <dir> \
compares each ok bridge with `<dir>/<name>/capability.json` (freshness behind, current, unknown or \
not-checked); --project <dir> reads each member's `detect.deployed` stamp there.\n\n\
JSON (when piped): {roots, warnings, members: [{name, kind, state, reason, dir, version, versionFrom, \
installed: {env, envValue, default, via, path, note}, bundled: {dir, present, error, version, \
freshness}, deployed: {file, path, present, stamp}, copies: [{dir, found, state, reason, version, \
versionFrom}]}]}. Read-only."
)]
pub struct StatusArgs {
    /// Another skill root to search (repeatable).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// A folder of bundled member copies (`<dir>/<name>/capability.json`), e.g. a kit's `bridges/`.
    #[arg(long, value_name = "DIR")]
    pub bundled: Option<PathBuf>,
    /// A project to check the members' deployment markers in.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// Runs `aw family status`.
pub fn run(args: &StatusArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (cwd, roots) = roots(&args.roots, cx)?;
    let members: Vec<Value> = survey(&cwd, &roots, cx)
        .iter()
        .map(|s| {
            member_json(
                s,
                args.bundled.as_ref().map(|b| cwd.join(b)),
                args.project.as_ref().map(|p| cwd.join(p)),
            )
        })
        .collect();
    // A folder named on the command line that is not there is most likely a typo: say so
    // rather than report every member absent from it.
    let named = args
        .roots
        .iter()
        .map(|r| ("--root", r))
        .chain(args.bundled.iter().map(|b| ("--bundled", b)))
        .chain(args.project.iter().map(|p| ("--project", p)));
    let warnings: Vec<String> = named
        .filter(|(_, dir)| !folder_exists(&cwd.join(dir)))
        .map(|(flag, dir)| format!("{flag} {} is not a folder", dir.display()))
        .collect();
    let model = json!({
        "roots": roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>(),
        "warnings": warnings,
        "members": members,
    });
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&human(&model)).into_owned()),
    })
}

fn copy_json(seen: &Seen) -> Value {
    let ok = seen.class.state == State::Ok;
    json!({
        "dir": seen.dir.display().to_string(),
        "found": seen.found,
        "state": seen.class.state,
        "reason": seen.class.reason,
        // The version is only authoritative for a member that is what it claims to be.
        "version": if ok { seen.copy.version.version.clone() } else { None },
        "versionFrom": ok.then(|| seen.copy.version.from.label()),
    })
}

fn member_json(s: &Surveyed, bundled: Option<PathBuf>, project: Option<PathBuf>) -> Value {
    let m = s.member;
    let primary = s.primary();
    let primary_json = primary.map(copy_json).unwrap_or(Value::Null);
    let version = primary_json.get("version").cloned().unwrap_or(Value::Null);
    // The kit bundles only its bridges: another member has no bundled copy to compare with.
    let bundled = bundled.filter(|_| m.kind == BRIDGE_KIND).map(|dir| {
        let dir = dir.join(m.name);
        let read = bundled_manifest(&dir);
        let bundled_version = read
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .and_then(|sum| sum.version.clone());
        let fresh = match &read {
            _ if !compares_with_bundle(m.kind, s.state()) => Freshness::NotChecked,
            Ok(Some(_)) => freshness(version.as_str(), bundled_version.as_deref()),
            _ => Freshness::Unknown,
        };
        json!({
            "dir": dir.display().to_string(),
            "present": !matches!(read, Ok(None)),
            "error": read.as_ref().err(),
            "version": bundled_version,
            "freshness": fresh,
        })
    });
    let deployed = project.and_then(|p| {
        let file = m.deployed?;
        let stamp = deployed_stamp(&p, file);
        Some(json!({
            "file": file,
            "path": p.join(file).display().to_string(),
            "present": stamp.is_some(),
            "stamp": stamp,
        }))
    });
    let env_hint = s.env.as_deref().filter(|v| !v.is_empty());
    json!({
        "name": m.name,
        "kind": m.kind,
        "state": s.state(),
        "reason": match primary {
            Some(p) => p.class.reason.clone(),
            None => Some(match (env_hint, s.resolved.path.as_ref()) {
                (Some(v), _) => format!("no {} at {}={v} (taken as written)", m.file, m.env),
                (None, Some(path)) => format!("no {} in {}", m.file, path.display()),
                (None, None) => format!("no {} where detect.installed points", m.file),
            }),
        },
        "dir": primary.map(|p| p.dir.display().to_string()),
        "version": version,
        "versionFrom": primary_json.get("versionFrom").cloned().unwrap_or(Value::Null),
        "installed": {
            "env": m.env,
            "envValue": s.env,
            "default": m.default,
            "via": s.resolved.via,
            "path": s.resolved.path.as_ref().map(|p| p.display().to_string()),
            "note": s.resolved.note,
        },
        "bundled": bundled,
        "deployed": deployed,
        "copies": s.copies.iter().map(copy_json).collect::<Vec<_>>(),
    })
}

/// One block per member: the state line, then what else is known.
fn human(model: &Value) -> String {
    let mut out = String::new();
    let text = |v: &Value| v.as_str().unwrap_or("").to_owned();
    for w in model["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("warning: {}\n", text(w)));
    }
    for m in model["members"].as_array().into_iter().flatten() {
        let mut line = format!("{:<24} {:<13}", text(&m["name"]), text(&m["state"]));
        if let Some(v) = m["version"].as_str() {
            line.push_str(&format!(" {v} (from {})", text(&m["versionFrom"])));
        }
        if let Some(d) = m["dir"].as_str() {
            line.push_str(&format!(" {d}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if let Some(r) = m["reason"].as_str() {
            out.push_str(&format!("    reason: {r}\n"));
        }
        let state = m["state"].as_str().unwrap_or("");
        if !matches!(state, "ok" | "not-installed") {
            out.push_str(&format!(
                "    next: `aw manifest validate {}` lists every problem\n",
                text(&m["dir"])
            ));
        }
        if let Some(n) = m["installed"]["note"].as_str() {
            out.push_str(&format!("    detect.installed: {n}\n"));
        }
        if m["installed"]["via"] == "env" {
            out.push_str(&format!(
                "    detect.installed: {}={}\n",
                text(&m["installed"]["env"]),
                text(&m["installed"]["envValue"])
            ));
        }
        if m["bundled"].is_object() {
            let b = &m["bundled"];
            if let Some(e) = b["error"].as_str() {
                out.push_str(&format!(
                    "    bundled: {} cannot be read ({e}): a corrupt bundle?\n",
                    text(&b["dir"])
                ));
            } else if b["present"] == true {
                let v = b["version"].as_str().unwrap_or("no version");
                out.push_str(&format!("    bundled: {v} ({})\n", text(&b["freshness"])));
                if b["freshness"] == "behind" {
                    out.push_str(&format!(
                        "    next: refresh the installed copy from {}\n",
                        text(&b["dir"])
                    ));
                }
            } else {
                out.push_str(&format!("    bundled: no copy at {}\n", text(&b["dir"])));
            }
        }
        if m["deployed"].is_object() {
            let d = &m["deployed"];
            let state = match d["stamp"].as_str() {
                Some(stamp) => format!("present ({stamp})"),
                None => "absent".to_owned(),
            };
            out.push_str(&format!("    deployed: {} {state}\n", text(&d["file"])));
        }
        for c in m["copies"].as_array().into_iter().flatten() {
            if c["found"] != "detect-installed" {
                out.push_str(&format!(
                    "    also: {} {}\n",
                    text(&c["dir"]),
                    text(&c["state"])
                ));
            }
        }
    }
    out
}
