//! The live digest of a checkout, the state a checkout proof must name (flow-spec-v22 §11).
//!
//! The formula is the core's (`aw_core::flow::proof`); this module asks git for its inputs:
//! `rev-parse HEAD`, `status --porcelain`, and for the fingerprint `diff --binary --full-index
//! --no-ext-diff HEAD --`, `status --porcelain=v2 -z`, `ls-files --others --exclude-standard -z`
//! and `hash-object --no-filters` per untracked path. Git's output is hashed as the bytes it
//! printed, with git's own path quoting (the reference's calls do not turn it off, so neither do
//! these: a digest either tool captured verifies with the other).
//!
//! The fingerprint is taken twice: a digest that does not survive its own recomputation must not
//! be reported as a tree that moved, so [`ObservedCheckout::reproducible`] tells the two apart.

use super::quoting_command;
use aw_core::flow::proof;
pub use aw_core::flow::proof::ObservedCheckout;
use std::path::Path;
use std::process::Output;

/// Runs git in `dir`; `None` when it could not be started.
fn run(dir: &Path, args: &[&str]) -> Option<Output> {
    quoting_command(dir, args).output().ok()
}

/// What git printed on stdout, when it could be started and succeeded.
fn stdout_of(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    run(dir, args)
        .filter(|o| o.status.success())
        .map(|o| o.stdout)
}

/// The checkout at `dir`, observed under the source alias `source`: its live digest, and whether
/// two fingerprints agreed. `None` when the folder is missing, is not in a git repository, git
/// cannot be run, or a command the digest needs fails — notably on a repository without a
/// commit, where `git diff HEAD` has nothing to compare with. Such a checkout is not eligible:
/// a proof naming it fails closed instead of passing as a clean tree.
pub fn observe(dir: &Path, source: &str) -> Option<ObservedCheckout> {
    if !dir.exists() {
        return None;
    }
    stdout_of(dir, &["rev-parse", "--git-dir"])?;
    let head = run(dir, &["rev-parse", "HEAD"])?;
    let head = proof::head_of(head.status.success(), &head.stdout);
    // The reference asks `status --porcelain` twice (once whether the tree is dirty, once for the
    // changed files); one answer serves both.
    let porcelain = stdout_of(dir, &["status", "--porcelain"])?;
    let first = fingerprint(dir)?;
    let second = fingerprint(dir)?;
    Some(ObservedCheckout {
        source: source.to_owned(),
        digest: proof::checkout_digest(
            source,
            head.as_deref(),
            proof::porcelain_dirty(&porcelain),
            &proof::porcelain_changed_files(&porcelain),
            &first,
        ),
        reproducible: first == second,
    })
}

/// The working tree's content-sensitive fingerprint (`sha256:<hex>`), or `None` when git cannot
/// give one of its parts. An untracked path git cannot hash (a dangling link, a nested
/// repository's folder) counts as `unhashable` rather than failing the whole checkout.
pub fn fingerprint(dir: &Path) -> Option<String> {
    let patch = stdout_of(
        dir,
        &[
            "diff",
            "--binary",
            "--full-index",
            "--no-ext-diff",
            "HEAD",
            "--",
        ],
    )?;
    let status = stdout_of(dir, &["status", "--porcelain=v2", "-z"])?;
    let listed = stdout_of(dir, &["ls-files", "--others", "--exclude-standard", "-z"])?;
    let mut untracked = Vec::new();
    for path in proof::untracked_paths(&listed) {
        let blob = run(dir, &["hash-object", "--no-filters", "--", &path])?;
        let blob = proof::blob_of(blob.status.success(), &blob.stdout);
        untracked.push((path, blob));
    }
    Some(proof::worktree_fingerprint(&patch, &status, &untracked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::process::Command;

    /// Runs git in `dir` for a test, with a fixed identity and no signing.
    fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap_or_else(|e| panic!("this test needs git, which could not be run: {e}"));
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// A repository with one commit holding `a.txt`.
    fn repo() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        git(tmp.path(), &["init", "-q"]);
        fs::write(tmp.path().join("a.txt"), "one\n").unwrap();
        git(tmp.path(), &["add", "a.txt"]);
        git(tmp.path(), &["commit", "-q", "-m", "first"]);
        tmp
    }

    fn digest(dir: &Path) -> String {
        let seen = observe(dir, "workspace").expect("an eligible checkout");
        assert!(
            seen.reproducible,
            "an idle tree fingerprints the same twice"
        );
        assert_eq!(seen.source, "workspace");
        seen.digest
    }

    #[test]
    fn an_unchanged_checkout_keeps_its_digest() {
        let r = repo();
        let first = digest(r.path());
        assert_eq!(first.len(), 64);
        assert_eq!(digest(r.path()), first);
        // The source alias is part of what is digested.
        assert_ne!(observe(r.path(), "ui").unwrap().digest, first);
    }

    #[test]
    fn edits_untracked_files_and_commits_each_move_the_digest() {
        let r = repo();
        let clean = digest(r.path());
        fs::write(r.path().join("a.txt"), "two\n").unwrap();
        let edited = digest(r.path());
        assert_ne!(edited, clean);
        // Editing an already-dirty file again: porcelain status does not change, the bytes do.
        fs::write(r.path().join("a.txt"), "three\n").unwrap();
        let edited_again = digest(r.path());
        assert_ne!(edited_again, edited);
        fs::write(r.path().join("new.txt"), "x").unwrap();
        let untracked = digest(r.path());
        assert_ne!(untracked, edited_again);
        fs::write(r.path().join("new.txt"), "y").unwrap();
        let untracked_edited = digest(r.path());
        assert_ne!(untracked_edited, untracked);
        git(r.path(), &["add", "-A"]);
        git(r.path(), &["commit", "-q", "-m", "second"]);
        let committed = digest(r.path());
        assert!(![clean.clone(), edited, untracked, untracked_edited].contains(&committed));
        // Back to the first commit's tree with HEAD moved: not the first digest either.
        fs::write(r.path().join("a.txt"), "one\n").unwrap();
        fs::remove_file(r.path().join("new.txt")).unwrap();
        git(r.path(), &["commit", "-q", "-am", "third"]);
        let moved = digest(r.path());
        assert_ne!(moved, clean);
        assert_ne!(moved, committed);
        // An ignored file is not part of the tree's state.
        fs::write(r.path().join(".git/info/exclude"), "*.log\n").unwrap();
        fs::write(r.path().join("x.log"), "noise").unwrap();
        assert_eq!(digest(r.path()), moved);
    }

    #[test]
    fn a_folder_that_cannot_be_digested_is_not_eligible() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(observe(&tmp.path().join("missing"), "workspace"), None);
        // Not a repository (a temporary folder is not inside one).
        if Command::new("git")
            .arg("-C")
            .arg(tmp.path())
            .args(["rev-parse", "--git-dir"])
            .output()
            .is_ok_and(|o| !o.status.success())
        {
            assert_eq!(observe(tmp.path(), "workspace"), None);
        }
        // A repository without a commit: `git diff HEAD` fails.
        git(tmp.path(), &["init", "-q"]);
        fs::write(tmp.path().join("a.txt"), "one\n").unwrap();
        assert_eq!(observe(tmp.path(), "workspace"), None);
        assert_eq!(fingerprint(tmp.path()), None);
    }

    /// The digest spelled out from git's raw output, with git's own quoting: a name past ASCII is
    /// quoted in `status --porcelain` (which the changed files keep as printed) and left raw in
    /// the `-z` outputs. The repository sets `core.quotepath` itself, so the test does not depend
    /// on the user's configuration — and fails if the digest is taken with quoting turned off.
    #[test]
    fn the_digest_is_the_formula_over_git_bytes() {
        let r = repo();
        git(r.path(), &["config", "core.quotepath", "true"]);
        fs::write(r.path().join("a.txt"), "one\ntwo\n").unwrap();
        fs::write(r.path().join("é.txt"), "accent\n").unwrap();
        fs::write(r.path().join("b.txt"), "bee\n").unwrap();
        let head = String::from_utf8(git(r.path(), &["rev-parse", "HEAD"])).unwrap();
        let patch = git(
            r.path(),
            &[
                "diff",
                "--binary",
                "--full-index",
                "--no-ext-diff",
                "HEAD",
                "--",
            ],
        );
        assert!(patch.starts_with(b"diff --git a/a.txt b/a.txt\n"));
        let status = git(r.path(), &["status", "--porcelain=v2", "-z"]);
        assert!(status.ends_with(b"? b.txt\0? \xc3\xa9.txt\0"));
        let blob = |p: &str| {
            String::from_utf8(git(r.path(), &["hash-object", "--no-filters", "--", p]))
                .unwrap()
                .trim()
                .to_owned()
        };
        let fingerprint = proof::worktree_fingerprint(
            &patch,
            &status,
            &[
                ("b.txt".into(), blob("b.txt")),
                ("é.txt".into(), blob("é.txt")),
            ],
        );
        let changed = [
            "a.txt".to_owned(),
            "b.txt".to_owned(),
            r#""\303\251.txt""#.to_owned(),
        ];
        let expected =
            proof::checkout_digest("ui", Some(head.trim()), true, &changed, &fingerprint);
        let seen = observe(r.path(), "ui").unwrap();
        assert_eq!(seen.digest, expected);
        assert!(seen.reproducible);
        assert_eq!(
            super::fingerprint(r.path()).as_deref(),
            Some(fingerprint.as_str())
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_untracked_path_git_cannot_hash_counts_as_unhashable() {
        let r = repo();
        std::os::unix::fs::symlink("nowhere", r.path().join("dangling")).unwrap();
        let seen = observe(r.path(), "workspace").unwrap();
        assert!(seen.reproducible);
        let patch = git(
            r.path(),
            &[
                "diff",
                "--binary",
                "--full-index",
                "--no-ext-diff",
                "HEAD",
                "--",
            ],
        );
        let status = git(r.path(), &["status", "--porcelain=v2", "-z"]);
        let blob = Command::new("git")
            .arg("-C")
            .arg(r.path())
            .args(["hash-object", "--no-filters", "--", "dangling"])
            .output()
            .unwrap();
        let blob = proof::blob_of(blob.status.success(), &blob.stdout);
        assert_eq!(blob, proof::UNHASHABLE_BLOB);
        assert_eq!(
            fingerprint(r.path()).unwrap(),
            proof::worktree_fingerprint(&patch, &status, &[("dangling".into(), blob)])
        );
    }
}
