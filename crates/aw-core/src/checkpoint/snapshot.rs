//! What a checkpoint states about a session: the snapshot, built from what the shell read (its
//! tasks, decisions, document, scripts and the workspace's uncommitted changes).

use crate::artifacts::ArtifactKind;
use crate::artifacts::EXCERPT_CHARS;
use crate::calendar::WallClock;
use crate::markdown::{self, aliases};

/// One line of `git diff --numstat`: a path with its added and removed line counts (`None` for
/// binary files, which git reports as `-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTouched {
    /// The path as git printed it (renames keep git's `old => new` spelling).
    pub path: String,
    /// Lines added.
    pub added: Option<u64>,
    /// Lines removed.
    pub removed: Option<u64>,
}

/// Parses `git diff --numstat` output (`<added>\t<removed>\t<path>` per line). Lines that do not
/// have that shape are skipped.
pub fn parse_numstat(text: &str) -> Vec<FileTouched> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '\t');
            let added = parts.next()?;
            let removed = parts.next()?;
            let path = parts.next()?.trim_end_matches('\r');
            let count = |s: &str| -> Option<Option<u64>> {
                if s == "-" {
                    Some(None)
                } else {
                    s.parse::<u64>().ok().map(Some)
                }
            };
            Some(FileTouched {
                path: path.to_owned(),
                added: count(added)?,
                removed: count(removed)?,
            })
            .filter(|f| !f.path.is_empty())
        })
        .collect()
}

/// Everything the snapshot states about a session.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// The session folder name.
    pub folder: String,
    /// Local time of the snapshot, `YYYY-MM-DD HH:MM`.
    pub updated: String,
    /// `(closed, total)` of the session's tasks, when it has any.
    pub tasks: Option<(usize, usize)>,
    /// The newest decision: its heading and the first line of its body.
    pub last_decision: Option<(String, String)>,
    /// Uncommitted changes in the workspace.
    pub files: Vec<FileTouched>,
    /// The first line of the session's `## Origin`.
    pub origin: Option<String>,
    /// The artifacts present (`session`, `tasks`, `decisiones`, …, `scripts(n)`).
    pub artifacts: Vec<String>,
}

impl Snapshot {
    /// The tasks done.
    pub fn tasks_closed(&self) -> usize {
        self.tasks.map_or(0, |(closed, _)| closed)
    }

    /// The tasks still open.
    pub fn tasks_open(&self) -> usize {
        self.tasks.map_or(0, |(closed, total)| total - closed)
    }

    /// The tasks' progress in percent, when the session has tasks.
    pub fn progress_pct(&self) -> Option<u32> {
        self.tasks
            .and_then(|(closed, total)| crate::artifacts::percent(closed, total))
    }
}

/// What a snapshot is made of, as the shell read it.
#[derive(Debug, Clone, Default)]
pub struct SnapshotSources<'a> {
    /// The session folder name.
    pub folder: &'a str,
    /// The session folder's file names.
    pub entries: &'a [String],
    /// The TASKS file's text.
    pub tasks: Option<&'a str>,
    /// The DECISIONS file's text.
    pub decisions: Option<&'a str>,
    /// The session's document (`SESSION.md`, else a legacy objective).
    pub session_doc: Option<&'a str>,
    /// How many SQL scripts the session holds.
    pub scripts: usize,
    /// Uncommitted changes in the workspace.
    pub files: Vec<FileTouched>,
}

/// The snapshot of a session at `now`: progress from its tasks, its newest decision, its
/// origin, the artifacts present and the workspace's uncommitted changes.
pub fn snapshot(src: SnapshotSources<'_>, now: WallClock) -> Snapshot {
    let tasks = src
        .tasks
        .map(crate::artifacts::parse_tasks)
        .unwrap_or_default();
    let has = |k: ArtifactKind| k.find(src.entries).is_some();
    let mut artifacts: Vec<String> = [
        (
            "session",
            has(ArtifactKind::Session) || has(ArtifactKind::Objective),
        ),
        ("tasks", has(ArtifactKind::Tasks)),
        ("decisiones", has(ArtifactKind::Decisions)),
        ("conclusiones", has(ArtifactKind::Conclusions)),
        ("analysis_file", has(ArtifactKind::AnalysisFile)),
    ]
    .iter()
    .filter(|(_, present)| *present)
    .map(|(k, _)| (*k).to_owned())
    .collect();
    if src.scripts > 0 {
        artifacts.push(format!("scripts({})", src.scripts));
    }
    let (closed, total) = (tasks.closed(), tasks.total());
    Snapshot {
        folder: src.folder.to_owned(),
        updated: now.minute_stamp(),
        tasks: (total > 0).then_some((closed, total)),
        last_decision: src.decisions.and_then(crate::artifacts::last_decision),
        files: src.files,
        origin: src.session_doc.and_then(origin_excerpt),
        artifacts,
    }
}

/// What the snapshot quotes as a session's origin: the first meaningful line under `## Origin`
/// / `## Origen` of its document (`SESSION.md` or a legacy objective), cut to
/// [`EXCERPT_CHARS`]. The template's hint comment, an empty bullet and an unfilled placeholder
/// are not an origin.
pub fn origin_excerpt(session_doc: &str) -> Option<String> {
    let body = markdown::section(session_doc, aliases::ORIGIN)?;
    markdown::first_meaningful_line(&body).map(|l| l.chars().take(EXCERPT_CHARS).collect())
}

/// A snapshot with every section filled, for the other modules' tests.
#[cfg(test)]
pub(super) fn sample() -> Snapshot {
    Snapshot {
        folder: "004-login-quick".into(),
        updated: "2026-03-01 10:30".into(),
        tasks: Some((2, 5)),
        last_decision: Some(("DEC-002: ESM".into(), "No CJS.".into())),
        files: parse_numstat("3\t1\tsrc/a.rs\n-\t-\timg.png\n"),
        origin: Some("spec-refine-loop".into()),
        artifacts: vec!["session".into(), "tasks".into(), "scripts(2)".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_states_what_the_sources_hold() {
        let entries: Vec<String> = ["SESSION.md", "tasks.md", "DECISIONES.md", "notes.md"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let s = super::snapshot(
            SnapshotSources {
                folder: "001-a",
                entries: &entries,
                tasks: Some("- [x] a\n- [ ] b\n- [ ] c\n"),
                decisions: Some("## DEC-001: uno\nbody\n"),
                session_doc: Some("# S\n\n## Origin\n<!-- hint -->\n- loop x\n"),
                scripts: 2,
                files: parse_numstat("1\t0\ta.rs\n"),
            },
            WallClock::parse("2026-03-01 10:30").unwrap(),
        );
        assert_eq!(
            (s.tasks, s.tasks_open(), s.tasks_closed()),
            (Some((1, 3)), 2, 1)
        );
        assert_eq!(s.progress_pct(), Some(33));
        assert_eq!(s.origin.as_deref(), Some("loop x"));
        assert_eq!(
            s.last_decision,
            Some(("DEC-001: uno".into(), "body".into()))
        );
        assert_eq!(
            s.artifacts,
            ["session", "tasks", "decisiones", "scripts(2)"]
        );
        assert_eq!((s.updated.as_str(), s.files.len()), ("2026-03-01 10:30", 1));
        let empty = super::snapshot(
            SnapshotSources::default(),
            WallClock::parse("2026-03-01 10:30").unwrap(),
        );
        assert_eq!(
            (empty.tasks, empty.tasks_open(), empty.progress_pct()),
            (None, 0, None)
        );
        assert!(empty.artifacts.is_empty());
    }

    #[test]
    fn numstat_grammar() {
        let f = parse_numstat("1\t2\ta b.rs\r\nbad line\n-\t-\tbin\nx\t1\ty\n3\t4\t\n");
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].path, "a b.rs");
        assert_eq!((f[1].added, f[1].removed), (None, None));
    }

    #[test]
    fn origin_excerpt_skips_template_leftovers() {
        let doc = "# SESSION — a\n\n## Origin\n<!-- hint -->\n- \n_[AI: who]_\n- loop x\n## Type\nquick\n";
        assert_eq!(origin_excerpt(doc).as_deref(), Some("loop x"));
        let es = "## Origen\r\n* conversación\r\n";
        assert_eq!(origin_excerpt(es).as_deref(), Some("conversación"));
        let long = format!("## Origin\n- {}\n", "é".repeat(200));
        assert_eq!(
            origin_excerpt(&long).unwrap().chars().count(),
            EXCERPT_CHARS
        );
        let blank = format!(
            "## Origin\n{}\n",
            crate::session::document::ORIGIN_PLACEHOLDER
        );
        assert_eq!(origin_excerpt(&blank), None);
        assert_eq!(origin_excerpt("# SESSION\n"), None);
    }
}
