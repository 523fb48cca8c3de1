//! What `aw hook branch-check` reads: the host's payload, the project block's sources (once per
//! payload), where each edited file and each source folder are on this machine, and, for the
//! sources that own an edited file, their HEAD (read from the repository's files, git asked only
//! when they do not say it plainly). The verdict is aw-core's (`project::branch_check`).
//!
//! Time is bounded: the judgement runs on its own thread, and an answer not ready by the deadline
//! refuses the edit ([`Unjudgeable::OutOfTime`]), since a hook the host gives up on lets the edit
//! through. Everything else this side cannot read (no workspace, no block, a folder git cannot
//! read) allows it.

use crate::git::TimedOut;
use crate::io::stdin::HookPayload;
use crate::isolation::{UnitScope, identity};
use crate::locate::{LocateInput, Workspace, locate, slashed};
use crate::project::{ProjectFiles, lexical, resolve_source};
use aw_core::isolation::unit_check::{EditVerdict, Identity, UnitQuestion, UnitRef, unit_verdict};
use aw_core::project::branch_check::{
    Allowed, BUDGET, EditedFile, Head, MAX_PAYLOAD_BYTES, Payload, SourceFolder, Unjudgeable,
    Verdict, decide, owner, parse_payload,
};
use aw_core::project::sources::expected_work_branch;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The hook's time budget: `AW_HOOK_BUDGET_MS` when set to a positive number (for a host whose
/// hook timeout is shorter than the one aw installs), else [`BUDGET`].
pub fn budget_from_env() -> Duration {
    std::env::var("AW_HOOK_BUDGET_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&ms| ms > 0)
        .map_or(BUDGET, Duration::from_millis)
}

/// How long the payload may take to arrive: half the budget, the rest left for the judgement.
pub fn read_deadline(started: Instant, budget: Duration) -> Instant {
    started + budget / 2
}

/// The verdict on what the host sent, reached by `started + budget` or refusing the edit. The
/// workspace is looked for from the payload's `cwd` when it is absolute (else from
/// `input.cwd`; `--workspace` still wins).
pub fn judge(
    payload: HookPayload,
    mut input: LocateInput,
    started: Instant,
    budget: Duration,
) -> EditVerdict {
    let out_of_time = EditVerdict::Branch(Verdict::Unjudgeable(Unjudgeable::OutOfTime {
        budget_ms: budget.as_millis(),
    }));
    let deadline = started + budget;
    let (text, cut) = match payload {
        HookPayload::Absent => return EditVerdict::Branch(Verdict::Allow(Allowed::Unjudged)),
        HookPayload::TooLarge => {
            return EditVerdict::Branch(Verdict::Unjudgeable(Unjudgeable::PayloadTooLarge {
                limit: MAX_PAYLOAD_BYTES,
            }));
        }
        HookPayload::Whole(t) => (t, false),
        HookPayload::Cut(t) => (t, true),
    };
    let late = out_of_time.clone();
    let (tx, rx) = mpsc::channel();
    // The thread is left behind when the deadline passes; it dies with the process.
    std::thread::spawn(move || {
        let verdict = judge_text(&text, cut, &mut input, deadline);
        let _ = tx.send(verdict.unwrap_or(late));
    });
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .unwrap_or(out_of_time)
}

/// The verdict on the payload's text (`cut`: stdin was still open when reading stopped).
fn judge_text(
    text: &str,
    cut: bool,
    input: &mut LocateInput,
    deadline: Instant,
) -> Result<EditVerdict, TimedOut> {
    let plain = |v: Verdict| Ok(EditVerdict::Branch(v));
    let edits = match parse_payload(text) {
        Err(u) => return plain(Verdict::Unjudgeable(u)),
        Ok(Payload::NotAnObject) if cut => {
            let received = text.len();
            return plain(Verdict::Unjudgeable(Unjudgeable::PayloadCut { received }));
        }
        Ok(Payload::NotAnObject) => return plain(Verdict::Allow(Allowed::Unjudged)),
        Ok(Payload::Edits(edits)) => edits,
    };
    if let Some(cwd) = edits
        .first()
        .and_then(|e| e.cwd.as_deref())
        .map(PathBuf::from)
        && cwd.is_absolute()
    {
        input.cwd = cwd;
    }
    match locate(input) {
        Ok(ws) => {
            let scope = input.home.as_deref().map(|h| UnitScope::of(&ws, h));
            check_all(&ws, &input.cwd, scope.as_ref(), &edits, deadline)
        }
        Err(_) => plain(Verdict::Allow(Allowed::Unjudged)),
    }
}

/// The verdict on every file of one payload in the workspace `ws`: the first one refused
/// refuses the whole edit. A source that has isolation units of this workspace (`scope`; none
/// without a home) answers by the unit rule (`aw_core::isolation::unit_check`), with the
/// payload's `session_id` as the conversation; any other, by its working branch. The block is
/// read once, each source folder resolved once, each owning source's units and HEAD read once,
/// and the session resolved at most once, so the cost is linear in the files named.
/// [`TimedOut`] when `deadline` passes first.
pub fn check_all(
    ws: &Workspace,
    cwd: &Path,
    scope: Option<&UnitScope>,
    edits: &[EditedFile],
    deadline: Instant,
) -> Result<EditVerdict, TimedOut> {
    let Some(block) = ProjectFiles::read(&ws.root)
        .ok()
        .and_then(|f| f.block(&ws.ns))
    else {
        return Ok(EditVerdict::Branch(Verdict::Allow(Allowed::Unjudged)));
    };
    let folders: Vec<SourceFolder> = block
        .sources
        .iter()
        .map(|s| SourceFolder {
            alias: s.alias.clone(),
            folder: resolve_source(&ws.root, &s.path),
        })
        .collect();
    // The workspace's own state (sessions, checkpoints) is written on any branch.
    let state = resolved_file(&ws.root, &format!(".{}", ws.ns));
    let mut heads: HashMap<&str, Head> = HashMap::new();
    let mut units: HashMap<&str, Vec<UnitRef>> = HashMap::new();
    let mut who: Option<Identity> = None;
    let mut first_allow = None;
    for edited in edits {
        if Instant::now() >= deadline {
            return Err(TimedOut);
        }
        let base = edited
            .cwd
            .as_deref()
            .map(Path::new)
            .filter(|p| p.is_absolute())
            .unwrap_or(cwd);
        let file = resolved_file(base, &edited.path);
        // A file in a unit of this workspace belongs to the unit's source.
        let in_unit = scope
            .and_then(|s| s.alias_of(&file))
            .and_then(|alias| folders.iter().find(|f| f.alias == alias));
        let allowed = if file.starts_with(&state) {
            Allowed::WorkspaceState
        } else if let Some(source) = in_unit.or_else(|| owner(&file, &folders)) {
            let own_units = match (scope, units.get(source.alias.as_str())) {
                (None, _) => &[][..],
                (Some(_), Some(u)) => u.as_slice(),
                (Some(s), None) => {
                    let u = s.units_of(&source.alias, &source.folder, deadline)?;
                    units.entry(&source.alias).or_insert(u).as_slice()
                }
            };
            if let (Some(s), false) = (scope, own_units.is_empty()) {
                let identity =
                    match &who {
                        Some(i) => i.clone(),
                        None => {
                            let i = identity(ws, None, edited.session_id.as_deref())
                                .unwrap_or_else(|e| Identity::Unresolved {
                                    message: e.to_string(),
                                    action: e.action(),
                                });
                            who.insert(i).clone()
                        }
                    };
                let source_path = block
                    .sources
                    .iter()
                    .find(|b| b.alias == source.alias)
                    .map_or(String::new(), |b| b.path.clone());
                let file_text = slashed(&file);
                let verdict = unit_verdict(&UnitQuestion {
                    alias: &source.alias,
                    source_path: &source_path,
                    units: own_units,
                    file: Some(&file_text),
                    identity: &identity,
                    raw_code: None,
                    units_root: &s.root,
                    workspace_key: &s.key,
                });
                if !verdict.matched {
                    return Ok(EditVerdict::Unit {
                        file: edited.path.clone(),
                        verdict: Box::new(verdict),
                    });
                }
                first_allow.get_or_insert(Allowed::InOwnUnit);
                continue;
            }
            let (expected, _) = expected_work_branch(&block, &source.alias, None);
            match expected {
                // Nothing to compare with: the HEAD need not be read.
                None => Allowed::NoWorkingBranch,
                Some(expected) => {
                    let head = match heads.get(source.alias.as_str()) {
                        Some(h) => h.clone(),
                        None => {
                            let h = crate::git::head(&source.folder, deadline)?;
                            heads.insert(&source.alias, h.clone());
                            h
                        }
                    };
                    match decide(
                        &edited.path,
                        &source.alias,
                        &source.folder,
                        Some(expected),
                        &head,
                    ) {
                        Verdict::Block(mut b) => {
                            // Only the advice needs the count: a git too slow leaves it out.
                            b.changed = crate::git::changed_count(&source.folder, deadline);
                            return Ok(EditVerdict::Branch(Verdict::Block(b)));
                        }
                        Verdict::Allow(a) => a,
                        other => return Ok(EditVerdict::Branch(other)),
                    }
                }
            }
        } else {
            Allowed::OutsideSources
        };
        first_allow.get_or_insert(allowed);
    }
    Ok(EditVerdict::Branch(Verdict::Allow(
        first_allow.unwrap_or(Allowed::Unjudged),
    )))
}

/// `path` taken from `base` when relative, `.`/`..` resolved, and its longest existing prefix
/// resolved through links (the file itself may not exist yet: a `Write` creates it), so that it
/// compares with source folders resolved the same way.
///
/// The longest existing prefix is found by bisection: a prefix that resolves means every shorter
/// one does (each was walked through), so a path of `n` parts costs `log n` resolutions, each
/// linear in the path, where trying every prefix from the end cost `n` of them.
pub fn resolved_file(base: &Path, path: &str) -> PathBuf {
    resolved_with(base, path, |p| p.canonicalize().ok())
}

/// [`resolved_file`] with `real` as the resolution of an existing path.
fn resolved_with(
    base: &Path,
    path: &str,
    mut real: impl FnMut(&Path) -> Option<PathBuf>,
) -> PathBuf {
    let full = lexical(&base.join(path));
    if let Some(r) = real(&full) {
        return r;
    }
    let parts: Vec<std::path::Component<'_>> = full.components().collect();
    let mut real_prefix = |n: usize| real(&parts[..n].iter().collect::<PathBuf>());
    // The common case first: a new file in an existing folder.
    let last = parts.len().saturating_sub(1);
    let mut best = (0, None);
    if last > 0
        && let Some(r) = real_prefix(last)
    {
        best = (last, Some(r));
    } else {
        // Invariant: the prefix of `lo` parts resolves (or `lo` is 0), that of `hi + 1` does not.
        let (mut lo, mut hi) = (0, last.saturating_sub(1));
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            match real_prefix(mid) {
                Some(r) => {
                    lo = mid;
                    best = (mid, Some(r));
                }
                None => hi = mid - 1,
            }
        }
    }
    match best {
        (n, Some(mut out)) => {
            out.extend(&parts[n..]);
            out
        }
        _ => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_does_not_exist_yet_resolves_through_its_existing_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("src")).unwrap();
        let got = resolved_file(&real, "src/../src/new/file.rs");
        assert_eq!(got, real.join("src/new/file.rs"));
        assert_eq!(resolved_file(&real, "src/a.rs"), real.join("src/a.rs"));
        assert_eq!(
            resolved_file(&real, "src/a/b/c/d/e/f.rs"),
            real.join("src/a/b/c/d/e/f.rs")
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("src"), real.join("link")).unwrap();
            assert_eq!(resolved_file(&real, "link/x.rs"), real.join("src/x.rs"));
            assert_eq!(
                resolved_file(&real, "link/new/deeper/x.rs"),
                real.join("src/new/deeper/x.rs")
            );
        }
        assert_eq!(
            resolved_file(Path::new("/"), "/abs/never/there"),
            PathBuf::from("/abs/never/there")
        );
    }

    #[test]
    fn a_path_of_thousands_of_parts_resolves_through_its_existing_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(real.join("a/b")).unwrap();
        // Far past the system's path limit: the existing folders still resolve, the rest is kept.
        let rest = "x/".repeat(20_000) + "f.rs";
        let got = resolved_file(&real, &format!("a/b/{rest}"));
        assert_eq!(got, real.join("a/b").join(&rest));
        // Resolutions grow with the logarithm of the parts, not with the parts (each one is
        // linear in the path, so trying every prefix was quadratic).
        let mut calls = 0;
        let got = resolved_with(&real, &format!("a/b/{rest}"), |p| {
            calls += 1;
            p.canonicalize().ok()
        });
        assert_eq!(got, real.join("a/b").join(&rest));
        assert!(calls <= 2 + 2 * 15, "{calls} resolutions for 20,000 parts");
    }
}
