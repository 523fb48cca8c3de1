//! CHECKPOINT.md: the snapshot aw writes before a host compacts a conversation, how it is read
//! back (in English and in the reference's Spanish), when an existing file may be regenerated,
//! and how fresh a checkpoint is.
//!
//! The written template ends with a seal: the SHA-256 of every byte before the seal line. Filling
//! in any placeholder breaks the seal, which is how the overwrite guard tells the untouched
//! template (free to regenerate) from a checkpoint somebody wrote in (preserved unless forced).
//! The reference v21 looked for its own placeholder marker instead, and since the template always
//! contains that marker, every partially filled checkpoint was silently overwritten.

use crate::artifacts::ArtifactKind;
use crate::calendar::WallClock;
use crate::canonical::sha256_hex;
use crate::markdown::{self, Line, PLACEHOLDER, aliases};

/// A checkpoint whose `Updated:` is older than this many seconds is stale.
pub const STALE_AFTER_SECONDS: i64 = 300;

/// How many touched files the snapshot lists before summarising the rest.
const MAX_FILES_LISTED: usize = 20;

/// How long an excerpt (origin, decision body) may be, in characters.
pub const EXCERPT_CHARS: usize = 140;

/// The seal line's prefix and suffix; the digest sits between them.
const SEAL_PREFIX: &str = "<!-- aw checkpoint template sha256=";
const SEAL_SUFFIX: &str = " -->";
/// The reference v22 seals its template too (`<!-- written by agent-workflow.checkpoint at <ts>
/// · template sha256=<hex> -->`); its pristine templates are regenerated like ours.
const FOREIGN_SEAL_PREFIX: &str = "<!-- written by agent-workflow.checkpoint at ";
const FOREIGN_SEAL_DIGEST: &str = " template sha256=";

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

/// Renders the snapshot, sealed.
pub fn render(s: &Snapshot) -> String {
    let progress = match s
        .tasks
        .and_then(|(c, t)| crate::artifacts::percent(c, t).map(|p| (p, c, t)))
    {
        Some((p, c, t)) => format!("{p}% ({c} of {t} tasks done)"),
        None => "_unknown: TASKS.md is missing or lists no task_".to_owned(),
    };
    let mut out: Vec<String> = vec![
        format!("# Checkpoint — {}", s.folder),
        String::new(),
        format!("- Updated: {}", s.updated),
        format!("- Progress: {progress}"),
        String::new(),
        "## Last action".into(),
        String::new(),
        "_[AI: In one to three sentences, what was last finished. The recent diff and the newest decision show it.]_".into(),
        String::new(),
        "## Next step".into(),
        String::new(),
        "_[AI: In one or two sentences, what comes next. Start from the first open task.]_".into(),
        String::new(),
        "## Recent decisions".into(),
        String::new(),
    ];
    match &s.last_decision {
        Some((id, excerpt)) if excerpt.is_empty() => out.push(format!("- {id}")),
        Some((id, excerpt)) => out.push(format!("- {id}: {excerpt}")),
        None => out.push("_No decision recorded yet._".into()),
    }
    out.extend([
        String::new(),
        "## Files touched (post-last-commit)".into(),
        String::new(),
    ]);
    if s.files.is_empty() {
        out.push("_No uncommitted change in the workspace._".into());
    }
    for f in s.files.iter().take(MAX_FILES_LISTED) {
        let counts = match (f.added, f.removed) {
            (Some(a), Some(r)) => format!("+{a} -{r}"),
            _ => "binary".to_owned(),
        };
        out.push(format!(
            "- {} ({counts}) — _[AI: why it changed, in one line]_",
            f.path
        ));
    }
    if s.files.len() > MAX_FILES_LISTED {
        out.push(format!("- _… {} more_", s.files.len() - MAX_FILES_LISTED));
    }
    out.extend([
        String::new(),
        "## Critical context to resume".into(),
        String::new(),
        "_[AI: Two or three paragraphs holding what a fresh conversation needs to carry on without exploring again: what was learned, what is settled, what to watch out for.]_".into(),
        String::new(),
        "## Refs".into(),
        String::new(),
    ]);
    if let Some(origin) = &s.origin {
        out.push(format!("- Origin: {origin}"));
    }
    if !s.artifacts.is_empty() {
        out.push(format!("- Artifacts present: {}", s.artifacts.join(", ")));
    }
    out.push("- Skills used: _[AI: the skills this session invoked]_".into());
    let body = out.join("\n") + "\n\n";
    let seal = format!(
        "{SEAL_PREFIX}{}{SEAL_SUFFIX}\n",
        sha256_hex(body.as_bytes())
    );
    body + &seal
}

/// True only when `text` is byte for byte a template aw (or the reference v22) sealed: the last
/// line is a seal and its digest matches every byte before it.
pub fn is_pristine(text: &str) -> bool {
    let body_end = text.strip_suffix('\n').unwrap_or(text);
    let start = body_end.rfind('\n').map_or(0, |i| i + 1);
    let seal = &body_end[start..];
    let Some(digest) = seal_digest(seal) else {
        return false;
    };
    sha256_hex(&text.as_bytes()[..start]) == digest
}

/// The hex digest a seal line carries, if `line` is a seal.
fn seal_digest(line: &str) -> Option<&str> {
    let inner = line.strip_suffix(SEAL_SUFFIX)?;
    let digest = if let Some(d) = inner.strip_prefix(SEAL_PREFIX) {
        d
    } else {
        let rest = inner.strip_prefix(FOREIGN_SEAL_PREFIX)?;
        let at = rest.rfind(FOREIGN_SEAL_DIGEST)?;
        &rest[at + FOREIGN_SEAL_DIGEST.len()..]
    };
    (digest.len() == 64
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    .then_some(digest)
}

/// The stub `session-close` leaves when a session has no checkpoint: nothing but the title.
pub fn is_stub(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || t == "# CHECKPOINT"
}

/// What the overwrite guard decides for an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Nothing to lose: missing, an empty stub, or our untouched sealed template.
    Regenerate,
    /// Someone wrote in it (or it predates the seal): keep it unless forced.
    Preserve,
}

/// The overwrite guard: `existing` is the current file's text (`None` when it is missing).
pub fn guard(existing: Option<&str>, force: bool) -> Guard {
    match existing {
        _ if force => Guard::Regenerate,
        None => Guard::Regenerate,
        Some(t) if is_stub(t) || is_pristine(t) => Guard::Regenerate,
        Some(_) => Guard::Preserve,
    }
}

/// `## Completed` (the loop-owned heading) first, then the snapshot's `Last action`.
const ULTIMO: &[&str] = &["Completed", "Last action", "Lo último que hice"];
/// `## Pending / Next` first, then the snapshot's `Next step`.
const PROXIMO: &[&str] = &["Pending / Next", "Pending", "Next step", "Próximo paso"];

/// A CHECKPOINT as `checkpoint-read` reports it (the reference's Spanish keys).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    /// `Updated:` / `Actualizado:`.
    pub actualizado: Option<String>,
    /// `Progress:` / `Avance:`.
    pub avance: Option<String>,
    /// `## Completed`, else `## Last action` / `Lo último que hice`.
    pub ultimo: Option<String>,
    /// `## Pending / Next`, else `## Next step` / `Próximo paso`.
    pub proximo: Option<String>,
    /// `## Recent decisions` / `Decisiones recientes`.
    pub decisiones: Option<String>,
    /// `## Files touched (post-last-commit)`, else `## Files touched` (or the Spanish forms).
    pub archivos: Option<String>,
    /// `## Critical context to resume` / `Contexto crítico para retomar`.
    pub contexto: Option<String>,
    /// `## Refs`.
    pub refs: Option<String>,
}

/// Reads a CHECKPOINT written by aw, by the reference (either language) or by a loop.
pub fn parse(text: &str) -> Fields {
    let lines = markdown::scan(text);
    let sec = |titles: &[&str]| first_section(&lines, titles);
    Fields {
        actualizado: header_value(text, aliases::UPDATED),
        avance: header_value(text, aliases::PROGRESS),
        ultimo: sec(ULTIMO),
        proximo: sec(PROXIMO),
        decisiones: sec(aliases::RECENT_DECISIONS),
        archivos: sec(aliases::FILES_TOUCHED_POST).or_else(|| sec(aliases::FILES_TOUCHED)),
        contexto: sec(aliases::CRITICAL_CONTEXT),
        refs: sec(&["Refs"]),
    }
}

/// A key/value line, outside fences. Keys are tried in order.
fn header_value(text: &str, keys: &[&str]) -> Option<String> {
    let unfenced: String = markdown::scan(text)
        .iter()
        .filter(|l| !l.fenced)
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("\n");
    markdown::value(&unfenced, keys)
}

fn first_section(lines: &[Line<'_>], titles: &[&str]) -> Option<String> {
    markdown::section_any(lines, titles)
}

/// How usable a session's checkpoint is to resume from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No CHECKPOINT.md.
    Missing,
    /// A section still holds an unfilled `_[AI: …]_` placeholder.
    Draft,
    /// Filled in, but `Updated:` is more than [`STALE_AFTER_SECONDS`] old.
    Stale,
    /// Filled in and fresh (or with no parsable `Updated:`).
    Complete,
}

impl Status {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Missing => "missing",
            Status::Draft => "draft",
            Status::Stale => "stale",
            Status::Complete => "complete",
        }
    }
}

/// A checkpoint's status with the facts behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment {
    /// The classification.
    pub status: Status,
    /// The fields whose sections still hold a placeholder, in document order, once each.
    pub unfilled: Vec<&'static str>,
    /// Seconds since `Updated:` (never negative), when it parses.
    pub age_seconds: Option<i64>,
}

impl Assessment {
    /// Everything but a complete checkpoint needs the agent.
    pub fn needs_ai_action(&self) -> bool {
        self.status != Status::Complete
    }
}

/// Classifies a checkpoint (`None` when the file is missing) against the local time `now`.
pub fn assess(text: Option<&str>, now: WallClock) -> Assessment {
    let Some(text) = text else {
        return Assessment {
            status: Status::Missing,
            unfilled: Vec::new(),
            age_seconds: None,
        };
    };
    let unfilled = unfilled_placeholders(text);
    let age_seconds = header_value(text, aliases::UPDATED)
        .and_then(|v| WallClock::parse(&v))
        .map(|ts| (now.seconds() - ts.seconds()).max(0));
    let status = if !unfilled.is_empty() {
        Status::Draft
    } else if age_seconds.is_some_and(|a| a > STALE_AFTER_SECONDS) {
        Status::Stale
    } else {
        Status::Complete
    };
    Assessment {
        status,
        unfilled,
        age_seconds,
    }
}

/// The fields whose level-2 sections still contain [`PLACEHOLDER`] (outside fences).
pub fn unfilled_placeholders(text: &str) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = Vec::new();
    let mut current: Option<&'static str> = None;
    let mut in_section = false;
    for line in markdown::scan(text) {
        if let Some((level, title)) = line.heading {
            if level <= 2 {
                in_section = level == 2;
                current = if in_section {
                    field_of(&markdown::fold(title))
                } else {
                    None
                };
            }
            continue;
        }
        if in_section
            && !line.fenced
            && line.text.contains(PLACEHOLDER)
            && let Some(f) = current
            && !found.contains(&f)
        {
            found.push(f);
        }
    }
    found
}

/// Which field a folded section title feeds, for the placeholder report.
fn field_of(h: &str) -> Option<&'static str> {
    let starts = |p: &str| h.starts_with(p);
    if h == "completed" || starts("last action") || starts("lo ultimo que hice") || h == "lo ultimo"
    {
        Some("ultimo")
    } else if starts("pending") || starts("next step") || starts("proximo paso") {
        Some("proximo")
    } else if starts("open questions") || starts("critical context") || starts("contexto critico") {
        Some("contexto")
    } else if starts("files touched") || starts("archivos tocados") {
        Some("archivos_proposito")
    } else if h == "refs" {
        Some("skills")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
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
    fn render_shape_and_seal() {
        let text = render(&snapshot());
        assert!(
            text.starts_with("# Checkpoint — 004-login-quick\n\n- Updated: 2026-03-01 10:30\n")
        );
        assert!(text.contains("- Progress: 40% (2 of 5 tasks done)\n"));
        assert!(text.contains("- DEC-002: ESM: No CJS.\n"));
        assert!(text.contains("- src/a.rs (+3 -1) — _[AI:"));
        assert!(text.contains("- img.png (binary) — _[AI:"));
        assert!(text.contains("- Origin: spec-refine-loop\n"));
        assert!(text.contains("- Artifacts present: session, tasks, scripts(2)\n"));
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("<!-- aw checkpoint template sha256="),
            "{last}"
        );
        assert!(is_pristine(&text));
        assert_eq!(guard(Some(&text), false), Guard::Regenerate);
    }

    #[test]
    fn render_without_tasks_decisions_or_files() {
        let text = render(&Snapshot {
            folder: "x".into(),
            updated: "2026-03-01 10:30".into(),
            ..Default::default()
        });
        assert!(text.contains("- Progress: _unknown: TASKS.md is missing or lists no task_\n"));
        assert!(text.contains("_No decision recorded yet._"));
        assert!(text.contains("_No uncommitted change in the workspace._"));
        assert!(!text.contains("- Origin:"));
        assert!(!text.contains("- Artifacts present:"));
        let zero = render(&Snapshot {
            tasks: Some((0, 0)),
            ..Default::default()
        });
        assert!(zero.contains("_unknown"));
    }

    #[test]
    fn long_file_lists_are_cut() {
        let numstat: String = (0..25).map(|i| format!("1\t0\tf{i}\n")).collect();
        let text = render(&Snapshot {
            files: parse_numstat(&numstat),
            ..Default::default()
        });
        assert!(text.contains("- f19 (+1 -0)"));
        assert!(!text.contains("- f20 (+1 -0)"));
        assert!(text.contains("- _… 5 more_\n"));
    }

    #[test]
    fn numstat_grammar() {
        let f = parse_numstat("1\t2\ta b.rs\r\nbad line\n-\t-\tbin\nx\t1\ty\n3\t4\t\n");
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].path, "a b.rs");
        assert_eq!((f[1].added, f[1].removed), (None, None));
    }

    #[test]
    fn any_edit_breaks_the_seal() {
        let text = render(&snapshot());
        let filled = text.replacen(
            "_[AI: In one to three sentences, what was last finished. The recent diff and the newest decision show it.]_",
            "Wrote the parser.",
            1,
        );
        assert!(!is_pristine(&filled));
        assert_eq!(guard(Some(&filled), false), Guard::Preserve);
        assert_eq!(guard(Some(&filled), true), Guard::Regenerate);
        assert!(!is_pristine(&text.replace('\n', "\r\n")));
        assert!(!is_pristine(&format!("{text}more\n")));
        assert!(
            is_pristine(text.trim_end_matches('\n')),
            "a dropped final newline is tolerated"
        );
        let forged = text.replace("sha256=", "sha256=0");
        assert!(!is_pristine(&forged));
    }

    #[test]
    fn guard_cases() {
        assert_eq!(guard(None, false), Guard::Regenerate);
        assert_eq!(guard(Some("# CHECKPOINT\n"), false), Guard::Regenerate);
        assert_eq!(guard(Some("# CHECKPOINT\r\n"), false), Guard::Regenerate);
        assert_eq!(guard(Some(""), false), Guard::Regenerate);
        // The v21 template had no seal: somebody's file as far as we can tell.
        let v21 = "# Checkpoint — x\n\n## Last action\n\n_[AI: …]_\n\n<!-- written by agent-workflow.checkpoint at 2026-01-01 10:00 -->\n";
        assert_eq!(guard(Some(v21), false), Guard::Preserve);
        assert_eq!(guard(Some("# Notes\nmine\n"), false), Guard::Preserve);
    }

    #[test]
    fn reference_v22_seal_is_honoured() {
        let body = "# Checkpoint — x\n\n_[AI: x]_\n\n";
        let sealed = format!(
            "{body}<!-- written by agent-workflow.checkpoint at 2026-01-01 10:00 · template sha256={} -->\n",
            sha256_hex(body.as_bytes())
        );
        assert!(is_pristine(&sealed));
        assert!(!is_pristine(&sealed.replace("_[AI: x]_", "done")));
    }

    #[test]
    fn parse_our_own_snapshot() {
        let f = parse(&render(&snapshot()));
        assert_eq!(f.actualizado.as_deref(), Some("2026-03-01 10:30"));
        assert_eq!(f.avance.as_deref(), Some("40% (2 of 5 tasks done)"));
        assert!(f.ultimo.unwrap().starts_with("_[AI:"));
        assert!(f.proximo.unwrap().starts_with("_[AI:"));
        assert_eq!(f.decisiones.as_deref(), Some("- DEC-002: ESM: No CJS."));
        assert!(f.archivos.unwrap().starts_with("- src/a.rs"));
        assert!(f.contexto.unwrap().starts_with("_[AI:"));
        assert!(f.refs.unwrap().starts_with("- Origin: spec-refine-loop"));
    }

    const SPANISH: &str = "# Checkpoint — session001-dev-foo\r\n\r\n- **Actualizado:** 2026-01-03 10:00\r\n\
        - Avance: 40% (2/5)\r\n\r\n## Lo último que hice\r\nparser listo\r\n\r\n## Próximo paso\r\n\
        tabla\r\n\r\n## Decisiones recientes\r\n- DEC-002\r\n\r\n## Archivos tocados\r\n- a.ts\r\n\r\n\
        ## Contexto crítico para retomar\r\nnada\r\n\r\n## Refs\r\n- x\r\n";

    #[test]
    fn parse_reference_spanish_with_crlf() {
        let f = parse(SPANISH);
        assert_eq!(f.actualizado.as_deref(), Some("2026-01-03 10:00"));
        assert_eq!(f.avance.as_deref(), Some("40% (2/5)"));
        assert_eq!(f.ultimo.as_deref(), Some("parser listo"));
        assert_eq!(f.proximo.as_deref(), Some("tabla"));
        assert_eq!(f.decisiones.as_deref(), Some("- DEC-002"));
        assert_eq!(f.archivos.as_deref(), Some("- a.ts"));
        assert_eq!(f.contexto.as_deref(), Some("nada"));
        assert_eq!(f.refs.as_deref(), Some("- x"));
    }

    #[test]
    fn loop_owned_headings_win() {
        let text = "# CHECKPOINT\n\n## Completed\n- F1 done\n\n## Pending / Next\n- F2\n\n\
                    ## Last action\nold\n\n```md\n## Next step\nfenced\n```\n";
        let f = parse(text);
        assert_eq!(f.ultimo.as_deref(), Some("- F1 done"));
        assert_eq!(f.proximo.as_deref(), Some("- F2"));
        let only_fenced = parse("```\n## Next step\nx\n```\nUpdated: 2026-01-01 10:00\n");
        assert_eq!(only_fenced.proximo, None);
        assert_eq!(only_fenced.actualizado.as_deref(), Some("2026-01-01 10:00"));
        assert_eq!(parse("```\nUpdated: 2026\n```\n").actualizado, None);
        assert_eq!(parse(""), Fields::default());
    }

    fn at(s: &str) -> WallClock {
        WallClock::parse(s).unwrap()
    }

    #[test]
    fn status_classification() {
        let now = at("2026-03-01 10:30");
        assert_eq!(assess(None, now).status, Status::Missing);
        assert!(assess(None, now).needs_ai_action());

        let draft = assess(Some(&render(&snapshot())), now);
        assert_eq!(draft.status, Status::Draft);
        assert_eq!(
            draft.unfilled,
            [
                "ultimo",
                "proximo",
                "archivos_proposito",
                "contexto",
                "skills"
            ]
        );
        assert_eq!(draft.age_seconds, Some(0));

        let filled = "- Updated: 2026-03-01 10:25\n## Last action\ndone\n";
        let a = assess(Some(filled), now);
        assert_eq!((a.status, a.age_seconds), (Status::Complete, Some(300)));
        assert!(!a.needs_ai_action());
        let a = assess(Some(filled), at("2026-03-01 10:30:01"));
        assert_eq!(a.status, Status::Stale);
        let es = assess(Some("Actualizado: 2026-03-01 09:00:00\n"), now);
        assert_eq!((es.status, es.age_seconds), (Status::Stale, Some(5400)));
        let future = assess(Some("Updated: 2026-03-02 09:00\n"), now);
        assert_eq!(
            (future.status, future.age_seconds),
            (Status::Complete, Some(0))
        );
        // Both spellings present: the age is read from the same line `checkpoint-read` reports.
        let both = "- Updated: 2026-03-01 10:25\n- Actualizado: 2026-03-01 09:00\n";
        assert_eq!(parse(both).actualizado.as_deref(), Some("2026-03-01 10:25"));
        assert_eq!(assess(Some(both), now).age_seconds, Some(300));
        let undated = assess(Some("## Completed\n- x\n"), now);
        assert_eq!(
            (undated.status, undated.age_seconds),
            (Status::Complete, None)
        );
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

    #[test]
    fn placeholders_map_to_fields_in_both_languages() {
        let text = "## Completado\n_[AI: x]_\n## Próximo paso\n_[AI: y]_\n## Pending / Next\n_[AI: z]_\n\
                    ## Archivos tocados (post-último-commit)\n_[AI: w]_\n```\n## Refs\n_[AI: fenced]_\n```\n\
                    # Top\n_[AI: outside]_\n";
        assert_eq!(
            unfilled_placeholders(text),
            ["proximo", "archivos_proposito"]
        );
        assert!(unfilled_placeholders("no marker").is_empty());
    }
}
