//! The English meaning of the wire ids a directive names but cannot rename: the evidence ids of
//! the registry's actions and the session dump kinds their readings print. The ids are the
//! reference's (several are Spanish words); an agent reads their meaning here, in the
//! `next_action` that names them, and in the bundle's `GLOSSARY.md` (a test keeps the three
//! the same text).

/// Each evidence id of the registry and what its validation's `detail` must show.
pub const EVIDENCE: &[(&str, &str)] = &[
    (
        "chassis.sesion-cerrada",
        "session closed: `aw session-close` reports it closed",
    ),
    (
        "quick.board-listed",
        "board listed: `aw status` shows the open work this task could duplicate",
    ),
    (
        "quick.session-present",
        "session present: the reading shows its folder and `SESSION.md`",
    ),
    (
        "spec.session-present",
        "session present: the reading shows its folder and `SESSION.md`",
    ),
    (
        "plan.session-present",
        "session present: the reading shows its folder and `SESSION.md`",
    ),
    (
        "quick.objetivo-sembrado",
        "objective seeded: `SESSION.md` states the task under `## Objective`",
    ),
    (
        "quick.criterios-sembrados",
        "criteria seeded: `SESSION.md` lists each success criterion as `- [ ]` before the work",
    ),
    (
        "quick.checkpoint-sembrado",
        "checkpoint seeded: `CHECKPOINT.md` names the first step under `## Pending / Next`",
    ),
    (
        "quick.rama-verificada",
        "branch verified: each source to touch is on the branch the work expects",
    ),
    (
        "plan.rama-verificada",
        "branch verified: each source of the scope is on the branch the work expects, and `aw worktree list` shows this session's units (none for the workspace itself)",
    ),
    (
        "quick.scripts-derivados",
        "scripts derived: each DDL/DML is a file under the session's `scripts/`, never run",
    ),
    (
        "quick.criterios-verdes",
        "criteria green: each success criterion's check was run and ticked `- [x]` in `SESSION.md` with its command and real result",
    ),
    (
        "spec.ready-for-plan-checklist",
        "ready-for-plan checklist: each item ticked `- [x]` in `SESSION.md`'s success criteria with where the spec meets it",
    ),
    (
        "plan.spec-status-leido",
        "spec status read: the board shows the status of the spec being planned",
    ),
    (
        "plan.coherence-checklist",
        "coherence checklist: each item ticked `- [x]` in `SESSION.md`'s success criteria with where the plan meets it",
    ),
    (
        "plan.propuesta-publicada",
        "plan published: the approved proposal's exact bytes written under `docs/plans`, all of its files or none; the detail names the plan's file (`docs/plans/NNN-plan-<slug>.md`) and aw reads it: an open plan with a `# ` title and phases, not the bare reservation",
    ),
    (
        "plan.executability-checklist",
        "executability checklist: each item ticked `- [x]` in `SESSION.md`'s success criteria with where the plan meets it",
    ),
    (
        "plan.forma-ejecutable",
        "executable shape: the board reads the plan's phases, their states and its batches",
    ),
    (
        "plan.casillas-marcadas",
        "boxes ticked: the board counts the done tasks as ticked",
    ),
    (
        "plan.estado-de-fase-aplicado",
        "phase state applied: the board shows each phase of the batch in the state it really has",
    ),
    (
        "plan.validaciones-de-fase-verdes",
        "phase validations green: each phase proof of the batch was run and ticked `- [x]` in `SESSION.md`'s success criteria with its command and real output",
    ),
    (
        "plan.validacion-final-verde",
        "final validation green: with every phase validated (`final_validation_pending`), the spec's acceptance checks ran green; before the last batch, the phases left are named",
    ),
    (
        "plan.estado-done-sellado",
        "done sealed: the board shows the plan `done` with its `> Closed:` line",
    ),
    (
        "plan.commits-por-fuente",
        "commits per source: each touched source has its one commit (in this session's unit when it has one) and a clean tree, or is recorded as uncommitted",
    ),
    (
        "workline.source-bounded",
        "checkout proof: the check ran in the workspace (or this session's unit of a source) and its validation carries the `proof` that `aw flow proof` prints right before the answer: the source, the folder, the live checkout digest and the file inspected or the command run",
    ),
    (
        "plan.numero-reclamado",
        "number claimed: `aw next-number docs/plans --claim plan-<slug>.md --code <session>` reserved the plan's number and printed its `claimed_path`, which the detail names",
    ),
    (
        "spec.propuesta-publicada",
        "spec published: the approved proposal's exact bytes written under `docs/specs`, all of its files or none",
    ),
    (
        "plan.unidades-adquiridas",
        "units acquired: each source of the scope other than `workspace` has this session's isolation unit, on branch `aw/<session>`",
    ),
    (
        "plan.unidades-integradas",
        "units integrated: each unit of the session merged into its source's working branch and released, so none is left",
    ),
];

/// Each kind `aw session-artifacts --dump` takes and the session file it prints.
pub const DUMP_KINDS: &[(&str, &str)] = &[
    (
        "objetivo",
        "the objective: `SESSION.md`, with its `## Objective` and `## Success criteria`",
    ),
    ("decisiones", "the decisions: `DECISION.md`"),
    ("conclusiones", "the conclusions: `CONCLUSIONS.md`"),
    ("tasks", "the session's task list: `TASKS.md`"),
    ("checkpoint", "the checkpoint: `CHECKPOINT.md`"),
    ("backlog", "the backlog: `BACKLOG.md`"),
    (
        "scripts",
        "the SQL scripts: the `.sql` files under the session's `scripts/` folder",
    ),
];

/// The commands whose run only reads (the board, the sources, a session's files): what their
/// evidence shows must be written before they run.
pub const READINGS: &[&str] = &["status", "sources", "session-artifacts"];

/// The English meaning of an evidence id, if it is one of the registry's.
pub fn evidence(id: &str) -> Option<&'static str> {
    EVIDENCE.iter().find(|(e, _)| *e == id).map(|(_, m)| *m)
}

/// What a dump kind prints, if it is one `session-artifacts --dump` takes.
pub fn dump_kind(kind: &str) -> Option<&'static str> {
    DUMP_KINDS.iter().find(|(k, _)| *k == kind).map(|(_, m)| *m)
}

/// The dump kinds an invocation asks for (`--dump a,b`), in order.
pub fn dumped<S: AsRef<str>>(args: &[S]) -> Vec<&str> {
    args.iter()
        .position(|a| a.as_ref() == "--dump")
        .and_then(|i| args.get(i + 1))
        .map(|csv| {
            csv.as_ref()
                .split(',')
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_kinds_are_read_from_the_flag_value() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            dumped(&args(&[
                "session-artifacts",
                "--code",
                "x",
                "--dump",
                "objetivo,checkpoint"
            ])),
            ["objetivo", "checkpoint"]
        );
        assert!(dumped(&args(&["status", "--json"])).is_empty());
        assert!(dumped(&args(&["x", "--dump"])).is_empty());
    }
}
