//! The checkpoint on disk: what a snapshot states about a session (read from its artifacts and
//! from git), reading and writing `CHECKPOINT.md`, and the recently closed sessions a resumed
//! conversation may want to know about.

use crate::error::Result;
use crate::sessions::CLOSED_SENTINEL;
use crate::sessions::artifacts::{artifact, entries, read_artifact, sql_scripts};
use aw_core::artifacts::ArtifactKind;
use aw_core::calendar::WallClock;
use aw_core::checkpoint::{self, Snapshot, SnapshotSources};
use aw_core::session::folder::{SessionFolder, SessionState, identity};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The session's CHECKPOINT: the existing file (any letter case), else the canonical name.
pub fn checkpoint_path(dir: &Path, entries: &[String]) -> PathBuf {
    artifact(dir, entries, ArtifactKind::Checkpoint)
        .unwrap_or_else(|| dir.join(ArtifactKind::Checkpoint.canonical()))
}

/// Reads what the snapshot of the session in `dir` states (its tasks, decisions and document,
/// its SQL scripts, the workspace's uncommitted changes) and lets the core build it.
pub fn gather(
    root: &Path,
    dir: &Path,
    folder: &str,
    entries: &[String],
    now: WallClock,
) -> Result<Snapshot> {
    let read = |kind| read_artifact(dir, entries, kind);
    let tasks = read(ArtifactKind::Tasks)?;
    let decisions = read(ArtifactKind::Decisions)?;
    let session_doc = match read(ArtifactKind::Session)? {
        Some(t) => Some(t),
        None => read(ArtifactKind::Objective)?,
    };
    Ok(checkpoint::snapshot(
        SnapshotSources {
            folder,
            entries,
            tasks: tasks.as_deref(),
            decisions: decisions.as_deref(),
            session_doc: session_doc.as_deref(),
            scripts: sql_scripts(dir).len(),
            files: crate::git::files_touched(root),
        },
        now,
    ))
}

/// A recently closed session that left a closing artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentClosed {
    /// The session's code (`NNN` for legacy folders, else the folder name).
    pub code: String,
    /// The folder name.
    pub folder: String,
    /// Seconds since it was closed.
    pub closed_age_seconds: u64,
    /// Which artifact shows it concluded: `CONCLUSIONS` or `ANALYSIS-FILE`.
    pub artifact_signal: &'static str,
}

/// Closed sessions closed within `window` before `now` that hold CONCLUSIONS or ANALYSIS-FILE,
/// by code, descending (byte order). The closing time is the `.closed` sentinel's mtime: the
/// folder's own mtime moves whenever anything inside it changes.
pub fn recent_closed(
    sessions_dir: &Path,
    listing: &[SessionFolder],
    now: SystemTime,
    window: Duration,
) -> Vec<RecentClosed> {
    let mut out: Vec<RecentClosed> = listing
        .iter()
        .filter(|f| f.state == SessionState::Closed)
        .filter_map(|f| {
            let dir = sessions_dir.join(&f.folder);
            let closed_at = std::fs::metadata(dir.join(CLOSED_SENTINEL))
                .and_then(|m| m.modified())
                .ok()?;
            let age = now.duration_since(closed_at).ok()?;
            if age > window {
                return None;
            }
            let names = entries(&dir).ok()?;
            let signal = if ArtifactKind::Conclusions.find(&names).is_some() {
                "CONCLUSIONS"
            } else if ArtifactKind::AnalysisFile.find(&names).is_some() {
                "ANALYSIS-FILE"
            } else {
                return None;
            };
            Some(RecentClosed {
                code: identity(&f.folder).code,
                folder: f.folder.clone(),
                closed_age_seconds: age.as_secs(),
                artifact_signal: signal,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.code
            .as_bytes()
            .cmp(a.code.as_bytes())
            .then_with(|| b.folder.as_bytes().cmp(a.folder.as_bytes()))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed closing time (2026-03-01 00:00 UTC), so ages are exact.
    const CLOSED_AT_SECS: u64 = 1_772_323_200;

    fn closed_time() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(CLOSED_AT_SECS)
    }

    /// Writes the `.closed` sentinel of `dir`, stamped `at`.
    fn closed_at(dir: &Path, at: SystemTime) {
        let sentinel = dir.join(".closed");
        std::fs::write(&sentinel, "").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&sentinel)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    #[test]
    fn gathers_from_artifacts() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path().join("001-a");
        std::fs::create_dir_all(s.join("scripts/sub")).unwrap();
        std::fs::write(
            s.join("SESSION.md"),
            "# SESSION — a\n\n## Origin\n<!-- hint -->\n- loop x\n",
        )
        .unwrap();
        std::fs::write(s.join("tasks.md"), "- [x] a\n- [ ] b\n- [ ] c\n").unwrap();
        std::fs::write(s.join("DECISIONES.md"), "## DEC-001: uno\nbody\n").unwrap();
        std::fs::write(s.join("scripts/a.sql"), "").unwrap();
        std::fs::write(s.join("scripts/sub/a.rollback.sql"), "").unwrap();
        let names = entries(&s).unwrap();
        let now = WallClock::parse("2026-03-01 10:30").unwrap();
        let g = gather(dir.path(), &s, "001-a", &names, now).unwrap();
        assert_eq!((g.tasks_open(), g.tasks_closed()), (2, 1));
        assert_eq!(g.tasks, Some((1, 3)));
        assert_eq!(g.origin.as_deref(), Some("loop x"));
        assert_eq!(
            g.last_decision,
            Some(("DEC-001: uno".to_owned(), "body".to_owned()))
        );
        assert_eq!(
            g.artifacts,
            ["session", "tasks", "decisiones", "scripts(2)"]
        );
        assert_eq!(g.updated, "2026-03-01 10:30");
        assert!(g.files.is_empty(), "not a git repository");
        assert_eq!(checkpoint_path(&s, &names), s.join("CHECKPOINT.md"));
    }

    #[test]
    fn recent_closed_uses_the_sentinel_time() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path();
        for (name, closed, artifact) in [
            ("001-a", true, Some("CONCLUSIONS.md")),
            ("002-b", true, Some("analysis-file.md")),
            ("003-c", true, None),
            ("004-d", false, Some("CONCLUSIONS.md")),
            ("session005-e", true, Some("CONCLUSIONES.md")),
        ] {
            std::fs::create_dir(s.join(name)).unwrap();
            if closed {
                closed_at(&s.join(name), closed_time());
            }
            if let Some(a) = artifact {
                std::fs::write(s.join(name).join(a), "x").unwrap();
            }
        }
        let listing = crate::sessions::list_in(s, s).unwrap();
        let now = closed_time() + Duration::from_secs(10);
        let got = recent_closed(s, &listing, now, Duration::from_secs(86_400));
        let codes: Vec<_> = got
            .iter()
            .map(|r| (r.code.as_str(), r.artifact_signal))
            .collect();
        assert_eq!(
            codes,
            [
                ("005", "CONCLUSIONS"),
                ("002-b", "ANALYSIS-FILE"),
                ("001-a", "CONCLUSIONS")
            ]
        );
        assert_eq!(got[0].closed_age_seconds, 10);
        let later = now + Duration::from_secs(2 * 86_400);
        assert!(recent_closed(s, &listing, later, Duration::from_secs(86_400)).is_empty());
        let before = SystemTime::UNIX_EPOCH;
        assert!(recent_closed(s, &listing, before, Duration::from_secs(86_400)).is_empty());
    }

    #[test]
    fn closing_time_is_the_sentinel_mtime_not_the_folder_mtime() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path();
        let ten_days = Duration::from_secs(10 * 86_400);
        let now = closed_time() + Duration::from_secs(60);
        for name in ["001-old-close", "002-fresh-close"] {
            std::fs::create_dir(s.join(name)).unwrap();
            std::fs::write(s.join(name).join("CONCLUSIONS.md"), "x").unwrap();
        }
        // Closed long ago, though the folder was touched since: not recent.
        closed_at(&s.join("001-old-close"), now - ten_days);
        // Closed a minute ago in a folder whose own mtime is old: recent.
        closed_at(&s.join("002-fresh-close"), closed_time());
        std::fs::File::open(s.join("002-fresh-close"))
            .unwrap()
            .set_modified(now - ten_days)
            .unwrap();
        let listing = crate::sessions::list_in(s, s).unwrap();
        let got = recent_closed(s, &listing, now, Duration::from_secs(7 * 86_400));
        let folders: Vec<_> = got.iter().map(|r| r.folder.as_str()).collect();
        assert_eq!(folders, ["002-fresh-close"]);
    }
}
