//! Multi-root visibility: `attach-multiroot` and `detach-multiroot` (which folders outside the
//! workspace the agent hosts may see) and `visibility doctor` (whether the hosts' files match
//! the project block's sources); and what attach and detach share: their flags, turned into a
//! request, and their output.

pub mod attach;
pub mod detach;
pub mod doctor;

use super::project::invalid;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::project::source::check_path;
use aw_core::project::visibility::{SKIPPED_BY_FLAG, Skip, WARP_REASON};
use aw_core::wire::visibility::{Multiroot, Skipped, VisibilityFailureDetails};
use aw_workspace::project::visibility::{
    Direction, HostChange, MultirootRequest, VisibilityError, multiroot,
};
use clap::{Args, Subcommand};

// The flags `attach-multiroot` and `detach-multiroot` share.
#[derive(Debug, Args)]
pub struct MultirootFlags {
    /// A folder (repeatable). Relative paths are taken from the workspace root, as source paths
    /// are.
    #[arg(long = "path", value_name = "DIR")]
    pub path: Vec<String>,
    /// Folders, comma-separated (repeatable).
    #[arg(long = "paths", value_name = "DIR,...")]
    pub paths: Vec<String>,
    /// The folders of the project block's sources that lie outside the workspace.
    #[arg(long = "from-sources")]
    pub from_sources: bool,
    /// Leave `.claude/settings.local.json` alone.
    #[arg(long = "skip-claude")]
    pub skip_claude: bool,
    /// Leave `.codex/config.toml` alone.
    #[arg(long = "skip-codex")]
    pub skip_codex: bool,
    /// Leave Warp alone (aw never writes it: it has no per-project setting).
    #[arg(long = "skip-warp")]
    pub skip_warp: bool,
    /// Leave Oz, Warp's agent, alone (the same as `--skip-warp`).
    #[arg(long = "skip-oz")]
    pub skip_oz: bool,
    /// Refused: aw writes only the workspace's own files, never the user's home configuration.
    #[arg(long)]
    pub global: bool,
    /// Report what would change, and change nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
}

/// `--global`, which aw does not offer.
pub fn global_refused(command: &str) -> Failure {
    Failure::new(
        ErrorCode::ArgsInvalid,
        format!(
            "`aw {command} --global` is not offered: aw writes and reads only the workspace's own host files, never the user's home configuration."
        ),
        format!("Run `aw {command}` without `--global`; change the home configuration of a host in that host."),
    )
    .with_details(VisibilityFailureDetails::Argument {
        argument: "--global".to_owned(),
    })
}

impl MultirootFlags {
    /// The request, with every named folder checked.
    fn request(&self, command: &str, direction: Direction) -> Result<MultirootRequest, Failure> {
        if self.global {
            return Err(global_refused(command));
        }
        let mut paths: Vec<String> = self.path.clone();
        paths.extend(
            self.paths
                .iter()
                .flat_map(|csv| csv.split(','))
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned),
        );
        for p in &paths {
            check_path(p).map_err(invalid)?;
        }
        if paths.is_empty() && !self.from_sources {
            return Err(Failure::new(
                ErrorCode::InvalidInput,
                format!("`aw {command}` needs the folders to act on."),
                format!(
                    "Name them with `--path <dir>` (repeatable) or `--paths a,b`, or take the external sources of the project block with `--from-sources`: `aw {command} --from-sources`."
                ),
            ));
        }
        Ok(MultirootRequest {
            direction,
            paths,
            from_sources: self.from_sources,
            skip: Skip {
                claude: self.skip_claude,
                codex: self.skip_codex,
                warp: self.skip_warp || self.skip_oz,
            },
            dry_run: self.dry_run,
        })
    }
}

/// A host's file that cannot be merged (`INVALID_INPUT`, naming the file), or the shell's own
/// failure.
pub fn settings_refused(e: VisibilityError) -> Failure {
    match e {
        VisibilityError::File { path, error } => Failure::new(
            ErrorCode::InvalidInput,
            format!(
                "Nothing was written: {} cannot be updated ({error}).",
                path.display()
            ),
            "Fix or remove that file (aw only lists extra folders in it), then run the command again.",
        )
        .with_details(VisibilityFailureDetails::File {
            file: path.to_string_lossy().into_owned(),
        }),
        VisibilityError::Workspace(e) => e.into(),
    }
}

/// Runs `attach-multiroot` / `detach-multiroot`.
fn run(
    command: &str,
    direction: Direction,
    flags: &MultirootFlags,
    cx: &Ctx<'_>,
) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let req = flags.request(command, direction)?;
    let ws = cx.workspace()?;
    let plan = multiroot(&ws, &req).map_err(settings_refused)?;
    let model = Multiroot {
        ok: true,
        dry_run: req.dry_run,
        workspace: plan.root.to_string_lossy().into_owned(),
        paths: &plan.paths,
        claude: HostChange::wire(&plan.hosts.claude),
        codex: HostChange::wire(&plan.hosts.codex),
        warp: Skipped::because(if req.skip.warp {
            SKIPPED_BY_FLAG
        } else {
            WARP_REASON
        }),
        detached_removed: plan.hosts.removed(),
        gitignore: (direction == Direction::Attach)
            .then(|| plan.gitignore.as_ref().map(|g| g.action)),
        command,
    };
    Ok(Outcome::shown(&model, &style))
}

/// The `visibility` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum VisibilityCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(
        about = "Check that every host's file lists the external sources, and nothing stale (read-only)."
    )]
    Doctor(doctor::DoctorArgs),
}

/// Runs a `visibility` verb.
pub fn dispatch(cmd: &VisibilityCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        VisibilityCommand::Doctor(args) => doctor::run(args, cx),
    }
}
