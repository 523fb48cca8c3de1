//! `aw self doctor`: which `aw` is on PATH (this one, the reference's, another build), which
//! hosts are present, what aw installed where and at which version, and what is wrong: files
//! missing or stale, files the person edited (kept), hooks absent or naming a program that is
//! gone, and the reference's install left beside aw's (its files, its hooks, each event that
//! would run twice).

use super::{VERSION, home, host_plan, lock, program};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::install::hooks::HookSurvey;
use aw_core::install::host::{HOSTS, Host};
use aw_core::install::plan::{Action, Parts};
use aw_workspace::install::{
    HostInstall, Program, Snapshot, every_on_path, hook_survey, host_present, inspect_install,
    installed_version, program_runs, which_program,
};
use clap::Args;
use serde_json::{Value, json};
use std::path::Path;

// Arguments of `aw self doctor`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check aw's installation, read-only: which `aw` is on PATH (the first one is what \
commands the agent runs call) and which program each is (this aw, the reference's Node.js `aw`, \
another native build), which hosts are present under HOME, and per host whether aw is \
installed, at which version (from the marker), and what differs from what this aw would install: \
missing files, outdated files, stale files of an older install, files you edited since aw wrote \
them (kept: they are yours), files of yours in aw's way, whether the hooks are in place and the \
program they run still exists, hooks of aw's whose command you edited (edited_hooks: yours, no \
fault), each event whose hook would run twice (duplicate_hooks: a fault), and what the \
reference's own install left in aw's places (its files, its hooks).\n\n\
Verdict per host: ok (installed and current), outdated (run `aw self install --target <host>`, \
which also replaces what the reference left), not-installed, absent (no host folder). \
JSON: {aw_on_path, aw_on_path_is, aws_on_path, version, hosts: [...], healthy}."
)]
pub struct DoctorArgs {}

/// Runs `aw self doctor`.
pub fn run(_args: &DoctorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let home = home(cx)?;
    let program = program();
    let aws: Vec<Value> = every_on_path("aw")
        .into_iter()
        .map(|p| json!({ "path": p.to_string_lossy(), "program": which_program(&p).as_str() }))
        .collect();
    let first_is = aws.first().map(|a| a["program"].clone());
    let all: Vec<&'static Host> = HOSTS.iter().collect();
    let _locks = lock(&home, &all, true)?;
    let mut snap = Snapshot::new(&home);
    let mut hosts = Vec::new();
    for h in HOSTS {
        hosts.push(host_entry(&home, &mut snap, h, &program));
    }
    let reference_first = first_is
        .as_ref()
        .is_some_and(|p| p == Program::Reference.as_str());
    let healthy =
        !aws.is_empty() && !reference_first && hosts.iter().all(|h| h["verdict"] != "outdated");
    let model = json!({
        "ok": true,
        "healthy": healthy,
        "version": VERSION,
        "program": program,
        "aw_on_path": aws.first().map(|a| a["path"].clone()),
        "aw_on_path_is": first_is,
        "aws_on_path": aws,
        "agent_workflow_on_path": aw_workspace::install::on_path("agent-workflow").map(|p| p.to_string_lossy().into_owned()),
        "home": home.to_string_lossy(),
        "hosts": hosts,
    });
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(human(&model)),
    })
}

fn host_entry(home: &Path, snap: &mut Snapshot, h: &'static Host, program: &str) -> Value {
    let present = host_present(snap, h);
    let version = installed_version(snap, h);
    let mut entry = json!({
        "id": h.id,
        "present": present,
        "installed_version": version,
    });
    if !present && version.is_none() {
        entry["verdict"] = json!("absent");
        return entry;
    }
    let plan = host_plan(h, Parts::default(), home, program);
    let hi = match inspect_install(snap, plan, VERSION) {
        Ok(hi) => hi,
        Err(e) => {
            entry["verdict"] = json!(if version.is_some() {
                "outdated"
            } else {
                "not-installed"
            });
            entry["problem"] = json!(e.to_string());
            return entry;
        }
    };
    let shown = |r: &str| super::shown(home, r);
    let survey = hook_survey(snap, h, program);
    let reference = reference_of(home, survey.as_ref(), &hi);
    // The reference's hooks count against the verdict only when an install would take them
    // out: one aw has no equivalent for stays while the reference is on PATH.
    let reference_hooks = match &hi.settings {
        Some(st) => !st.merge.reference_removed.is_empty(),
        None => reference["hooks"].as_array().is_some_and(|a| !a.is_empty()),
    };
    let has_reference =
        reference["files"].as_array().is_some_and(|a| !a.is_empty()) || reference_hooks;
    entry["reference"] = reference;
    if version.is_none() {
        entry["verdict"] = json!("not-installed");
        return entry;
    }
    let of = |a: Action| -> Vec<String> {
        hi.steps
            .iter()
            .filter(|s| s.action == a)
            .map(|s| shown(&s.rel))
            .collect()
    };
    // Every entry of aw's there as aw writes it (the reference's beside them are counted apart).
    let hooks = hi.settings.as_ref().map(|s| s.merge.added.is_empty());
    let (missing, outdated, conflicts) =
        (of(Action::Create), of(Action::Update), of(Action::Conflict));
    let mut edited = of(Action::Edited);
    edited.extend(hi.edited.iter().map(|r| shown(r)));
    let stale: Vec<String> = hi.stale.iter().map(|f| shown(&f.rel)).collect();
    let duplicates = survey.as_ref().map(|s| s.duplicates()).unwrap_or_default();
    // Every program aw's hooks run, edited hooks' included: a gone one fails at every trigger.
    let programs: Vec<String> = survey
        .as_ref()
        .map(HookSurvey::programs)
        .unwrap_or_default();
    let gone: Vec<&String> = programs.iter().filter(|p| !program_runs(p)).collect();
    // Each pair of aw's handlers that fire for one trigger, and whether install takes one out
    // (two exact copies of aw's own entry); else both are the person's, named for them to choose.
    let overlaps: Vec<Value> = survey
        .as_ref()
        .map(|s| {
            s.overlaps()
                .iter()
                .map(|o| {
                    let entry = |r: &aw_core::install::hooks::SurveyRun| {
                        json!({ "entry": r.entry, "matcher": r.matcher, "command": r.command })
                    };
                    json!({
                        "event": o.first.event,
                        "entries": [entry(&o.first), entry(&o.second)],
                        "fix": if o.install_removes { "install" } else { "by-hand" },
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let current = missing.is_empty()
        && outdated.is_empty()
        && stale.is_empty()
        && hooks != Some(false)
        && gone.is_empty()
        && duplicates.is_empty()
        && !has_reference;
    entry["verdict"] = json!(if current { "ok" } else { "outdated" });
    entry["missing"] = json!(missing);
    entry["outdated"] = json!(outdated);
    entry["stale"] = json!(stale);
    entry["edited"] = json!(edited);
    entry["foreign_in_the_way"] = json!(conflicts);
    entry["hooks_in_place"] = json!(hooks);
    entry["hook_programs"] = json!(programs);
    entry["hook_programs_missing"] = json!(gone);
    entry["duplicate_hooks"] = json!(duplicates);
    entry["duplicate_entries"] = json!(overlaps);
    entry["edited_hooks"] = survey
        .as_ref()
        .map(|s| {
            s.edited
                .iter()
                .map(|(e, c)| json!({ "event": e, "command": c }))
                .collect()
        })
        .unwrap_or_else(|| json!([]));
    entry
}

/// What the reference's own install left in this host's places.
fn reference_of(home: &Path, survey: Option<&HookSurvey>, hi: &HostInstall) -> Value {
    let hooks = survey.map(|s| s.reference.clone()).unwrap_or_default();
    json!({
        "files": hi.reference.iter().map(|r| super::shown(home, &r.rel)).collect::<Vec<_>>(),
        "hooks": hooks,
        "outside": hi.reference_outside.iter().map(|(r, what)| json!({ "path": super::shown(home, r), "note": what })).collect::<Vec<_>>(),
    })
}

fn human(model: &Value) -> String {
    let which = |p: &str| match p {
        "this-aw" => "this aw",
        "reference" => {
            "the reference's (Workline) aw: commands the agent runs would reach it, not this aw"
        }
        "other-native" => "another native program: another aw build, or something else named aw",
        _ => "a script or other program named aw",
    };
    let mut out = format!("aw {}\n", model["version"].as_str().unwrap_or(""));
    let aws = model["aws_on_path"].as_array().cloned().unwrap_or_default();
    if aws.is_empty() {
        out.push_str(
            "  on PATH: no aw (the commands the agent runs call `aw`: put this aw on PATH)\n",
        );
    }
    for (i, a) in aws.iter().enumerate() {
        out.push_str(&format!(
            "  {} {} · {}\n",
            if i == 0 { "on PATH:" } else { "   also:" },
            a["path"].as_str().unwrap_or(""),
            which(a["program"].as_str().unwrap_or(""))
        ));
    }
    if let Some(p) = model["agent_workflow_on_path"].as_str() {
        out.push_str(&format!("  the reference is on PATH too: {p}\n"));
    }
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
        for p in h["edited"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "            edited (yours now, kept): {}\n",
                p.as_str().unwrap_or("")
            ));
        }
        if h["hooks_in_place"] == false {
            out.push_str("            hooks: not in place\n");
        }
        for p in h["hook_programs_missing"].as_array().into_iter().flatten() {
            let p = p.as_str().unwrap_or("");
            out.push_str(&format!(
                "            hooks run {p}, which is no longer there\n"
            ));
            for e in h["edited_hooks"].as_array().into_iter().flatten() {
                let command = e["command"].as_str().unwrap_or("");
                if aw_core::install::hooks::split_command(command).is_some_and(|(q, _)| q == p) {
                    out.push_str(&format!(
                        "            your edited {} hook `{command}` runs it: install keeps it as it is (yours), so change its program by hand\n",
                        e["event"].as_str().unwrap_or("")
                    ));
                }
            }
        }
        for e in h["edited_hooks"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "            edited hook (yours now, kept): {} `{}`\n",
                e["event"].as_str().unwrap_or(""),
                e["command"].as_str().unwrap_or("")
            ));
        }
        let pairs = h["duplicate_entries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for e in h["duplicate_hooks"].as_array().into_iter().flatten() {
            let e = e.as_str().unwrap_or("");
            let here: Vec<&Value> = pairs.iter().filter(|p| p["event"] == e).collect();
            if here.is_empty() {
                out.push_str(&format!(
                    "            {e} runs twice (aw's hook beside the reference's equivalent; aw self install takes the reference's out)\n"
                ));
            }
            for p in here {
                let shown = |x: &Value| {
                    format!(
                        "entry {} (matcher {}, `{}`)",
                        x["entry"],
                        x["matcher"]
                            .as_str()
                            .map_or_else(|| "none".to_owned(), |m| format!("\"{m}\"")),
                        x["command"].as_str().unwrap_or("")
                    )
                };
                let (a, b) = (shown(&p["entries"][0]), shown(&p["entries"][1]));
                if p["fix"] == "install" {
                    out.push_str(&format!(
                        "            {e} runs twice: {a} and {b} are copies of aw's entry; aw self install takes the second out\n"
                    ));
                } else {
                    out.push_str(&format!(
                        "            {e} runs twice: {a} and {b} fire for the same trigger; both are yours (tuned or edited), so aw keeps both: remove one of them by hand\n"
                    ));
                }
            }
        }
        let r = &h["reference"];
        for p in r["files"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "            the reference's: {}\n",
                p.as_str().unwrap_or("")
            ));
        }
        for e in r["hooks"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "            the reference's hook: {}\n",
                e.as_str().unwrap_or("")
            ));
        }
        for o in r["outside"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "            the reference's, left outside: {} ({})\n",
                o["path"].as_str().unwrap_or(""),
                o["note"].as_str().unwrap_or("")
            ));
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
