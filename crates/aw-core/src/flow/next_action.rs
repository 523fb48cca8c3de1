//! The `next_action` of each boundary kind: one complete instruction an agent can follow
//! without reading any other document — the exact command, the exact stdin JSON, and the values
//! it must quote.

use super::boundary::Resolved;
use super::effects::approval_digest;
use super::gloss;
use super::plan_evidence::{DETAIL_TEMPLATE, PLAN_PUBLISHED};
use super::proof::SOURCE_BOUNDED_EVIDENCE;
use super::registry::{Choice, Decision, Invocation, Text};
use crate::vocab::flow::{BoundaryKind, Flow, STOP_LABEL};
use serde_json::{Value, json};

/// The command that answers a boundary of this session.
pub fn submit_command(folder: &str) -> String {
    format!("aw flow submit --session {folder}")
}

/// The command that re-reads (and walks) a session's run.
pub fn advance_command(folder: &str) -> String {
    format!("aw flow advance --session {folder}")
}

/// The command that adopts a session afresh, naming its flow when it is known.
pub fn adopt_command(folder: &str, flow: Option<Flow>) -> String {
    format!(
        "{} --flow {} --adopt",
        advance_command(folder),
        flow.map_or("<flow>", Flow::as_str)
    )
}

/// Compact JSON for embedding in a sentence.
fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Where the proof of `workline.source-bounded` goes in an answer template.
pub const PROOF_TEMPLATE: &str = "<the JSON `aw flow proof` prints>";

/// The instruction for a resolved boundary.
pub fn next_action(resolved: &Resolved<'_>, folder: &str, choices: &[Choice]) -> String {
    let Some(row) = resolved.stopped else {
        return "Nothing is left to do in this journey: the run is finished.".to_owned();
    };
    let seal = &resolved.seal;
    let submit = submit_command(folder);
    match resolved.kind {
        BoundaryKind::Final => {
            "Nothing is left to do in this journey: the run is finished.".to_owned()
        }
        BoundaryKind::Semantic => semantic(row, seal, &submit),
        BoundaryKind::Human => {
            let example = compact(&json!({"input_digest": seal, "choice": "<label>"}));
            let preview = if row.publishes.is_some() {
                " Show the person the directive's `proposal` first: every file it would write, \
                 its size and whether it overwrites one; approving writes exactly those bytes, \
                 any other choice writes nothing."
            } else {
                ""
            };
            format!(
                "Ask the person to decide '{}' and pipe {example} into `{submit}`, with <label> one \
                 of: {}.{preview}",
                row.title,
                labels(choices)
            )
        }
        BoundaryKind::Authorization => {
            let auth = resolved.authorization.as_ref();
            let missing = auth.map(|a| a.missing.as_slice()).unwrap_or_default();
            let planned = auth.map(|a| a.planned.as_slice()).unwrap_or_default();
            let digest = approval_digest(&row.id, planned);
            format!(
                "Ask the person whether '{}' may exercise {}. If they approve, pipe {} into \
                 `{submit} --approval {digest}`; to stop instead, pipe {} without --approval.",
                row.title,
                crate::vocab::flow::EffectClass::join(missing),
                compact(&json!({"input_digest": seal})),
                compact(&json!({"input_digest": seal, "choice": STOP_LABEL})),
            )
        }
        BoundaryKind::Execution => execution(resolved, row, seal, &submit, folder),
        BoundaryKind::Blocked => {
            let action = resolved
                .blocked
                .as_ref()
                .map_or("Resolve the block.", |e| e.action.as_str());
            format!("The run is blocked at '{}': {action}", row.title)
        }
    }
}

fn semantic(row: &Decision, seal: &str, submit: &str) -> String {
    if let Some(p) = &row.proposes {
        let dest = p.destinations.first().map_or("docs", |d| d.as_ref());
        let example = compact(&json!({
            "input_digest": seal,
            "decisions": {"answer": "…"},
            "artifacts": [{"path": format!("{dest}/<file>.md"), "content": "<the file's exact bytes>"}],
        }));
        return format!(
            "Judge '{}', then pipe one JSON object into `{submit}`: {example} — \"artifacts\" holds \
             each file to write, whole, with a path inside {} (at most {} files of {} bytes each). \
             Nothing is written yet: aw seals the bytes, shows the person a preview, and writes \
             them all or none once approved.",
            row.title,
            p.destinations.join(", "),
            p.limits.max_artifacts,
            p.limits.max_artifact_bytes,
        );
    }
    if row.scopes_sources {
        let example = compact(&json!({
            "input_digest": seal,
            "decisions": {"sources": ["workspace"], "plan": "docs/plans/NNN-plan-<slug>.md"},
        }));
        return format!(
            "Judge '{}', then pipe one JSON object into `{submit}`: {example} — \"plan\" is the \
             plan this run executes and \"sources\" exactly the source aliases its phases declare \
             (`> Sources:` / `> Fuentes:` lines; `workspace` is the workspace itself).",
            row.title
        );
    }
    if row.signals().is_empty() {
        let example = compact(&json!({"input_digest": seal, "decisions": {"answer": "…"}}));
        return format!(
            "Judge '{}', then pipe one JSON object into `{submit}`: {example} — \"decisions\" is a \
             non-empty object holding your judgment; this boundary takes no signals.",
            row.title
        );
    }
    let example =
        compact(&json!({"input_digest": seal, "signals": [], "decisions": {"answer": "…"}}));
    format!(
        "Judge '{}', then pipe one JSON object into `{submit}`: {example} — put in \"signals\" \
         only the signals you observe, out of: {} (the CLI applies the threshold, not you), and \
         your judgment in \"decisions\"; at least one of the two must be non-empty.",
        row.title,
        row.signals().join(", ")
    )
}

fn execution(
    resolved: &Resolved<'_>,
    row: &Decision,
    seal: &str,
    submit: &str,
    folder: &str,
) -> String {
    let Some(action) = &resolved.emitted else {
        return format!("Run the action of '{}' and report its result.", row.title);
    };
    let inv = &action.invocation;
    let validations: Vec<Value> = action
        .evidence
        .iter()
        .map(|id| {
            let detail = if id == PLAN_PUBLISHED {
                DETAIL_TEMPLATE
            } else {
                "<what the output shows>"
            };
            if id == SOURCE_BOUNDED_EVIDENCE {
                json!({"id": id, "passed": true, "detail": detail, "proof": PROOF_TEMPLATE})
            } else {
                json!({"id": id, "passed": true, "detail": detail})
            }
        })
        .collect();
    let mut checked = if action.evidence.iter().any(|id| id == PLAN_PUBLISHED) {
        format!(
            " The detail of `{PLAN_PUBLISHED}` names the plan's file (`docs/plans/NNN-plan-<slug>.md`, \
             the `claimed_path`): aw reads it and applies the step only when it holds the plan."
        )
    } else {
        String::new()
    };
    if action
        .evidence
        .iter()
        .any(|id| id == SOURCE_BOUNDED_EVIDENCE)
    {
        checked.push_str(&format!(
            " `{SOURCE_BOUNDED_EVIDENCE}` carries a \"proof\" of the checkout you checked: right \
             before submitting, run `aw flow proof --session {folder} --artifact <file you \
             inspected>` (or `aw flow proof --session {folder} -- <the command you ran>`) and put \
             the JSON it prints there."
        ));
    }
    let applied: Vec<&str> = match &resolved.authorization {
        Some(a) => a.planned.iter().map(|c| c.as_str()).collect(),
        None => row.effects().iter().map(|c| c.as_str()).collect(),
    };
    let example = compact(&json!({
        "input_digest": seal,
        "outcome": "completed",
        "invocation": inv,
        "validations": validations,
        "effects": {"applied": applied},
    }));
    let stdin = inv
        .input
        .as_deref()
        .map(|i| format!(" with this text on its stdin: {}", compact(&json!(i))))
        .unwrap_or_default();
    let place = if inv.target == "." {
        "from the workspace root".to_owned()
    } else {
        format!("(target: {})", inv.target)
    };
    let internal = matches!(
        &action.execution,
        Some(crate::flow::registry::Execution::Internal { .. })
    );
    let prefix = if internal {
        format!(
            "aw runs this step itself: run `{}`, or answer it yourself. ",
            advance_command(folder)
        )
    } else {
        String::new()
    };
    format!(
        "{prefix}Evidence to show: {}. {} `{}` {place}{stdin}, then pipe its real result into \
         `{submit}`: {example} — one validation per evidence id, its detail quoting the output \
         lines that show it.{checked} If the command did not succeed, report its real outcome \
         (failed, blocked, needs_input or cancelled) instead. A confirmation without output does \
         not apply the step.",
        glossed(&action.evidence, folder),
        before_reading(inv),
        inv.command_line(),
    )
}

/// How the instruction to run the command starts. A command that only reads can show only what
/// is already written, so that comes first; a dump names the files it prints, where the evidence
/// must be written to be seen.
fn before_reading(inv: &Invocation) -> String {
    if !inv
        .args
        .first()
        .is_some_and(|a| gloss::READINGS.contains(&a.as_ref()))
    {
        return "Run".to_owned();
    }
    let dumps: Vec<String> = gloss::dumped(&inv.args)
        .into_iter()
        .map(|k| match gloss::dump_kind(k) {
            Some(means) => format!("`{k}` is {means}"),
            None => format!("`{k}`"),
        })
        .collect();
    if dumps.is_empty() {
        return "This command only reads: make that true first, then run".to_owned();
    }
    format!(
        "This command only prints the session's files ({}): write it there first, then run",
        dumps.join("; ")
    )
}

/// The evidence ids with their English meaning, the session folder filled in.
fn glossed(evidence: &[Text], folder: &str) -> String {
    evidence
        .iter()
        .map(|id| match gloss::evidence(id) {
            Some(means) => format!("`{id}` ({})", means.replace("<session>", folder)),
            None => format!("`{id}`"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn labels(choices: &[Choice]) -> String {
    choices
        .iter()
        .map(|c| {
            if c.recommended {
                format!("\"{}\" (recommended)", c.label)
            } else {
                format!("\"{}\"", c.label)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
