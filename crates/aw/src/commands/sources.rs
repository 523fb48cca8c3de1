//! `aw sources [--scope a,b] [--session|--code <s>] [--no-git] [--verbose]`: the project
//! block's sources, the branch each one is expected on, and (unless `--no-git`) the branch it is
//! on, its changed files, and whether the sources agree, in the reference's model.
//!
//! A folder that is missing or not a repository, or a machine without git, is reported per
//! source; the command itself still succeeds. A workspace that declares no source reports its
//! own folder as its one source (`implicit: true`), so the branch it is on can still be read. The rules (expectation, match, divergence) are
//! `aw_core::project::sources`; the git probe is `aw_workspace::git`.

use crate::cli::session_or_code;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::project::sources::{SessionBranches, SourceCheck, divergent, with_implicit_source};
use aw_core::wire::sources::{DivergentSource, Listed, SourceRow, Sources};
use aw_workspace::locate::Workspace;
use aw_workspace::project::{ProjectFiles, SourceState, source_state};
use aw_workspace::sessions;
use aw_workspace::sessions::resolver;
use clap::Args;

// Arguments of `aw sources`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the project block's sources: the branch each one is expected on, and \
unless `--no-git` the branch it is on, its uncommitted files, whether it is on its expected \
branch (`match`), and whether the repositories are all on one branch \
(`cross_source_consistent`; when not, `divergent_sources` lists each with its branch).\n\nThe expected branch is the block's working branch for the source; with \
`--session` (or `--code`) it is the branch the session's `Branch:` line declares for it \
(`Branch: feat/x` for every source, or `Branch: api:feat/x, web:feat/y`), else the block's. A \
folder that is missing or not a repository, or a machine without git, is reported per source; \
the command still succeeds.\n\nA workspace that declares no source has one implicit source: its \
own folder (path `.`, named after the folder, `implicit: true`)."
)]
pub struct SourcesArgs {
    /// Only these aliases (comma-separated).
    #[arg(long, value_name = "ALIAS,...")]
    pub scope: Option<String>,
    /// Expect the branches this session declares: a number, a folder name or a unique folder
    /// prefix (the reference's v21 spelling).
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Same as `--session` (the reference's v22 spelling).
    #[arg(long, value_name = "SESSION")]
    pub code: Option<String>,
    /// Do not run git.
    #[arg(long = "no-git")]
    pub no_git: bool,
    /// Every key of every source, even the empty ones, and the session and scope asked for.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs the command.
pub fn run(args: &SourcesArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    // The reference gave the conflict's reason as `data.error` too.
    let code = session_or_code(&args.session, &args.code).map_err(Failure::with_error_data)?;
    let ws = cx.workspace()?;
    let block = ProjectFiles::read(&ws.root)?.block(&ws.ns);
    let block_found = block.is_some();
    let folder = ws
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (b, implicit) = with_implicit_source(block, &folder);
    let selected = b
        .scoped(args.scope.as_deref())
        .map_err(super::project::invalid)?;
    let session = match code {
        Some(code) => Some(session_branches(&ws, code, &cx.now.today())?),
        None => None,
    };
    let checked: Vec<(SourceCheck, SourceState)> = selected
        .iter()
        .map(|s| {
            let state = source_state(&ws.root, s, args.no_git);
            let check = SourceCheck::new(&b, s, session.as_ref(), state.git.clone());
            (check, state)
        })
        .collect();
    let checks: Vec<SourceCheck> = checked.iter().map(|(c, _)| c.clone()).collect();
    let divergent = divergent(&checks);
    let model = Sources {
        sources: checked
            .iter()
            .map(|(c, st)| {
                SourceRow::of(
                    &b,
                    c,
                    Listed {
                        resolved_path: st.resolved.to_string_lossy().into_owned(),
                        exists: st.exists,
                        no_git: args.no_git,
                        verbose: args.verbose,
                        implicit,
                    },
                )
            })
            .collect(),
        working_branches_from_status: &b.working_branches,
        cross_source_consistent: divergent.is_empty(),
        divergent_sources: divergent
            .iter()
            .map(|d| DivergentSource {
                alias: &d.alias,
                current: &d.current,
                expected: d.expected.as_deref(),
            })
            .collect(),
        session_code: if args.verbose {
            Some(code.unwrap_or(""))
        } else {
            code
        },
        scope: args.verbose.then(|| {
            args.scope
                .as_ref()
                .map(|_| selected.iter().map(|s| s.alias.as_str()).collect())
        }),
        workspace: ws.root.to_string_lossy().into_owned(),
        block_found,
        count: checked.len(),
    };
    Ok(Outcome::shown(&model, &style))
}

/// The branches the session named by `code` declares (none when it has no `Branch:` line).
fn session_branches(ws: &Workspace, code: &str, today: &str) -> Result<SessionBranches, Failure> {
    let folder = resolver::resolve_code_read(ws, code)?;
    let info = sessions::info(ws, &folder, None, today)?;
    Ok(info
        .facts
        .branch
        .as_deref()
        .map(SessionBranches::parse)
        .unwrap_or_default())
}
