//! `aw family links <skill-dir> [--bin-dir <dir>] [--apply|--remove]`: the wrapper links a
//! member's roles ask for (`roles.*.cmd` → `<skill-dir>/<source>`), previewed by default.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use aw_core::error_code::ErrorCode;
use aw_core::family::links::{Action, action, derive};
use aw_manifest::role_wrappers_of;
use aw_workspace::locate::current_dir;
use aw_workspace::skill::resolve_arg;
use aw_workspace::wrapper_links::{
    create, found, make_executable, prepare_bin, remove, source_ready,
};
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;

/// Arguments of `aw family links`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show, create or remove the wrapper links of a family member: one symbolic link \
`<bin-dir>/<cmd>` → `<skill-dir>/<source>` per `roles.<role>.cmd` of its capability.json. Each \
cmd must be a bare name (letters, digits, '.', '_', '-'), have one source, and that source must \
stay inside the skill folder.\n\nWithout --apply or --remove nothing is written: the plan is \
shown. --apply creates the missing links and refuses (writing nothing) when something that is \
not aw's link is in the way; --remove removes only links that point exactly where aw points \
them. Each source must be a regular file (not a link) and is given the execute bits its read \
bits allow. Nothing else is written outside the bin folder (which may be a link you made).\n\n\
JSON (when piped): {skillDir, binDir, mode: plan|apply|remove, links[{cmd, roles, source, \
target, found: absent|ours|foreign, action: create|remove|keep|conflict, done}]}."
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
    match prepare_bin(&bin, args.apply) {
        // A missing bin folder is fine for a plan or a removal: there is nothing there yet.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !args.apply => {}
        r => r.map_err(unsafe_bin)?,
    }
    let root = m.dir.root().to_path_buf();
    let mut rows: Vec<(
        String,
        Vec<String>,
        String,
        PathBuf,
        aw_core::family::links::Found,
        Action,
    )> = Vec::new();
    for l in links {
        let target = root.join(&l.source);
        let f = found(&bin, &l.cmd, &target);
        rows.push((l.cmd, l.roles, l.source, target, f, action(f, args.remove)));
    }
    let conflicts: Vec<&str> = rows
        .iter()
        .filter(|r| r.5 == Action::Conflict)
        .map(|r| r.0.as_str())
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
    if args.apply {
        // Every source is checked before any link is made: a link to nothing, or to a link,
        // would be a wrapper that does not run, or runs something else.
        for (cmd, _, source, target, _, act) in &rows {
            if *act != Action::Create {
                continue;
            }
            source_ready(target).map_err(|why| {
                Failure::new(
                    ErrorCode::FamilyLinksInvalid,
                    format!("the source of {cmd}, {source}, cannot be linked: {why}; nothing was written"),
                    "reinstall the member so its wrapper scripts are regular files, then run again",
                )
            })?;
        }
        for (cmd, _, _, target, _, act) in &rows {
            if *act == Action::Create {
                make_executable(target).map_err(|e| link_failed(&bin, cmd, &e))?;
            }
        }
    }
    let mut done = Vec::new();
    let mut created: Vec<(&String, &PathBuf)> = Vec::new();
    for (cmd, _, _, target, _, act) in &rows {
        let did = match (act, args.apply, args.remove) {
            (Action::Create, true, _) => {
                if let Err(e) = create(&bin, cmd, target) {
                    // All or nothing: the links this run made go again before the refusal.
                    for (made, to) in &created {
                        let _ = remove(&bin, made, to);
                    }
                    return Err(link_failed(&bin, cmd, &e));
                }
                created.push((cmd, target));
                true
            }
            (Action::Remove, _, true) => {
                remove(&bin, cmd, target).map_err(|e| link_failed(&bin, cmd, &e))?
            }
            _ => false,
        };
        done.push(did);
    }
    let mode = if args.apply {
        "apply"
    } else if args.remove {
        "remove"
    } else {
        "plan"
    };
    let items: Vec<Value> = rows
        .iter()
        .zip(&done)
        .map(|((cmd, roles, source, target, f, act), did)| {
            json!({"cmd": cmd, "roles": roles, "source": source,
                   "target": target.to_string_lossy(), "found": f, "action": act, "done": did})
        })
        .collect();
    let model = json!({
        "skillDir": root.to_string_lossy(),
        "binDir": bin.to_string_lossy(),
        "mode": mode,
        "links": items,
    });
    Ok(match style.format {
        Format::Json => Outcome::json(model),
        Format::Human => Outcome::text(clean_lines(&human(&model)).into_owned()),
    })
}

fn link_failed(bin: &std::path::Path, cmd: &str, e: &std::io::Error) -> Failure {
    Failure::new(
        ErrorCode::FamilyLinkConflict,
        format!("could not change the link {}/{cmd}: {e}", bin.display()),
        "look at that path, then run again",
    )
}

fn human(model: &Value) -> String {
    let mode = model["mode"].as_str().unwrap_or("plan");
    let mut out = String::new();
    for l in model["links"].as_array().into_iter().flatten() {
        let act = l["action"].as_str().unwrap_or("?");
        let word = match (act, l["done"].as_bool() == Some(true), mode) {
            ("create", true, _) => "created",
            ("remove", true, _) => "removed",
            ("create", false, _) => "would create",
            ("remove", false, _) => "would remove",
            ("conflict", _, _) => "not aw's, left alone",
            (_, _, "remove") => "nothing of aw's",
            _ => "in place",
        };
        out.push_str(&format!(
            "{}/{} -> {}  ({word})\n",
            model["binDir"].as_str().unwrap_or(""),
            l["cmd"].as_str().unwrap_or(""),
            l["target"].as_str().unwrap_or("")
        ));
    }
    if mode == "plan" {
        out.push_str("dry run: nothing written (--apply creates, --remove removes aw's links)\n");
    }
    out
}
