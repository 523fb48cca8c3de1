//! The human projection of `aw status`: a dashboard.
//!
//! The pipeline comes first, grouped by kind with counts, each item with its command. Each open
//! plan shows its three axes on one line (a bar of tasks done, phases validated, whether the plan
//! is closed), its blocked phases with their reasons, and a red flag when it is inconsistent.
//! `--detail` adds every spec, plan, session and item set aside (deferred or excluded; the
//! model's `discarded`, named as the reference names it). Colour only when the style
//! allows it (a terminal, and `NO_COLOR` unset).

use crate::output::Style;
use crate::style::{Paint, clean};
use aw_core::board::pipeline::{PLAN_OPEN, PipelineItem, SPEC_UNPLANNED, SPEC_UNREFINED};
use aw_core::board::status::{PlanEntry, SessionEntry, SpecEntry, StatusModel};
use aw_core::documents::plan::{Declaration, PlanState};
use aw_core::documents::relation::SpecRelation;
use aw_core::flow::projection::RunProjection;
use std::collections::HashMap;
use std::fmt::{self, Write};

/// The pipeline groups, in priority order.
const GROUPS: &[(&str, &str)] = &[
    (SPEC_UNREFINED, "Specs to refine"),
    (SPEC_UNPLANNED, "Specs without a plan"),
    (PLAN_OPEN, "Open plans"),
];

const BAR_CELLS: usize = 10;

/// A bar of `BAR_CELLS` cells for a percentage.
fn bar(pct: u32, p: Paint) -> String {
    let filled = ((pct.min(100) as usize) * BAR_CELLS + 50) / 100;
    let done = "█".repeat(filled);
    let left = "░".repeat(BAR_CELLS - filled);
    format!("{}{}", p.green(&done), p.dim(&left))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn title(word: &str, number: &str, slug: &str) -> String {
    if slug.is_empty() {
        format!("{word} {number}")
    } else {
        format!("{word} {number} — {}", clean(slug))
    }
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// Whether the plan is closed: done, open, or flagged.
fn plan_closure(pl: &PlanEntry, p: Paint) -> String {
    match pl.plan_state {
        PlanState::Done => p.green("done"),
        PlanState::Inconsistent => p.red("INCONSISTENT"),
        PlanState::Open if pl.final_validation_pending => {
            p.yellow("open — final validation pending")
        }
        PlanState::Open => "open".to_owned(),
    }
}

/// The three axes of a plan: tasks done, phases validated, plan closed.
fn plan_axes(pl: &PlanEntry, p: Paint) -> String {
    let phases = if pl.phases_total > 0 {
        format!("phases {}/{}", pl.phases_validated, pl.phases_total)
    } else {
        "no phases".to_owned()
    };
    format!(
        "{} {:>3}% {}/{} tasks · {phases} · {}",
        bar(pl.progress_pct, p),
        pl.progress_pct,
        pl.tasks_done,
        pl.tasks_total,
        plan_closure(pl, p)
    )
}

/// The lines under a plan: blocked phases, why it is inconsistent, batch problems.
fn plan_notes(pl: &PlanEntry, p: Paint, out: &mut String) {
    for b in &pl.blocked_phases {
        let why = clean(b.blocker.as_deref().unwrap_or("no reason given"));
        let _ = writeln!(
            out,
            "    {} F{} — {}: {why}",
            p.red("✗"),
            b.number,
            clean(&b.name)
        );
    }
    if pl.plan_state == PlanState::Inconsistent {
        let why = match &pl.declaration {
            Declaration::Unknown(v) => {
                format!(
                    "its state line says '{}', which is neither open nor done",
                    clean(v)
                )
            }
            _ => {
                let open = pl.tasks_total - pl.tasks_done;
                let pending = pl.phases_total - pl.phases_validated;
                let mut left = Vec::new();
                if open > 0 {
                    left.push(plural(open, "task open", "tasks open"));
                }
                if pending > 0 {
                    left.push(plural(
                        pending,
                        "phase not validated",
                        "phases not validated",
                    ));
                }
                format!("declared done with {}", left.join(" and "))
            }
        };
        let _ = writeln!(out, "    {} {why}", p.red("!"));
    }
    if let Some(b) = pl.batches.as_ref().filter(|b| !b.consistent) {
        let _ = writeln!(
            out,
            "    {} execution batches disagree with the phases ({})",
            p.yellow("!"),
            plural(b.problems.len(), "problem", "problems")
        );
    }
}

fn spec_line(s: &SpecEntry) -> String {
    let questions = match s.open_questions {
        0 => String::new(),
        n => format!(" · {}", plural(n, "open question", "open questions")),
    };
    let when = when(s.relative.as_deref());
    format!(
        "{} · {}{questions}{when}",
        title("spec", &s.number, &s.slug),
        s.status.as_str()
    )
}

/// The board's entries by path, so each pipeline item finds its own in constant time.
struct Index<'a> {
    specs: HashMap<&'a str, &'a SpecEntry>,
    plans: HashMap<&'a str, &'a PlanEntry>,
}

impl<'a> Index<'a> {
    fn new(m: &'a StatusModel) -> Self {
        Index {
            specs: m.specs.iter().map(|s| (s.file.as_str(), s)).collect(),
            plans: m.plans.iter().map(|p| (p.file.as_str(), p)).collect(),
        }
    }
}

/// One pipeline group: each item's line, the obligation it owes if any, and its command.
fn group(
    idx: &Index<'_>,
    kind: &str,
    heading: &str,
    items: &[&PipelineItem],
    p: Paint,
    out: &mut String,
) {
    let _ = writeln!(out, "{}", p.bold(&format!("{heading} ({})", items.len())));
    let width = items
        .iter()
        .map(|i| title("plan", &i.number, &i.slug).chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for item in items {
        if kind == PLAN_OPEN {
            if let Some(pl) = idx.plans.get(item.file.as_str()) {
                let t = pad(&title("plan", &pl.number, &pl.slug), width);
                let _ = writeln!(out, "  {t}  {}", plan_axes(pl, p));
                plan_notes(pl, p, out);
            }
        } else if let Some(s) = idx.specs.get(item.file.as_str()) {
            let _ = writeln!(out, "  {}", spec_line(s));
        }
        // An obligation is said under the item (blocked phases and an inconsistent state
        // already have their own lines).
        if item.detail.obligation {
            let _ = writeln!(out, "    {} {}", p.red("!"), clean(&item.detail.next));
        }
        let _ = writeln!(out, "    {}", p.dim(&clean(&item.command)));
    }
    out.push('\n');
}

/// ` · <how long ago>`, or nothing when the time is unknown.
fn when(relative: Option<&str>) -> String {
    relative.map(|r| format!(" · {r}")).unwrap_or_default()
}

/// How many plans are done.
fn plans_done(m: &StatusModel) -> usize {
    m.plans
        .iter()
        .filter(|pl| pl.plan_state == PlanState::Done)
        .count()
}

impl super::View for StatusModel {
    fn render(&self, out: &mut dyn fmt::Write, style: &Style) -> fmt::Result {
        out.write_str(&dashboard(self, *style))
    }
}

/// The dashboard, written with `writeln!` into one buffer.
fn dashboard(m: &StatusModel, style: Style) -> String {
    let p = Paint::new(style.color);
    let mut out = String::new();
    let name = clean(m.workspace.name.lines().next().unwrap_or_default());
    let _ = writeln!(out, "{} · {}", p.bold(&name), clean(&m.workspace.path));
    let c = &m.counts;
    let done = plans_done(m);
    let _ = writeln!(
        out,
        "{}",
        p.dim(&format!(
            "{} ({} ready) · {} ({done} done) · {}, {} closed · {}",
            plural(c.specs, "spec", "specs"),
            c.specs_refined,
            plural(c.plans, "plan", "plans"),
            plural(c.sessions_active, "active session", "active sessions"),
            c.sessions_closed,
            plural(c.discarded, "item set aside", "items set aside"),
        ))
    );
    if !m.workspace.initialized {
        let _ = writeln!(
            out,
            "{}",
            p.yellow("Not an initialised workspace: run `aw workspace-init` to set it up.")
        );
    }
    out.push('\n');
    if m.pipeline.is_empty() {
        out.push_str("Nothing pending: every spec is planned and every plan is done.\n");
    } else {
        let idx = Index::new(m);
        for (kind, heading) in GROUPS {
            let items: Vec<&PipelineItem> = m.pipeline.iter().filter(|i| i.kind == *kind).collect();
            if !items.is_empty() {
                group(&idx, kind, heading, &items, p, &mut out);
            }
        }
        let _ = writeln!(out, "{}", p.dim("Run `aw resume` for the next step."));
    }
    flows(m, p, &mut out);
    design_problems(m, p, &mut out);
    retirements(m, p, &mut out);
    if !m.loose_sessions.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            p.yellow(&format!(
                "Note: {} with work and no spec or plan — see {} with `aw status --detail`.",
                plural(m.loose_sessions.len(), "session", "sessions"),
                if m.loose_sessions.len() == 1 {
                    "it"
                } else {
                    "them"
                }
            ))
        );
    }
    if style.detail {
        detail(m, p, &mut out);
    }
    out
}

/// Retirements prepared and not applied, each with the command that applies it: shown without
/// `--detail`, since a retirement in flight holds files in quarantine.
fn retirements(m: &StatusModel, p: Paint, out: &mut String) {
    if m.pending_retirements.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.yellow(&format!(
            "Retirements in flight ({}):",
            m.pending_retirements.len()
        ))
    );
    for r in &m.pending_retirements {
        let _ = writeln!(
            out,
            "  {} {} · {}",
            clean(&r.command),
            clean(&r.target),
            clean(&r.phase)
        );
        let _ = writeln!(out, "    {}", p.dim(&clean(&r.next)));
    }
}

/// References from specs and plans to design packages that are not valid (stale or missing):
/// shown without `--detail`, since a plan cannot be executed against a design that moved on.
fn design_problems(m: &StatusModel, p: Paint, out: &mut String) {
    let broken: Vec<_> = m
        .designs
        .references
        .iter()
        .filter(|r| r.state != "valid")
        .collect();
    if broken.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.yellow(&format!("Design references to fix ({}):", broken.len()))
    );
    for r in broken {
        let _ = writeln!(
            out,
            "  {} {} in {}{}",
            r.state,
            clean(&r.text),
            clean(&r.from),
            r.detail
                .as_deref()
                .map(|d| format!(": {}", clean(d)))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(out, "{}", p.dim("Run `aw designs` to see the packages."));
}

/// Active sessions stopped inside a flow: where each stands and the exact next command. They are
/// shown even without `--detail`, because an agent's open journey is work in progress.
fn flows(m: &StatusModel, p: Paint, out: &mut String) {
    let in_flow: Vec<(&SessionEntry, &RunProjection)> = m
        .sessions
        .active
        .iter()
        .filter_map(|s| s.flow.as_ref().map(|f| (s, f)))
        .collect();
    if in_flow.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.bold(&format!("Sessions in a flow ({})", in_flow.len()))
    );
    for (s, f) in in_flow {
        let _ = writeln!(out, "  {} · {} flow", clean(&s.folder), clean(&f.flow));
        let _ = writeln!(out, "    {}", clean(&f.summary));
        let _ = writeln!(out, "    {}", p.dim(&clean(&f.command)));
    }
}

/// What a session is about: its objective, else its summary.
fn described(s: &SessionEntry) -> &str {
    s.detail.objective.as_deref().unwrap_or(&s.summary)
}

fn relation_note(r: &SpecRelation) -> String {
    match r {
        SpecRelation::Resolved {
            number, evidence, ..
        } => {
            format!("spec {number} ({})", evidence.as_str())
        }
        SpecRelation::Unknown { reason } if *reason == "spec-not-found" => {
            "its spec is not in docs/specs".to_owned()
        }
        SpecRelation::Unknown { .. } => "no spec named".to_owned(),
        SpecRelation::Ambiguous { numbers, .. } => {
            format!("ambiguous: specs {}", numbers.join(", "))
        }
    }
}

fn session_line(s: &SessionEntry, p: Paint) -> String {
    let mark = if s.detail.active {
        p.green("●")
    } else {
        p.dim("○")
    };
    let flow = s
        .flow
        .as_ref()
        .map(|f| format!("\n      flow: {}", clean(&f.summary)))
        .unwrap_or_default();
    format!(
        "  {mark} {}  {}  {}  {}{flow}",
        clean(&s.folder),
        clean(s.kind.as_deref().unwrap_or("—")),
        s.relative.as_deref().unwrap_or("—"),
        clean(described(s))
    )
}

/// The full lists.
fn detail(m: &StatusModel, p: Paint, out: &mut String) {
    out.push('\n');
    let _ = writeln!(out, "{}", p.bold(&format!("Specs ({})", m.specs.len())));
    for s in &m.specs {
        let planned = if s.planned { " · planned" } else { "" };
        let _ = writeln!(out, "  {}{planned}", spec_line(s));
        let _ = writeln!(out, "    {}", p.dim(&clean(&s.file)));
    }
    let _ = writeln!(out, "\n{}", p.bold(&format!("Plans ({})", m.plans.len())));
    let width = m
        .plans
        .iter()
        .map(|pl| title("plan", &pl.number, &pl.slug).chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for pl in &m.plans {
        let t = pad(&title("plan", &pl.number, &pl.slug), width);
        let _ = writeln!(out, "  {t}  {}", plan_axes(pl, p));
        plan_notes(pl, p, out);
        let when = when(pl.relative.as_deref());
        let _ = writeln!(
            out,
            "    {}",
            p.dim(&format!(
                "{} · {}{when}",
                clean(&pl.file),
                relation_note(&pl.spec)
            ))
        );
    }
    let unproven: Vec<String> = m
        .plans
        .iter()
        .filter(|pl| pl.spec.resolved().is_none())
        .map(|pl| format!("plan {}: {}", pl.number, relation_note(&pl.spec)))
        .collect();
    if !unproven.is_empty() {
        let _ = writeln!(out, "\nPlans with no proven spec: {}", unproven.join("; "));
    }
    let done = plans_done(m);
    let _ = writeln!(
        out,
        "Done: {done} of {}",
        plural(m.plans.len(), "plan", "plans")
    );
    let _ = writeln!(
        out,
        "\n{}",
        p.bold(&format!(
            "Sessions: {} active, {} closed",
            m.sessions.active.len(),
            m.sessions.closed.len()
        ))
    );
    for s in m.sessions.active.iter().chain(&m.sessions.closed) {
        let _ = writeln!(out, "{}", session_line(s, p));
    }
    if !m.terminal_events.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            p.bold(&format!("Retired ({})", m.terminal_events.len()))
        );
        for e in &m.terminal_events {
            let _ = writeln!(
                out,
                "  {} · {} {} · {}",
                clean(&e.date),
                clean(&e.command),
                clean(&e.target),
                clean(&e.result)
            );
        }
    }
    let g = &m.designs;
    let _ = writeln!(
        out,
        "\n{}",
        p.bold(&format!(
            "Designs ({}): {} valid, {} stale, {} missing references; {} orphaned",
            g.packages.len(),
            g.counts.valid,
            g.counts.stale,
            g.counts.missing,
            g.counts.orphaned
        ))
    );
    for pk in &g.packages {
        let id = pk
            .id
            .as_deref()
            .or(pk.declared_id.as_deref())
            .unwrap_or("—");
        let revision = pk.revision.map(|r| format!("@r{r}")).unwrap_or_default();
        let state = match (pk.ok, pk.maturity) {
            (false, _) => " · does not validate".to_owned(),
            (true, Some(m)) => format!(" · {}", m.as_str()),
            (true, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "  {}{revision}{state}  {}",
            clean(id),
            p.dim(&clean(&pk.path))
        );
    }
    let _ = writeln!(
        out,
        "\n{}",
        p.bold(&format!("Set aside ({})", m.discarded.len()))
    );
    for d in &m.discarded {
        let when = when(d.relative.as_deref());
        let _ = writeln!(
            out,
            "  {:<8}  {}  {}{}",
            d.kind,
            clean(&d.source),
            clean(&d.text),
            p.dim(&when)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Format;
    use aw_core::board::board_input::{BoardInput, PlanInput};
    use aw_core::board::status::{WorkspaceEntry, build};
    use aw_core::documents::names::{DocKind, parse_name};
    use aw_core::documents::plan::parse_plan;

    fn model() -> StatusModel {
        let plan = |file: &str, text: &str| PlanInput {
            file: format!("docs/plans/{file}"),
            name: parse_name(DocKind::Plan, file).unwrap(),
            facts: parse_plan(text),
            modified: None,
        };
        build(
            BoardInput {
                workspace: WorkspaceEntry {
                    name: "Demo\nsecond line".into(),
                    path: "/ws".into(),
                    initialized: true,
                },
                specs: vec![],
                plans: vec![
                    plan("001-plan-a.md", "# P\n> State: done\n- [ ] open task\n"),
                    plan(
                        "002-plan-b.md",
                        "# P\n## Tasks\n### F1 — x\n> State: blocked\n- [x] t\n",
                    ),
                ],
                sessions: vec![],
                designs: Default::default(),
                decisions: Default::default(),
                terminal_events: Vec::new(),
                pending_retirements: Vec::new(),
                units: Default::default(),
            },
            &aw_core::calendar::WallClock::parse("2026-03-10 09:00").unwrap(),
        )
    }

    fn style(color: bool, detail: bool) -> Style {
        Style {
            format: Format::Human,
            detail,
            color,
        }
    }

    #[test]
    fn colour_only_when_allowed() {
        let m = model();
        let plain = dashboard(&m, style(false, true));
        assert!(!plain.contains('\u{1b}'));
        assert!(
            plain.starts_with("Demo · /ws\n"),
            "first line of the name only"
        );
        assert!(plain.contains("INCONSISTENT"));
        assert!(plain.contains("✗ F1 — x: no reason given"));
        assert!(plain.contains("declared done with 1 task open"));
        let coloured = dashboard(&m, style(true, false));
        let red = |s: &str| Paint::new(true).red(s);
        assert!(coloured.contains(&red("INCONSISTENT")));
        assert!(coloured.contains(&red("✗")));
        assert_ne!(red("x"), "x");
    }

    #[test]
    fn bars_round_to_cells() {
        let p = Paint::new(false);
        assert_eq!(bar(0, p), "░".repeat(10));
        assert_eq!(bar(100, p), "█".repeat(10));
        assert_eq!(bar(44, p), format!("{}{}", "█".repeat(4), "░".repeat(6)));
        assert_eq!(bar(45, p), format!("{}{}", "█".repeat(5), "░".repeat(5)));
        assert_eq!(bar(250, p), "█".repeat(10));
    }
}
