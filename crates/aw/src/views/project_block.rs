//! What a write of the project block reports (`workspace-init`, `project-md-upsert`,
//! `set-working-branch`, `set-qa-branch`).

use aw_core::project::model::Block;
use aw_workspace::project::PlannedFile;
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

/// The result of a block write, compact or verbose.
pub fn write_json(block: &Block, files: &[PlannedFile], verbose: bool) -> Value {
    let mut out = json!({ "ok": true, "action": "init" });
    if verbose {
        out["mode"] = json!("init");
        out["working_branches"] = block.working_branches.to_json();
        out["qa_branches"] = block.qa_branches.to_json();
        out["results"] = results_json(files);
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
