//! What `aw hook branch-check` decides before a host lets an agent edit a file: the edit is
//! blocked when the file belongs to a declared source that is not on its working branch.
//!
//! - **The payload.** The host's JSON names the tool (`tool_name`) and the file
//!   (`tool_input.file_path`, else `path`, else `notebook_path`), and may give the folder the
//!   conversation runs in (`cwd`), against which a relative path is taken. A payload without a
//!   file names no edit to judge.
//! - **The owner.** The source whose folder holds the file; with nested sources (`.` and
//!   `./api`), the deepest one.
//! - **The verdict.** Blocked only when the owner expects a working branch and git says it is on
//!   another one (a detached `HEAD` included). Anything unknown (no working branch declared, a
//!   folder that is not a repository, git missing or failing) allows: the hook never blocks on
//!   what it could not establish.

use super::sources::GitState;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The edit a host is about to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditedFile {
    /// `tool_name`, when given.
    pub tool: Option<String>,
    /// The file, as the host wrote it.
    pub path: String,
    /// The payload's `cwd`, when given.
    pub cwd: Option<String>,
}

/// Every file a hook payload edits: the one a file tool names (`tool_input.file_path`, `path`
/// or `notebook_path`), else each file a patch names (Codex's `apply_patch` carries the patch
/// text, not a path: its `*** Add File:`, `*** Update File:`, `*** Delete File:` and
/// `*** Move to:` lines). Empty for text that is not a JSON object or names no file.
pub fn edited_files(payload: &str) -> Vec<EditedFile> {
    let Ok(v) = serde_json::from_str::<Value>(payload.trim_start_matches('\u{feff}')) else {
        return Vec::new();
    };
    let Some(input) = v.get("tool_input") else {
        return Vec::new();
    };
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let edit = |path: &str| EditedFile {
        tool: text("tool_name"),
        path: path.to_owned(),
        cwd: text("cwd"),
    };
    let named = ["file_path", "path", "notebook_path"]
        .iter()
        .find_map(|k| input.get(*k)?.as_str().filter(|s| !s.trim().is_empty()));
    if let Some(path) = named {
        return vec![edit(path)];
    }
    // A patch given as text: under `command` (a string, or the argv whose last item is the
    // patch), `patch` or `input`.
    let patch_texts: Vec<&str> = ["command", "patch", "input"]
        .iter()
        .filter_map(|k| input.get(*k))
        .flat_map(|v| match v {
            Value::String(s) => vec![s.as_str()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    patch_texts
        .iter()
        .flat_map(|t| patch_files(t))
        .map(edit)
        .collect()
}

/// The files a patch in the `apply_patch` format names, in order.
fn patch_files(patch: &str) -> Vec<&str> {
    const HEADS: [&str; 4] = [
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            HEADS
                .iter()
                .find_map(|h| line.strip_prefix(h))
                .map(str::trim)
                .filter(|p| !p.is_empty())
        })
        .collect()
}

/// A declared source and the folder it resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFolder {
    /// The alias.
    pub alias: String,
    /// The resolved folder.
    pub folder: PathBuf,
}

/// The source whose folder holds `file` (both resolved the same way), the deepest one when
/// several do.
pub fn owner<'a>(file: &Path, sources: &'a [SourceFolder]) -> Option<&'a SourceFolder> {
    sources
        .iter()
        .filter(|s| file.starts_with(&s.folder))
        .max_by_key(|s| s.folder.components().count())
}

/// An edit the hook refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The source.
    pub alias: String,
    /// Its folder.
    pub folder: String,
    /// The branch it is on.
    pub current: String,
    /// The branch it is expected on.
    pub expected: String,
    /// How many files it has uncommitted.
    pub changed: usize,
}

/// Why an edit is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// The payload names no file, or the hook could not look (no workspace, no block).
    Unjudged,
    /// The file is in no declared source.
    OutsideSources,
    /// The source declares no working branch.
    NoWorkingBranch,
    /// Git could not say which branch the source is on.
    BranchUnknown,
    /// The source is on its working branch.
    OnBranch,
    /// The file is the workspace's own state (`.<ns>/`: sessions, checkpoints), written on any
    /// branch.
    WorkspaceState,
}

/// The hook's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the edit through (exit 0).
    Allow(Allowed),
    /// Refuse it (exit 2).
    Block(Blocked),
}

/// The verdict for an edit in the source `alias` (at `folder`), expected on `expected`, of which
/// git said `git`.
pub fn decide(alias: &str, folder: &Path, expected: Option<&str>, git: &GitState) -> Verdict {
    let Some(expected) = expected else {
        return Verdict::Allow(Allowed::NoWorkingBranch);
    };
    let GitState::Repo {
        branch,
        changed_files,
    } = git
    else {
        return Verdict::Allow(Allowed::BranchUnknown);
    };
    if branch == expected {
        return Verdict::Allow(Allowed::OnBranch);
    }
    Verdict::Block(Blocked {
        alias: alias.to_owned(),
        folder: folder.display().to_string(),
        current: branch.clone(),
        expected: expected.to_owned(),
        changed: changed_files.len(),
    })
}

impl Blocked {
    /// What the hook prints on stderr: what was refused and why, and the two ways on, the
    /// checkout advice depending on whether the source has uncommitted changes.
    pub fn advice(&self, file: &str) -> String {
        let on = if self.current == "HEAD" {
            "a detached HEAD".to_owned()
        } else {
            format!("branch `{}`", self.current)
        };
        let checkout = format!("git -C {} checkout {}", quoted(&self.folder), self.expected);
        let first = if self.changed == 0 {
            format!("- switch the source to its working branch: `{checkout}`;")
        } else {
            format!(
                "- switch the source to its working branch; it has {} uncommitted file(s), so \
                 commit or stash them first (`git -C {} stash`), then `{checkout}`;",
                self.changed,
                quoted(&self.folder)
            )
        };
        format!(
            "aw branch-check: edit of {file} refused.\nThe source `{alias}` ({folder}) is on {on}, \
             but its working branch is `{expected}`.\nNext:\n{first}\n- or, if `{current}` is \
             where this work belongs, record it: `aw set-working-branch {alias} {current}`.\n",
            alias = self.alias,
            folder = self.folder,
            expected = self.expected,
            current = self.current,
        )
    }
}

/// A path as a shell word: single-quoted when it holds anything but plain characters.
fn quoted(path: &str) -> String {
    if !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(branch: &str, changed: usize) -> GitState {
        GitState::Repo {
            branch: branch.into(),
            changed_files: (0..changed).map(|i| format!("f{i}")).collect(),
        }
    }

    #[test]
    fn the_payload_names_the_file_under_any_of_three_keys() {
        let e = edited_file(
            r#"{"tool_name":"Edit","cwd":"/w","tool_input":{"file_path":"/w/api/a.rs"}}"#,
        )
        .unwrap();
        assert_eq!(e.tool.as_deref(), Some("Edit"));
        assert_eq!(
            (e.path.as_str(), e.cwd.as_deref()),
            ("/w/api/a.rs", Some("/w"))
        );
        let p = edited_file(r#"{"tool_input":{"path":"a.rs"}}"#).unwrap();
        assert_eq!(p.path, "a.rs");
        let n = edited_file(r#"{"tool_input":{"notebook_path":"n.ipynb"}}"#).unwrap();
        assert_eq!(n.path, "n.ipynb");
        for bad in [
            "",
            "not json",
            "[]",
            r#"{"tool_input":{}}"#,
            r#"{"tool_input":{"file_path":" "}}"#,
            r#"{"tool_input":{"file_path":3}}"#,
        ] {
            assert_eq!(edited_file(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_deepest_source_holding_the_file_owns_it() {
        let s = |a: &str, f: &str| SourceFolder {
            alias: a.into(),
            folder: f.into(),
        };
        let sources = [s("root", "/w"), s("api", "/w/api"), s("web", "/w/web")];
        assert_eq!(
            owner(Path::new("/w/api/x.rs"), &sources).unwrap().alias,
            "api"
        );
        assert_eq!(
            owner(Path::new("/w/notes.md"), &sources).unwrap().alias,
            "root"
        );
        assert_eq!(
            owner(Path::new("/w/apis/x"), &sources).unwrap().alias,
            "root"
        );
        assert_eq!(owner(Path::new("/elsewhere/x"), &sources), None);
    }

    /// The first edit a payload names, as the hook judges a file tool's payload.
    fn edited_file(payload: &str) -> Option<EditedFile> {
        edited_files(payload).into_iter().next()
    }

    #[test]
    fn a_patch_names_every_file_it_adds_updates_deletes_or_moves_to() {
        let patch = "*** Begin Patch\n*** Add File: a.rs\n+x\n*** Update File: b.rs\n\
                     *** Move to: c.rs\n@@\n*** Delete File: d.rs\n*** End Patch";
        let payload = serde_json::json!({"tool_name": "apply_patch",
            "tool_input": {"command": ["apply_patch", patch]}})
        .to_string();
        let paths: Vec<String> = edited_files(&payload).into_iter().map(|e| e.path).collect();
        assert_eq!(paths, ["a.rs", "b.rs", "c.rs", "d.rs"]);
        // A file tool's own path wins; a payload naming nothing names nothing.
        let named = r#"{"tool_input": {"file_path": "x.rs", "command": "*** Add File: y.rs"}}"#;
        assert_eq!(edited_files(named).len(), 1);
        assert!(edited_files(r#"{"tool_input": {"command": "ls"}}"#).is_empty());
    }

    #[test]
    fn only_a_known_other_branch_blocks() {
        let f = Path::new("/w/api");
        assert_eq!(
            decide("api", f, None, &repo("main", 0)),
            Verdict::Allow(Allowed::NoWorkingBranch)
        );
        assert_eq!(
            decide("api", f, Some("feat/x"), &GitState::NotARepository),
            Verdict::Allow(Allowed::BranchUnknown)
        );
        assert_eq!(
            decide("api", f, Some("feat/x"), &repo("feat/x", 2)),
            Verdict::Allow(Allowed::OnBranch)
        );
        let Verdict::Block(b) = decide("api", f, Some("feat/x"), &repo("main", 0)) else {
            panic!("blocks");
        };
        assert_eq!(
            (b.current.as_str(), b.expected.as_str()),
            ("main", "feat/x")
        );
        assert!(matches!(
            decide("api", f, Some("feat/x"), &repo("HEAD", 0)),
            Verdict::Block(_)
        ));
    }

    #[test]
    fn the_advice_names_both_ways_on_and_the_stash_when_dirty() {
        let Verdict::Block(clean) = decide(
            "api",
            Path::new("/w/my api"),
            Some("feat/x"),
            &repo("main", 0),
        ) else {
            panic!()
        };
        let text = clean.advice("/w/my api/a.rs");
        assert!(
            text.contains("git -C '/w/my api' checkout feat/x"),
            "{text}"
        );
        assert!(text.contains("aw set-working-branch api main"), "{text}");
        assert!(!text.contains("stash"), "{text}");
        let Verdict::Block(dirty) =
            decide("api", Path::new("/w/api"), Some("feat/x"), &repo("main", 3))
        else {
            panic!()
        };
        let text = dirty.advice("a.rs");
        assert!(
            text.contains("3 uncommitted") && text.contains("git -C /w/api stash"),
            "{text}"
        );
    }
}
