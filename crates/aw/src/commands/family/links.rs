//! `aw family links <skill-dir> [--bin-dir <dir>] [--apply|--remove]`: the wrapper links a
//! member's roles ask for (`roles.*.cmd` → `<skill-dir>/<source>`), previewed by default.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use crate::views::View;
use aw_core::error_code::ErrorCode;
use aw_core::family::links::{Action, SourceProblem, action, derive};
use aw_core::wire::family::{FamilyLinks, LinkRow};
use aw_manifest::role_wrappers_of;
use aw_workspace::family::links::{
    ApplyError, apply as apply_links, found, prepare_bin, remove, source_ready,
};
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::locate::current_dir;
use clap::Args;
use std::path::{Path, PathBuf};

// Arguments of `aw family links`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show, create or remove the wrapper links of a family member: one symbolic link \
`<bin-dir>/<cmd>` → `<skill-dir>/<source>` per `roles.<role>.cmd` of its capability.json. Each \
cmd must be a bare name (letters, digits, '.', '_', '-'), have one source, and that source must \
stay inside the skill folder.\n\nWithout --apply or --remove nothing is written: the plan is \
shown. --apply creates the missing links and refuses (writing nothing) when something that is \
not aw's link is in the way; --remove removes only links that point exactly where aw points \
them. Each source must be a regular file (not a link, with no other hard link) whose real place \
is inside the skill folder; --apply gives it the execute bits its read bits allow. Nothing else is written outside the \
bin folder (which may be a link you made); a failed --apply puts back what it changed.\n\n\
JSON (when piped): {skillDir, binDir, mode: plan|apply|remove, links[{cmd, roles, source, \
target, found: absent|ours|foreign, action: create|remove|keep|conflict, problem, done}]}."
)]
pub struct LinksArgs {
    /// The member's skill folder (the folder that holds capability.json).
    #[arg(value_name = "SKILL_DIR")]
    pub dir: String,
    /// The folder the links go in (default: ~/.local/bin).
    #[arg(long, value_name = "DIR")]
    pub bin_dir: Option<String>,
    /// Create the missing links.
    #[arg(long, conflicts_with = "remove")]
    pub apply: bool,
    /// Remove aw's links (only those pointing exactly at this member's sources).
    #[arg(long)]
    pub remove: bool,
}

/// Runs `aw family links`.
pub fn run(args: &LinksArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let m = member(&args.dir)?;
    let roles = role_wrappers_of(&m.text).map_err(|why| malformed(&m, &why))?;
    let triples: Vec<_> = roles
        .into_iter()
        .map(|r| (r.role, r.cmd, r.source))
        .collect();
    let links = derive(&triples).map_err(|e| {
        Failure::new(
            ErrorCode::FamilyLinksInvalid,
            e.message(),
            format!(
                "fix the member's roles, then check it with `aw manifest validate {}`",
                m.dir.root().display()
            ),
        )
    })?;
    let cwd = current_dir()?;
    let bin: PathBuf = match &args.bin_dir {
        Some(b) => resolve_arg(&cwd, b),
        None => cx.home().map(|h| h.join(".local/bin")).ok_or_else(|| {
            Failure::new(
                ErrorCode::FamilyBinDirUnsafe,
                "no home folder to find ~/.local/bin in",
                "name the folder with --bin-dir",
            )
        })?,
    };
    let unsafe_bin = |e: std::io::Error| {
        Failure::new(
            ErrorCode::FamilyBinDirUnsafe,
            format!("cannot use {} as the bin folder: {e}", bin.display()),
            "name a real folder with --bin-dir",
        )
    };
    match prepare_bin(&bin, false) {
        // A missing bin folder is fine until a link is made: there is nothing there yet.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        r => r.map_err(unsafe_bin)?,
    }
    let root = m.dir.root().to_path_buf();
    let mut rows: Vec<Row> = Vec::new();
    for l in links {
        let target = root.join(&l.source);
        let found = found(&bin, &l.cmd, &target);
        let action = action(found, args.remove);
        // Checked in a plan too, so a dry run shows what --apply would refuse.
        let problem = (action == Action::Create)
            .then(|| source_ready(&root, &target).err())
            .flatten();
        rows.push(Row {
            cmd: l.cmd,
            roles: l.roles,
            source: l.source,
            target,
            found,
            action,
            problem,
        });
    }
    let conflicts: Vec<&str> = rows
        .iter()
        .filter(|r| r.action == Action::Conflict)
        .map(|r| r.cmd.as_str())
        .collect();
    if args.apply && !conflicts.is_empty() {
        return Err(Failure::new(
            ErrorCode::FamilyLinkConflict,
            format!(
                "something that is not aw's link is already at {} in {}; nothing was written",
                conflicts.join(", "),
                bin.display()
            ),
            "move that file or link aside (it is yours: aw never replaces it), then run again",
        ));
    }
    if args.apply
        && let Some(r) = rows.iter().find(|r| r.problem.is_some())
    {
        let problem = r.problem.as_ref().map(|p| (p.message(), p.action()));
        let (why, next) = problem.unwrap_or_default();
        return Err(Failure::new(
            ErrorCode::FamilyLinksInvalid,
            format!(
                "the source of {}, {}, cannot be linked: {why}; nothing was written",
                r.cmd, r.source
            ),
            next,
        ));
    }
    let done = if args.apply {
        prepare_bin(&bin, true).map_err(unsafe_bin)?;
        apply(&bin, &rows)?
    } else if args.remove {
        let mut done = Vec::new();
        for r in &rows {
            done.push(match r.action {
                Action::Remove => {
                    remove(&bin, &r.cmd, &r.target).map_err(|e| link_failed(&bin, &r.cmd, &e))?
                }
                _ => false,
            });
        }
        done
    } else {
        vec![false; rows.len()]
    };
    let mode = if args.apply {
        "apply"
    } else if args.remove {
        "remove"
    } else {
        "plan"
    };
    let model = FamilyLinks {
        skill_dir: root.to_string_lossy().into_owned(),
        bin_dir: bin.to_string_lossy().into_owned(),
        mode,
        links: rows
            .into_iter()
            .zip(done)
            .map(|(r, done)| LinkRow {
                problem: r.problem.as_ref().map(SourceProblem::message),
                target: r.target.to_string_lossy().into_owned(),
                cmd: r.cmd,
                roles: r.roles,
                source: r.source,
                found: r.found,
                action: r.action,
                done,
            })
            .collect(),
    };
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&model.text(&style)).into_owned()),
    })
}

/// One link of the member, with what is found where it goes and what to do.
struct Row {
    cmd: String,
    roles: Vec<String>,
    source: String,
    target: PathBuf,
    found: aw_core::family::links::Found,
    action: Action,
    /// Why the source cannot be linked, for a link to create.
    problem: Option<SourceProblem>,
}

/// Makes every link to create through the shell's all-or-nothing transaction; says which rows
/// it made.
fn apply(bin: &Path, rows: &[Row]) -> Result<Vec<bool>, Failure> {
    let links: Vec<(&str, &Path)> = rows
        .iter()
        .filter(|r| r.action == Action::Create)
        .map(|r| (r.cmd.as_str(), r.target.as_path()))
        .collect();
    match apply_links(bin, &links) {
        Ok(()) => Ok(rows.iter().map(|r| r.action == Action::Create).collect()),
        Err(ApplyError::Chmod { target, error }) => Err(Failure::new(
            ErrorCode::FamilyLinksInvalid,
            format!(
                "could not make {} executable: {error}; nothing was kept",
                target.display()
            ),
            "give it the execute bit yourself (chmod +x), then run again",
        )),
        Err(ApplyError::Link { cmd, error }) => Err(link_failed(bin, &cmd, &error)),
    }
}

fn link_failed(bin: &std::path::Path, cmd: &str, e: &std::io::Error) -> Failure {
    Failure::new(
        ErrorCode::FamilyLinkConflict,
        format!("could not change the link {}/{cmd}: {e}", bin.display()),
        "look at that path, then run again",
    )
}
