//! Grammars of the session artifacts aw reads (TASKS, DECISION, BACKLOG): what a task line, a
//! decision heading and a deferred item look like, and the counts derived from them.
//!
//! Every parser accepts LF and CRLF text alike and never fails: text that matches nothing simply
//! yields nothing.

use crate::markdown::{self, Line};
use serde::Serialize;

/// How long an excerpt (origin, decision body) may be, in characters.
pub const EXCERPT_CHARS: usize = 140;

/// Whether a task is still to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    /// `- [ ]`.
    Open,
    /// `- [x]` or `- [X]`.
    Closed,
}

/// One checkbox line of a TASKS file. Serialises as the reference's `{n, status, text[, deps]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Task {
    /// 1-based position among the task lines of the file.
    pub n: usize,
    /// Open or closed.
    pub status: TaskStatus,
    /// The line after the checkbox, trimmed, without its `(deps: …)` suffix.
    pub text: String,
    /// The ids named in `(deps: a, b)`; omitted from JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
}

/// Every task line of a document, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tasks {
    /// The tasks, numbered from 1.
    pub items: Vec<Task>,
}

/// The counts a session summary reports for a TASKS file (`{total, open, closed, progress_pct,
/// next_open}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TasksSummary {
    /// Number of task lines.
    pub total: usize,
    /// Open tasks.
    pub open: usize,
    /// Closed tasks.
    pub closed: usize,
    /// `round(100 · closed / total)`, 0 for an empty list.
    pub progress_pct: u32,
    /// The first open task, if any.
    pub next_open: Option<Task>,
}

impl Tasks {
    /// Number of task lines.
    pub fn total(&self) -> usize {
        self.items.len()
    }

    /// Number of closed tasks.
    pub fn closed(&self) -> usize {
        self.items
            .iter()
            .filter(|t| t.status == TaskStatus::Closed)
            .count()
    }

    /// Number of open tasks.
    pub fn open(&self) -> usize {
        self.total() - self.closed()
    }

    /// `round(100 · closed / total)` with halves rounded up, or `None` when there is no task
    /// (callers decide whether that reads as 0 or as "unknown").
    pub fn progress_pct(&self) -> Option<u32> {
        percent(self.closed(), self.total())
    }

    /// The first open task.
    pub fn next_open(&self) -> Option<&Task> {
        self.items.iter().find(|t| t.status == TaskStatus::Open)
    }

    /// The summary shape of `session-artifacts`.
    pub fn summary(&self) -> TasksSummary {
        TasksSummary {
            total: self.total(),
            open: self.open(),
            closed: self.closed(),
            progress_pct: self.progress_pct().unwrap_or(0),
            next_open: self.next_open().cloned(),
        }
    }
}

/// `round(100 · part / whole)`, halves up; `None` when `whole` is 0.
pub fn percent(part: usize, whole: usize) -> Option<u32> {
    if whole == 0 {
        return None;
    }
    let (part, whole) = (part as u128, whole as u128);
    u32::try_from((200 * part + whole) / (2 * whole)).ok()
}

/// Reads every line shaped `^\s*[-*]\s*\[([ xX])\]\s+(.+)$`.
///
/// Lines inside fenced code count too: the reference counts them, and plans and TASKS files are
/// summarised with the same numbers by every reader, so diverging here would make two commands
/// disagree about one file.
pub fn parse_tasks(text: &str) -> Tasks {
    let mut items = Vec::new();
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some((status, body)) = checkbox(line) {
            let (text, deps) = split_deps(body);
            items.push(Task {
                n: items.len() + 1,
                status,
                text,
                deps,
            });
        }
    }
    Tasks { items }
}

/// The checkbox state and the text after it, if `line` is a task line.
#[inline]
pub fn checkbox(line: &str) -> Option<(TaskStatus, &str)> {
    // Every line of every plan passes here, and most are not tasks: a line whose first byte is
    // neither a list marker nor possibly whitespace is settled without a call.
    // An empty line is none either, and after a marker at the start comes whitespace or the
    // box: `**Bold:**` and `---` lines are settled here too.
    let b = line.as_bytes();
    match b.first() {
        None => return None,
        Some(b'-' | b'*')
            if b.get(1)
                .is_some_and(|&c| c != b'[' && c.is_ascii() && !markdown::ascii_space(c)) =>
        {
            return None;
        }
        Some(b'-' | b'*') => {}
        Some(b) if b.is_ascii() && !markdown::ascii_space(*b) => return None,
        _ => {}
    }
    task_line(line)
}

/// [`checkbox`] past its first-byte check, byte by byte where the grammar is ASCII.
fn task_line(line: &str) -> Option<(TaskStatus, &str)> {
    let rest = markdown::trim_start(line);
    // `-` and `*` are ASCII: slicing after one is on a char boundary.
    let rest = match rest.as_bytes().first() {
        Some(b'-' | b'*') => markdown::trim_start(&rest[1..]),
        _ => return None,
    };
    let status = match rest.as_bytes() {
        [b'[', b' ', b']', ..] => TaskStatus::Open,
        [b'[', b'x' | b'X', b']', ..] => TaskStatus::Closed,
        _ => return None,
    };
    // The three bytes matched are ASCII: `rest[3..]` starts on a char boundary.
    let rest = &rest[3..];
    // At least one whitespace, then at least one character of text.
    let space = match rest.as_bytes().first() {
        Some(&b) if b.is_ascii() => markdown::ascii_space(b),
        Some(_) => rest.starts_with(char::is_whitespace),
        None => false,
    };
    if !space {
        return None;
    }
    let body = markdown::trim_start(rest);
    if body.is_empty() {
        return None;
    }
    Some((status, body))
}

/// Whether `line` opens with a criterion's checkbox, `^\s*[-*]\s+\[[ xX]?\]`: what
/// `session-artifacts` counts as a success criterion. Unlike a task line it needs no text after
/// the box, so the bare `- [ ]` a new session is seeded with counts as one criterion (v21 and
/// v22 count it; a TASKS item without text is still no task).
pub fn is_criterion_line(line: &str) -> bool {
    let rest = markdown::trim_start(line);
    let Some(rest) = rest.strip_prefix(['-', '*']) else {
        return false;
    };
    let after = markdown::trim_start(rest);
    if after.len() == rest.len() {
        return false;
    }
    let b = after.as_bytes();
    matches!(b, [b'[', b']', ..] | [b'[', b' ' | b'x' | b'X', b']', ..])
}

/// Removes the first `(dep: …)` / `(deps: …)` group (case-insensitive) and splits its ids.
fn split_deps(body: &str) -> (String, Vec<String>) {
    let lower = body.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find('(').map(|i| i + from) {
        let after = &lower[i + 1..];
        let key_len = if after.starts_with("deps:") {
            5
        } else if after.starts_with("dep:") {
            4
        } else {
            from = i + 1;
            continue;
        };
        let inner_start = i + 1 + key_len;
        let Some(close) = body[inner_start..].find(')').map(|c| c + inner_start) else {
            break;
        };
        let inner = body[inner_start..close].trim_start();
        if inner.is_empty() {
            from = i + 1;
            continue;
        }
        let deps = inner
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_owned)
            .collect();
        let text = format!("{}{}", &body[..i], &body[close + 1..]);
        return (text.trim().to_owned(), deps);
    }
    (body.trim().to_owned(), Vec::new())
}

/// One decision of a DECISION file: a `## DEC-n: title` heading, or a line that is bold from end
/// to end (`**Origin: T2 — use X**`), the other shape the reference's v22 reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// `DEC-n`, or the bold line's text.
    pub id: String,
    /// The title after `: `, or empty; the bold line's text.
    pub title: String,
    /// The first non-empty body line, trimmed.
    pub preview: Option<String>,
    /// The decision moved to a durable document: its first body line starts with `→ docs/`.
    pub graduated: bool,
}

/// Reads the decisions outside fences, in document order: level-2 headings `DEC-<digits>[:
/// title]`, and lines bold from end to end. A body runs to the next decision or the next heading
/// of level 2 or higher, so a decision with no text never borrows the next one's.
pub fn parse_decisions(text: &str) -> Vec<Decision> {
    let lines = markdown::scan(text);
    let decision = |l: &markdown::Line<'_>| -> Option<(String, String)> {
        if l.fenced {
            return None;
        }
        match l.heading {
            Some((2, title)) => dec_heading(title),
            Some(_) => None,
            None => bold_line(l.text).map(|t| (t.to_owned(), t.to_owned())),
        }
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((id, title)) = decision(line) else {
            continue;
        };
        let body = lines[i + 1..]
            .iter()
            .take_while(|l| l.heading.is_none_or(|(lv, _)| lv > 2) && decision(l).is_none());
        let preview = markdown::first_nonblank(body.map(|l| l.text)).map(str::to_owned);
        let graduated = preview.as_deref().is_some_and(|p| p.starts_with("→ docs/"));
        out.push(Decision {
            id,
            title,
            preview,
            graduated,
        });
    }
    out
}

/// The text of a line that is bold from end to end (`**text**`, spaces or tabs after it
/// allowed), trimmed and non-empty.
fn bold_line(line: &str) -> Option<&str> {
    let inner = line
        .trim_end_matches([' ', '\t'])
        .strip_prefix("**")?
        .strip_suffix("**")?;
    let t = inner.trim();
    (!inner.is_empty() && !t.is_empty()).then_some(t)
}

/// `DEC-<digits>` alone or followed by `:` and a title.
fn dec_heading(title: &str) -> Option<(String, String)> {
    let rest = title.strip_prefix("DEC-")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let id = title[..4 + digits].to_owned();
    let after = &rest[digits..];
    if after.trim().is_empty() {
        return Some((id, String::new()));
    }
    let t = after.strip_prefix(':')?.trim();
    Some((id, t.to_owned()))
}

/// The most recent decision as a checkpoint cites it: the last level-2 or level-3 heading that
/// starts with `DEC-n` or `DEC n`, with the first non-empty line of its body cut to 140
/// characters. Returns `(heading text, excerpt)`.
pub fn last_decision(text: &str) -> Option<(String, String)> {
    let lines = markdown::scan(text);
    let (i, heading) = lines
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, l)| match l.heading {
            Some((2 | 3, t)) if is_dec_label(t) => Some((i, t.trim().to_owned())),
            _ => None,
        })?;
    let body = lines[i + 1..]
        .iter()
        .take_while(|l| l.heading.is_none_or(|(lv, _)| lv > 3));
    let excerpt = markdown::first_nonblank(body.map(|l| l.text))
        .map(|t| t.chars().take(EXCERPT_CHARS).collect())
        .unwrap_or_default();
    Some((heading, excerpt))
}

/// `DEC-` or `DEC ` followed by a digit.
fn is_dec_label(title: &str) -> bool {
    let b = title.as_bytes();
    b.len() > 4 && b.starts_with(b"DEC") && matches!(b[3], b'-' | b' ') && b[4].is_ascii_digit()
}

/// The list items under BACKLOG's `## Deferred` (or `Diferido` / `Diferidos`).
pub fn deferred_items(text: &str) -> Vec<String> {
    items_under(text, markdown::aliases::DEFERRED)
}

/// The list items under a CHECKPOINT's `## Excluded` (or `Excluido` / `Excluidos`).
pub fn excluded_items(text: &str) -> Vec<String> {
    excluded_items_in(&markdown::scan(text))
}

/// [`excluded_items`] over already scanned lines.
pub fn excluded_items_in(lines: &[Line<'_>]) -> Vec<String> {
    items_under_in(lines, markdown::aliases::EXCLUDED)
}

/// List items (`-`, `*`, `1.`, `1)`) of the first section whose loosely matched title is one of
/// `titles`. Template placeholders (`List of …`) and fenced lines are not items.
pub fn items_under(text: &str, titles: &[&str]) -> Vec<String> {
    items_under_in(&markdown::scan(text), titles)
}

/// [`items_under`] over already scanned lines.
pub fn items_under_in(lines: &[Line<'_>], titles: &[&str]) -> Vec<String> {
    let wanted: Vec<String> = titles.iter().map(|t| markdown::fold(t)).collect();
    // `loose_title(t) == w`, without a folded copy of every heading.
    let matches = |t: &str| {
        let t = crate::vocab::titles::loose(t);
        wanted.iter().any(|w| crate::vocab::titles::folds_to(t, w))
    };
    let Some(start) = lines
        .iter()
        .position(|l| l.heading.is_some_and(|(_, t)| matches(t)))
    else {
        return Vec::new();
    };
    let level = lines[start].heading.map(|(l, _)| l).unwrap_or(1);
    lines[start + 1..]
        .iter()
        .take_while(|l| l.heading.is_none_or(|(lv, _)| lv > level))
        .filter(|l| !l.fenced)
        .filter_map(list_item)
        .filter(|t| !t.starts_with("List of"))
        .collect()
}

/// The text of a `- x`, `* x`, `1. x` or `1) x` line.
fn list_item(line: &Line<'_>) -> Option<String> {
    let t = line.text.trim();
    let rest = if let Some(r) = t.strip_prefix(['-', '*']) {
        r
    } else {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        t[digits..].strip_prefix(['.', ')'])?
    };
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let item = rest.trim();
    (!item.is_empty()).then(|| item.to_owned())
}

/// The kinds of file a session folder may hold (§7.10's catalogue).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtifactKind {
    /// `SESSION.md`.
    Session,
    /// The legacy objective: `OBJECTIVE.md`, `OBJETIVO.md`.
    Objective,
    /// `DECISION.md`, `DECISIONS.md`, `DECISIONES.md`.
    Decisions,
    /// `CONCLUSIONS.md`, `CONCLUSIONES.md`.
    Conclusions,
    /// `TASKS.md`.
    Tasks,
    /// `CHECKPOINT.md`.
    Checkpoint,
    /// `BACKLOG.md`.
    Backlog,
    /// `SCRIPTS.sql`.
    ScriptsSql,
    /// `ANALYSIS-FILE.md`.
    AnalysisFile,
    /// `TECHNICAL-NOTE.md`.
    TechnicalNote,
}

impl ArtifactKind {
    /// Every kind, in catalogue order.
    pub const ALL: [ArtifactKind; 10] = [
        ArtifactKind::Session,
        ArtifactKind::Objective,
        ArtifactKind::Decisions,
        ArtifactKind::Conclusions,
        ArtifactKind::Tasks,
        ArtifactKind::Checkpoint,
        ArtifactKind::Backlog,
        ArtifactKind::ScriptsSql,
        ArtifactKind::AnalysisFile,
        ArtifactKind::TechnicalNote,
    ];

    /// The accepted file names; the first is canonical (what aw writes).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            ArtifactKind::Session => &["SESSION.md"],
            ArtifactKind::Objective => &["OBJECTIVE.md", "OBJETIVO.md"],
            ArtifactKind::Decisions => &["DECISION.md", "DECISIONS.md", "DECISIONES.md"],
            ArtifactKind::Conclusions => &["CONCLUSIONS.md", "CONCLUSIONES.md"],
            ArtifactKind::Tasks => &["TASKS.md"],
            ArtifactKind::Checkpoint => &["CHECKPOINT.md"],
            ArtifactKind::Backlog => &["BACKLOG.md"],
            ArtifactKind::ScriptsSql => &["SCRIPTS.sql"],
            ArtifactKind::AnalysisFile => &["ANALYSIS-FILE.md"],
            ArtifactKind::TechnicalNote => &["TECHNICAL-NOTE.md"],
        }
    }

    /// The canonical file name.
    pub fn canonical(self) -> &'static str {
        self.names()[0]
    }

    /// Which of `entries` (the file names of a session folder) holds this artifact: names are
    /// tried in catalogue order and compared case-insensitively; among several spellings of the
    /// same name, the byte-smallest wins so the answer never depends on listing order.
    pub fn find(self, entries: &[String]) -> Option<&str> {
        self.names().iter().find_map(|name| {
            entries
                .iter()
                .filter(|e| e.eq_ignore_ascii_case(name))
                .min()
                .map(String::as_str)
        })
    }
}

/// The folder of a session that holds its SQL scripts.
pub const SCRIPTS_DIR: &str = "scripts";

/// Whether a file under `scripts/` is a SQL script: its name ends in `.sql`, in any letter case.
pub fn is_sql_script(name: &str) -> bool {
    ends_with_ignore_case(name, ".sql")
}

/// Whether a SQL script undoes another: its name ends in `.rollback.sql`, in any letter case.
pub fn is_rollback(name: &str) -> bool {
    ends_with_ignore_case(name, ".rollback.sql")
}

/// How many SQL scripts a session holds, and how many of them are rollbacks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScriptCounts {
    /// Every script.
    pub total: usize,
    /// The scripts that move forward.
    pub forward: usize,
    /// The rollbacks.
    pub rollback: usize,
}

impl ScriptCounts {
    /// Counts scripts from whether each is a rollback.
    pub fn of(rollbacks: impl IntoIterator<Item = bool>) -> Self {
        let (mut total, mut rollback) = (0, 0);
        for r in rollbacks {
            total += 1;
            rollback += usize::from(r);
        }
        ScriptCounts {
            total,
            forward: total - rollback,
            rollback,
        }
    }
}

fn ends_with_ignore_case(name: &str, suffix: &str) -> bool {
    name.len() >= suffix.len()
        && name.as_bytes()[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// The CHECKPOINT sections that say what was done: `## Completed` (the loop-owned heading)
/// first, then the snapshot's `Last action`.
const ULTIMO: &[&str] = &["Completed", "Last action", "Lo último que hice"];
/// `## Pending / Next` first, then the snapshot's `Next step`.
const PROXIMO: &[&str] = &["Pending / Next", "Pending", "Next step", "Próximo paso"];

/// The part of a CHECKPOINT that says where the work stands: the fields of `checkpoint::read::Fields` the status board
/// reads, without the cost of the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// `Updated:` / `Actualizado:`.
    pub actualizado: Option<String>,
    /// `## Completed`, else `## Last action` / `Lo último que hice`.
    pub ultimo: Option<String>,
    /// `## Pending / Next`, else `## Next step` / `Próximo paso`.
    pub proximo: Option<String>,
}

/// Reads where a CHECKPOINT's work stands from its scanned lines (the same values `checkpoint::read::parse`
/// gives).
pub fn progress(lines: &[Line<'_>]) -> Progress {
    Progress {
        actualizado: markdown::value_in(
            lines.iter().filter(|l| !l.fenced).map(|l| l.text),
            markdown::aliases::UPDATED,
        ),
        ultimo: markdown::section_any(lines, ULTIMO),
        proximo: markdown::section_any(lines, PROXIMO),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::titles::loose_title;

    const TASKS: &str = "# Tasks\n\n## Phase 0\n\n- [x] T0.1 — fixture\n- [X] T0.2 — contract\n\n\
                         ## Phase 2\n\n- [ ] T2.1 — parser\n- [ ] T2.2 — table (deps: T2.1)\n\
                         * [ ] T2.3 — render\n";

    #[test]
    fn tasks_counts_progress_and_next_open() {
        let t = parse_tasks(TASKS);
        assert_eq!((t.total(), t.open(), t.closed()), (5, 3, 2));
        assert_eq!(t.progress_pct(), Some(40));
        let next = t.next_open().unwrap();
        assert_eq!((next.n, next.text.as_str()), (3, "T2.1 — parser"));
        assert_eq!(t.items[3].deps, vec!["T2.1"]);
        assert_eq!(t.items[3].text, "T2.2 — table");
        let json = serde_json::to_value(t.summary()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"total":5,"open":3,"closed":2,"progress_pct":40,
                "next_open":{"n":3,"status":"open","text":"T2.1 — parser"}})
        );
        assert_eq!(
            serde_json::to_value(&t.items[3]).unwrap(),
            serde_json::json!({"n":4,"status":"open","text":"T2.2 — table","deps":["T2.1"]})
        );
    }

    #[test]
    fn tasks_crlf_reads_like_lf() {
        let crlf = TASKS.replace('\n', "\r\n");
        assert_eq!(parse_tasks(&crlf), parse_tasks(TASKS));
    }

    #[test]
    fn tasks_line_grammar() {
        assert!(checkbox("  - [ ] x").is_some());
        assert!(checkbox("-[x] x").is_some());
        assert!(checkbox("- [ ]x").is_none(), "text needs a space before it");
        assert!(checkbox("- [ ]   ").is_none(), "empty text is no task");
        assert!(checkbox("- [y] x").is_none());
        assert!(checkbox("+ [ ] x").is_none());
        assert!(checkbox("1. [ ] x").is_none());
        assert!(checkbox("- [ x").is_none());
        // Unicode whitespace counts wherever the grammar says `\s`.
        assert_eq!(
            checkbox("\u{a0}* [X]\u{2003}done"),
            Some((TaskStatus::Closed, "done"))
        );
        assert!(checkbox("\u{a0}+ [X] x").is_none());
        assert!(checkbox("- [x]\u{a0}").is_none());
        assert!(checkbox("-").is_none());
        assert!(checkbox("- [").is_none());
        assert!(checkbox("").is_none());
    }

    /// The task grammar read char by char with the standard library, as it was written before
    /// the byte-wise shortcuts.
    fn checkbox_by_chars(line: &str) -> Option<(TaskStatus, &str)> {
        let rest = line.trim_start().strip_prefix(['-', '*'])?.trim_start();
        let (status, rest) = if let Some(r) = rest.strip_prefix("[ ]") {
            (TaskStatus::Open, r)
        } else if let Some(r) = rest
            .strip_prefix("[x]")
            .or_else(|| rest.strip_prefix("[X]"))
        {
            (TaskStatus::Closed, r)
        } else {
            return None;
        };
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let body = rest.trim_start();
        (!body.is_empty()).then_some((status, body))
    }

    proptest::proptest! {
        /// The first-byte and second-byte rejections never refuse a task line.
        #[test]
        fn checkbox_agrees_with_the_char_wise_grammar(
            line in "[ \t\u{a0}\u{2003}*+\\[\\]xXy1é-]{0,9}",
        ) {
            proptest::prop_assert_eq!(checkbox(&line), checkbox_by_chars(&line));
        }
    }

    #[test]
    fn tasks_inside_fences_count() {
        let t = parse_tasks("```\n- [ ] fenced\n```\n- [x] real\n");
        assert_eq!((t.total(), t.closed()), (2, 1));
    }

    #[test]
    fn deps_suffix_variants() {
        assert_eq!(
            split_deps("a (Dep: x , y,) b"),
            ("a  b".to_owned(), vec!["x".to_owned(), "y".to_owned()])
        );
        assert_eq!(split_deps("a (note) b"), ("a (note) b".to_owned(), vec![]));
        assert_eq!(
            split_deps("a (deps: ) b"),
            ("a (deps: ) b".to_owned(), vec![])
        );
        assert_eq!(split_deps("a (deps: x"), ("a (deps: x".to_owned(), vec![]));
        assert_eq!(
            split_deps("ñ (deps: T1)"),
            ("ñ".to_owned(), vec!["T1".to_owned()])
        );
    }

    #[test]
    fn percent_rounds_half_up() {
        assert_eq!(percent(1, 8), Some(13));
        assert_eq!(percent(1, 3), Some(33));
        assert_eq!(percent(2, 3), Some(67));
        assert_eq!(percent(0, 0), None);
        assert_eq!(Tasks::default().summary().progress_pct, 0);
        assert_eq!(Tasks::default().summary().next_open, None);
    }

    const DECISIONS: &str = "# Decisiones\n\n## DEC-001: Stack TS\n\nElegimos TS.\n\nTrade-off.\n\n\
                             ## DEC-002: ESM\n\nSin CJS.\n\n```\n## DEC-009: fenced\n```\n\
                             ## DEC-003: graduada\n\n→ docs/decisiones/003-x.md\n\n## DEC-004\n\n## Other\nnot a preview\n\
                             ## DEC-5 trailing words\n### DEC-006: deep\n";

    #[test]
    fn decisions_grammar() {
        let d = parse_decisions(DECISIONS);
        let ids: Vec<_> = d.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["DEC-001", "DEC-002", "DEC-003", "DEC-004"]);
        assert_eq!(d[0].title, "Stack TS");
        assert_eq!(d[0].preview.as_deref(), Some("Elegimos TS."));
        assert!(!d[0].graduated);
        assert!(d[2].graduated);
        assert_eq!(d[3].title, "");
        assert_eq!(d[3].preview, None);
        assert_eq!(parse_decisions(&DECISIONS.replace('\n', "\r\n")), d);
    }

    #[test]
    fn bold_lines_are_decisions_too_in_document_order() {
        let text = "# Decisions\n\n**Origin: T2 (F1) — cache the index**\nReads dominate.\n\n\
                    ## DEC-7: keep CSV\nUsers ask.\n**Later: drop v1** \n\nNobody uses it.\n\
                    Mid-line **bold** is not one.\n**\n```\n**fenced**\n```\n";
        let d = parse_decisions(text);
        let got: Vec<_> = d
            .iter()
            .map(|d| (d.id.as_str(), d.preview.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("Origin: T2 (F1) — cache the index", Some("Reads dominate.")),
                ("DEC-7", Some("Users ask.")),
                ("Later: drop v1", Some("Nobody uses it.")),
            ]
        );
        assert_eq!(d[0].title, d[0].id);
    }

    #[test]
    fn last_decision_takes_level_two_or_three() {
        let (h, e) = last_decision(DECISIONS).unwrap();
        assert_eq!((h.as_str(), e.as_str()), ("DEC-006: deep", ""));
        let (h, e) = last_decision("## DEC 7 — spaced\n\nbody line\n").unwrap();
        assert_eq!((h.as_str(), e.as_str()), ("DEC 7 — spaced", "body line"));
        let long = format!("### DEC-1: x\n{}\n", "é".repeat(200));
        assert_eq!(last_decision(&long).unwrap().1.chars().count(), 140);
        assert_eq!(last_decision("## DECISION\n# DEC-1\n"), None);
        assert_eq!(last_decision("```\n## DEC-1: x\n```\n"), None);
    }

    #[test]
    fn deferred_items_both_languages() {
        let en = "# Backlog\n## Deferred (post-MVP):\n- one\n* two\n1. three\n2) four\n- List of things\n\
                  -nospace\n```\n- fenced\n```\n### sub\n- five\n## Next\n- no\n";
        assert_eq!(deferred_items(en), ["one", "two", "three", "four", "five"]);
        let es = "## Diferidos\r\n- uno\r\n## Otro\r\n- no\r\n";
        assert_eq!(deferred_items(es), ["uno"]);
        assert_eq!(deferred_items("## Diferido:\n- x\n"), ["x"]);
        assert!(deferred_items("no heading\n- x").is_empty());
    }

    #[test]
    fn excluded_items_both_languages() {
        assert_eq!(excluded_items("## Excluidos\n- a\n"), ["a"]);
        assert_eq!(excluded_items("## Excluded\n- b\n"), ["b"]);
    }

    #[test]
    fn loose_titles() {
        assert_eq!(loose_title("Deferred (later):"), "deferred");
        assert_eq!(loose_title("Diferidos:"), "diferidos");
        assert_eq!(loose_title("Pending / Next"), "pending / next");
    }
    #[test]
    fn catalogue_lookup_is_case_insensitive_and_ordered() {
        let entries: Vec<String> = ["decisiones.md", "DECISIONS.md", "Tasks.MD", "notes.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(ArtifactKind::Decisions.find(&entries), Some("DECISIONS.md"));
        assert_eq!(ArtifactKind::Tasks.find(&entries), Some("Tasks.MD"));
        assert_eq!(ArtifactKind::Checkpoint.find(&entries), None);
        assert_eq!(ArtifactKind::Conclusions.canonical(), "CONCLUSIONS.md");
        assert_eq!(ArtifactKind::ALL.len(), 10);
    }

    #[test]
    fn sql_scripts_and_rollbacks_in_any_case() {
        assert!(is_sql_script("001-a.sql"));
        assert!(is_sql_script("001-a.SQL"));
        assert!(!is_sql_script("sql"));
        assert!(!is_sql_script("a.sql.bak"));
        assert!(is_rollback("sub/001-a.Rollback.SQL"));
        assert!(!is_rollback("001-a.sql"));
        assert!(
            !is_rollback("rollback.sql"),
            "a name, not a suffix after a dot"
        );
    }
}
