//! `aw self uninstall --target <t> [--dry-run] [--skill-only] [--no-commands] [--no-hooks]`.

use super::{TargetFlags, VERSION, home, host_plan, lock, program, refused, shown};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::install::host::HookArtifact;
use aw_core::wire::self_cmd::{
    SelfUninstall, UninstallHooks, UninstallOtherHooks, UninstallSettingsHooks, UninstallTarget,
};
use aw_workspace::install::{
    HostOps, Snapshot, apply, check_ops, inspect_uninstall, planned_backup_removals,
    planned_backups, uninstall_ops,
};
use clap::Args;

// Arguments of `aw self uninstall`.
#[derive(Debug, Args)]
#[command(
    long_about = "Remove what `aw self install` put on a host, and only that: every file under \
the `w`, `design` and `w-<n>` skill folders, the command folder and the hook plugin that carries \
aw's marker (a file of yours there is kept and listed), folders left empty, and aw's hook entries \
in the host's settings (your own entries and keys kept; the file is backed up first as \
<file>.bak.<epoch>; only the newest 5 of the backups aw wrote are kept).\n\n\
A file of aw's you edited since aw wrote it is yours: kept and listed in kept_edited; so is a \
hook of aw's whose command you edited (hooks.edited_kept). The \
folders aw created (its record, <host folder>/.aw-install.json, names them) are removed once \
nothing is left in them (removed_folders); folders that were there before stay; a settings \
file aw created is removed when nothing but an empty object is left of it.\n\n\
`--target all` is every host, the same set install uses; the shared `agents` folder only when \
named. --skill-only removes the skills and keeps commands and hooks; --no-commands keeps the \
commands; --no-hooks keeps the hooks. --dry-run lists what would go and removes nothing."
)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub flags: TargetFlags,
}

/// Runs `aw self uninstall`.
pub fn run(args: &UninstallArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let hosts = args.flags.hosts()?;
    let home = home(cx)?;
    let epoch = cx
        .now
        .system
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let parts = args.flags.parts();
    let with_hooks = !parts.skill_only && !parts.no_hooks;
    let program = program();
    // Held until the output is built: no other `self` command works on these folders meanwhile.
    let _locks = lock(&home, &hosts, args.flags.dry_run)?;
    let mut snap = Snapshot::new(&home);
    let mut removals = Vec::new();
    for host in hosts {
        let plan = host_plan(host, parts, &home, &program);
        let r = inspect_uninstall(&mut snap, &plan, with_hooks).map_err(refused)?;
        let ops = uninstall_ops(&r, epoch);
        if args.flags.dry_run {
            // A run checks every path in `apply`, before its first step.
            check_ops(&home, host, &ops).map_err(refused)?;
        }
        removals.push((r, ops));
    }
    let mut removed_folders: Vec<Vec<String>> = vec![Vec::new(); removals.len()];
    let mut removed_backups: Vec<Vec<std::path::PathBuf>> = removals
        .iter()
        .map(|(r, ops)| {
            if args.flags.dry_run {
                planned_backup_removals(&home, r.host, ops)
            } else {
                Vec::new()
            }
        })
        .collect();
    // The backups named in the report: a run's as written, a dry run's under the name a run
    // would choose now.
    let mut written: Vec<Vec<(String, String)>> = removals
        .iter()
        .map(|(_, ops)| {
            if args.flags.dry_run {
                planned_backups(&home, ops)
            } else {
                Vec::new()
            }
        })
        .collect();
    if !args.flags.dry_run {
        let hosts: Vec<HostOps<'_>> = removals
            .iter()
            .map(|(r, ops)| HostOps {
                host: r.host,
                ops,
                managed: &r.managed,
                records: &r.records,
            })
            .collect();
        let applied = apply(&home, VERSION, &hosts).map_err(refused)?;
        removed_folders = applied.removed_folders;
        removed_backups = applied.removed_backups;
        written = applied.written_backups;
    }
    let targets: Vec<UninstallTarget<'_>> = removals
        .iter()
        .zip(&removed_folders)
        .zip(&removed_backups)
        .zip(&written)
        .map(|((((r, ops), folders), backups), written)| {
            let status = if args.flags.dry_run {
                "dry-run"
            } else if ops.is_empty() && folders.is_empty() {
                "noop"
            } else {
                "removed"
            };
            let backup = written.first().map(|(_, to)| shown(&home, to));
            let edited_kept = (matches!(r.host.hooks, HookArtifact::Settings(_)) && with_hooks)
                .then_some(r.hooks_edited_kept.as_slice());
            let hooks = match &r.settings {
                Some(s) => UninstallHooks::Settings(UninstallSettingsHooks {
                    status: if args.flags.dry_run {
                        "dry-run"
                    } else {
                        "removed"
                    },
                    file: shown(&home, &s.rel),
                    file_removed: r.settings_goes,
                    backup,
                    events: &s.merge.removed,
                    edited_kept,
                }),
                None => {
                    let plugin = match r.host.hooks {
                        HookArtifact::Plugin(dir) => {
                            r.remove.iter().any(|x| x.rel.starts_with(dir))
                        }
                        HookArtifact::Module { path, .. } => r.remove.iter().any(|x| x.rel == path),
                        _ => false,
                    };
                    let status = match (with_hooks, plugin, args.flags.dry_run) {
                        (false, _, _) => "skipped",
                        (true, true, true) => "dry-run",
                        (true, true, false) => "removed",
                        (true, false, _) => "noop",
                    };
                    UninstallHooks::Other(UninstallOtherHooks {
                        status,
                        edited_kept,
                    })
                }
            };
            UninstallTarget {
                target: r.host.id,
                status,
                removed: r.remove.iter().map(|x| shown(&home, &x.rel)).collect(),
                kept_foreign: r.foreign.iter().map(|x| shown(&home, x)).collect(),
                kept_edited: r.edited.iter().map(|x| shown(&home, x)).collect(),
                removed_folders: folders.iter().map(|x| shown(&home, x)).collect(),
                backups_removed: backups,
                hooks,
            }
        })
        .collect();
    let model = SelfUninstall {
        ok: true,
        dry_run: args.flags.dry_run,
        home: home.to_string_lossy().into_owned(),
        targets,
        note: (args.flags.target.trim() == "all").then_some(
            "`all` is every host; the shared agents folder is removed only with --target agents.",
        ),
    };
    Ok(Outcome::shown(&model, &style))
}
