//! `aw sources [--scope a,b] [--no-git]`: the project block's sources, where each one is on
//! disk, the branch it is expected on, and (unless `--no-git`) the branch it is actually on and
//! whether it has uncommitted changes.
//!
//! A folder that is missing or not a repository, or a machine without git, is reported per
//! source; the command itself still succeeds. Session-scoped expectations (`--session` /
//! `--code` in the reference) are not offered yet.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
use aw_core::project::model::Block;
use aw_workspace::git::GitState;
use aw_workspace::project::{ProjectFiles, source_state};
use clap::Args;
use serde_json::{Value, json};

/// Arguments of `aw sources`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the project block's sources: where each one is on this machine, the branch \
it is expected on (its working branch, else its main branch), and unless `--no-git` the branch it \
is on and whether it has uncommitted changes.\n\nA folder that is missing or not a repository, \
or a machine without git, is reported per source; the command still succeeds."
)]
pub struct SourcesArgs {
    /// Only these aliases (comma-separated).
    #[arg(long, value_name = "ALIAS,...")]
    pub scope: Option<String>,
    /// Do not run git.
    #[arg(long = "no-git")]
    pub no_git: bool,
    /// Accepted for compatibility; the JSON model is always complete.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs the command.
pub fn run(args: &SourcesArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let ws = cx.workspace()?;
    let block = ProjectFiles::read(&ws.root)?.block(&ws.ns);
    let none = Block::default();
    let b = block.as_ref().unwrap_or(&none);
    let selected = b
        .scoped(args.scope.as_deref())
        .map_err(super::project::invalid)?;
    let rows: Vec<Value> = selected
        .iter()
        .map(|s| {
            let state = source_state(&ws.root, s, args.no_git);
            let expected = b.expected_branch(&s.alias);
            let (git_json, on_expected) = match &state.git {
                None => (Value::Null, Value::Null),
                Some(GitState::Repo { branch, dirty }) => (
                    json!({ "branch": branch, "dirty": dirty }),
                    json!(b.on_expected_branch(&s.alias, branch)),
                ),
                Some(other) => {
                    let mut g = json!({ "error": other.error_code() });
                    if let GitState::Failed(msg) = other {
                        g["message"] = json!(msg);
                    }
                    (g, Value::Null)
                }
            };
            json!({
                "alias": s.alias,
                "path": s.path,
                "resolved_path": state.resolved.to_string_lossy(),
                "exists": state.exists,
                "main_branch": s.main_branch,
                "working_branch": b.working_branches.get(&s.alias),
                "qa_branch": b.qa_branches.get(&s.alias),
                "expected_branch": expected,
                "git": git_json,
                "on_expected_branch": on_expected,
            })
        })
        .collect();
    Ok(match style.format {
        Format::Json => Outcome::json(json!({
            "workspace": ws.root.to_string_lossy(),
            "block_found": block.is_some(),
            "count": rows.len(),
            "sources": rows,
        })),
        Format::Human => Outcome::text(human(block.is_some(), &rows)),
    })
}

fn human(found: bool, rows: &[Value]) -> String {
    if !found {
        return "No project block in CLAUDE.md or AGENTS.md.\n  Next  run `aw workspace-init --source alias:path`\n".to_owned();
    }
    let mut out = format!("{} source(s)\n", rows.len());
    for r in rows {
        let s = |k: &str| clean(r[k].as_str().unwrap_or("—")).into_owned();
        let git = match (&r["git"]["branch"], &r["git"]["error"]) {
            (Value::String(b), _) => {
                let dirty = if r["git"]["dirty"] == json!(true) {
                    ", uncommitted changes"
                } else {
                    ""
                };
                let mark = if r["on_expected_branch"] == json!(false) {
                    " (not the expected branch)"
                } else {
                    ""
                };
                format!("on {}{mark}{dirty}", clean(b))
            }
            (_, Value::String(e)) => e.replace('_', " "),
            _ => "git not checked".to_owned(),
        };
        out.push_str(&format!(
            "  {:<12} {}  expected: {}  {git}\n",
            s("alias"),
            s("path"),
            s("expected_branch")
        ));
    }
    out
}
