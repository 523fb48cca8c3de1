//! What `aw hook branch-check` decides before a host lets an agent edit a file: the edit is
//! blocked when the file belongs to a declared source that is not on its working branch.
//!
//! - **The payload.** The host's JSON names the tool (`tool_name`) and the file
//!   (`tool_input.file_path`, else `path`, else `notebook_path`), and may give the folder the
//!   conversation runs in (`cwd`), against which a relative path is taken. A payload without a
//!   file names no edit to judge; empty text, text that is not JSON and JSON that is not an object
//!   are no edit either (the reference exits 0 on them too).
//! - **The owner.** The source whose folder holds the file; with nested sources (`.` and
//!   `./api`), the deepest one.
//! - **The verdict.** Blocked only when the owner expects a working branch and its HEAD is on
//!   another one (a detached `HEAD` included, except during a rebase of the working branch).
//!   Anything unknown about the repository (no working branch declared, a folder that is not a
//!   repository, git missing or failing) allows: the hook never blocks on a repository it could
//!   not read.
//! - **Fail closed on what cannot be judged.** An edit the hook cannot judge — a payload larger
//!   than [`MAX_PAYLOAD_BYTES`], or cut short, or nested too deep to read, a path longer than
//!   [`MAX_PATH_BYTES`] or holding a NUL, more than [`MAX_FILES`] files, no answer within the
//!   time budget ([`BUDGET`], kept below the host's timeout, past which the host would let the
//!   edit through) — is refused with the reason ([`Unjudgeable`]), as the reference refuses an
//!   edit whose session it cannot resolve. Every bound is far above any real edit.

use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The largest payload judged. A `Write` carries the whole file it writes, so the bound is that
/// of a file an agent writes in one call; past it the payload cannot be read whole.
pub const MAX_PAYLOAD_BYTES: usize = 64 << 20;

/// The longest path judged (the edited file or the payload's `cwd`), in bytes: eight times
/// Linux's `PATH_MAX` (4096) and above Windows' longest path (32,767 UTF-16 units of ASCII), so
/// no real file is refused for its length.
pub const MAX_PATH_BYTES: usize = 32 << 10;

/// The most distinct files one payload may name (a patch names several): a patch touching more
/// is a generated one, not an agent's edit.
pub const MAX_FILES: usize = 10_000;

/// How long the hook may take from its start to its answer. aw installs the hook with a 15 s
/// timeout, past which a host lets the edit through unjudged; an answer due at 10 s leaves room
/// for the process to start and the host to read it.
pub const BUDGET: Duration = Duration::from_secs(10);

/// The edit a host is about to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditedFile {
    /// `tool_name`, when given.
    pub tool: Option<String>,
    /// The file, as the host wrote it.
    pub path: String,
    /// The payload's `cwd`, when given.
    pub cwd: Option<String>,
    /// The payload's `session_id` (the host conversation), when given and not empty: who is
    /// editing, for the unit rule.
    pub session_id: Option<String>,
}

/// What a hook payload is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Empty, not JSON, or JSON that is not an object: no edit (exit 0, as the reference).
    NotAnObject,
    /// A JSON object, and every distinct file it edits (none when it names no file).
    Edits(Vec<EditedFile>),
}

/// Why the hook cannot judge an edit. Each one refuses the edit (exit 2) with [`advice`].
///
/// [`advice`]: Unjudgeable::advice
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unjudgeable {
    /// The payload is larger than the bound (it was not read whole).
    PayloadTooLarge {
        /// The bound, in bytes.
        limit: usize,
    },
    /// Stdin stayed open past the reading time and what had arrived is not whole JSON.
    PayloadCut {
        /// The bytes that had arrived.
        received: usize,
    },
    /// The payload opens an object nested deeper than can be read safely.
    TooDeep {
        /// Its nesting depth.
        depth: usize,
    },
    /// A path (the file or `cwd`) longer than [`MAX_PATH_BYTES`].
    PathTooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// A path holding a NUL byte, which names no file on any system.
    PathWithNul,
    /// More than [`MAX_FILES`] distinct files in one payload.
    TooManyFiles,
    /// The verdict was not reached within the time budget (a slow filesystem, a git that does
    /// not answer).
    OutOfTime {
        /// The budget, in milliseconds.
        budget_ms: u128,
    },
}

impl Unjudgeable {
    /// What the hook prints on stderr: the edit was refused, why, and what to do.
    pub fn advice(&self) -> String {
        let (why, next) = match self {
            Unjudgeable::PayloadTooLarge { limit } => (
                format!(
                    "the host's payload is larger than {} MiB, too large to read whole",
                    limit >> 20
                ),
                "make the change in smaller edits (a file written in parts, or a patch split \
                 in several)"
                    .to_owned(),
            ),
            Unjudgeable::PayloadCut { received } => (
                format!(
                    "the host's payload did not arrive whole in time (stdin stayed open after \
                     {received} bytes)"
                ),
                "retry the edit; a hook command run by hand needs its JSON piped and stdin \
                 closed (`aw hook branch-check < payload.json`)"
                    .to_owned(),
            ),
            Unjudgeable::TooDeep { depth } => (
                format!(
                    "the host's payload is nested {depth} levels deep (at most {} are read)",
                    aw_json::MAX_DEPTH
                ),
                "retry the edit with plain arguments (a file path and its text)".to_owned(),
            ),
            Unjudgeable::PathTooLong { bytes } => (
                format!(
                    "a path in the payload is {bytes} bytes long (at most {MAX_PATH_BYTES} are \
                     judged; no file system takes such a path)"
                ),
                "edit the file under its real, shorter path".to_owned(),
            ),
            Unjudgeable::PathWithNul => (
                "a path in the payload holds a NUL byte, which names no file".to_owned(),
                "edit the file under its real path".to_owned(),
            ),
            Unjudgeable::TooManyFiles => (
                format!("the edit names more than {MAX_FILES} files"),
                format!("split the patch in several, each naming at most {MAX_FILES} files"),
            ),
            Unjudgeable::OutOfTime { budget_ms } => (
                format!(
                    "the branch could not be checked within {budget_ms} ms (the file system or \
                     git did not answer in time)"
                ),
                "retry the edit; if this repeats, check that `git branch --show-current` \
                 answers quickly in the source's folder (AW_HOOK_BUDGET_MS sets the time \
                 budget, below the host's hook timeout)"
                    .to_owned(),
            ),
        };
        format!(
            "aw branch-check: edit refused: {why}.\nAn edit the hook cannot judge is refused, so \
             that none lands on a source off its working branch unchecked.\nNext: {next}.\n"
        )
    }
}

/// What a hook payload edits: the file a file tool names (`tool_input.file_path`, `path` or
/// `notebook_path`), else each distinct file a patch names (Codex's `apply_patch` carries the
/// patch text, not a path: its `*** Add File:`, `*** Update File:`, `*** Delete File:` and
/// `*** Move to:` lines), in order. Linear in the payload; an edit past a bound is
/// [`Unjudgeable`].
pub fn parse_payload(payload: &str) -> Result<Payload, Unjudgeable> {
    let text = payload.trim_start_matches('\u{feff}');
    let v: Value = match aw_json::parse_bounded(text) {
        Ok(v) => v,
        // An object too deep to read may be an edit; anything else that does not parse is not
        // JSON (no edit).
        Err(_) if text.trim_start().starts_with('{') => {
            let depth = aw_json::nesting_depth(text);
            if depth > aw_json::MAX_DEPTH {
                return Err(Unjudgeable::TooDeep { depth });
            }
            return Ok(Payload::NotAnObject);
        }
        Err(_) => return Ok(Payload::NotAnObject),
    };
    if !v.is_object() {
        return Ok(Payload::NotAnObject);
    }
    let Some(input) = v.get("tool_input") else {
        return Ok(Payload::Edits(Vec::new()));
    };
    let text = |k: &str| v.get(k).and_then(Value::as_str);
    let cwd = text("cwd").map(checked_path).transpose()?;
    let session_id = text("session_id").filter(|s| !s.is_empty());
    let edit = |path: &str| EditedFile {
        tool: text("tool_name").map(str::to_owned),
        path: path.to_owned(),
        cwd: cwd.map(str::to_owned),
        session_id: session_id.map(str::to_owned),
    };
    let named = ["file_path", "path", "notebook_path"]
        .iter()
        .find_map(|k| input.get(*k)?.as_str().filter(|s| !s.trim().is_empty()));
    if let Some(path) = named {
        return Ok(Payload::Edits(vec![edit(checked_path(path)?)]));
    }
    // A patch given as text: under `command` (a string, or the argv whose last item is the
    // patch), `patch` or `input`.
    let patch_texts = ["command", "patch", "input"]
        .iter()
        .filter_map(|k| input.get(*k))
        .flat_map(|v| match v {
            Value::String(s) => vec![s.as_str()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        });
    let mut seen: HashSet<&str> = HashSet::new();
    let mut edits = Vec::new();
    for path in patch_texts.flat_map(patch_files) {
        let path = checked_path(path)?;
        if seen.insert(path) {
            if edits.len() == MAX_FILES {
                return Err(Unjudgeable::TooManyFiles);
            }
            edits.push(edit(path));
        }
    }
    Ok(Payload::Edits(edits))
}

/// `path` when it can name a file: not past [`MAX_PATH_BYTES`], no NUL.
fn checked_path(path: &str) -> Result<&str, Unjudgeable> {
    if path.len() > MAX_PATH_BYTES {
        return Err(Unjudgeable::PathTooLong { bytes: path.len() });
    }
    if path.contains('\0') {
        return Err(Unjudgeable::PathWithNul);
    }
    Ok(path)
}

/// The files a patch in the `apply_patch` format names, in order.
fn patch_files(patch: &str) -> impl Iterator<Item = &str> {
    const HEADS: [&str; 4] = [
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    patch.lines().filter_map(|line| {
        let line = line.trim_start();
        HEADS
            .iter()
            .find_map(|h| line.strip_prefix(h))
            .map(str::trim)
            .filter(|p| !p.is_empty())
    })
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

/// Where a source's HEAD is, as the shell read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// On a branch: its own short name (`feat/x`, never `heads/feat/x`).
    Branch(String),
    /// Detached; `rebasing` names the branch a rebase or `git am` stopped in this work tree is
    /// rewriting, if one is.
    Detached {
        /// The branch being rebased.
        rebasing: Option<String>,
    },
    /// Not established: the folder is missing or not a repository, git is missing or failed.
    Unknown,
}

/// An edit the hook refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The file, as the host wrote it.
    pub file: String,
    /// The source.
    pub alias: String,
    /// Its folder.
    pub folder: String,
    /// The branch it is on (`HEAD` when detached).
    pub current: String,
    /// The branch it is expected on.
    pub expected: String,
    /// How many files it has uncommitted, when counted (the count only shapes the advice, so a
    /// count git could not give in time is left out).
    pub changed: Option<usize>,
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
    /// The source is on its working branch (or rebasing it).
    OnBranch,
    /// The file is the workspace's own state (`.<ns>/`: sessions, checkpoints), written on any
    /// branch.
    WorkspaceState,
    /// The source has isolation units and the file is in the editing session's own
    /// (`aw_core::isolation::unit_check`).
    InOwnUnit,
}

/// The hook's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the edit through (exit 0).
    Allow(Allowed),
    /// Refuse it: the source is off its working branch (exit 2).
    Block(Blocked),
    /// Refuse it: the edit cannot be judged (exit 2).
    Unjudgeable(Unjudgeable),
}

/// The verdict for an edit of `file` in the source `alias` (at `folder`), expected on `expected`,
/// whose HEAD is `head`. A rebase (or `git am`) of the working branch detaches HEAD while it
/// runs: resolving its conflicts is work on that branch.
pub fn decide(
    file: &str,
    alias: &str,
    folder: &Path,
    expected: Option<&str>,
    head: &Head,
) -> Verdict {
    let Some(expected) = expected else {
        return Verdict::Allow(Allowed::NoWorkingBranch);
    };
    let current = match head {
        Head::Unknown => return Verdict::Allow(Allowed::BranchUnknown),
        Head::Branch(b) if b == expected => return Verdict::Allow(Allowed::OnBranch),
        Head::Detached { rebasing: Some(b) } if b == expected => {
            return Verdict::Allow(Allowed::OnBranch);
        }
        Head::Branch(b) => b.clone(),
        Head::Detached { .. } => "HEAD".to_owned(),
    };
    Verdict::Block(Blocked {
        file: file.to_owned(),
        alias: alias.to_owned(),
        folder: folder.display().to_string(),
        current,
        expected: expected.to_owned(),
        changed: None,
    })
}

impl Blocked {
    /// What the hook prints on stderr: what was refused and why, and the two ways on, the
    /// checkout advice depending on whether the source has uncommitted changes. `program` is
    /// how the commands it names run aw (`aw`, or its path when `aw` on `PATH` is not it).
    pub fn advice(&self, program: &str) -> String {
        let on = if self.current == "HEAD" {
            "a detached HEAD".to_owned()
        } else {
            format!("branch `{}`", self.current)
        };
        let checkout = format!("git -C {} checkout {}", quoted(&self.folder), self.expected);
        let stash = format!("git -C {} stash", quoted(&self.folder));
        let first = match self.changed {
            Some(0) => format!("- switch the source to its working branch: `{checkout}`;"),
            Some(n) => format!(
                "- switch the source to its working branch; it has {n} uncommitted file(s), so \
                 commit or stash them first (`{stash}`), then `{checkout}`;"
            ),
            None => format!(
                "- switch the source to its working branch (commit or stash any uncommitted \
                 files first: `{stash}`), then `{checkout}`;"
            ),
        };
        format!(
            "aw branch-check: edit of {file} refused.\nThe source `{alias}` ({folder}) is on {on}, \
             but its working branch is `{expected}`.\nNext:\n{first}\n- or, if `{current}` is \
             where this work belongs, record it: `{program} set-working-branch {alias} {current}`.\n",
            file = self.file,
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

    fn branch(b: &str) -> Head {
        Head::Branch(b.into())
    }

    fn blocked(folder: &str, changed: Option<usize>) -> Blocked {
        let Verdict::Block(mut b) = decide(
            "a.rs",
            "api",
            Path::new(folder),
            Some("feat/x"),
            &branch("main"),
        ) else {
            panic!("blocks");
        };
        b.changed = changed;
        b
    }

    /// The files a payload edits (none for a payload that is no edit).
    fn edited_files(payload: &str) -> Vec<EditedFile> {
        match parse_payload(payload) {
            Ok(Payload::Edits(e)) => e,
            Ok(Payload::NotAnObject) => Vec::new(),
            Err(u) => panic!("unjudgeable: {u:?}"),
        }
    }

    /// The first edit a payload names, as the hook judges a file tool's payload.
    fn edited_file(payload: &str) -> Option<EditedFile> {
        edited_files(payload).into_iter().next()
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
    fn empty_text_not_json_and_non_objects_are_no_edit() {
        for text in [
            "",
            "  ",
            "{not json",
            "[]",
            "3",
            "\"x\"",
            "null",
            "\u{feff}",
        ] {
            assert_eq!(parse_payload(text), Ok(Payload::NotAnObject), "{text:?}");
        }
        // Deep text that does not open an object is not an edit either, however deep.
        let deep_array = "[".repeat(5_000) + &"]".repeat(5_000);
        assert_eq!(parse_payload(&deep_array), Ok(Payload::NotAnObject));
    }

    #[test]
    fn an_edit_past_a_bound_is_unjudgeable_not_allowed() {
        let file = |p: &str| {
            serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": p}}).to_string()
        };
        let long = "a/".repeat(MAX_PATH_BYTES / 2) + "x.rs";
        assert_eq!(
            parse_payload(&file(&long)),
            Err(Unjudgeable::PathTooLong { bytes: long.len() })
        );
        let at_bound = "a".repeat(MAX_PATH_BYTES);
        assert!(matches!(parse_payload(&file(&at_bound)), Ok(Payload::Edits(e)) if e.len() == 1));
        assert_eq!(parse_payload(&file("a\0b")), Err(Unjudgeable::PathWithNul));
        let long_cwd = serde_json::json!({"cwd": long, "tool_input": {"file_path": "a.rs"}});
        assert!(matches!(
            parse_payload(&long_cwd.to_string()),
            Err(Unjudgeable::PathTooLong { .. })
        ));
        // An object nested past the reader's depth might be an edit: refused, not read.
        let deep = format!(
            "{{\"tool_input\":{{\"file_path\":\"a.rs\"}},\"x\":{}{}}}",
            "[".repeat(aw_json::MAX_DEPTH + 10),
            "]".repeat(aw_json::MAX_DEPTH + 10)
        );
        assert!(matches!(
            parse_payload(&deep),
            Err(Unjudgeable::TooDeep { .. })
        ));
    }

    #[test]
    fn a_patch_names_each_distinct_file_once_and_at_most_the_bound() {
        let patch = |n: usize, repeat: usize| {
            let mut text = String::from("*** Begin Patch\n");
            for _ in 0..repeat {
                for i in 0..n {
                    text.push_str(&format!("*** Update File: f{i}.rs\n@@\n-a\n+b\n"));
                }
            }
            serde_json::json!({"tool_input": {"patch": text}}).to_string()
        };
        assert_eq!(edited_files(&patch(3, 1_000)).len(), 3, "deduplicated");
        assert_eq!(edited_files(&patch(MAX_FILES, 1)).len(), MAX_FILES);
        assert_eq!(
            parse_payload(&patch(MAX_FILES + 1, 1)),
            Err(Unjudgeable::TooManyFiles)
        );
    }

    #[test]
    fn every_refusal_says_why_and_what_to_do() {
        for u in [
            Unjudgeable::PayloadTooLarge {
                limit: MAX_PAYLOAD_BYTES,
            },
            Unjudgeable::PayloadCut { received: 10 },
            Unjudgeable::TooDeep { depth: 600 },
            Unjudgeable::PathTooLong { bytes: 1 << 20 },
            Unjudgeable::PathWithNul,
            Unjudgeable::TooManyFiles,
            Unjudgeable::OutOfTime { budget_ms: 10_000 },
        ] {
            let text = u.advice();
            assert!(
                text.starts_with("aw branch-check: edit refused: "),
                "{text}"
            );
            assert!(text.contains("\nNext: "), "{text}");
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
            decide("a.rs", "api", f, None, &branch("main")),
            Verdict::Allow(Allowed::NoWorkingBranch)
        );
        assert_eq!(
            decide("a.rs", "api", f, Some("feat/x"), &Head::Unknown),
            Verdict::Allow(Allowed::BranchUnknown)
        );
        assert_eq!(
            decide("a.rs", "api", f, Some("feat/x"), &branch("feat/x")),
            Verdict::Allow(Allowed::OnBranch)
        );
        let Verdict::Block(b) = decide("a.rs", "api", f, Some("feat/x"), &branch("main")) else {
            panic!("blocks");
        };
        assert_eq!(
            (b.current.as_str(), b.expected.as_str()),
            ("main", "feat/x")
        );
        let detached = decide(
            "a.rs",
            "api",
            f,
            Some("feat/x"),
            &Head::Detached { rebasing: None },
        );
        assert!(matches!(detached, Verdict::Block(b) if b.current == "HEAD"));
    }

    #[test]
    fn a_rebase_of_the_working_branch_is_work_on_it_and_of_another_is_not() {
        let f = Path::new("/w/api");
        let rebasing = |b: &str| Head::Detached {
            rebasing: Some(b.into()),
        };
        assert_eq!(
            decide("a.rs", "api", f, Some("feat/x"), &rebasing("feat/x")),
            Verdict::Allow(Allowed::OnBranch)
        );
        assert!(matches!(
            decide("a.rs", "api", f, Some("feat/x"), &rebasing("other")),
            Verdict::Block(_)
        ));
    }

    #[test]
    fn the_advice_names_both_ways_on_and_the_stash_when_dirty() {
        let text = blocked("/w/my api", Some(0)).advice("aw");
        assert!(
            text.contains("git -C '/w/my api' checkout feat/x"),
            "{text}"
        );
        assert!(text.contains("aw set-working-branch api main"), "{text}");
        assert!(!text.contains("stash"), "{text}");
        let text = blocked("/w/api", Some(3)).advice("aw");
        assert!(
            text.contains("3 uncommitted") && text.contains("git -C /w/api stash"),
            "{text}"
        );
        // Not counted in time: both steps, without a count.
        let text = blocked("/w/api", None).advice("aw");
        assert!(
            text.contains("any uncommitted") && text.contains("checkout feat/x"),
            "{text}"
        );
        // Where `aw` on PATH is not this program, the command names the program that runs.
        let text = blocked("/w/api", Some(0)).advice("'/opt/my tools/aw'");
        assert!(
            text.contains("`'/opt/my tools/aw' set-working-branch api main`"),
            "{text}"
        );
    }
}
