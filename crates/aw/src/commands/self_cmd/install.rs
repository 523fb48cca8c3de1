//! `aw self install --target <t> [--dry-run] [--force] [--skill-only] [--no-commands]
//! [--no-hooks]`.

use super::{TargetFlags, VERSION, home, host_plan, lock, program, refused, shown};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::install::hooks::HookMerge;
use aw_core::install::plan::{Action, HookPlan};
use aw_core::wire::self_cmd::{
    InstallCommands, InstallFile, InstallHooks, InstallReference, InstallTarget, MissingEvent,
    ModuleHooks, MovedAside, NamedHook, PluginHooks, ReferenceConfig, ReferenceOutside,
    SelfFailureDetails, SelfInstall, SettingsHooks, SkippedHooks, UnsupportedHooks,
};
use aw_workspace::install::{
    HostInstall, HostOps, Op, Snapshot, apply, check_ops, inspect_install, install_ops,
    planned_backup_removals, planned_backups,
};
use clap::Args;
use std::path::{Path, PathBuf};

// Arguments of `aw self install`.
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
Every file aw writes carries a marker (`aw:installed version=… sha256=…`, the digest of what \
aw wrote); aw replaces and removes only marked files it finds as it wrote them. A file of aw's \
you have edited since is yours: it is kept and listed in kept_edited (--force moves it aside \
first, as <file>.aw-backup-<epoch>, and writes aw's). A file of yours where aw would write \
refuses the install (INSTALL_CONFLICT_FOREIGN) unless --force, which moves it aside as \
<file>.aw-backup-<epoch> (never deleted; a skill folder of yours with the same name as aw's is \
moved whole, as <folder>.aw-backup-<epoch>).\n\n\
The reference's own install (Workline's `w` bundle, design wrapper, `w-<n>` skills, `/w:` \
commands, OpenCode module, and its `agent-workflow` hooks in the settings) is replaced: each \
of its files and folders in aw's places is kept aside under <host folder>/.aw-backup-<epoch>/, \
where no host reads it, and its hook entries that aw has an equivalent for are taken out (the \
settings file is backed up first), so nothing runs twice; one aw has no equivalent for stays \
while `agent-workflow` is on PATH (reference_hooks_kept), and goes otherwise \
(reference_hooks_removed). What it left outside the host's folder is named, not touched.\n\n\
Hooks run this aw by its absolute path (the PATH entry that leads to it, else the binary \
itself), so they work whatever PATH the host has. Your own hooks and settings keys are kept \
byte for byte (aw edits only its own entries); aw's entries are recognised by their command, \
whichever path it names, under the event aw installs it for, in a group reaching an edit tool \
for the branch check. A hook of aw's you tuned (timeout, keys, your handler in its group, a \
narrower matcher) is kept as it is (events_present); one whose command you edited \
(`auto-compact-on-close --quiet`) is yours and aw adds none beside it (edited_kept). Only an \
exact copy of aw's own entry is ever taken out as a duplicate. Only the newest 5 of the \
settings backups aw wrote (its record names them) are kept; backups it did not write are never \
deleted. A second install changes nothing (noop)."
)]
pub struct InstallArgs {
    #[command(flatten)]
    pub flags: TargetFlags,
    /// Move a file that is not aw's, or that you edited, out of the way (to
    /// <file>.aw-backup-<epoch>) instead of refusing or keeping it.
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
    let program = program();
    // Held until the output is built: no other `self` command works on these folders meanwhile.
    let _locks = lock(&home, &hosts, args.flags.dry_run)?;
    let mut snap = Snapshot::new(&home);
    let mut inspected = Vec::new();
    for host in hosts {
        let plan = host_plan(host, args.flags.parts(), &home, &program);
        inspected.push(inspect_install(&mut snap, plan, VERSION).map_err(refused)?);
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
        .with_details(SelfFailureDetails::Conflicts { conflicts }));
    }
    let all_ops: Vec<Vec<Op>> = inspected
        .iter()
        .map(|hi| install_ops(hi, args.force, epoch))
        .collect();
    let mut removed_backups: Vec<Vec<std::path::PathBuf>> = Vec::new();
    // The backups named in the report: a run's as written, a dry run's under the name a run
    // would choose now.
    let mut written: Vec<Vec<(String, String)>> = Vec::new();
    if args.flags.dry_run {
        // The paths a run would refuse, refused the same way (a run checks them in `apply`,
        // every host's before the first write of any).
        for (hi, ops) in inspected.iter().zip(&all_ops) {
            check_ops(&home, hi.plan.host, ops).map_err(refused)?;
            removed_backups.push(planned_backup_removals(&home, hi.plan.host, ops));
            written.push(planned_backups(&home, ops));
        }
    } else {
        // One transaction over every host: a failure on the last undoes the first.
        let hosts: Vec<HostOps<'_>> = inspected
            .iter()
            .zip(&all_ops)
            .map(|(hi, ops)| HostOps {
                host: hi.plan.host,
                ops,
                managed: &hi.plan.managed,
                records: &[],
            })
            .collect();
        let applied = apply(&home, VERSION, &hosts).map_err(refused)?;
        removed_backups = applied.removed_backups;
        written = applied.written_backups;
    }
    let model = SelfInstall {
        ok: true,
        dry_run: args.flags.dry_run,
        home: home.to_string_lossy().into_owned(),
        version: VERSION,
        program: &program,
        targets: inspected
            .iter()
            .zip(&all_ops)
            .enumerate()
            .map(|(i, (hi, ops))| {
                let backups = written.get(i).map(Vec::as_slice).unwrap_or_default();
                let removed = removed_backups
                    .get(i)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                report(
                    &home,
                    hi,
                    ops,
                    backups,
                    removed,
                    args.flags.dry_run,
                    &program,
                )
            })
            .collect(),
    };
    Ok(Outcome::shown(&model, &style))
}

/// `backups`: the settings backups written (or, in a dry run, to be written), `(file, backup)`;
/// `removed_backups`: the older ones deleted.
fn report<'a>(
    home: &Path,
    hi: &'a HostInstall,
    ops: &[Op],
    backups: &[(String, String)],
    removed_backups: &'a [PathBuf],
    dry_run: bool,
    program: &'a str,
) -> InstallTarget<'a> {
    let status = if dry_run {
        "dry-run"
    } else if hi.is_noop() {
        "noop"
    } else {
        "installed"
    };
    let files: Vec<InstallFile> = hi
        .steps
        .iter()
        .map(|s| InstallFile {
            path: shown(home, &s.rel),
            action: s.action.as_str(),
        })
        .collect();
    let folders = hi.foreign_skill_folders();
    let edited = hi.edited_files();
    let reference: Vec<&str> = hi.reference.iter().map(|r| r.rel.as_str()).collect();
    let moved: Vec<MovedAside> = ops
        .iter()
        .filter_map(|op| match op {
            Op::MoveAside { rel, to } => {
                let kind = if reference.contains(&rel.as_str()) {
                    "reference"
                } else if folders.contains(&rel.as_str()) {
                    "skill-folder"
                } else if edited.contains(&rel.as_str()) {
                    "edited"
                } else {
                    "entry"
                };
                Some(MovedAside {
                    path: shown(home, rel),
                    to: shown(home, to),
                    kind,
                })
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
    let backup_of = |rel: &str| {
        backups
            .iter()
            .find_map(|(r, to)| (r == rel).then(|| shown(home, to)))
    };
    let hooks = match &hi.plan.hooks {
        HookPlan::Skipped => InstallHooks::Skipped(SkippedHooks { status: "skipped" }),
        HookPlan::Unsupported(why) => InstallHooks::Unsupported(UnsupportedHooks {
            status: "unsupported",
            reason: why,
        }),
        HookPlan::Module { path } => {
            let changed = hi
                .steps
                .iter()
                .any(|s| s.rel == *path && s.action != Action::Noop);
            InstallHooks::Module(ModuleHooks {
                status: if changed { "installed" } else { "noop" },
                module: shown(home, path),
                program,
                note: "OpenCode loads the modules of its global plugins folder by itself at start.",
                missing_events: missing(hi),
            })
        }
        HookPlan::Plugin { dir } => {
            let changed = hi
                .steps
                .iter()
                .any(|s| s.rel.starts_with(dir.as_str()) && s.action != Action::Noop);
            InstallHooks::Plugin(PluginHooks {
                status: if changed { "generated" } else { "noop" },
                plugin: shown(home, dir),
                program,
                note: "Codex arms plugin hooks only once you install this plugin in Codex and trust its hooks; aw does not enable it for you.",
                missing_events: missing(hi),
            })
        }
        HookPlan::Settings { .. } => {
            let st = hi.settings.as_ref();
            let merge = st.map(|s| &s.merge);
            let list = |f: fn(&'a HookMerge) -> &'a [String]| merge.map(f).unwrap_or_default();
            InstallHooks::Settings(SettingsHooks {
                status: if merge.is_some_and(|m| m.text.is_some()) {
                    "installed"
                } else {
                    "noop"
                },
                file: st.map(|s| shown(home, &s.rel)),
                backup: st.and_then(|s| backup_of(&s.rel)),
                program,
                events_added: list(|m| &m.added),
                events_present: list(|m| &m.present),
                edited_kept: list(|m| &m.edited_kept),
                duplicates_removed: list(|m| &m.duplicates_removed),
                reference_events_removed: list(|m| &m.reference_removed),
                reference_hooks_removed: merge
                    .map(|m| hooks_named(&m.reference_hooks_removed))
                    .unwrap_or_default(),
                reference_hooks_kept: merge
                    .map(|m| hooks_named(&m.reference_hooks_kept))
                    .unwrap_or_default(),
                missing_events: missing(hi),
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
        .map(|c| InstallCommands {
            dir: shown(home, c.dir),
            invoked_as: c.invoked_as,
        });
    let kept_edited: Vec<String> = if ops
        .iter()
        .any(|op| matches!(op, Op::MoveAside { rel, .. } if edited.contains(&rel.as_str())))
    {
        hi.edited.iter().map(|r| shown(home, r)).collect()
    } else {
        edited
            .iter()
            .copied()
            .chain(hi.edited.iter().map(String::as_str))
            .map(|r| shown(home, r))
            .collect()
    };
    let reference_config = hi.reference_config.as_ref().map(|st| ReferenceConfig {
        file: shown(home, &st.rel),
        backup: backup_of(&st.rel),
    });
    InstallTarget {
        target: hi.plan.host.id,
        status,
        skill: shown(home, &format!("{}/w", hi.plan.host.skills_dir)),
        commands,
        files,
        removed_stale: hi
            .stale
            .iter()
            .filter(|f| !under_moved(&f.rel))
            .map(|f| shown(home, &f.rel))
            .collect(),
        moved_aside: moved,
        kept_foreign: hi
            .foreign
            .iter()
            .filter(|r| !under_moved(r))
            .map(|r| shown(home, r))
            .collect(),
        kept_edited,
        reference: InstallReference {
            replaced: hi.reference.iter().map(|r| shown(home, &r.rel)).collect(),
            config: reference_config,
            outside: hi
                .reference_outside
                .iter()
                .map(|(r, what)| ReferenceOutside {
                    path: shown(home, r),
                    note: what,
                })
                .collect(),
        },
        created_folders: hi.created.iter().map(|r| shown(home, r)).collect(),
        hooks,
        backups_removed: removed_backups,
    }
}

/// `(event, command)` pairs as `[{event, command}]`.
fn hooks_named(hooks: &[(String, String)]) -> Vec<NamedHook<'_>> {
    hooks
        .iter()
        .map(|(event, command)| NamedHook { event, command })
        .collect()
}

fn missing(hi: &HostInstall) -> Vec<MissingEvent<'static>> {
    hi.plan
        .host
        .missing_events
        .iter()
        .map(|(event, reason)| MissingEvent { event, reason })
        .collect()
}
