//! The session narrative (the reference's v22 `aw:recorrido` block in `SESSION.md`): what a
//! session did, one fact per line, each read from the artifact that owns it. It is a projection,
//! rebuilt from its sources and never edited by hand: the objective and success criteria come
//! from `SESSION.md`, the results and what is pending from `CHECKPOINT.md`, the reasons from the
//! decisions file, what really ran from the run state's events.
//!
//! The block is the reference's file format, so its labels, states and managed-block note are
//! the reference's Spanish words, byte for byte: a workspace shared with the reference sees one
//! block, whoever refreshed it last. What aw prints about a narrative is English (the binary's
//! views map the wire words).

use crate::artifacts::parse_decisions;
use crate::artifacts::progress;
use crate::markdown::{self, PLACEHOLDER, aliases};
use crate::session::folder::numeric_code;
use serde::Serialize;
use std::borrow::Cow;

/// The block's first line.
pub const BEGIN: &str = "<!-- aw:recorrido -->";
/// The block's last line.
pub const END: &str = "<!-- /aw:recorrido -->";

/// The note under the block's heading (the reference's words, part of the file format): the
/// block is managed, and editing it changes nothing.
const MANAGED_NOTE: &str = "> Bloque administrado por el CLI: proyecta las fuentes que enlaza y se reescribe solo. Editarlo a mano no cambia nada — corregí la fuente.";

/// How many lines of a CHECKPOINT section become facts.
const SECTION_LIMIT: usize = 6;

/// What a fact says happened to it (wire values are the reference's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum FactState {
    /// Planned, not done yet.
    #[serde(rename = "planificado")]
    Planned,
    /// Done.
    #[serde(rename = "aplicado")]
    Applied,
    /// Tried and failed.
    #[serde(rename = "fallido")]
    Failed,
    /// Closed.
    #[serde(rename = "cerrado")]
    Closed,
}

impl FactState {
    /// The wire (and file) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            FactState::Planned => "planificado",
            FactState::Applied => "aplicado",
            FactState::Failed => "fallido",
            FactState::Closed => "cerrado",
        }
    }
}

/// Where a session stands: derived from its folder, never declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum Phase {
    /// Open, nothing recorded as done yet.
    #[serde(rename = "abierta")]
    Open,
    /// Open, with completed work recorded: it was left and picked up again.
    #[serde(rename = "reanudada")]
    Resumed,
    /// Closed.
    #[serde(rename = "cerrada")]
    Closed,
}

impl Phase {
    /// The wire (and file) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Open => "abierta",
            Phase::Resumed => "reanudada",
            Phase::Closed => "cerrada",
        }
    }

    /// The phase in English, as aw's own outputs say it.
    pub fn word(self) -> &'static str {
        match self {
            Phase::Open => "open",
            Phase::Resumed => "resumed",
            Phase::Closed => "closed",
        }
    }

    /// Closed when the folder is; else resumed once its checkpoint records completed work.
    pub fn of(closed: bool, has_results: bool) -> Phase {
        match (closed, has_results) {
            (true, _) => Phase::Closed,
            (false, true) => Phase::Resumed,
            (false, false) => Phase::Open,
        }
    }
}

/// The artifact a fact comes from, and where in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Source {
    /// The file name, as it is in the session folder.
    pub artifact: String,
    /// The heading, decision or transition inside it.
    pub locator: Option<String>,
}

/// One line of the narrative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Fact {
    /// What happened to it.
    pub state: FactState,
    /// The line, as its source words it.
    pub text: String,
    /// The technical half (ids, digests, transitions); never written into the block.
    pub detail: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// An artifact of the session folder the block links to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Link {
    /// Its file name.
    pub label: String,
    /// `./<file name>`.
    pub path: String,
}

/// A session's narrative (the JSON `narrative` model, the reference's keys).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Narrative {
    /// The folder.
    pub session: String,
    /// The folder's number.
    pub code: Option<String>,
    /// Where the session stands.
    pub phase: Phase,
    /// `## Objective`'s first line.
    pub objective: Option<Fact>,
    /// What the run really did, in order.
    pub sequence: Vec<Fact>,
    /// The success criteria.
    pub tasks: Vec<Fact>,
    /// The decisions and their reason.
    pub decisions: Vec<Fact>,
    /// What the checkpoint records as completed.
    pub results: Vec<Fact>,
    /// What can be checked: the run's recorded outputs.
    pub evidence: Vec<Fact>,
    /// What the checkpoint leaves pending, then its open questions.
    pub pending: Vec<Fact>,
    /// The one next step.
    pub next: Option<Fact>,
    /// The artifacts that exist.
    pub links: Vec<Link>,
}

/// The narrative's lists of facts, in the order the block (and every view of it) shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// What the run really did.
    Sequence,
    /// The success criteria.
    Tasks,
    /// The decisions and their reason.
    Decisions,
    /// What was completed.
    Results,
    /// What can be checked.
    Evidence,
    /// What is still pending.
    Pending,
}

impl List {
    /// The heading of the list in the block (the reference's words: part of the file format).
    pub fn block_heading(self) -> &'static str {
        match self {
            List::Sequence => "Qué pasó",
            List::Tasks => "Tareas",
            List::Decisions => "Decisiones y por qué",
            List::Results => "Resultados",
            List::Evidence => "Evidencia",
            List::Pending => "Pendiente",
        }
    }
}

impl Narrative {
    /// Each list with its facts, in display order.
    pub fn lists(&self) -> [(List, &[Fact]); 6] {
        [
            (List::Sequence, &self.sequence),
            (List::Tasks, &self.tasks),
            (List::Decisions, &self.decisions),
            (List::Results, &self.results),
            (List::Evidence, &self.evidence),
            (List::Pending, &self.pending),
        ]
    }
}

/// One event of a run's trace (the reference's v22 run state records them; aw's own run state
/// has none, so its runs contribute no sequence or evidence).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEvent {
    /// A step that ran, with real output.
    Executed {
        /// The transition.
        transition: String,
        /// The operation that ran.
        operation: String,
        /// One line derived from its output.
        summary: String,
        /// The evidence ids it satisfied.
        evidence: Vec<String>,
        /// The digest of its output.
        output_digest: String,
        /// The effect classes it applied.
        effects: Vec<String>,
    },
    /// A step that failed.
    Failed {
        /// The transition.
        transition: String,
        /// The error code.
        code: String,
        /// What went wrong.
        message: String,
        /// What unblocks it.
        recovery: String,
    },
}

/// Reads the `events` of a run state's JSON text; anything that is not an event is skipped.
pub fn run_events(run_json: &str) -> Vec<RunEvent> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(run_json) else {
        return Vec::new();
    };
    let Some(events) = value.get("events").and_then(|e| e.as_array()) else {
        return Vec::new();
    };
    let text = |e: &serde_json::Value, k: &str| {
        e.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let list = |e: &serde_json::Value, k: &str| -> Vec<String> {
        e.get(k)
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    events
        .iter()
        .filter_map(|e| match e.get("kind").and_then(|k| k.as_str()) {
            Some("executed") => Some(RunEvent::Executed {
                transition: text(e, "transition"),
                operation: text(e, "operation"),
                summary: text(e, "summary"),
                evidence: list(e, "evidence"),
                output_digest: text(e, "output_digest"),
                effects: list(e, "effects"),
            }),
            Some("failed") => Some(RunEvent::Failed {
                transition: text(e, "transition"),
                code: text(e, "code"),
                message: text(e, "message"),
                recovery: text(e, "recovery"),
            }),
            _ => None,
        })
        .collect()
}

/// Where a run stands, when it stands short of its final boundary: the narrative's next step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunStop {
    /// The transition it stands on.
    pub transition: Option<String>,
    /// One line saying where it stands.
    pub summary: String,
}

/// What a narrative is built from, as the shell read it from the session folder.
#[derive(Debug, Clone, Default)]
pub struct Sources<'a> {
    /// The folder name.
    pub folder: &'a str,
    /// The descriptor's file name and text (`SESSION.md`, else a legacy `OBJECTIVE.md`).
    pub descriptor: Option<(&'a str, &'a str)>,
    /// `CHECKPOINT.md`'s text.
    pub checkpoint: Option<&'a str>,
    /// The decisions file's name and text.
    pub decisions: Option<(&'a str, &'a str)>,
    /// Whether the folder is closed.
    pub closed: bool,
    /// The run's trace.
    pub events: Vec<RunEvent>,
    /// Where the run stands, when short of final.
    pub run_stop: Option<RunStop>,
    /// The file names of the artifacts that exist, in link order: checkpoint, decisions,
    /// conclusions, analysis file, backlog, SQL scripts, tasks.
    pub links: Vec<&'a str>,
}

/// The run state's file, as facts name it.
const RUN_ARTIFACT: &str = ".flow-run.json";

fn fact(state: FactState, text: String, artifact: &str, locator: Option<&str>) -> Fact {
    Fact {
        state,
        text,
        detail: None,
        source: Source {
            artifact: artifact.to_owned(),
            locator: locator.map(str::to_owned),
        },
    }
}

/// Builds a session's narrative.
pub fn build(src: &Sources<'_>) -> Narrative {
    let (objective, tasks) = match src.descriptor {
        Some((name, text)) => authored(name, &strip(text)),
        None => (None, Vec::new()),
    };
    let cp_lines = src.checkpoint.map(markdown::scan).unwrap_or_default();
    let cp = progress(&cp_lines);
    let results = bullet_facts(cp.ultimo.as_deref(), FactState::Applied, "Completed");
    let mut pending = bullet_facts(cp.proximo.as_deref(), FactState::Planned, "Pending / Next");
    pending.extend(bullet_facts(
        markdown::section_any(&cp_lines, &["Open questions"]).as_deref(),
        FactState::Planned,
        "Open questions",
    ));
    let (sequence, evidence) = trace(&src.events);
    let next = match &src.run_stop {
        Some(stop) => Some(Fact {
            state: FactState::Planned,
            text: stop.summary.clone(),
            detail: stop.transition.clone(),
            source: Source {
                artifact: RUN_ARTIFACT.to_owned(),
                locator: Some("boundary".to_owned()),
            },
        }),
        None => pending.first().cloned(),
    };
    Narrative {
        session: src.folder.to_owned(),
        code: numeric_code(src.folder),
        phase: Phase::of(src.closed, !results.is_empty()),
        objective,
        sequence,
        tasks,
        decisions: src
            .decisions
            .map(|(name, text)| decision_facts(name, text))
            .unwrap_or_default(),
        results,
        evidence,
        pending,
        next,
        links: src
            .links
            .iter()
            .map(|name| Link {
                label: (*name).to_owned(),
                path: format!("./{name}"),
            })
            .collect(),
    }
}

/// The objective and the success criteria: the two facts the session document owns.
fn authored(artifact: &str, text: &str) -> (Option<Fact>, Vec<Fact>) {
    let lines = markdown::scan(text);
    let objective = markdown::section_any(&lines, aliases::OBJECTIVE)
        .as_deref()
        .and_then(markdown::first_nonblank_line)
        .map(|l| {
            fact(
                FactState::Applied,
                l.to_owned(),
                artifact,
                Some("Objective"),
            )
        });
    let tasks = markdown::section_any(&lines, aliases::SUCCESS_CRITERIA)
        .map(|body| {
            body.lines()
                .filter_map(criterion)
                .map(|(done, text)| {
                    let state = if done {
                        FactState::Applied
                    } else {
                        FactState::Planned
                    };
                    fact(state, text.to_owned(), artifact, Some("Success criteria"))
                })
                .collect()
        })
        .unwrap_or_default();
    (objective, tasks)
}

/// A checklist line `- [ ] text` / `* [x] text` (`[]` allowed, the text required): whether it
/// is ticked, and its text.
fn criterion(line: &str) -> Option<(bool, &str)> {
    let rest = line.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix(['-', '*'])?;
    let after = rest.trim_start_matches([' ', '\t']);
    if after.len() == rest.len() {
        return None;
    }
    let (done, after) = if let Some(a) = after.strip_prefix("[]") {
        (false, a)
    } else {
        let b = after.as_bytes();
        match b {
            [b'[', mark @ (b' ' | b'x' | b'X'), b']', ..] => (*mark != b' ', &after[3..]),
            _ => return None,
        }
    };
    let text = after.trim_start_matches([' ', '\t']).trim();
    (!text.is_empty()).then_some((done, text))
}

/// A CHECKPOINT section's lines as facts: bullets dropped, blank lines, comments and unfilled
/// placeholders skipped, at most [`SECTION_LIMIT`].
fn bullet_facts(section: Option<&str>, state: FactState, locator: &str) -> Vec<Fact> {
    bullet_texts(section)
        .take(SECTION_LIMIT)
        .map(|t| fact(state, t.to_owned(), "CHECKPOINT.md", Some(locator)))
        .collect()
}

/// The facts a CHECKPOINT section lists: each line without its bullet, blank lines, comments
/// and unfilled template placeholders left out. A session's first result (its `## Completed`'s
/// first fact) is what makes it `reanudada`, on the board as in its narrative.
pub fn bullet_texts(section: Option<&str>) -> impl Iterator<Item = &str> {
    section
        .unwrap_or_default()
        .lines()
        .map(|raw| {
            let t = raw.trim_start_matches([' ', '\t']);
            // A bullet is dropped only when text follows it: a bare `-` stays itself.
            match t.strip_prefix(['-', '*']) {
                Some(rest) if rest.starts_with([' ', '\t']) && !rest.trim().is_empty() => {
                    rest.trim()
                }
                _ => t.trim(),
            }
        })
        .filter(|t| !t.is_empty() && !t.starts_with("<!--") && !t.contains(PLACEHOLDER))
}

/// The decisions and their reason, from the one decisions grammar.
fn decision_facts(artifact: &str, text: &str) -> Vec<Fact> {
    parse_decisions(text)
        .into_iter()
        .map(|d| {
            let line = match &d.preview {
                Some(p) => format!("{} — {p}", d.title),
                None => d.title.clone(),
            };
            let mut f = fact(FactState::Applied, line, artifact, Some(&d.id));
            if d.graduated {
                f.detail = Some("graduada".to_owned());
            }
            f
        })
        .collect()
}

/// What the run's trace says ran (sequence) and what it proves (evidence).
fn trace(events: &[RunEvent]) -> (Vec<Fact>, Vec<Fact>) {
    let mut sequence = Vec::new();
    let mut evidence = Vec::new();
    for e in events {
        match e {
            RunEvent::Executed {
                transition,
                operation,
                summary,
                evidence: ids,
                output_digest,
                effects,
            } => {
                let mut s = fact(
                    FactState::Applied,
                    summary.clone(),
                    RUN_ARTIFACT,
                    Some(transition),
                );
                s.detail = Some(format!("{transition} · effects {}", effects.join(", ")));
                sequence.push(s);
                let short: String = output_digest.chars().take(12).collect();
                let mut v = fact(
                    FactState::Applied,
                    format!("salida real registrada: {operation}"),
                    RUN_ARTIFACT,
                    Some(transition),
                );
                v.detail = Some(format!(
                    "{} · output {short} · effects {}",
                    ids.join(", "),
                    effects.join(", ")
                ));
                evidence.push(v);
            }
            RunEvent::Failed {
                transition,
                code,
                message,
                recovery,
            } => {
                let mut s = fact(
                    FactState::Failed,
                    format!("{message} — {recovery}"),
                    RUN_ARTIFACT,
                    Some(transition),
                );
                s.detail = Some(format!("{transition} · {code}"));
                sequence.push(s);
            }
        }
    }
    (sequence, evidence)
}

/// Whether the narrative holds a fact `SESSION.md` does not already say (its objective and
/// criteria alone do not count): only then is a block created where there is none.
pub fn adds_anything(n: &Narrative) -> bool {
    !(n.sequence.is_empty()
        && n.results.is_empty()
        && n.decisions.is_empty()
        && n.pending.is_empty()
        && n.evidence.is_empty())
}

/// The block as it is written into `SESSION.md`: each fact with its state and artifact, never
/// its locator or detail.
pub fn render_block(n: &Narrative) -> String {
    let line = |f: &Fact| {
        format!(
            "{} _({} · {})_",
            f.text,
            f.state.as_str(),
            f.source.artifact
        )
    };
    let mut out: Vec<String> = vec![
        BEGIN.to_owned(),
        "## Recorrido".to_owned(),
        String::new(),
        MANAGED_NOTE.to_owned(),
        String::new(),
        format!("- **Estado:** {}", n.phase.as_str()),
    ];
    if let Some(o) = &n.objective {
        out.push(format!("- **Objetivo:** {}", line(o)));
    }
    if let Some(x) = &n.next {
        out.push(format!("- **Siguiente paso:** {}", line(x)));
    }
    for (list, facts) in n.lists() {
        if facts.is_empty() {
            continue;
        }
        out.push(String::new());
        out.push(format!("### {}", list.block_heading()));
        out.extend(facts.iter().map(|f| format!("- {}", line(f))));
    }
    if !n.links.is_empty() {
        out.push(String::new());
        out.push("### Detalle".to_owned());
        out.extend(
            n.links
                .iter()
                .map(|l| format!("- [{}]({})", l.label, l.path)),
        );
    }
    out.push(String::new());
    out.push(END.to_owned());
    out.join("\n")
}

/// The span of the block in `document`: from its begin marker to the end of its end marker.
/// A marker counts only as a line of its own (trailing blanks and a CR aside): the same text
/// quoted inside a sentence or a code span is a person's, and a refresh must never cut there.
fn span(document: &str) -> Option<(usize, usize)> {
    let begin = marker_line(document, 0, BEGIN)?;
    let end = marker_line(document, begin + BEGIN.len(), END)?;
    Some((begin, end + END.len()))
}

/// The offset of the first line at or after `from` that is `marker` alone.
fn marker_line(document: &str, from: usize, marker: &str) -> Option<usize> {
    let mut at = 0;
    for line in document.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if start >= from && line.trim_end() == marker {
            return Some(start);
        }
    }
    None
}

/// `document` with `block` in place of its block, or appended (after a blank line) when it has
/// none.
pub fn upsert(document: &str, block: &str) -> String {
    match span(document) {
        Some((b, e)) => format!("{}{block}{}", &document[..b], &document[e..]),
        None => {
            let sep = if document.ends_with('\n') { "" } else { "\n" };
            format!("{document}{sep}\n{block}\n")
        }
    }
}

/// `document` without its block: what a person wrote, which is all a reader may take from it.
pub fn strip(document: &str) -> Cow<'_, str> {
    match span(document) {
        Some((b, e)) => Cow::Owned(format!("{}{}", &document[..b], &document[e..])),
        None => Cow::Borrowed(document),
    }
}

/// The new text of a `SESSION.md` whose narrative is `n`, or `None` when nothing is to be
/// written: a document with no block gets one only once the narrative adds something, and a
/// block already up to date is not rewritten.
pub fn refreshed(document: &str, n: &Narrative) -> Option<String> {
    if span(document).is_none() && !adds_anything(n) {
        return None;
    }
    let next = upsert(document, &render_block(n));
    (next != document).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "# SESSION — two-quick\n\n## Objective\nz\n\n## Origin\n- \n\n\
        ## Success criteria\n<!-- criteria -->\n- [x] parser compiles\n";
    const CHECKPOINT: &str = "# CHECKPOINT\n\n## Completed\n- parser written\n- tests green\n\n\
        ## Pending / Next\n- wire CLI\n\n## Open questions\n- naming?\n";
    const DECISIONS: &str = "# Decisions\n\n## DEC-1: use serde\nFaster to write.\n";

    fn sources<'a>(closed: bool, checkpoint: Option<&'a str>) -> Sources<'a> {
        Sources {
            folder: "002-two-quick",
            descriptor: Some(("SESSION.md", SESSION)),
            checkpoint,
            decisions: Some(("DECISION.md", DECISIONS)),
            closed,
            links: vec!["CHECKPOINT.md", "DECISION.md"],
            ..Sources::default()
        }
    }

    /// The block the reference wrote after closing this session (workspace-spec-v22 §5.5).
    const OBSERVED: &str = "<!-- aw:recorrido -->\n## Recorrido\n\n\
> Bloque administrado por el CLI: proyecta las fuentes que enlaza y se reescribe solo. Editarlo a mano no cambia nada — corregí la fuente.\n\n\
- **Estado:** cerrada\n\
- **Objetivo:** z _(aplicado · SESSION.md)_\n\
- **Siguiente paso:** wire CLI _(planificado · CHECKPOINT.md)_\n\n\
### Tareas\n- parser compiles _(aplicado · SESSION.md)_\n\n\
### Decisiones y por qué\n- use serde — Faster to write. _(aplicado · DECISION.md)_\n\n\
### Resultados\n- parser written _(aplicado · CHECKPOINT.md)_\n- tests green _(aplicado · CHECKPOINT.md)_\n\n\
### Pendiente\n- wire CLI _(planificado · CHECKPOINT.md)_\n- naming? _(planificado · CHECKPOINT.md)_\n\n\
### Detalle\n- [CHECKPOINT.md](./CHECKPOINT.md)\n- [DECISION.md](./DECISION.md)\n\n\
<!-- /aw:recorrido -->";

    #[test]
    fn the_block_is_the_references_byte_for_byte() {
        let n = build(&sources(true, Some(CHECKPOINT)));
        assert_eq!(render_block(&n), OBSERVED);
        assert_eq!(n.code.as_deref(), Some("002"));
        assert_eq!(n.decisions[0].source.locator.as_deref(), Some("DEC-1"));
    }

    #[test]
    fn the_phase_follows_the_folder_and_the_checkpoint() {
        assert_eq!(build(&sources(true, None)).phase, Phase::Closed);
        assert_eq!(
            build(&sources(false, Some(CHECKPOINT))).phase,
            Phase::Resumed
        );
        assert_eq!(build(&sources(false, None)).phase, Phase::Open);
        // Unfilled placeholders and comments are not progress.
        let template = "## Completed\n_[AI: what you finished]_\n<!-- note -->\n";
        assert_eq!(build(&sources(false, Some(template))).phase, Phase::Open);
    }

    #[test]
    fn a_block_is_created_only_with_something_to_add_then_always_refreshed() {
        let plain = Sources {
            decisions: None,
            ..sources(true, None)
        };
        let n = build(&plain);
        assert_eq!(refreshed(SESSION, &n), None, "objective and criteria alone");
        let closed = build(&sources(true, Some(CHECKPOINT)));
        let written = refreshed(SESSION, &closed).unwrap();
        assert_eq!(written, format!("{SESSION}\n{OBSERVED}\n"));
        assert_eq!(refreshed(&written, &closed), None, "unchanged bytes");
        // Reopened: the same block now says so; a block is refreshed even with nothing to add.
        let reopened = build(&Sources {
            decisions: None,
            ..sources(false, Some(CHECKPOINT))
        });
        let again = refreshed(&written, &reopened).unwrap();
        assert!(again.contains("- **Estado:** reanudada\n"));
        assert_eq!(again.matches(BEGIN).count(), 1);
        let emptied = build(&plain);
        assert!(
            refreshed(&again, &emptied)
                .unwrap()
                .contains("- **Estado:** cerrada\n")
        );
    }

    #[test]
    fn the_block_is_stripped_before_the_document_is_read() {
        let doc = format!("{SESSION}\n{OBSERVED}\n## After\nkept\n");
        assert_eq!(strip(&doc), format!("{SESSION}\n\n## After\nkept\n"));
        // Read back, the block's own lines never become facts.
        let n = build(&Sources {
            descriptor: Some(("SESSION.md", &doc)),
            ..sources(false, None)
        });
        assert_eq!(n.tasks.len(), 1);
        // Markers out of order, or one missing: nothing is stripped, and an upsert appends.
        let odd = format!("{END}\n{BEGIN}\n");
        assert_eq!(strip(&odd), odd);
        assert!(upsert("x", "B").ends_with("x\n\nB\n"));
    }

    #[test]
    fn a_marker_quoted_inside_a_line_is_a_persons_text() {
        // A note that mentions the markers, before the real block: a refresh replaces the
        // block and leaves every line of the note as it was.
        let note = format!(
            "## Notes\nNever hand-edit what sits between `{BEGIN}` and `{END}`.\nprecious line 1\n"
        );
        let doc = format!("{SESSION}\n{note}\n{OBSERVED}\n## After\nkept\n");
        assert_eq!(
            strip(&doc),
            format!("{SESSION}\n{note}\n\n## After\nkept\n")
        );
        let next = upsert(&doc, "NEW");
        assert_eq!(next, format!("{SESSION}\n{note}\nNEW\n## After\nkept\n"));
        // Quoted only, with no block of its own: nothing is stripped, a block is appended.
        let quoted = format!("{SESSION}\n{note}");
        assert_eq!(strip(&quoted), quoted);
        assert_eq!(upsert(&quoted, "B"), format!("{quoted}\nB\n"));
        // A marker line with trailing blanks or a CR still counts.
        let crlf = format!("a\r\n{BEGIN}  \r\nold\r\n{END}\r\nb\r\n");
        assert_eq!(upsert(&crlf, "B"), "a\r\nB\r\nb\r\n");
    }

    #[test]
    fn criteria_lines_need_text() {
        assert_eq!(criterion("- [ ] a"), Some((false, "a")));
        assert_eq!(criterion("  * [X]done"), Some((true, "done")));
        assert_eq!(criterion("- [] b"), Some((false, "b")));
        assert_eq!(criterion("- [ ]"), None);
        assert_eq!(criterion("-[ ] c"), None);
        assert_eq!(criterion("- [y] c"), None);
    }

    #[test]
    fn run_events_become_sequence_and_evidence() {
        let run = r#"{"version":5,"events":[
            {"kind":"executed","transition":"quick.exec","operation":"tests","summary":"12 tests passed",
             "evidence":["tests-green"],"output_digest":"0123456789abcdef","effects":["read_only"]},
            {"kind":"failed","transition":"quick.close","code":"X","message":"no","recovery":"retry"},
            {"kind":"other"}]}"#;
        let n = build(&Sources {
            events: run_events(run),
            ..sources(false, None)
        });
        assert_eq!(n.sequence.len(), 2);
        assert_eq!(n.sequence[0].text, "12 tests passed");
        assert_eq!(n.sequence[1].state, FactState::Failed);
        assert_eq!(n.sequence[1].text, "no — retry");
        assert_eq!(n.evidence.len(), 1);
        assert!(
            n.evidence[0]
                .detail
                .as_deref()
                .unwrap()
                .contains("0123456789ab")
        );
        assert!(run_events("not json").is_empty());
    }
}
