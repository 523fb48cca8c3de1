//! What `aw sources` decides: the branch each source is expected on, whether it is on it, and
//! whether the sources as a whole are where they should be. Pure: the block, the session's
//! declaration and what git said come in; the report goes out.
//!
//! - **Expected work branch.** With a session (`--session` / `--code`), the branch its
//!   `Branch:` / `Rama:` line declares for the source; else the block's working branch for the
//!   alias (`## Status`, `Working branches` / `Ramas de trabajo actuales`); else none. The main
//!   branch is never an expectation: it is where work starts, not where it happens.
//! - **Match.** The current branch equals the expected one; unknown (`None`) when nothing is
//!   expected or git could not say which branch the source is on. A detached `HEAD` matches
//!   nothing.
//! - **Cross-source consistency** (the reference's meaning). The readable repositories are all
//!   on one branch; when two are on different branches, every readable repository is a divergent
//!   source, listed with its current and expected branches. Whether each is on its *expected*
//!   branch is `match`, per source.

use super::model::{Block, BranchMap, Source};

/// The source a workspace that declares none still has: its own folder (`.`), named after the
/// folder (`workspace` when it has no name). Without it a workspace made without `--source`
/// would have nothing whose branch could be checked, and a flow's branch step could never pass.
pub fn implicit_source(folder_name: &str) -> Source {
    let name = folder_name.trim();
    Source {
        alias: if name.is_empty() { "workspace" } else { name }.to_owned(),
        path: ".".to_owned(),
        main_branch: None,
    }
}

/// The block `aw sources` reports on: `block` as it is when it declares a source; else the same
/// block (or an empty one) with the workspace's own folder as its one, implicit, source. The
/// flag says which.
pub fn with_implicit_source(block: Option<Block>, folder_name: &str) -> (Block, bool) {
    match block {
        Some(b) if !b.sources.is_empty() => (b, false),
        other => {
            let mut b = other.unwrap_or_default();
            b.sources.push(implicit_source(folder_name));
            (b, true)
        }
    }
}

/// What git says about a source folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitState {
    /// A work tree: its checked-out branch (`HEAD` when detached) and the paths
    /// `git status --porcelain` lists (modified, staged or untracked), in git's order.
    Repo {
        /// `git rev-parse --abbrev-ref HEAD`.
        branch: String,
        /// One entry per porcelain line.
        changed_files: Vec<String>,
    },
    /// The folder does not exist.
    MissingFolder,
    /// The folder is not inside a git work tree.
    NotARepository,
    /// No `git` program could be run.
    GitNotFound,
    /// git ran and failed for another reason (its first error line).
    Failed(String),
}

impl GitState {
    /// The stable identifier of a state that is not a readable repository.
    pub fn error_code(&self) -> Option<&'static str> {
        match self {
            GitState::Repo { .. } => None,
            GitState::MissingFolder => Some("missing_folder"),
            GitState::NotARepository => Some("not_a_repository"),
            GitState::GitNotFound => Some("git_not_found"),
            GitState::Failed(_) => Some("git_failed"),
        }
    }
}

/// The paths of `git status --porcelain` (v1) output: each line's path after its two status
/// columns and the space. Every line is cut on its own, so the first path keeps its first
/// character (the reference trimmed the whole output first and lost it when the first line
/// began with a space). A rename keeps git's `old -> new` text.
pub fn porcelain_paths(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.get(3..))
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The branches a session declares on its `Branch:` / `Rama:` line: `alias:branch` items
/// (comma-separated) for particular sources, and a bare branch for every other source. Git
/// branch names cannot hold `:`, so the two never mix up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionBranches {
    /// The branch for sources not named (the first bare item).
    pub default: Option<String>,
    /// The branch per alias.
    pub by_alias: BranchMap,
}

impl SessionBranches {
    /// Reads the value of a session's `Branch:` line (backticks around items are dropped).
    pub fn parse(value: &str) -> Self {
        let mut out = SessionBranches::default();
        for item in value.split(',') {
            let item = item.trim().trim_matches('`').trim();
            match item.split_once(':') {
                Some((alias, branch)) => {
                    let (alias, branch) = (alias.trim(), branch.trim().trim_matches('`'));
                    if !alias.is_empty() && !branch.is_empty() {
                        out.by_alias.set(alias, branch);
                    }
                }
                None if !item.is_empty() && out.default.is_none() => {
                    out.default = Some(item.to_owned());
                }
                None => {}
            }
        }
        out
    }

    /// The branch declared for `alias`.
    pub fn for_alias(&self, alias: &str) -> Option<&str> {
        self.by_alias.get(alias).or(self.default.as_deref())
    }
}

/// Where an expectation came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The session's `Branch:` line.
    Session,
    /// The block's working branch for the source.
    WorkingBranch,
    /// Nothing is expected.
    None,
}

impl Origin {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Session => "session",
            Origin::WorkingBranch => "working_branch",
            Origin::None => "none",
        }
    }
}

/// The branch `alias` is expected on, and where that expectation came from.
pub fn expected_work_branch<'a>(
    block: &'a Block,
    alias: &str,
    session: Option<&'a SessionBranches>,
) -> (Option<&'a str>, Origin) {
    if let Some(b) = session.and_then(|s| s.for_alias(alias)) {
        return (Some(b), Origin::Session);
    }
    match block.working_branches.get(alias) {
        Some(b) => (Some(b), Origin::WorkingBranch),
        None => (None, Origin::None),
    }
}

/// One source, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceCheck {
    /// The block's row.
    pub source: Source,
    /// The branch it is expected on.
    pub expected: Option<String>,
    /// Where that came from.
    pub origin: Origin,
    /// What git said (`None`: git was not asked).
    pub git: Option<GitState>,
}

impl SourceCheck {
    /// Checks `source` against the block (and the session, when one was named).
    pub fn new(
        block: &Block,
        source: &Source,
        session: Option<&SessionBranches>,
        git: Option<GitState>,
    ) -> Self {
        let (expected, origin) = expected_work_branch(block, &source.alias, session);
        SourceCheck {
            source: source.clone(),
            expected: expected.map(str::to_owned),
            origin,
            git,
        }
    }

    /// The branch the source is on, when git could say.
    pub fn current_branch(&self) -> Option<&str> {
        match &self.git {
            Some(GitState::Repo { branch, .. }) => Some(branch),
            _ => None,
        }
    }

    /// Whether the source is on its expected branch; `None` when either is unknown.
    pub fn matches(&self) -> Option<bool> {
        Some(self.current_branch()? == self.expected.as_deref()?)
    }

    /// Whether the folder is a readable repository.
    pub fn is_repo(&self) -> bool {
        self.current_branch().is_some()
    }

    /// Whether it has uncommitted changes; `None` when it is not a readable repository.
    pub fn dirty(&self) -> Option<bool> {
        match &self.git {
            Some(GitState::Repo { changed_files, .. }) => Some(!changed_files.is_empty()),
            _ => None,
        }
    }

    /// The changed files (none outside a readable repository).
    pub fn changed_files(&self) -> &[String] {
        match &self.git {
            Some(GitState::Repo { changed_files, .. }) => changed_files,
            _ => &[],
        }
    }
}

/// A readable repository, when the sources are not all on one branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergent {
    /// Its alias.
    pub alias: String,
    /// The branch it is on.
    pub current: String,
    /// The branch it is expected on, when one is.
    pub expected: Option<String>,
}

/// The readable repositories among `checks`, each with its branch, when at least two of them are
/// on different branches; none when they all agree (or fewer than two can say). The sources are
/// consistent when there is none.
pub fn divergent(checks: &[SourceCheck]) -> Vec<Divergent> {
    let on: Vec<(&SourceCheck, &str)> = checks
        .iter()
        .filter_map(|c| Some((c, c.current_branch()?)))
        .collect();
    if on.windows(2).all(|w| w[0].1 == w[1].1) {
        return Vec::new();
    }
    on.into_iter()
        .map(|(c, current)| Divergent {
            alias: c.source.alias.clone(),
            current: current.to_owned(),
            expected: c.expected.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(alias: &str) -> Source {
        Source {
            alias: alias.into(),
            path: format!("../{alias}"),
            main_branch: Some("main".into()),
        }
    }

    fn repo(branch: &str, changed: &[&str]) -> Option<GitState> {
        Some(GitState::Repo {
            branch: branch.into(),
            changed_files: changed.iter().map(|s| (*s).to_owned()).collect(),
        })
    }

    fn block() -> Block {
        let mut b = Block {
            sources: vec![src("api"), src("web"), src("db")],
            ..Block::default()
        };
        b.working_branches.set("api", "feat/a");
        b.working_branches.set("web", "feat/w");
        b
    }

    #[test]
    fn a_workspace_without_sources_has_its_own_folder() {
        let (b, implicit) = with_implicit_source(None, "shop");
        assert!(implicit);
        assert_eq!(
            b.sources,
            [Source {
                alias: "shop".into(),
                path: ".".into(),
                main_branch: None
            }]
        );
        assert_eq!(
            with_implicit_source(Some(Block::default()), " ").0.sources[0].alias,
            "workspace"
        );
        let declared = block();
        let (b, implicit) = with_implicit_source(Some(declared.clone()), "shop");
        assert_eq!((b, implicit), (declared, false));
    }

    #[test]
    fn porcelain_lines_give_their_paths_first_line_included() {
        assert_eq!(
            porcelain_paths(" M src/a.rs\n?? new file.txt\nR  old -> new\n\n"),
            ["src/a.rs", "new file.txt", "old -> new"]
        );
        assert!(porcelain_paths("").is_empty());
    }

    #[test]
    fn session_branch_lines() {
        let s = SessionBranches::parse("api:feat/x, `feat/all`, web : feat/w ,other");
        assert_eq!(s.for_alias("api"), Some("feat/x"));
        assert_eq!(s.for_alias("web"), Some("feat/w"));
        assert_eq!(s.for_alias("db"), Some("feat/all"));
        assert_eq!(SessionBranches::parse("  ").for_alias("api"), None);
        assert_eq!(
            SessionBranches::parse("api:feat/x").for_alias("web"),
            None,
            "a list naming other sources says nothing about this one"
        );
    }

    #[test]
    fn the_session_wins_then_the_working_branch_never_the_main_one() {
        let b = block();
        assert_eq!(
            expected_work_branch(&b, "api", None),
            (Some("feat/a"), Origin::WorkingBranch)
        );
        assert_eq!(expected_work_branch(&b, "db", None), (None, Origin::None));
        let s = SessionBranches::parse("api:feat/s");
        assert_eq!(
            expected_work_branch(&b, "api", Some(&s)),
            (Some("feat/s"), Origin::Session)
        );
        assert_eq!(
            expected_work_branch(&b, "web", Some(&s)),
            (Some("feat/w"), Origin::WorkingBranch)
        );
        assert_eq!(Origin::Session.as_str(), "session");
        assert_eq!(Origin::WorkingBranch.as_str(), "working_branch");
        assert_eq!(Origin::None.as_str(), "none");
    }

    #[test]
    fn match_dirty_and_divergence() {
        let b = block();
        let on = SourceCheck::new(&b, &src("api"), None, repo("feat/a", &[]));
        assert_eq!(
            (on.matches(), on.dirty(), on.is_repo()),
            (Some(true), Some(false), true)
        );
        let off = SourceCheck::new(&b, &src("web"), None, repo("main", &["x"]));
        assert_eq!((off.matches(), off.dirty()), (Some(false), Some(true)));
        assert_eq!(off.changed_files(), ["x"]);
        let nothing_expected = SourceCheck::new(&b, &src("db"), None, repo("main", &[]));
        assert_eq!(nothing_expected.matches(), None);
        let missing = SourceCheck::new(&b, &src("api"), None, Some(GitState::MissingFolder));
        assert_eq!(
            (missing.matches(), missing.dirty(), missing.is_repo()),
            (None, None, false)
        );
        let unasked = SourceCheck::new(&b, &src("api"), None, None);
        assert_eq!((unasked.matches(), unasked.current_branch()), (None, None));
        let detached = SourceCheck::new(&b, &src("api"), None, repo("HEAD", &[]));
        assert_eq!(detached.matches(), Some(false));
        let all = [on, off, nothing_expected, missing, unasked, detached];
        // Repositories on different branches: every readable one is listed, whatever it expects.
        assert_eq!(
            divergent(&all),
            [
                Divergent {
                    alias: "api".into(),
                    current: "feat/a".into(),
                    expected: Some("feat/a".into())
                },
                Divergent {
                    alias: "web".into(),
                    current: "main".into(),
                    expected: Some("feat/w".into())
                },
                Divergent {
                    alias: "db".into(),
                    current: "main".into(),
                    expected: None
                },
                Divergent {
                    alias: "api".into(),
                    current: "HEAD".into(),
                    expected: Some("feat/a".into())
                },
            ]
        );
        // One repository, or several on one branch, agree even when off their expected branch.
        assert!(divergent(&all[1..2]).is_empty());
        assert!(
            divergent(&all[1..5]).is_empty(),
            "main and main, the others unreadable"
        );
        assert_eq!(GitState::MissingFolder.error_code(), Some("missing_folder"));
        assert_eq!(repo("x", &[]).unwrap().error_code(), None);
    }
}
