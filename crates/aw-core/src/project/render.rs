//! Writes the block, in our English headings and labels.

use super::markers::{end_marker, start_marker};
use super::model::{Block, BranchMap};

/// Shown when the block has no description.
pub const PROJECT_PLACEHOLDER: &str = "_Describe the project here: what it is and why it exists._";
/// Shown when the block has no source.
pub const NO_SOURCES: &str = "_No sources declared. Edit this table by hand, or run `aw project-md-upsert --init --source alias:path`._";
/// Shown when no stack key is known.
pub const NO_STACK: &str = "_Stack not detected._";

fn branch_list(out: &mut Vec<String>, label: &str, map: &BranchMap) {
    if map.is_empty() {
        return;
    }
    out.push(format!("- {label}:"));
    for (alias, branch) in map.entries() {
        out.push(format!("  - {alias}: {branch}"));
    }
}

/// The whole block, markers included, without a trailing line ending. `eol` is the line ending
/// of the file it goes into, so a CRLF file stays CRLF.
pub fn render(block: &Block, ns: &str, eol: &str) -> String {
    let mut out: Vec<String> = vec![start_marker(ns), "## Project".into(), String::new()];
    out.push(
        block
            .project
            .clone()
            .unwrap_or_else(|| PROJECT_PLACEHOLDER.to_owned()),
    );
    out.extend([String::new(), "## Sources".into(), String::new()]);
    if block.sources.is_empty() {
        out.push(NO_SOURCES.into());
    } else {
        out.push("| Alias | Path | Main branch |".into());
        out.push("|---|---|---|".into());
        for s in &block.sources {
            out.push(format!(
                "| {} | {} | {} |",
                s.alias,
                s.path,
                s.main_branch.as_deref().unwrap_or("")
            ));
        }
    }
    out.extend([String::new(), "## Stack".into(), String::new()]);
    if block.stack.is_empty() {
        out.push(NO_STACK.into());
    } else {
        let st = &block.stack;
        for (label, v) in [
            ("Language", &st.language),
            ("Framework", &st.framework),
            ("Database", &st.db),
            ("Build", &st.build),
        ] {
            if let Some(v) = v {
                out.push(format!("- {label}: {v}"));
            }
        }
    }
    out.extend([String::new(), "## Status".into(), String::new()]);
    branch_list(&mut out, "Default branches", &block.default_branches);
    branch_list(&mut out, "Working branches", &block.working_branches);
    branch_list(&mut out, "QA branches", &block.qa_branches);
    if let Some(at) = &block.last_activity {
        out.push(format!("- Last activity: {at}"));
    }
    out.push(format!("- History: `.{ns}/HISTORY.md`"));
    out.push(end_marker(ns));
    out.join(eol)
}
