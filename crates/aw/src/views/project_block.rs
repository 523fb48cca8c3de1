//! What a write of the project block reports (`workspace-init`, `project-md-upsert`,
//! `set-working-branch`, `set-qa-branch`).

use crate::style::clean;
use aw_workspace::project::{PlannedFile, Written, chosen_for_the_reference};
use serde_json::{Value, json};

/// The per-file results, as the reference lists them.
pub fn results_json(files: &[PlannedFile]) -> Value {
    Value::Array(
        files
            .iter()
            .map(|f| {
                let mut r = json!({ "file": f.file, "path": f.file, "action": f.action.as_str() });
                if f.migrated {
                    r["migrated_from"] = json!("QTC-PROJECT");
                }
                r
            })
            .collect(),
    )
}

/// The result of a block write, compact or verbose. `dropped_lines` is there whenever the
/// write left a line out, verbose or not: a loss nobody is told of is a loss in silence.
pub fn write_json(w: &Written, verbose: bool) -> Value {
    let mut out = json!({ "ok": true, "action": "init" });
    if verbose {
        out["mode"] = json!("init");
        out["working_branches"] = w.block.working_branches.to_json();
        out["qa_branches"] = w.block.qa_branches.to_json();
        out["results"] = results_json(&w.files);
    }
    if !w.dropped_lines.is_empty() {
        out["dropped_lines"] = json!(w.dropped_lines);
    }
    if let Some(traces) = chosen_for_the_reference(&w.language, &w.files) {
        out["block_language"] = block_language_json(traces);
    }
    out
}

/// Why a new block was written in the reference's Spanish: the traces of the reference found.
pub fn block_language_json(traces: &[String]) -> Value {
    json!({ "language": "es", "reason": "reference_in_use", "traces": traces })
}

/// The language line of a block write's human view (nothing unless the reference's traces chose
/// the language of a new block).
pub fn language_human(w: &Written) -> String {
    chosen_for_the_reference(&w.language, &w.files)
        .map(block_language_human)
        .unwrap_or_default()
}

/// [`block_language_json`], for the human views.
pub fn block_language_human(traces: &[String]) -> String {
    let mut out = format!(
        "  {:<12} es: the reference CLI is used here ({}), and it reads only its Spanish block\n",
        "Language",
        traces
            .iter()
            .map(|t| clean(t).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push_str(&format!(
        "  {:<12} AW_DOC_LANGUAGE=en (or doc_language = \"en\" in skills.toml) writes English\n",
        ""
    ));
    out
}

/// The lines a write left out, for the human views (nothing when there is none).
pub fn dropped_human(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "  {:<12} {} line(s) the block no longer declares:\n",
        "Dropped",
        lines.len()
    );
    for l in lines {
        out.push_str(&format!("    {}\n", clean(l.trim())));
    }
    out
}

/// One line per file for the human views: `CLAUDE.md updated`.
pub fn results_human(files: &[PlannedFile]) -> String {
    files
        .iter()
        .map(|f| {
            let migrated = if f.migrated {
                " (legacy markers replaced)"
            } else {
                ""
            };
            format!("  {:<12} {}{migrated}\n", f.file, f.action.as_str())
        })
        .collect()
}
