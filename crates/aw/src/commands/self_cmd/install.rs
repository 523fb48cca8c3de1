//! `aw self install --target <t> [--dry-run] [--force] [--skill-only] [--no-commands]
//! [--no-hooks]`.

use super::{TargetFlags, VERSION, home, host_plan, refused, shown};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::error_code::ErrorCode;
use aw_core::install::plan::{Action, HookPlan};
use aw_workspace::install::{
    HostInstall, HostOps, Op, apply, check_ops, inspect_install, install_ops,
};
use clap::Args;
use serde_json::{Value, json};
use std::path::Path;

/// Arguments of `aw self install`.
#[derive(Debug, Args)]
#[command(
    long_about = "Install what an agent host needs to drive aw: the `w` skill (the bundle embedded \
in aw), the `design` capability wrapper beside it, the commands in the host's own format, and \
aw's hooks where the host carries them.\n\n\
claude: ~/.claude/skills/{w,design}, ~/.claude/commands/w/<n>.md (/w:<n>), hooks merged into \
~/.claude/settings.json (backup first). codex: ~/.codex/skills/{w,design,w-<n>}, hooks as a plugin \
in ~/.codex/aw-hooks-plugin that you enable in Codex. gemini: ~/.gemini/skills/{w,design,w-<n>}, \
~/.gemini/commands/w/<n>.toml. opencode: ~/.opencode/skills/{w,design}, \
~/.opencode/command/w/<n>.md, the branch check as a plugin module in \
~/.config/opencode/plugins/aw-hooks.js. agents: ~/.agents/skills/{w,design}. `all` is every host (not \
agents).\n\n\
Every file aw writes carries a marker (`aw:installed version=…`); aw replaces and removes only \
marked files. A file of yours where aw would write refuses the install \
(INSTALL_CONFLICT_FOREIGN) unless --force, which moves it aside as <file>.aw-backup-<epoch> \
(never deleted; a skill folder of yours with the same name as aw's is moved whole, as \
<folder>.aw-backup-<epoch>). Your own hooks and settings keys are kept; aw's hook entries are recognised by \
their command, event and matcher together. A second install changes nothing (noop)."
)]
pub struct InstallArgs {
    #[command(flatten)]
    pub flags: TargetFlags,
    /// Move a file that is not aw's out of the way (to <file>.aw-backup-<epoch>) instead of
    /// refusing.
    #[arg(long)]
    pub force: bool,
}

fn epoch(cx: &Ctx<'_>) -> u64 {
    cx.now
        .system
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Runs `aw self install`.
pub fn run(args: &InstallArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let hosts = args.flags.hosts()?;
    let home = home(cx)?;
    let epoch = epoch(cx);
    let mut inspected = Vec::new();
    for host in hosts {
        let plan = host_plan(host, args.flags.parts(), &home);
        inspected.push(inspect_install(&home, plan).map_err(refused)?);
    }
    let conflicts: Vec<String> = inspected
        .iter()
        .flat_map(|hi| hi.conflicts().into_iter().map(|r| shown(&home, r)))
        .collect();
    if !conflicts.is_empty() && !args.force {
        return Err(Failure::new(
            ErrorCode::InstallConflictForeign,
            format!(
                "Nothing was written: {} path(s) where aw would write hold something aw did not install: {}.",
                conflicts.len(),
                conflicts.join(", ")
            ),
            "Move or rename them (they may be your own skill or command of the same name), or run again with --force to move each aside as <file>.aw-backup-<epoch> and install aw's.",
        )
        .with_details(json!({ "conflicts": conflicts })));
    }
    let all_ops: Vec<Vec<Op>> = inspected
        .iter()
        .map(|hi| install_ops(hi, args.force, epoch))
        .collect();
    // Every host's paths are checked before the first write of any host.
    for (hi, ops) in inspected.iter().zip(&all_ops) {
        check_ops(&home, hi.plan.host, ops).map_err(refused)?;
    }
    if !args.flags.dry_run {
        // One transaction over every host: a failure on the last undoes the first.
        let hosts: Vec<HostOps<'_>> = inspected
            .iter()
            .zip(&all_ops)
            .map(|(hi, ops)| HostOps {
                host: hi.plan.host,
                ops,
                managed: &hi.plan.managed,
            })
            .collect();
        apply(&home, &hosts).map_err(refused)?;
    }
    let reports: Vec<Value> = inspected
        .iter()
        .zip(&all_ops)
        .map(|(hi, ops)| report(&home, hi, ops, args.flags.dry_run))
        .collect();
    let model = json!({
        "ok": true,
        "dry_run": args.flags.dry_run,
        "home": home.to_string_lossy(),
        "version": VERSION,
        "targets": reports,
    });
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(human(&model, style.detail)),
    })
}

fn report(home: &Path, hi: &HostInstall, ops: &[Op], dry_run: bool) -> Value {
    let status = if dry_run {
        "dry-run"
    } else if hi.is_noop() {
        "noop"
    } else {
        "installed"
    };
    let files: Vec<Value> = hi
        .steps
        .iter()
        .map(|s| json!({ "path": shown(home, &s.rel), "action": s.action.as_str() }))
        .collect();
    let folders = hi.foreign_skill_folders();
    let moved: Vec<Value> = ops
        .iter()
        .filter_map(|op| match op {
            Op::MoveAside { rel, to } => {
                let kind = if folders.contains(&rel.as_str()) {
                    "skill-folder"
                } else {
                    "entry"
                };
                Some(json!({ "path": shown(home, rel), "to": shown(home, to), "kind": kind }))
            }
            _ => None,
        })
        .collect();
    let moved_folders: Vec<&str> = ops
        .iter()
        .filter_map(|op| match op {
            Op::MoveAside { rel, .. } if folders.contains(&rel.as_str()) => Some(rel.as_str()),
            _ => None,
        })
        .collect();
    let under_moved = |rel: &str| {
        moved_folders
            .iter()
            .any(|f| rel.strip_prefix(f).is_some_and(|r| r.starts_with('/')))
    };
    let hooks = match &hi.plan.hooks {
        HookPlan::Skipped => json!({ "status": "skipped" }),
        HookPlan::Unsupported(why) => json!({ "status": "unsupported", "reason": why }),
        HookPlan::Module { path } => {
            let changed = hi
                .steps
                .iter()
                .any(|s| s.rel == *path && s.action != Action::Noop);
            json!({
                "status": if changed { "installed" } else { "noop" },
                "module": shown(home, path),
                "note": "OpenCode loads the modules of its global plugins folder by itself at start.",
                "missing_events": missing(hi),
            })
        }
        HookPlan::Plugin { dir } => {
            let changed = hi
                .steps
                .iter()
                .any(|s| s.rel.starts_with(dir.as_str()) && s.action != Action::Noop);
            json!({
                "status": if changed { "generated" } else { "noop" },
                "plugin": shown(home, dir),
                "note": "Codex arms plugin hooks only once you install this plugin in Codex and trust its hooks; aw does not enable it for you.",
                "missing_events": missing(hi),
            })
        }
        HookPlan::Settings { .. } => {
            let st = hi.settings.as_ref();
            let backup = ops.iter().find_map(|op| match op {
                Op::Backup { to, .. } => Some(shown(home, to)),
                _ => None,
            });
            json!({
                "status": if st.is_some_and(|s| s.merge.text.is_some()) { "installed" } else { "noop" },
                "file": st.map(|s| shown(home, &s.rel)),
                "backup": backup,
                "events_added": st.map(|s| s.merge.added.clone()).unwrap_or_default(),
                "events_present": st.map(|s| s.merge.present.clone()).unwrap_or_default(),
                "missing_events": missing(hi),
            })
        }
    };
    // Only when command files are part of this install (not with --skill-only or --no-commands).
    let commands = hi
        .plan
        .host
        .commands
        .filter(|c| {
            hi.plan
                .files
                .iter()
                .any(|f| f.rel.starts_with(&format!("{}/", c.dir)))
        })
        .map(|c| json!({ "dir": shown(home, c.dir), "invoked_as": c.invoked_as }));
    json!({
        "target": hi.plan.host.id,
        "status": status,
        "skill": shown(home, &format!("{}/w", hi.plan.host.skills_dir)),
        "commands": commands,
        "files": files,
        "removed_stale": hi.stale.iter().filter(|r| !under_moved(r)).map(|r| shown(home, r)).collect::<Vec<_>>(),
        "moved_aside": moved,
        "kept_foreign": hi.foreign.iter().filter(|r| !under_moved(r)).map(|r| shown(home, r)).collect::<Vec<_>>(),
        "hooks": hooks,
    })
}

fn missing(hi: &HostInstall) -> Value {
    hi.plan
        .host
        .missing_events
        .iter()
        .map(|(e, why)| json!({ "event": e, "reason": why }))
        .collect()
}

fn count(files: &Value, action: &str) -> usize {
    files
        .as_array()
        .map_or(0, |a| a.iter().filter(|f| f["action"] == action).count())
}

fn human(model: &Value, detail: bool) -> String {
    let mut out = String::new();
    let dry = if model["dry_run"] == true {
        " · dry run, nothing written"
    } else {
        ""
    };
    out.push_str(&format!(
        "aw self install {}{dry}\n",
        model["version"].as_str().unwrap_or("")
    ));
    for t in model["targets"].as_array().into_iter().flatten() {
        let files = &t["files"];
        out.push_str(&format!(
            "  {:<9} {:<9} {} new, {} updated, {} unchanged, {} stale removed\n",
            t["target"].as_str().unwrap_or(""),
            t["status"].as_str().unwrap_or(""),
            count(files, "create"),
            count(files, "update"),
            count(files, "noop"),
            t["removed_stale"].as_array().map_or(0, Vec::len),
        ));
        let h = &t["hooks"];
        let mut line = format!("            hooks: {}", h["status"].as_str().unwrap_or(""));
        for key in ["file", "plugin", "module", "backup", "reason", "note"] {
            if let Some(v) = h[key].as_str() {
                line.push_str(&format!(" · {key}: {v}"));
            }
        }
        out.push_str(&line);
        out.push('\n');
        if let Some(c) = t["commands"]["invoked_as"].as_str() {
            out.push_str(&format!(
                "            commands: {c} (in {})\n",
                t["commands"]["dir"].as_str().unwrap_or("")
            ));
        }
        for m in t["moved_aside"].as_array().into_iter().flatten() {
            let what = if m["kind"] == "skill-folder" {
                "your skill folder, whole, moved aside"
            } else {
                "moved aside"
            };
            out.push_str(&format!(
                "            {what}: {} → {}\n",
                m["path"].as_str().unwrap_or(""),
                m["to"].as_str().unwrap_or("")
            ));
        }
        if detail {
            for f in files.as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "            {:<7} {}\n",
                    f["action"].as_str().unwrap_or(""),
                    f["path"].as_str().unwrap_or("")
                ));
            }
            for r in t["removed_stale"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "            remove  {}\n",
                    r.as_str().unwrap_or("")
                ));
            }
        }
    }
    clean_lines(&out).into_owned()
}
