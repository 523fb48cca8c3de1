//! What a write of the project block reports (`workspace-init`, `project-md-upsert`,
//! `set-working-branch`, `set-qa-branch`).

use crate::style::clean;
use aw_workspace::project::{PlannedFile, Written};
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
