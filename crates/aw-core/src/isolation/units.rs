//! The rules of isolation units, over text and values the shell read.
//!
//! - Where units live: `<units root>/<workspace key>/<alias>/<session folder>`, the units root
//!   being `~/.<ns>/worktrees` in its real (symlink-free) spelling, because git reports worktree
//!   paths that way. A unit's branch is `aw/<session folder>`.
//! - [`workspace_key`]: the readable half (the workspace folder's name, made safe for a folder
//!   name) and eight hex digits of the SHA-256 of the workspace's path, so two checkouts of one
//!   project never share units.
//! - [`parse_unit_path`]: a path at or inside a unit read back into its three parts.
//! - [`parse_worktree_porcelain`]: `git worktree list --porcelain` as entries.
//! - [`classify`]: which entries of one source are this workspace's units, and for each whether
//!   its session still works in it or it is an orphan ([`OrphanReason`], first that applies:
//!   its directory is gone, its session folder is gone, its session is closed).

use crate::canonical::sha256_hex;
use crate::session::folder::SessionState;
use schemars::JsonSchema;
use serde::Serialize;

/// Every unit's branch starts with this, and no other branch aw makes does.
pub const UNIT_BRANCH_PREFIX: &str = "aw/";

/// The folder under `~/.<ns>/` that holds every workspace's units.
pub const UNITS_DIR: &str = "worktrees";

/// The units root relative to the user's home: `.<ns>/worktrees`.
pub fn units_dir(ns: &str) -> String {
    format!(".{ns}/{UNITS_DIR}")
}

/// The branch a session works on in each of its units: `aw/<session folder>`.
pub fn unit_branch(session: &str) -> String {
    format!("{UNIT_BRANCH_PREFIX}{session}")
}

/// Whether `name` can be one folder of a unit's path: not empty, not `.` or `..`, without `/`,
/// `\` or a NUL. A source's alias comes from the project block, which a repository carries,
/// so an alias like `../../x` must never place a unit outside the units root.
pub fn is_safe_segment(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// `\` as `/`, and no trailing `/`.
fn normalized(path: &str) -> String {
    path.replace('\\', "/").trim_end_matches('/').to_owned()
}

/// The workspace's key among the units: `<slug>-<hex8>`. `hex8` is the first eight hex digits
/// of the SHA-256 of the path (with `\` as `/` and no trailing `/`, as UTF-8); `slug` is the
/// path's last segment, lower-cased, each run of characters outside `[a-z0-9._-]` as one `-`,
/// with leading and trailing `-` trimmed (`workspace` when nothing is left).
pub fn workspace_key(workspace_dir: &str) -> String {
    let path = normalized(workspace_dir);
    let base = path.rsplit('/').next().unwrap_or_default().to_lowercase();
    let mut slug = String::with_capacity(base.len());
    let mut in_run = false;
    for c in base.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-') {
            slug.push(c);
            in_run = false;
        } else if !in_run {
            slug.push('-');
            in_run = true;
        }
    }
    let slug = slug.trim_matches('-');
    let digest = sha256_hex(path.as_bytes());
    let slug = if slug.is_empty() { "workspace" } else { slug };
    format!("{slug}-{}", &digest[..8])
}

/// The three facts a unit's path encodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitIdentity {
    /// The workspace the unit belongs to ([`workspace_key`]).
    pub workspace_key: String,
    /// The source's alias.
    pub alias: String,
    /// The session's folder name.
    pub session: String,
}

/// The unit a path lies at or inside, or `None` when it is not under `root` with at least
/// three more segments (`workspace key/alias/session`; empty segments do not count). Both
/// paths are compared with `\` as `/` and without a trailing `/`; `root` must be the units
/// root's real spelling, as git reports real paths.
pub fn parse_unit_path(root: &str, path: &str) -> Option<UnitIdentity> {
    let prefix = format!("{}/", normalized(root));
    let target = normalized(path);
    let rest = target.strip_prefix(&prefix)?;
    let mut parts = rest.split('/').filter(|p| !p.is_empty());
    let (key, alias, session) = (parts.next()?, parts.next()?, parts.next()?);
    Some(UnitIdentity {
        workspace_key: key.to_owned(),
        alias: alias.to_owned(),
        session: session.to_owned(),
    })
}

/// One worktree as `git worktree list --porcelain` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeEntry {
    /// Its folder, as git spells it (real path).
    pub path: String,
    /// Its HEAD commit; `None` when git printed none (a bare repository, no commit yet).
    pub head: Option<String>,
    /// Its branch without `refs/heads/`; `None` when detached (or bare).
    pub branch: Option<String>,
    /// The repository's own working tree (or bare directory): always git's first entry.
    pub main: bool,
    /// git found its folder gone (`git worktree prune` would drop it).
    pub prunable: bool,
}

/// Parses `git worktree list --porcelain`: an entry starts at each `worktree <path>` line;
/// `HEAD <sha>`, `branch <ref>` and `prunable [reason]` fill it; a blank line ends it; other
/// lines (`bare`, `detached`, `locked …`) and lines outside an entry are ignored. Each line is
/// trimmed first.
pub fn parse_worktree_porcelain(stdout: &str) -> Vec<WorktreeEntry> {
    let mut entries: Vec<WorktreeEntry> = Vec::new();
    let mut open = false;
    for raw in stdout.split('\n') {
        let line = raw.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if key == "worktree" {
            entries.push(WorktreeEntry {
                path: value.to_owned(),
                head: None,
                branch: None,
                main: entries.is_empty(),
                prunable: false,
            });
            open = true;
            continue;
        }
        let Some(current) = entries.last_mut().filter(|_| open) else {
            continue;
        };
        match key {
            "HEAD" => current.head = Some(value.to_owned()),
            "branch" => {
                current.branch = Some(
                    value
                        .strip_prefix("refs/heads/")
                        .unwrap_or(value)
                        .to_owned(),
                );
            }
            "prunable" => current.prunable = true,
            _ => {}
        }
    }
    entries
}

/// Why a listed unit is no longer its session's working unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OrphanReason {
    /// git reports its folder gone (`prunable`).
    DirectoryMissing,
    /// No session folder of that name exists.
    SessionAbsent,
    /// Its session is closed (`.closed`).
    SessionClosed,
}

impl OrphanReason {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OrphanReason::DirectoryMissing => "directory_missing",
            OrphanReason::SessionAbsent => "session_absent",
            OrphanReason::SessionClosed => "session_closed",
        }
    }
}

/// Why a unit is an orphan, the first that applies: its folder is gone, its session folder is
/// gone (`session` is `None`), its session is closed; `None` when it is live.
pub fn orphan_reason(prunable: bool, session: Option<SessionState>) -> Option<OrphanReason> {
    if prunable {
        return Some(OrphanReason::DirectoryMissing);
    }
    match session {
        None => Some(OrphanReason::SessionAbsent),
        Some(SessionState::Closed) => Some(OrphanReason::SessionClosed),
        Some(SessionState::Active) => None,
    }
}

/// The command printed to give an orphan back.
pub fn release_command(alias: &str, session: &str) -> String {
    format!("aw worktree release --source {alias} --code {session}")
}

/// What a listing looks for in each source's worktrees.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    /// The units root, in its real spelling.
    pub root: &'a str,
    /// This workspace's key.
    pub key: &'a str,
    /// Only this session's units (the resolved folder of `--code`), or all.
    pub only: Option<&'a str>,
}

/// One of this workspace's units found in a source's worktrees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<'e> {
    /// What its path says.
    pub identity: UnitIdentity,
    /// What git said of it.
    pub entry: &'e WorktreeEntry,
    /// `None` for a live unit, else why it is an orphan.
    pub orphan: Option<OrphanReason>,
}

/// This workspace's units among one source's worktrees, in git's order: each entry other than
/// the main one whose path is a unit path under `scope.root` with `scope.key` (and, with
/// `scope.only`, that session), with its standing. `session` answers a session folder's state,
/// `None` when no such folder exists.
pub fn classify<'e>(
    scope: &Scope<'_>,
    entries: &'e [WorktreeEntry],
    session: impl Fn(&str) -> Option<SessionState>,
) -> Vec<Found<'e>> {
    entries
        .iter()
        .filter(|e| !e.main)
        .filter_map(|entry| {
            let identity = parse_unit_path(scope.root, &entry.path)?;
            if identity.workspace_key != scope.key {
                return None;
            }
            if scope.only.is_some_and(|only| only != identity.session) {
                return None;
            }
            let orphan = orphan_reason(entry.prunable, session(&identity.session));
            Some(Found {
                identity,
                entry,
                orphan,
            })
        })
        .collect()
}

/// A live unit as a listing reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveUnit {
    /// The source's alias.
    pub alias: String,
    /// The source's path as the project block writes it (may be relative).
    pub source_path: String,
    /// The session's folder.
    pub session: String,
    /// The unit's folder, as git reports it.
    pub path: String,
    /// git's branch, else the unit branch (`aw/<session>`) for a detached unit.
    pub branch: String,
    /// Whether `git status --porcelain` lists anything in it; `None` when git could not say.
    pub dirty: Option<bool>,
    /// Its HEAD commit, as git reports it.
    pub head: Option<String>,
}

/// A unit nobody works in any more (as `aw status` lists it in `orphan_units`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orphan {
    /// The source's alias.
    pub alias: String,
    /// The session folder its path names.
    pub session: String,
    /// Its folder, as git reports it.
    pub path: String,
    /// git's branch; `None` when detached.
    pub branch: Option<String>,
    /// Why it is an orphan.
    pub reason: OrphanReason,
    /// The command that would give it back ([`release_command`]).
    pub release: String,
}

impl Found<'_> {
    /// The live unit, with its source's path as written and what `git status` said.
    pub fn live(&self, source_path: &str, dirty: Option<bool>) -> LiveUnit {
        LiveUnit {
            alias: self.identity.alias.clone(),
            source_path: source_path.to_owned(),
            session: self.identity.session.clone(),
            path: self.entry.path.clone(),
            branch: self
                .entry
                .branch
                .clone()
                .unwrap_or_else(|| unit_branch(&self.identity.session)),
            dirty,
            head: self.entry.head.clone(),
        }
    }

    /// The orphan, for `reason`.
    pub fn orphaned(&self, reason: OrphanReason) -> Orphan {
        Orphan {
            alias: self.identity.alias.clone(),
            session: self.identity.session.clone(),
            path: self.entry.path.clone(),
            branch: self.entry.branch.clone(),
            reason,
            release: release_command(&self.identity.alias, &self.identity.session),
        }
    }
}

/// A session's unit as the board shows it beside the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitRef {
    /// The source's alias.
    pub alias: String,
    /// The unit's folder.
    pub path: String,
    /// Its branch.
    pub branch: String,
}

impl Inventory {
    /// The live units of `session`, in the inventory's order (sources in the block's order).
    pub fn of_session(&self, session: &str) -> Vec<UnitRef> {
        self.units
            .iter()
            .filter(|u| u.session == session)
            .map(|u| UnitRef {
                alias: u.alias.clone(),
                path: u.path.clone(),
                branch: u.branch.clone(),
            })
            .collect()
    }
}

/// A source whose worktrees could not be read: its units are in neither list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The source's alias.
    pub alias: String,
    /// What git said.
    pub error: String,
}

/// Every unit of a workspace, sources in the project block's order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Inventory {
    /// The workspace's key.
    pub workspace_key: String,
    /// The live units.
    pub units: Vec<LiveUnit>,
    /// The orphans.
    pub orphans: Vec<Orphan>,
    /// The sources whose worktrees could not be read.
    pub unreadable: Vec<Unreadable>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_key_is_the_references_slug_and_digest() {
        // Each expected key was computed with the reference's own `workspaceKey`.
        for (path, key) in [
            ("/tmp/h4/ws", "ws-33ee4efc"),
            ("C:\\Users\\Me\\My Proj\\", "my-proj-ebba07e6"),
            ("/", "workspace-e3b0c442"),
            ("/srv/--Ñandú Déjà.Vu__--/", "and-d-j-.vu__-0e06317c"),
            ("/home/a/Repo_X.v2", "repo_x.v2-150c23ad"),
        ] {
            assert_eq!(workspace_key(path), key, "{path}");
        }
        // The digest is of the whole normalised path: the trailing slash does not count.
        assert_eq!(workspace_key("/tmp/h4/ws/"), workspace_key("/tmp/h4/ws"));
        assert_eq!(
            &workspace_key("/tmp/h4/ws")[3..],
            &sha256_hex(b"/tmp/h4/ws")[..8]
        );
    }

    #[test]
    fn a_unit_path_reads_back_into_its_parts_at_or_inside_the_unit() {
        let root = "/h/.workflow/worktrees";
        let id = |k: &str, a: &str, s: &str| UnitIdentity {
            workspace_key: k.into(),
            alias: a.into(),
            session: s.into(),
        };
        assert_eq!(
            parse_unit_path(root, "/h/.workflow/worktrees/ws-1/app/001-x"),
            Some(id("ws-1", "app", "001-x"))
        );
        // A file inside the unit, a trailing slash on the root, an empty segment, backslashes.
        assert_eq!(
            parse_unit_path(
                "/h/.workflow/worktrees/",
                "/h/.workflow/worktrees//k/app/001-x/src/a.rs"
            ),
            Some(id("k", "app", "001-x"))
        );
        assert_eq!(
            parse_unit_path("C:\\h\\wt", "C:\\h\\wt\\k\\app\\001-x\\"),
            Some(id("k", "app", "001-x"))
        );
        // Too short, outside, or a sibling folder that only shares the prefix's letters.
        assert_eq!(
            parse_unit_path(root, "/h/.workflow/worktrees/ws-1/app"),
            None
        );
        assert_eq!(parse_unit_path(root, "/elsewhere/ws-1/app/001-x"), None);
        assert_eq!(
            parse_unit_path(root, "/h/.workflow/worktrees2/ws-1/app/001-x"),
            None
        );
        assert_eq!(parse_unit_path(root, root), None);
    }

    const PORCELAIN: &str = "worktree /repo\nHEAD 1111111111111111111111111111111111111111\nbranch refs/heads/main\n\n\
worktree /h/wt/k/app/001-x\nHEAD 2222222222222222222222222222222222222222\nbranch refs/heads/aw/001-x\n\n\
worktree /h/wt/k/app/002-y\nHEAD 3333333333333333333333333333333333333333\nbranch refs/heads/aw/002-y\nprunable gitdir file points to non-existent location\n\n\
worktree /h/wt/k/app/003-z\nHEAD 4444444444444444444444444444444444444444\ndetached\nlocked reason here\n\n";

    #[test]
    fn porcelain_entries_carry_head_branch_main_and_prunable() {
        let e = parse_worktree_porcelain(PORCELAIN);
        assert_eq!(e.len(), 4);
        assert!(e[0].main && !e[1].main && !e[3].main);
        assert_eq!(e[0].branch.as_deref(), Some("main"));
        assert_eq!(e[1].path, "/h/wt/k/app/001-x");
        assert_eq!(e[1].branch.as_deref(), Some("aw/001-x"));
        assert_eq!(
            e[1].head.as_deref(),
            Some("2222222222222222222222222222222222222222")
        );
        assert!(!e[1].prunable && e[2].prunable);
        // Detached: no branch; `locked …` is ignored.
        assert_eq!(e[3].branch, None);
        assert!(!e[3].prunable);
        assert_eq!(
            e[3].head.as_deref(),
            Some("4444444444444444444444444444444444444444")
        );
    }

    #[test]
    fn a_bare_main_and_odd_lines_parse_as_git_means_them() {
        let e = parse_worktree_porcelain(
            "worktree /srv/repo.git\nbare\n\nworktree /h/wt/a b/app/001-x\r\nHEAD abc\r\nbranch refs/heads/aw/001-x\r\n\nHEAD stray\n",
        );
        assert_eq!(e.len(), 2);
        assert!(e[0].main);
        assert_eq!((e[0].head.as_deref(), e[0].branch.as_deref()), (None, None));
        // A path with a space, CRLF line ends.
        assert_eq!(e[1].path, "/h/wt/a b/app/001-x");
        assert_eq!(e[1].branch.as_deref(), Some("aw/001-x"));
        // A line after a blank line, outside any entry, fills nothing.
        assert_eq!(e[1].head.as_deref(), Some("abc"));
        assert!(parse_worktree_porcelain("").is_empty());
    }

    #[test]
    fn orphan_reasons_apply_in_their_order() {
        use OrphanReason::*;
        use SessionState::*;
        assert_eq!(orphan_reason(true, Some(Active)), Some(DirectoryMissing));
        assert_eq!(orphan_reason(true, None), Some(DirectoryMissing));
        assert_eq!(orphan_reason(true, Some(Closed)), Some(DirectoryMissing));
        assert_eq!(orphan_reason(false, None), Some(SessionAbsent));
        assert_eq!(orphan_reason(false, Some(Closed)), Some(SessionClosed));
        assert_eq!(orphan_reason(false, Some(Active)), None);
        assert_eq!(
            serde_json::to_value([DirectoryMissing, SessionAbsent, SessionClosed]).unwrap(),
            serde_json::json!(["directory_missing", "session_absent", "session_closed"])
        );
        for r in [DirectoryMissing, SessionAbsent, SessionClosed] {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
    }

    #[test]
    fn classification_keeps_this_workspaces_units_with_their_standing() {
        let text = format!(
            "{PORCELAIN}worktree /h/wt/other-key/app/001-x\nHEAD 5\nbranch refs/heads/aw/001-x\n\n\
worktree /elsewhere/feature\nHEAD 6\nbranch refs/heads/feature\n\n\
worktree /h/wt/k/app/004-gone\nHEAD 7\nbranch refs/heads/aw/004-gone\n\n"
        );
        let entries = parse_worktree_porcelain(&text);
        let states = |s: &str| match s {
            "001-x" | "002-y" => Some(SessionState::Active),
            "003-z" => Some(SessionState::Closed),
            _ => None,
        };
        let scope = Scope {
            root: "/h/wt",
            key: "k",
            only: None,
        };
        let found = classify(&scope, &entries, states);
        let got: Vec<(&str, Option<OrphanReason>)> = found
            .iter()
            .map(|f| (f.identity.session.as_str(), f.orphan))
            .collect();
        assert_eq!(
            got,
            [
                ("001-x", None),
                ("002-y", Some(OrphanReason::DirectoryMissing)),
                ("003-z", Some(OrphanReason::SessionClosed)),
                ("004-gone", Some(OrphanReason::SessionAbsent)),
            ]
        );
        // A live unit: the block's path as written, a detached one's branch is the unit branch.
        let live = found[0].live(".", Some(false));
        assert_eq!(
            (
                live.alias.as_str(),
                live.source_path.as_str(),
                live.branch.as_str()
            ),
            ("app", ".", "aw/001-x")
        );
        let detached = Found {
            orphan: None,
            ..found[2].clone()
        }
        .live("../app", None);
        assert_eq!(detached.branch, "aw/003-z");
        assert_eq!(detached.dirty, None);
        // An orphan keeps git's branch (none when detached) and names its release command.
        let o = found[2].orphaned(OrphanReason::SessionClosed);
        assert_eq!(o.branch, None);
        assert_eq!(o.release, "aw worktree release --source app --code 003-z");
        // Narrowed to one session.
        let only = classify(
            &Scope {
                only: Some("002-y"),
                ..scope
            },
            &entries,
            states,
        );
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].identity.session, "002-y");
    }

    #[test]
    fn the_main_worktree_is_never_a_unit_even_under_the_root() {
        let entries = parse_worktree_porcelain("worktree /h/wt/k/app/001-x\nHEAD 1\n\n");
        let scope = Scope {
            root: "/h/wt",
            key: "k",
            only: None,
        };
        assert!(classify(&scope, &entries, |_| Some(SessionState::Active)).is_empty());
    }

    #[test]
    fn an_alias_is_one_plain_segment() {
        for ok in ["app", "my-api", "web_2", "v1.2", "Ñandú"] {
            assert!(is_safe_segment(ok), "{ok}");
        }
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "/abs", "a\0b"] {
            assert!(!is_safe_segment(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_units_dir_and_branch_are_named_after_the_namespace_and_session() {
        assert_eq!(units_dir("workflow"), ".workflow/worktrees");
        assert_eq!(unit_branch("001-x-plan-exec"), "aw/001-x-plan-exec");
    }
}
