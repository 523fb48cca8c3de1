//! `aw self detect-hosts`: which hosts of the host table have their folder under HOME.

use super::{home, lock};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::install::host::HOSTS;
use aw_workspace::install::{Snapshot, host_present, installed_version};
use clap::Args;
use serde_json::{Value, json};

// Arguments of `aw self detect-hosts`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the agent hosts aw installs into (claude, codex, gemini, opencode) and the \
shared agents folder, each with whether its folder (~/.claude, ~/.codex, ~/.gemini, ~/.opencode, \
~/.agents) exists under HOME and which aw version installed its `w` skill, if any. Read-only.\n\n\
JSON: {home, hosts: [{id, is_host, present, folder, installed_version}], present: [ids]}."
)]
pub struct DetectHostsArgs {}

/// Runs `aw self detect-hosts`.
pub fn run(_args: &DetectHostsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let home = home(cx)?;
    let all: Vec<&'static aw_core::install::host::Host> = HOSTS.iter().collect();
    let _locks = lock(&home, &all, true)?;
    let mut snap = Snapshot::new(&home);
    let mut hosts: Vec<Value> = Vec::new();
    let mut present: Vec<&str> = Vec::new();
    for h in HOSTS {
        let here = host_present(&mut snap, h);
        if h.is_host && here {
            present.push(h.id);
        }
        hosts.push(json!({
            "id": h.id,
            "is_host": h.is_host,
            "present": here,
            "folder": home.join(h.root).to_string_lossy(),
            "installed_version": installed_version(&mut snap, h),
        }));
    }
    let model =
        json!({ "ok": true, "home": home.to_string_lossy(), "hosts": hosts, "present": present });
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => {
            let mut out = String::new();
            for h in model["hosts"].as_array().into_iter().flatten() {
                let state = if h["present"] == true {
                    "present"
                } else {
                    "absent"
                };
                let installed = h["installed_version"].as_str().map_or_else(
                    || "aw not installed".to_owned(),
                    |v| format!("aw {v} installed"),
                );
                out.push_str(&format!(
                    "{:<9} {:<8} {} · {}\n",
                    h["id"].as_str().unwrap_or(""),
                    state,
                    h["folder"].as_str().unwrap_or(""),
                    installed
                ));
            }
            Outcome::text(clean_lines(&out).into_owned())
        }
    })
}
