//! A plan's source boundary (flow spec v22 §10): which sources the plan says it edits, and
//! whether its own structure lets it run in a checkout at all.
//!
//! A plan may run only when, outside fenced code, it declares:
//!
//! 1. its execution surface: a `> Límite de ejecución: checkout` (or `> Execution surface:
//!    checkout`) line anywhere;
//! 2. at least one phase, each with a `> Fuentes: a, b` line naming the sources it edits;
//! 3. on every task of a phase, `_(fuentes: a)_` (on the task's line or on an indented line that
//!    continues it), naming only sources of its phase;
//! 4. as sources, only `workspace` or aliases the WORKSPACE block declares;
//! 5. closing clauses that no remote surface can close: a task, a phase validation
//!    (`**Validación de fase:**`), an exit condition (`**Condición de salida:**`, `Cierre:`) or a
//!    bullet of the plan's `## Validations` section names no remote locator (a `scheme://…` URI, a
//!    `host:port`, a typed `kind: remote-read` snapshot); and a validation names a proof the
//!    checkout can reproduce (tests, lint, typecheck, build, a diff, a fixture, an inspection, a
//!    path under `src/`, `tests/`, `docs/`…). `## Handoff operativo` is a delivery, never a
//!    closing clause.
//!
//! The failures come in that order (phases and their tasks in document order, then the clauses),
//! and a plan with no phase stops after the first two checks. The flow's scope boundary reports
//! the first one.
//!
//! The plan's structure is read with aw's own plan grammar, so this module sees the same phases
//! `status` counts: [`crate::markdown::scan`] for fences and headings, the tasks section and the
//! `### F<n> — name` heading of [`crate::documents::phases`], the checkbox of
//! [`crate::artifacts::checkbox`] and the `> Key: value` line of
//! [`crate::documents::preamble::quoted_value`]. The task annotation, the closing-clause labels,
//! the locators and the local-proof words are this policy's own and follow the reference's
//! grammar.
//!
//! Reading the structure with aw's grammar, rather than the reference's, decides a few plans
//! differently: `## Tareas` is a tasks section; only the first tasks section holds phases; a
//! phase heading needs a separator and a name (`### F1 Setup` and `### F2` are not phases, so
//! their lines belong to no phase); `> **Fuentes:** a` and `> **Límite de ejecución:** checkout`
//! read like plain ones; a CRLF plan reads like an LF one (the reference misses the tasks of its
//! CRLF lines); a leading byte-order mark is dropped; a checkbox with nothing after it is no
//! task. An indented heading does not end a phase here, as in the reference.

use crate::artifacts::checkbox;
use crate::documents::phases::{TASKS_TITLES, phase_heading};
use crate::documents::preamble::quoted_value;
use crate::markdown::{Line, scan, trim};
use crate::vocab::titles::is_one_of;
use regex::Regex;
use std::sync::LazyLock;

/// The source every workspace has: the workspace's own checkout. It needs no declaration.
pub const WORKSPACE_SOURCE: &str = "workspace";

/// Why a plan's source boundary fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoundaryCode {
    /// No checkout surface, no phase, or a phase or task that declares no sources.
    Missing,
    /// A source that is neither `workspace` nor declared by the WORKSPACE block.
    Unknown,
    /// A task source its phase does not declare.
    TaskOutsidePhase,
    /// A closing clause that names a remote surface.
    ExternalClosure,
    /// A validation that names no proof the checkout can reproduce.
    LocalProofMissing,
}

impl BoundaryCode {
    /// Every code, in the order the policy checks them first.
    pub const ALL: [BoundaryCode; 5] = [
        BoundaryCode::Missing,
        BoundaryCode::Unknown,
        BoundaryCode::TaskOutsidePhase,
        BoundaryCode::ExternalClosure,
        BoundaryCode::LocalProofMissing,
    ];

    /// The wire spelling (the reference's).
    pub fn as_str(self) -> &'static str {
        match self {
            BoundaryCode::Missing => "PLAN_SOURCE_BOUNDARY_MISSING",
            BoundaryCode::Unknown => "PLAN_SOURCE_UNKNOWN",
            BoundaryCode::TaskOutsidePhase => "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
            BoundaryCode::ExternalClosure => "PLAN_SOURCE_EXTERNAL_CLOSURE",
            BoundaryCode::LocalProofMissing => "PLAN_SOURCE_LOCAL_PROOF_MISSING",
        }
    }
}

/// One failure of the policy: what is wrong, where, and how to fix the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundaryFailure {
    /// The stable code.
    pub code: BoundaryCode,
    /// What is wrong, naming the phase, task or line.
    pub message: String,
    /// How to fix the plan.
    pub action: String,
    /// The 1-based line it was seen on, when one line is at fault.
    pub line: Option<usize>,
}

/// A task of a phase and the sources it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskSources {
    /// Its ordinal inside its phase, from 1 (`T<phase>.<number>`).
    pub number: usize,
    /// Its 1-based line.
    pub line: usize,
    /// The aliases of its `_(fuentes: …)_`, as written; `None` when it has none.
    pub sources: Option<Vec<String>>,
}

/// A phase and the sources it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseSources {
    /// `n` of `F<n>`.
    pub number: u64,
    /// The 1-based line of its heading.
    pub line: usize,
    /// The aliases of its first `> Fuentes:` line, as written; `None` when it has none.
    pub sources: Option<Vec<String>>,
    /// Its tasks, in document order.
    pub tasks: Vec<TaskSources>,
}

/// What a plan declares about its sources, read without judging it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedBoundary {
    /// Whether it declares the checkout execution surface.
    pub checkout: bool,
    /// Its phases, in document order.
    pub phases: Vec<PhaseSources>,
}

impl ParsedBoundary {
    /// Every source the phases declare, once, in the order first declared.
    pub fn union(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for source in self.phases.iter().flat_map(|p| p.sources.iter().flatten()) {
            if !out.contains(source) {
                out.push(source.clone());
            }
        }
        out
    }
}

/// The sources of a plan that passes the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSources {
    /// Its phases and tasks, each with its sources.
    pub phases: Vec<PhaseSources>,
    /// Every phase source, once, in the order first declared: the scope a run of it must fix.
    pub union: Vec<String>,
}

/// Checks a plan against the policy: its sources, or the first failure. `declared` are the
/// aliases of the WORKSPACE block (`workspace` is always known).
pub fn check(text: &str, declared: &[String]) -> Result<PlanSources, BoundaryFailure> {
    let lines = scan(without_bom(text));
    let parsed = parse_lines(&lines);
    if let Some(first) = failures_of(&lines, &parsed, declared).into_iter().next() {
        return Err(first);
    }
    let union = parsed.union();
    Ok(PlanSources {
        phases: parsed.phases,
        union,
    })
}

/// Every failure of the policy, in order (empty when the plan passes).
pub fn failures(text: &str, declared: &[String]) -> Vec<BoundaryFailure> {
    let lines = scan(without_bom(text));
    failures_of(&lines, &parse_lines(&lines), declared)
}

/// What a plan declares about its sources: its surface, its phases and their tasks.
pub fn parse(text: &str) -> ParsedBoundary {
    parse_lines(&scan(without_bom(text)))
}

/// The text after a leading byte-order mark.
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The first remote locator in `text`, as written there: a `scheme://…` URI or a `host:port`
/// (optionally followed by a path). By its grammar, an execution surface outside the checkout,
/// whatever its name.
pub fn remote_locator(text: &str) -> Option<&str> {
    REMOTE_LOCATOR.as_ref()?.find(text).map(|m| m.as_str())
}

// ---------------------------------------------------------------------------------------------
// Structure
// ---------------------------------------------------------------------------------------------

/// Folded keys of the execution-surface line.
const SURFACE_KEYS: &[&str] = &["limite de ejecucion", "execution surface"];
/// Folded key of a phase's sources line.
const SOURCES_KEYS: &[&str] = &["fuentes", "sources"];
/// The only execution surface a plan may close a phase on.
const CHECKOUT: &str = "checkout";
/// Folded titles of the section that holds deliveries, not closing clauses.
const HANDOFF_TITLES: &[&str] = &["handoff operativo", "operational handoff"];
/// Folded titles of the plan's own validations section.
const VALIDATIONS_TITLES: &[&str] = &["validaciones", "validations"];

/// The section a line is in, as the level-2 (or level-1) heading above it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Section {
    #[default]
    Other,
    /// The plan's (first) tasks section, where its phases are.
    Tasks,
    /// `## Handoff operativo`.
    Handoff,
    /// `## Validations`.
    Validations,
}

/// Where a walk of the plan stands: its section and the phase block it is in.
#[derive(Debug, Default)]
struct Outline {
    section: Section,
    tasks_seen: bool,
    phase: Option<u64>,
}

impl Outline {
    /// Follows a heading of level 3 or less: a level-1 or level-2 heading opens a section and
    /// closes the phase; a level-3 heading inside the tasks section opens the phase it names, or
    /// closes the open one. Returns the number of the phase it opens.
    fn heading(&mut self, level: usize, title: &str) -> Option<u64> {
        if level <= 2 {
            self.phase = None;
            self.section = if level == 2 && !self.tasks_seen && is_one_of(title, TASKS_TITLES) {
                self.tasks_seen = true;
                Section::Tasks
            } else if is_one_of(title, HANDOFF_TITLES) {
                Section::Handoff
            } else if is_one_of(title, VALIDATIONS_TITLES) {
                Section::Validations
            } else {
                Section::Other
            };
        } else if level == 3 {
            self.phase = match self.section {
                Section::Tasks => phase_heading(title).map(|(n, _)| n),
                _ => None,
            };
            return self.phase;
        }
        None
    }
}

fn parse_lines(lines: &[Line<'_>]) -> ParsedBoundary {
    let mut outline = Outline::default();
    let mut parsed = ParsedBoundary::default();
    // Whether the last task of the open phase may still take its sources from a continuation.
    let mut task_open = false;
    for (i, line) in lines.iter().enumerate() {
        if line.fenced {
            continue;
        }
        // Here a heading starts at the margin: an indented `## x` does not end the phase (the
        // clause walk, like every other reader, takes it as a heading; the reference differs).
        if let Some((level, title)) = line.heading
            && level <= 3
            && line.text.starts_with('#')
        {
            if let Some(number) = outline.heading(level, title) {
                parsed.phases.push(PhaseSources {
                    number,
                    line: i + 1,
                    sources: None,
                    tasks: Vec::new(),
                });
            }
            task_open = false;
            continue;
        }
        let raw = line.text;
        // The first line declaring the checkout surface settles it; until then every surface
        // line is taken (and one naming another surface leaves it undeclared).
        if !parsed.checkout
            && let Some(value) = quoted_value(raw, SURFACE_KEYS)
        {
            parsed.checkout = trim(&value).to_lowercase() == CHECKOUT;
            continue;
        }
        if outline.phase.is_none() {
            continue;
        }
        let Some(phase) = parsed.phases.last_mut() else {
            continue;
        };
        if phase.sources.is_none()
            && let Some(value) = quoted_value(raw, SOURCES_KEYS)
        {
            phase.sources = Some(aliases(&value));
            continue;
        }
        if let Some((_, body)) = checkbox(raw) {
            let number = phase.tasks.len() + 1;
            phase.tasks.push(TaskSources {
                number,
                line: i + 1,
                sources: task_sources(body),
            });
            task_open = true;
            continue;
        }
        // A wrapped task keeps its declaration on the indented line that continues it; prose
        // elsewhere in the phase never declares a task's sources.
        match phase.tasks.last_mut() {
            Some(task) if task_open && task.sources.is_none() && continues(raw) => {
                if let Some(sources) = task_sources(raw) {
                    task.sources = Some(sources);
                }
            }
            _ if trim(raw).is_empty() => task_open = false,
            _ => {}
        }
    }
    parsed
}

/// The aliases of a comma-separated list, trimmed, blanks dropped.
fn aliases(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(trim)
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The aliases of the first `_(fuentes: …)_` in `text`.
fn task_sources(text: &str) -> Option<Vec<String>> {
    let caps = TASK_SOURCES.as_ref()?.captures(text)?;
    Some(aliases(caps.get(1).map_or("", |m| m.as_str())))
}

/// Whether a line continues the clause or task above it: indented by two or more blanks.
fn continues(raw: &str) -> bool {
    CONTINUATION.as_ref().is_some_and(|re| re.is_match(raw))
}

// ---------------------------------------------------------------------------------------------
// Policy
// ---------------------------------------------------------------------------------------------

fn failures_of(
    lines: &[Line<'_>],
    parsed: &ParsedBoundary,
    declared: &[String],
) -> Vec<BoundaryFailure> {
    let mut out = Vec::new();
    if !parsed.checkout {
        out.push(BoundaryFailure {
            code: BoundaryCode::Missing,
            message: "The plan does not declare its execution surface: it needs a \
                      '> Límite de ejecución: checkout' line before it can run."
                .to_owned(),
            action: "Add the line '> Límite de ejecución: checkout' under the plan's title."
                .to_owned(),
            line: None,
        });
    }
    if parsed.phases.is_empty() {
        out.push(BoundaryFailure {
            code: BoundaryCode::Missing,
            message: "The plan has no phase: no '### F<n> — <name>' heading under its \
                      '## Tasks' section, so no phase declares the sources it edits."
                .to_owned(),
            action: "Write the plan's phases as '### F<n> — <name>' under '## Tasks', each with \
                     a '> Fuentes: <aliases>' line and its tasks."
                .to_owned(),
            line: None,
        });
        return out;
    }
    let known = |source: &String| source == WORKSPACE_SOURCE || declared.contains(source);
    let declared_list = declared_list(declared);
    for phase in &parsed.phases {
        let phase_label = format!("F{}", phase.number);
        match phase.sources.as_deref() {
            None | Some([]) => out.push(BoundaryFailure {
                code: BoundaryCode::Missing,
                message: format!(
                    "Phase {phase_label} (line {}) declares no sources: its '> Fuentes:' line \
                     is missing or empty.",
                    phase.line
                ),
                action: format!(
                    "Add '> Fuentes: <aliases>' under the {phase_label} heading, naming the \
                     sources that phase edits ({declared_list})."
                ),
                line: Some(phase.line),
            }),
            Some(sources) => out.extend(unknown(
                sources,
                &known,
                &format!("Phase {phase_label}"),
                phase.line,
                &declared_list,
            )),
        }
        let phase_sources = phase.sources.as_deref().unwrap_or_default();
        for task in &phase.tasks {
            let task_label = format!("T{}.{}", phase.number, task.number);
            let sources = match task.sources.as_deref() {
                None | Some([]) => {
                    out.push(BoundaryFailure {
                        code: BoundaryCode::Missing,
                        message: format!(
                            "Task {task_label} (line {}) declares no sources: it has no \
                             '_(fuentes: …)_' or an empty one.",
                            task.line
                        ),
                        action: format!(
                            "End task {task_label} with '_(fuentes: <aliases>)_', naming sources \
                             of phase {phase_label}."
                        ),
                        line: Some(task.line),
                    });
                    continue;
                }
                Some(sources) => sources,
            };
            out.extend(unknown(
                sources,
                &known,
                &format!("Task {task_label}"),
                task.line,
                &declared_list,
            ));
            let outside: Vec<&str> = sources
                .iter()
                .filter(|s| !phase_sources.contains(s))
                .map(String::as_str)
                .collect();
            if !outside.is_empty() {
                let outside = outside.join(", ");
                out.push(BoundaryFailure {
                    code: BoundaryCode::TaskOutsidePhase,
                    message: format!(
                        "Task {task_label} (line {}) names {outside}, outside the sources of \
                         phase {phase_label} ({}).",
                        task.line,
                        or_none(&phase_sources.join(", "))
                    ),
                    action: format!(
                        "Add {outside} to the '> Fuentes:' line of {phase_label}, or take it off \
                         the task: a task edits only sources of its phase."
                    ),
                    line: Some(task.line),
                });
            }
        }
    }
    for clause in clauses(lines) {
        if let Some(remote) = remote_surface(&clause.text) {
            out.push(BoundaryFailure {
                code: BoundaryCode::ExternalClosure,
                message: format!(
                    "The {} on line {} depends on the external surface '{remote}'.",
                    clause.kind.label(),
                    clause.line
                ),
                action: "Close it with a proof the checkout reproduces (tests, lint, build, an \
                         inspected file); what has to happen on a remote surface belongs in \
                         '## Handoff operativo'."
                    .to_owned(),
                line: Some(clause.line),
            });
            continue;
        }
        if clause.kind.is_validation() && !names_local_proof(&clause.text) {
            out.push(BoundaryFailure {
                code: BoundaryCode::LocalProofMissing,
                message: format!(
                    "The {} on line {} names no proof the checkout can reproduce.",
                    clause.kind.label(),
                    clause.line
                ),
                action: "Name a local proof in it: the tests, lint, typecheck or build to run, a \
                         diff, a fixture, or the file to inspect (a path under src/, tests/, \
                         docs/…)."
                    .to_owned(),
                line: Some(clause.line),
            });
        }
    }
    out
}

/// The sources a plan may name, for an action: `workspace` and the block's aliases.
fn declared_list(declared: &[String]) -> String {
    let mut all = vec![WORKSPACE_SOURCE];
    all.extend(
        declared
            .iter()
            .map(String::as_str)
            .filter(|a| *a != WORKSPACE_SOURCE),
    );
    all.join(", ")
}

fn or_none(list: &str) -> &str {
    if list.is_empty() { "none" } else { list }
}

/// The failure for the sources of `owner` that are not known, if any.
fn unknown(
    sources: &[String],
    known: &impl Fn(&String) -> bool,
    owner: &str,
    line: usize,
    declared_list: &str,
) -> Option<BoundaryFailure> {
    let unknown: Vec<&str> = sources
        .iter()
        .filter(|s| !known(s))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return None;
    }
    let unknown = unknown.join(", ");
    Some(BoundaryFailure {
        code: BoundaryCode::Unknown,
        message: format!(
            "{owner} (line {line}) names sources the workspace does not declare: {unknown}."
        ),
        action: format!(
            "Name only sources the workspace declares ({declared_list}), or declare {unknown} in \
             the Sources table of the project block first."
        ),
        line: Some(line),
    })
}

// ---------------------------------------------------------------------------------------------
// Closing clauses
// ---------------------------------------------------------------------------------------------

/// The kind of a closing clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClauseKind {
    /// A task of a phase.
    Task,
    /// A phase's `Validación de fase:` line.
    PhaseValidation,
    /// A phase's `Condición de salida:` / `Cierre:` line.
    PhaseExit,
    /// A bullet of the plan's `## Validations` section.
    PlanValidation,
}

impl ClauseKind {
    fn label(self) -> &'static str {
        match self {
            ClauseKind::Task => "task",
            ClauseKind::PhaseValidation => "phase validation",
            ClauseKind::PhaseExit => "exit condition",
            ClauseKind::PlanValidation => "plan validation",
        }
    }

    fn is_validation(self) -> bool {
        matches!(
            self,
            ClauseKind::PhaseValidation | ClauseKind::PlanValidation
        )
    }
}

/// A closing clause: its kind, its first line and its text (with its continuation lines).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Clause {
    kind: ClauseKind,
    line: usize,
    text: String,
}

/// The closing clauses of a plan, in document order. A clause runs on over the indented lines
/// that follow it; a blank line, a heading or a fence ends it.
fn clauses(lines: &[Line<'_>]) -> Vec<Clause> {
    let mut outline = Outline::default();
    let mut out: Vec<Clause> = Vec::new();
    let mut active = false;
    for (i, line) in lines.iter().enumerate() {
        if line.fenced {
            active = false;
            continue;
        }
        if let Some((level, title)) = line.heading {
            if level <= 3 {
                outline.heading(level, title);
            }
            active = false;
            continue;
        }
        if outline.section == Section::Handoff {
            continue;
        }
        let raw = line.text;
        let trimmed = trim(raw);
        let in_phase = outline.phase.is_some();
        let opened = if in_phase && let Some((_, body)) = checkbox(raw) {
            Some((ClauseKind::Task, without_task_sources(body)))
        } else if in_phase && matches(&PHASE_VALIDATION, raw) {
            Some((ClauseKind::PhaseValidation, raw.to_owned()))
        } else if in_phase && matches(&PHASE_EXIT, raw) {
            Some((ClauseKind::PhaseExit, raw.to_owned()))
        } else if outline.section == Section::Validations
            && let Some(rest) = bullet_text(trimmed)
        {
            Some((ClauseKind::PlanValidation, rest.to_owned()))
        } else {
            None
        };
        if let Some((kind, text)) = opened {
            out.push(Clause {
                kind,
                line: i + 1,
                text: trim(&text).to_owned(),
            });
            active = true;
            continue;
        }
        match out.last_mut() {
            Some(clause) if active && continues(raw) => {
                clause.text.push(' ');
                clause.text.push_str(trimmed);
            }
            _ if trimmed.is_empty() => active = false,
            _ => {}
        }
    }
    out
}

/// A task's text without its (first) `_(fuentes: …)_`: the annotation is no clause.
fn without_task_sources(body: &str) -> String {
    match TASK_SOURCES.as_ref() {
        Some(re) => re.replace(body, "").into_owned(),
        None => body.to_owned(),
    }
}

/// The text of a `-` / `*` bullet (a trimmed line), after its marker and blanks.
fn bullet_text(trimmed: &str) -> Option<&str> {
    let rest = trimmed.strip_prefix(['-', '*'])?;
    let text = rest.trim_start_matches(js_space);
    (text.len() < rest.len()).then_some(text)
}

/// What makes a clause depend on a remote surface: a remote locator, or the typed remote-read
/// snapshot's discriminant.
fn remote_surface(text: &str) -> Option<&str> {
    remote_locator(text)
        .or_else(|| matches(&REMOTE_CONTEXT, text).then_some("RemoteContextSnapshot"))
}

fn names_local_proof(text: &str) -> bool {
    matches(&LOCAL_PROOF, text)
}

fn matches(re: &LazyLock<Option<Regex>>, text: &str) -> bool {
    re.as_ref().is_some_and(|re| re.is_match(text))
}

// ---------------------------------------------------------------------------------------------
// The reference's patterns, with JavaScript's classes spelled out: `\s` is JavaScript's
// whitespace, `\b` an ASCII word boundary, and a case-insensitive ASCII word matches ASCII letters
// only (JavaScript's `i` flag does not equate `k` with the Kelvin sign, nor `s` with `ſ`).
// ---------------------------------------------------------------------------------------------

/// JavaScript's whitespace set (`\s`), for a character class.
const JS_SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Whether `c` is JavaScript whitespace.
fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0B' | '\x0C' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// Compiles a pattern where `{S}` stands for `[<JS_SPACE>]` and `{JS}` for the set's members
/// (inside a class of the pattern's own).
fn compile(pattern: &str) -> Option<Regex> {
    let pattern = pattern
        .replace("{S}", &format!("[{JS_SPACE}]"))
        .replace("{JS}", JS_SPACE);
    Regex::new(&pattern).ok()
}

/// `_(fuentes: a, b)_`, the aliases captured.
static TASK_SOURCES: LazyLock<Option<Regex>> =
    LazyLock::new(|| compile(r"_\({S}*(?i-u:fuentes|sources){S}*:{S}*([^)]*)\)_"));

/// Two or more blanks, then text.
static CONTINUATION: LazyLock<Option<Regex>> = LazyLock::new(|| compile(r"^{S}{2,}[^{JS}]"));

/// A phase validation's label, optionally bulleted and bold.
static PHASE_VALIDATION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"^{S}*(?:[-*]{S}*)?(?:\*\*)?{S}*(?:(?i-u:validaci)[oOóÓ](?i-u:n)(?i-u: de fase)?|(?i-u:phase validation))(?:\*\*)?{S}*:",
    )
});

/// An exit condition's label, optionally bulleted and bold.
static PHASE_EXIT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"^{S}*(?:[-*]{S}*)?(?:\*\*)?{S}*(?:(?i-u:condici)[oOóÓ](?i-u:n de salida)|(?i-u:exit condition|cierre|closure))(?:\*\*)?{S}*:",
    )
});

/// A URI (`scheme://…`) or a `host:port` with an optional path.
static REMOTE_LOCATOR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"(?-u:\b)[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^{JS}<>()]+|(?-u:\b)[A-Za-z0-9][A-Za-z0-9.\-]*:[0-9]{2,5}(?:/[^{JS}<>()]*)?",
    )
});

/// The discriminant of a typed remote-read snapshot: research context, never a closure.
static REMOTE_CONTEXT: LazyLock<Option<Regex>> =
    LazyLock::new(|| compile(r#"(?-u:\b)(?i-u:kind){S}*:{S}*["'`]?(?i-u:remote-read)(?-u:\b)"#));

/// A proof the checkout can reproduce: an evidence word, an npm script, or a checkout path.
static LOCAL_PROOF: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(concat!(
        r"(?-u:\b)(?:(?i-u:checkout|checkoutproof|fixture|ephemeral|tests?|pruebas?|inspection|lint|typecheck|build|goldens?|diff)",
        r"|(?i-u:inspecci)[oOóÓ](?i-u:n))(?-u:\b)",
        r"|(?-u:\b)(?i-u:npm){S}+(?:(?i-u:run){S}+)?(?i-u:test|lint|typecheck|build|pack)(?-u:\b)",
        r"|(?:^|[{JS}`(])\.?/?(?i-u:src|tests|fixtures|docs|scripts)/",
    ))
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's own valid plan: a surface, one phase, two tasks.
    const VALID: &str = "# Plan 031 — checkout\n\
        \n\
        > Límite de ejecución: checkout\n\
        \n\
        ## Tasks\n\
        \n\
        ### F1 — Policy\n\
        > Fuentes: workspace, cli\n\
        \n\
        - [ ] T1.1 — Implement. _(fuentes: cli)_\n\
        - [ ] T1.2 — Document. _(fuentes: workspace)_";

    fn cli() -> Vec<String> {
        vec!["cli".to_owned()]
    }

    fn codes(text: &str, declared: &[String]) -> Vec<(&'static str, Option<usize>)> {
        failures(text, declared)
            .iter()
            .map(|f| (f.code.as_str(), f.line))
            .collect()
    }

    /// A plan with a surface and one phase whose one task is fine, then `tail`.
    fn with(tail: &str) -> String {
        format!(
            "> Límite de ejecución: checkout\n## Tasks\n### F1 — A\n> Fuentes: workspace\n\
             - [ ] a _(fuentes: workspace)_\n{tail}"
        )
    }

    fn owned(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn every_pattern_compiles() {
        for re in [
            &TASK_SOURCES,
            &CONTINUATION,
            &PHASE_VALIDATION,
            &PHASE_EXIT,
            &REMOTE_LOCATOR,
            &REMOTE_CONTEXT,
            &LOCAL_PROOF,
        ] {
            assert!(re.is_some());
        }
    }

    #[test]
    fn codes_are_the_references() {
        let all: Vec<&str> = BoundaryCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            all,
            [
                "PLAN_SOURCE_BOUNDARY_MISSING",
                "PLAN_SOURCE_UNKNOWN",
                "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
                "PLAN_SOURCE_EXTERNAL_CLOSURE",
                "PLAN_SOURCE_LOCAL_PROOF_MISSING",
            ]
        );
    }

    #[test]
    fn reads_the_phase_task_graph_and_its_union() {
        let parsed = parse(VALID);
        assert!(parsed.checkout);
        assert_eq!(
            parsed.phases,
            vec![PhaseSources {
                number: 1,
                line: 7,
                sources: owned(&["workspace", "cli"]),
                tasks: vec![
                    TaskSources {
                        number: 1,
                        line: 10,
                        sources: owned(&["cli"]),
                    },
                    TaskSources {
                        number: 2,
                        line: 11,
                        sources: owned(&["workspace"]),
                    },
                ],
            }]
        );
        let ok = check(VALID, &cli()).unwrap();
        assert_eq!(ok.union, ["workspace", "cli"]);
        assert_eq!(ok.phases, parsed.phases);
        // The union keeps the order sources are first declared, once each; tasks number from 1
        // in each phase; `> Fuentes:` and `_(fuentes: …)_` read case-insensitively, blanks
        // dropped.
        let two = "> Límite de ejecución: checkout\n## Tasks (core)\n### F1 — A\n\
                   > Fuentes: ui, workspace, ui\n- [x] a _(FUENTES : ui , ,)_\n### F2 — B\n\
                   > fuentes: api, ui\n- [ ] b _(fuentes: api)_\n";
        let parsed = parse(two);
        assert_eq!(parsed.union(), ["ui", "workspace", "api"]);
        assert_eq!(parsed.phases[0].tasks[0].sources, owned(&["ui"]));
        assert_eq!(parsed.phases[1].tasks[0].number, 1);
        assert!(failures(two, &["ui".to_owned(), "api".to_owned()]).is_empty());
    }

    #[test]
    fn a_wrapped_task_keeps_its_sources_and_prose_declares_none() {
        let wrapped = VALID.replace(
            "- [ ] T1.1 — Implement. _(fuentes: cli)_",
            "- [ ] T1.1 — Implement the piece\n  and its local test. _(fuentes: cli)_",
        );
        assert_eq!(parse(&wrapped).phases[0].tasks[0].sources, owned(&["cli"]));
        assert!(failures(&wrapped, &cli()).is_empty());
        // A tab pair indents too; one blank or a tab alone does not.
        let tabs =
            with("- [ ] b\n\t\t_(fuentes: workspace)_\n- [ ] c\n\tx _(fuentes: workspace)_\n");
        assert_eq!(
            codes(&tabs, &[]),
            [("PLAN_SOURCE_BOUNDARY_MISSING", Some(8))]
        );
        // A blank line ends the task; an unindented line is prose, not the task's.
        let blank = with("- [ ] b\n\n  late _(fuentes: workspace)_\n");
        let prose = with("- [ ] b\nprose _(fuentes: workspace)_\n");
        for text in [blank, prose] {
            assert_eq!(
                codes(&text, &[]),
                [("PLAN_SOURCE_BOUNDARY_MISSING", Some(6))]
            );
        }
        // Only the first declaration counts, on the line or on its continuation.
        let first = with("- [ ] b _(fuentes: workspace)_\n  _(fuentes: ghost)_\n");
        assert!(failures(&first, &[]).is_empty());
        // An annotation needs its closing `)_`.
        let open = with("- [ ] b _(fuentes: workspace)\n");
        assert_eq!(
            codes(&open, &[]),
            [("PLAN_SOURCE_BOUNDARY_MISSING", Some(6))]
        );
    }

    #[test]
    fn the_surface_must_be_declared_as_checkout() {
        let body = "## Tasks\n### F1 — A\n> Fuentes: workspace\n- [ ] a _(fuentes: workspace)_\n";
        let missing = [("PLAN_SOURCE_BOUNDARY_MISSING", None)];
        assert_eq!(codes(body, &[]), missing);
        for surface in [
            "> Límite de ejecución: staging\n",
            "> Límite de ejecución:\n",
            "```\n> Límite de ejecución: checkout\n```\n",
            "Límite de ejecución: checkout\n",
        ] {
            assert_eq!(
                codes(&format!("{surface}{body}"), &[]),
                missing,
                "{surface}"
            );
        }
        for surface in [
            "> Límite de ejecución: checkout\n",
            "> LIMITE DE EJECUCION:  Checkout \n",
            "> Execution surface: checkout\n",
            // Another surface first, the checkout one later: the checkout one counts.
            "> Execution surface: prod\n> Límite de ejecución: checkout\n",
            "\u{feff}> Límite de ejecución: checkout\n",
        ] {
            let text = format!("{surface}{body}");
            assert!(parse(&text).checkout, "{surface}");
            assert!(failures(&text, &[]).is_empty(), "{surface}");
        }
        // Anywhere outside a fence: even at the end.
        assert!(failures(&format!("{body}> Límite de ejecución: checkout\n"), &[]).is_empty());
    }

    #[test]
    fn a_plan_with_no_phase_fails_on_its_surface_and_phases_only() {
        let none = "# P\n## Validations\n- eyeball it https://x.example\n";
        let failed = failures(none, &[]);
        assert_eq!(
            failed.iter().map(|f| f.code).collect::<Vec<_>>(),
            [BoundaryCode::Missing, BoundaryCode::Missing]
        );
        assert!(failed[0].message.contains("execution surface"));
        assert!(failed[1].message.contains("no phase"));
        // Phases come only from the tasks section, and never from a fence.
        let elsewhere = "> Límite de ejecución: checkout\n## Notes\n### F1 — A\n\
                         > Fuentes: workspace\n## Tasks\n```\n### F2 — B\n```\n";
        assert_eq!(
            codes(elsewhere, &[]),
            [("PLAN_SOURCE_BOUNDARY_MISSING", None)]
        );
        assert_eq!(check(elsewhere, &[]).unwrap_err().line, None);
    }

    #[test]
    fn every_phase_and_task_declares_sources() {
        // No `> Fuentes:` line, or an empty one (a second line is then prose).
        for fuentes in ["", "> Fuentes:\n", "> Fuentes: , \n> Fuentes: workspace\n"] {
            let text = format!(
                "> Límite de ejecución: checkout\n## Tasks\n### F1 — A\n{fuentes}- [ ] a _(fuentes: workspace)_\n"
            );
            let failed = failures(&text, &[]);
            assert_eq!(failed[0].code, BoundaryCode::Missing, "{fuentes:?}");
            assert_eq!(failed[0].line, Some(3));
            assert!(failed[0].message.contains("F1"), "{}", failed[0].message);
            // The task is then outside its phase's (empty) sources.
            assert_eq!(failed[1].code, BoundaryCode::TaskOutsidePhase);
        }
        // A `> Fuentes:` line before any phase belongs to none.
        let before = "> Límite de ejecución: checkout\n> Fuentes: ui\n## Tasks\n> Fuentes: ui\n\
                      - [ ] pre _(fuentes: x)_\n### F1 — A\n> Fuentes: workspace\n\
                      - [ ] a _(fuentes: workspace)_\n";
        assert!(failures(before, &[]).is_empty());
        // A task with no annotation, or an empty one.
        for task in ["- [ ] b\n", "* [X] b _(fuentes: )_\n"] {
            let failed = failures(&with(task), &[]);
            assert_eq!(failed.len(), 1, "{task}");
            assert_eq!(failed[0].code, BoundaryCode::Missing);
            assert_eq!(failed[0].line, Some(6));
            assert!(failed[0].message.contains("T1.2"), "{}", failed[0].message);
        }
    }

    #[test]
    fn sources_must_be_declared_by_the_workspace() {
        let text = "> Límite de ejecución: checkout\n## Tasks\n### F1 — A\n\
                    > Fuentes: ghost, workspace, cli\n- [ ] a _(fuentes: ghost, other)_\n";
        let failed = failures(text, &cli());
        assert_eq!(
            failed.iter().map(|f| (f.code, f.line)).collect::<Vec<_>>(),
            [
                (BoundaryCode::Unknown, Some(3)),
                (BoundaryCode::Unknown, Some(5)),
                (BoundaryCode::TaskOutsidePhase, Some(5)),
            ]
        );
        assert!(failed[0].message.contains("F1") && failed[0].message.contains("ghost"));
        assert!(!failed[0].message.contains("cli"), "{}", failed[0].message);
        assert!(failed[1].message.contains("T1.1") && failed[1].message.contains("ghost, other"));
        assert!(
            failed[2].message.contains("names other, outside"),
            "{}",
            failed[2].message
        );
        // The action lists what may be named.
        assert!(
            failed[0].action.contains("workspace, cli"),
            "{}",
            failed[0].action
        );
        // `workspace` needs no declaration; a declared alias is known; names are exact.
        assert!(
            failures(VALID, &cli())
                .iter()
                .all(|f| f.code != BoundaryCode::Unknown)
        );
        assert_eq!(
            codes(VALID, &["CLI".to_owned()]),
            [
                ("PLAN_SOURCE_UNKNOWN", Some(7)),
                ("PLAN_SOURCE_UNKNOWN", Some(10))
            ]
        );
    }

    #[test]
    fn a_task_edits_only_sources_of_its_phase() {
        let text = with("- [ ] b _(fuentes: workspace, cli)_\n");
        let failed = failures(&text, &cli());
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].code, BoundaryCode::TaskOutsidePhase);
        assert_eq!(failed[0].line, Some(6));
        assert!(failed[0].message.contains("T1.2") && failed[0].message.contains("cli"));
        assert!(failed[0].action.contains("F1"), "{}", failed[0].action);
    }

    #[test]
    fn failures_come_in_the_references_order() {
        // The reference's malformed plan: no surface, a phase narrowed to workspace, an unknown
        // task source (also outside its phase), a task with no annotation.
        let malformed = VALID
            .replace("> Límite de ejecución: checkout\n\n", "")
            .replace("> Fuentes: workspace, cli", "> Fuentes: workspace")
            .replace("_(fuentes: cli)_", "_(fuentes: unknown)_")
            .replace("_(fuentes: workspace)_", "");
        assert_eq!(
            codes(&malformed, &cli()),
            [
                ("PLAN_SOURCE_BOUNDARY_MISSING", None),
                ("PLAN_SOURCE_UNKNOWN", Some(8)),
                ("PLAN_TASK_SOURCE_OUTSIDE_PHASE", Some(8)),
                ("PLAN_SOURCE_BOUNDARY_MISSING", Some(9)),
            ]
        );
        assert_eq!(check(&malformed, &cli()).unwrap_err().line, None);
        // Structure before clauses, whatever their lines.
        let late = "> Límite de ejecución: checkout\n## Validations\n- eyeball it\n## Tasks\n\
                    ### F1 — A\n> Fuentes: workspace\n- [ ] a\n";
        assert_eq!(
            codes(late, &[]),
            [
                ("PLAN_SOURCE_BOUNDARY_MISSING", Some(7)),
                ("PLAN_SOURCE_LOCAL_PROOF_MISSING", Some(3)),
            ]
        );
    }

    #[test]
    fn a_closing_clause_names_no_remote_surface() {
        let cases = [
            // A phase validation, bold, Spanish.
            (
                "\n**Validación de fase:** query https://example.test/health before closing.\n",
                7,
            ),
            // A task, its annotation aside.
            ("- [ ] deploy to ssh://host/x _(fuentes: workspace)_\n", 6),
            // A task's continuation.
            (
                "- [ ] check _(fuentes: workspace)_\n  against api.example.com:8443/v1\n",
                6,
            ),
            // An exit condition, bulleted.
            (
                "- **Condición de salida:** it answers on db.internal:5432\n",
                6,
            ),
            ("**Exit condition:** https://x.example\n", 6),
            ("* **Cierre**: port h:99\n", 6),
            // The typed remote snapshot.
            (
                "**Phase validation:** compare tests with kind: 'remote-read'\n",
                6,
            ),
            // A bullet of the plan's validations.
            (
                "## Validaciones\n- run the tests\n  then https://x.example/y\n",
                7,
            ),
            // A time reads as a host and port: the grammar does not guess.
            ("- [ ] meet at 10:30 _(fuentes: workspace)_\n", 6),
            // Only the task's (first) annotation is set aside.
            (
                "- [ ] b _(fuentes: workspace)_ _(fuentes: https://x.example)_\n",
                6,
            ),
        ];
        for (tail, line) in cases {
            let failed = failures(&with(tail), &[]);
            assert_eq!(failed.len(), 1, "{tail}");
            assert_eq!(failed[0].code, BoundaryCode::ExternalClosure, "{tail}");
            assert_eq!(failed[0].line, Some(line), "{tail}");
            assert!(failed[0].message.contains(&format!("line {line}")));
        }
        let failed = failures(&with("**Cierre:** ask https://x.example/a\n"), &[]);
        assert!(failed[0].message.contains("'https://x.example/a'"));
        assert!(failed[0].message.contains("exit condition"));
        // Not clauses: the handoff, fences, prose, an annotation, a task outside a phase.
        for tail in [
            "\n## Handoff operativo\n\n- Deliverable: query https://example.test/health.\n",
            "\n## Operational handoff\n- push to https://x.example\n",
            "```\n- [ ] x https://x.example _(fuentes: workspace)_\n```\n",
            "Deployed later at https://x.example.\n",
            "### Notes\n- [ ] later https://x.example\n",
            "- [ ] b _(fuentes: workspace)_\n\n  https://x.example\n",
            "mailto:x and x:1 and _x:80 and kind:remote-reader\n",
        ] {
            assert_eq!(codes(&with(tail), &[]), [], "{tail}");
        }
    }

    #[test]
    fn a_validation_names_a_local_proof() {
        let failed = failures(
            &with("\n## Validations\n\n- Check the final acceptance.\n"),
            &[],
        );
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].code, BoundaryCode::LocalProofMissing);
        assert_eq!(failed[0].line, Some(9));
        assert!(failed[0].message.contains("plan validation"));
        for tail in [
            "**Validación de fase:** eyeball it\n",
            "- Validacion: all good\n",
            "## Validations\n- [x] eyeball it\n",
            "# Validations\n- eyeball it\n",
            "## Validaciones (finales):\n* eyeball it\n",
        ] {
            assert_eq!(
                codes(&with(tail), &[])
                    .iter()
                    .map(|c| c.0)
                    .collect::<Vec<_>>(),
                ["PLAN_SOURCE_LOCAL_PROOF_MISSING"],
                "{tail}"
            );
        }
        // An exit condition and a task need no proof; a label without its colon is no clause;
        // a `### Validaciones` inside the tasks is no section.
        for tail in [
            "**Cierre:** all done\n",
            "- [ ] polish _(fuentes: workspace)_\n",
            "**Validación de fase** eyeball\n",
            "### Validaciones\n- eyeball it\n",
            "**Validación de fase:** run the suite\n  with npm test\n",
        ] {
            assert_eq!(codes(&with(tail), &[]), [], "{tail}");
        }
    }

    #[test]
    fn local_proofs_are_a_grammar_not_a_guess() {
        for proof in [
            "npm  run   lint",
            "pre-tests ok",
            "see tests/",
            "(src/x)",
            "`docs/` reviewed",
            "./fixtures/a",
            "a Diff review",
            "INSPECCIÓN visual",
            "Inspeccion",
            "Pruebas manuales",
            "NPM RUN PACK",
            "ephemeral env",
            "the goldens",
            "typecheck",
            "checkoutproof",
            "lint",
            "build",
            "checkout",
            "scripts/x.sh",
        ] {
            assert!(names_local_proof(proof), "{proof}");
        }
        for not in [
            "Builds pass",
            "x/src/y",
            "nothing",
            "testing",
            // JavaScript's case-insensitive match does not equate these with `k` and `s`.
            "chec\u{212a}out",
            "\u{17f}cripts/x",
        ] {
            assert!(!names_local_proof(not), "{not}");
        }
    }

    #[test]
    fn remote_locators_by_their_grammar() {
        for (text, found) in [
            ("see https://a.b/c) now", Some("https://a.b/c")),
            ("file:///x", Some("file:///x")),
            ("git+ssh://h/x y", Some("git+ssh://h/x")),
            ("localhost:3000", Some("localhost:3000")),
            ("a.b-c:65535/path x", Some("a.b-c:65535/path")),
            ("x:123456", Some("x:12345")),
            ("é1:80", Some("1:80")),
            ("<https://y>", Some("https://y")),
            ("mailto:x", None),
            ("x:1", None),
            ("_x:80", None),
            ("abcdefghijklmnopqrstuvwxyzabcdefgh://x", None),
        ] {
            assert_eq!(remote_locator(text), found, "{text}");
        }
        assert_eq!(
            remote_surface(r#"KIND : "REMOTE-READ""#),
            Some("RemoteContextSnapshot")
        );
        assert_eq!(remote_surface("kind: remote-reader"), None);
    }

    #[test]
    fn the_plan_structure_is_aws_plan_grammar() {
        // `## Tareas` is a tasks section, as for `status`.
        let tareas = "> Límite de ejecución: checkout\n## Tareas\n### F1 — A\n> Fuentes: workspace\n\
                      - [ ] a _(fuentes: workspace)_\n";
        assert_eq!(check(tareas, &[]).unwrap().union, ["workspace"]);
        // Only the first tasks section holds phases.
        let second = format!(
            "{}## Notes\n## Tasks\n### F2 — B\n> Fuentes: ui\n- [ ] b\n",
            with("")
        );
        assert_eq!(check(&second, &[]).unwrap().union, ["workspace"]);
        // A phase heading is `F<n>`, a separator and a name; another level-3 heading closes the
        // phase and its tasks are no phase's; a deeper heading stays inside it.
        let headings = "> Límite de ejecución: checkout\n## Tasks\n### F1 Setup\n> Fuentes: ui\n\
                        - [ ] x\n### F2: B\n> Fuentes: workspace\n#### Detail\n\
                        - [ ] b _(fuentes: workspace)_\n### Notes\n- [ ] orphan\n";
        let parsed = parse(headings);
        assert_eq!(parsed.phases.len(), 1);
        assert_eq!(parsed.phases[0].number, 2);
        assert_eq!(parsed.phases[0].tasks.len(), 1);
        assert!(failures(headings, &[]).is_empty());
        // `> **Fuentes:**` reads like any `> Key:` line of a plan.
        let bold = with("").replace("> Fuentes: workspace", "> **Fuentes:** workspace");
        assert!(failures(&bold, &[]).is_empty());
        // A heading indented in a phase does not end it here.
        let indented = with("  ## Notes\n- [ ] b\n");
        assert_eq!(
            codes(&indented, &[]),
            [("PLAN_SOURCE_BOUNDARY_MISSING", Some(7))]
        );
        // CRLF reads like LF.
        assert_eq!(parse(&VALID.replace('\n', "\r\n")), parse(VALID));
    }
}
