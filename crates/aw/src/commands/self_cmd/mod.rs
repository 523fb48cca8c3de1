//! `aw self`: aw's own installation into agent hosts. `install` and `uninstall` (the bundle,
//! the design wrapper, commands and hooks, per the host table of `aw_core::install::host`),
//! `detect-hosts` (which hosts are under HOME) and `doctor` (which `aw` is on PATH, what is
//! installed where and at which version, stale files, the reference's leftovers); and what they
//! share: the target flags, the bundle as sources, HOME, the path hooks name, the host folders'
//! locks, and the failures of the shell turned into codes.

pub mod detect_hosts;
pub mod doctor;
pub mod install;
pub mod uninstall;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::install::host::{Host, target_ids, targets};
use aw_core::install::plan::{HostPlan, Parts, Source, plan};
use aw_core::wire::self_cmd::SelfFailureDetails;
use aw_workspace::install::{HostLocks, InstallError, lock_roots};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// The aw version every marker names.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The flags install and uninstall share.
#[derive(Debug, Args)]
pub struct TargetFlags {
    /// Where: claude, codex, gemini, opencode, agents (the shared ~/.agents/skills), or all
    /// (every host; agents only when named).
    #[arg(long, value_name = "TARGET")]
    pub target: String,
    /// List every file that would be written or removed, and write nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
    /// Only the `w` skill and the design wrapper: no commands, no hooks.
    #[arg(long = "skill-only")]
    pub skill_only: bool,
    /// No command files and no `w-<command>` skills.
    #[arg(long = "no-commands")]
    pub no_commands: bool,
    /// No hooks.
    #[arg(long = "no-hooks")]
    pub no_hooks: bool,
}

impl TargetFlags {
    /// The host rows `--target` names.
    pub fn hosts(&self) -> Result<Vec<&'static Host>, Failure> {
        targets(self.target.trim()).ok_or_else(|| {
            Failure::new(
                ErrorCode::ArgsInvalid,
                format!("`--target {}` names no host aw installs into.", self.target),
                format!("Name one of: {}.", target_ids().join(", ")),
            )
            .with_details(SelfFailureDetails::Argument {
                argument: "--target".to_owned(),
            })
        })
    }

    /// The parts asked for.
    pub fn parts(&self) -> Parts {
        Parts {
            skill_only: self.skill_only,
            no_commands: self.no_commands,
            no_hooks: self.no_hooks,
        }
    }
}

/// HOME, required and absolute: every host folder is under it (a relative HOME would put them
/// under whatever folder the command runs in).
pub fn home(cx: &Ctx<'_>) -> Result<PathBuf, Failure> {
    let home = cx.home().ok_or_else(|| {
        Failure::new(
            ErrorCode::HomeUnset,
            "HOME is not set, so aw cannot find the hosts' folders.",
            "Set HOME to your home folder (an absolute path) and run the command again.",
        )
    })?;
    if !home.is_absolute() {
        return Err(Failure::new(
            ErrorCode::HomeUnset,
            format!(
                "HOME is `{}`, a relative path; it must be absolute, so aw does not look for the hosts' folders under the current folder.",
                home.display()
            ),
            "Set HOME to your home folder as an absolute path and run the command again.",
        ));
    }
    Ok(home)
}

/// The plan of `host` for the embedded bundle, its hooks running the aw at `program`.
pub fn host_plan(host: &'static Host, parts: Parts, home: &Path, program: &str) -> HostPlan {
    let sources: Vec<Source<'_>> = aw_bundle::FILES
        .iter()
        .map(|f| Source {
            path: f.path,
            text: f.text,
        })
        .collect();
    plan(
        host,
        parts,
        &sources,
        VERSION,
        &home.to_string_lossy(),
        program,
    )
}

/// The path hooks name for this aw (see `aw_workspace::install::program_path`); `aw` alone
/// when the running binary's path cannot be told or is not UTF-8.
pub fn program() -> String {
    aw_workspace::install::program_path()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| "aw".to_owned())
}

/// Takes the locks of the host folders of `hosts` (shared for a command that only reads).
pub fn lock(home: &Path, hosts: &[&'static Host], shared: bool) -> Result<HostLocks, Failure> {
    let roots: Vec<&str> = hosts.iter().flat_map(|h| h.roots()).collect();
    lock_roots(home, &roots, shared, aw_workspace::io::lock::default_wait()).map_err(Failure::from)
}

/// A path relative to HOME, as the output shows it (absolute).
pub fn shown(home: &Path, rel: &str) -> String {
    home.join(rel).to_string_lossy().into_owned()
}

/// The shell's refusal as a failure.
pub fn refused(e: InstallError) -> Failure {
    match e {
        InstallError::Settings { path, error } => Failure::new(
            ErrorCode::SettingsInvalidJson,
            format!("Nothing was written: {} cannot be merged ({error}).", path.display()),
            "Fix that file so it is a JSON object (aw adds its own hook entries and keeps everything else), or run with --no-hooks.",
        )
        .with_details(SelfFailureDetails::File {
            file: path.to_string_lossy().into_owned(),
        }),
        InstallError::Unsafe { path, why, action } => Failure::new(
            ErrorCode::InstallPathUnsafe,
            format!("Nothing was written: {} ({why}).", path.display()),
            action,
        )
        .with_details(SelfFailureDetails::Path {
            path: path.to_string_lossy().into_owned(),
        }),
        InstallError::Workspace(e) => e.into(),
    }
}

/// The `self` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum SelfCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "List the agent hosts whose folders are under HOME.")]
    DetectHosts(detect_hosts::DetectHostsArgs),
    #[command(about = "Report which agent hosts and aw installs are present, and what is stale.")]
    Doctor(doctor::DoctorArgs),
    #[command(about = "Install the w skill, the design wrapper, commands and hooks into a host.")]
    Install(install::InstallArgs),
    #[command(about = "Remove what aw installed from a host, and only that.")]
    Uninstall(uninstall::UninstallArgs),
}

/// Runs a `self` verb.
pub fn dispatch(cmd: &SelfCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        SelfCommand::Doctor(args) => doctor::run(args, cx),
        SelfCommand::DetectHosts(args) => detect_hosts::run(args, cx),
        SelfCommand::Install(args) => install::run(args, cx),
        SelfCommand::Uninstall(args) => uninstall::run(args, cx),
    }
}
