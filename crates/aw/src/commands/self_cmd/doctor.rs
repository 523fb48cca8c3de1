//! `aw self doctor`: is `aw` on PATH, which hosts are present, what aw installed where and at
//! which version, and what is stale (files of an older install, files missing, hooks absent).

use super::{VERSION, home, host_plan};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::install::host::HOSTS;
use aw_core::install::plan::{Action, Parts};
use aw_workspace::install::{host_present, inspect_install, installed_version, on_path};
use clap::Args;
use serde_json::{Value, json};

/// Arguments of `aw self doctor`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check aw's installation, read-only: whether `aw` is on PATH (hooks and commands \
call it by that name), which hosts are present under HOME, and per host whether aw is \
installed, at which version (from the marker), and what differs from what this aw would install: \
missing files, outdated files, stale files of an older install, files of yours in aw's way, and \
whether the hooks are in place.\n\n\
Verdict per host: ok (installed and current), outdated (run `aw self install --target <host>`), \
not-installed, absent (no host folder). JSON: {aw_on_path, version, hosts: [...], ok}."
)]
pub struct DoctorArgs {}

/// Runs `aw self doctor`.
pub fn run(_args: &DoctorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let home = home(cx)?;
    let aw = on_path("aw");
    let mut hosts = Vec::new();
    for h in HOSTS {
        let present = host_present(&home, h);
        let version = installed_version(&home, h);
        let mut entry = json!({
            "id": h.id,
            "present": present,
            "installed_version": version,
        });
        if version.is_some() {
            let plan = host_plan(h, Parts::default(), &home);
            match inspect_install(&home, plan) {
                Ok(hi) => {
                    let of = |a: Action| -> Vec<String> {
                        hi.steps
                            .iter()
                            .filter(|s| s.action == a)
                            .map(|s| super::shown(&home, &s.rel))
                            .collect()
                    };
                    let hooks = hi.settings.as_ref().map(|s| s.merge.text.is_none());
                    let (missing, outdated, conflicts) =
                        (of(Action::Create), of(Action::Update), of(Action::Conflict));
                    let stale: Vec<String> =
                        hi.stale.iter().map(|r| super::shown(&home, r)).collect();
                    let current = missing.is_empty()
                        && outdated.is_empty()
                        && stale.is_empty()
                        && hooks != Some(false);
                    entry["verdict"] = json!(if current { "ok" } else { "outdated" });
                    entry["missing"] = json!(missing);
                    entry["outdated"] = json!(outdated);
                    entry["stale"] = json!(stale);
                    entry["foreign_in_the_way"] = json!(conflicts);
                    entry["hooks_in_place"] = json!(hooks);
                }
                Err(e) => {
                    entry["verdict"] = json!("outdated");
                    entry["problem"] = json!(e.to_string());
                }
            }
        } else {
            entry["verdict"] = json!(if present { "not-installed" } else { "absent" });
        }
        hosts.push(entry);
    }
    let ok = aw.is_some() && hosts.iter().all(|h| h["verdict"] != "outdated");
    let model = json!({
        "ok": true,
        "healthy": ok,
        "version": VERSION,
        "aw_on_path": aw.map(|p| p.to_string_lossy().into_owned()),
        "home": home.to_string_lossy(),
        "hosts": hosts,
    });
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(human(&model)),
    })
}

fn human(model: &Value) -> String {
    let mut out = format!(
        "aw {} · on PATH: {}\n",
        model["version"].as_str().unwrap_or(""),
        model["aw_on_path"]
            .as_str()
            .unwrap_or("no (hooks and commands call `aw`: put it on PATH)")
    );
    for h in model["hosts"].as_array().into_iter().flatten() {
        let v = h["installed_version"]
            .as_str()
            .map_or_else(String::new, |v| format!(" · aw {v}"));
        out.push_str(&format!(
            "  {:<9} {}{v}\n",
            h["id"].as_str().unwrap_or(""),
            h["verdict"].as_str().unwrap_or("")
        ));
        for key in ["missing", "outdated", "stale", "foreign_in_the_way"] {
            for p in h[key].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "            {key}: {}\n",
                    p.as_str().unwrap_or("")
                ));
            }
        }
        if h["hooks_in_place"] == false {
            out.push_str("            hooks: not in place\n");
        }
        if matches!(h["verdict"].as_str(), Some("outdated" | "not-installed")) {
            out.push_str(&format!(
                "            next: aw self install --target {}\n",
                h["id"].as_str().unwrap_or("")
            ));
        }
    }
    clean_lines(&out).into_owned()
}
