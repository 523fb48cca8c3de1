//! Writes the block, in our English headings and labels or in the reference's Spanish form
//! (workspace-spec §5.3, exactly what the reference's parser reads, §5.4).
//!
//! Both forms keep our quirk-free choices: the history line names the real namespace, and the
//! branch lists and the last-activity line appear only when they say something.
//!
//! The lines aw does not own go back where they were found (workspace-spec-v22 §5.8): each
//! slot's lines right after the entry they followed, a person's own sections after `## Status`
//! behind a blank line, and the text that preceded the first heading before `## Project`.

use super::language::Language;
use super::markers::{end_marker, start_marker};
use super::model::{Block, BranchMap, Slot};

/// Shown when the block has no description.
pub const PROJECT_PLACEHOLDER: &str = "_Describe the project here: what it is and why it exists._";
/// Shown when the block has no source.
pub const NO_SOURCES: &str = "_No sources declared. Edit this table by hand, or run `aw project-md-upsert --init --source alias:path`._";
/// Shown when no stack key is known.
pub const NO_STACK: &str = "_Stack not detected._";

/// The reference's placeholder for a block without a description.
pub const PROJECT_PLACEHOLDER_ES: &str = "_Describe el proyecto aquí: qué es y por qué existe._";
/// The reference's placeholder for a block without sources.
pub const NO_SOURCES_ES: &str =
    "_Sin fuentes declaradas. Edita manualmente o usa `project-md-upsert --init`._";
/// The reference's placeholder for an undetected stack.
pub const NO_STACK_ES: &str = "_Stack sin detectar._";

/// Every heading, label and placeholder of one language.
struct Labels {
    project: &'static str,
    sources: &'static str,
    stack: &'static str,
    status: &'static str,
    table_header: &'static str,
    language: &'static str,
    database: &'static str,
    default_branches: &'static str,
    working_branches: &'static str,
    qa_branches: &'static str,
    last_activity: &'static str,
    history: &'static str,
    project_placeholder: &'static str,
    no_sources: &'static str,
    no_stack: &'static str,
}

const ENGLISH: Labels = Labels {
    project: "## Project",
    sources: "## Sources",
    stack: "## Stack",
    status: "## Status",
    table_header: "| Alias | Path | Main branch |",
    language: "Language",
    database: "Database",
    default_branches: "Default branches",
    working_branches: "Working branches",
    qa_branches: "QA branches",
    last_activity: "Last activity",
    history: "History",
    project_placeholder: PROJECT_PLACEHOLDER,
    no_sources: NO_SOURCES,
    no_stack: NO_STACK,
};

const SPANISH: Labels = Labels {
    project: "## Proyecto",
    sources: "## Fuentes",
    stack: "## Stack",
    status: "## Status",
    table_header: "| Alias | Path | Rama principal |",
    language: "Lenguaje",
    database: "BD",
    default_branches: "Ramas por defecto",
    working_branches: "Ramas de trabajo actuales",
    qa_branches: "Ramas QA actuales",
    last_activity: "Última actividad",
    history: "Histórico",
    project_placeholder: PROJECT_PLACEHOLDER_ES,
    no_sources: NO_SOURCES_ES,
    no_stack: NO_STACK_ES,
};

fn labels(lang: Language) -> &'static Labels {
    match lang {
        Language::English => &ENGLISH,
        Language::Spanish => &SPANISH,
    }
}

fn branch_list(out: &mut Vec<String>, label: &str, map: &BranchMap) {
    if map.is_empty() {
        return;
    }
    out.push(format!("- {label}:"));
    for (alias, branch) in map.entries() {
        out.push(format!("  - {alias}: {branch}"));
    }
}

/// The whole block in `lang`, markers included, without a trailing line ending. `eol` is the
/// line ending of the file it goes into, so a CRLF file stays CRLF.
pub fn render(block: &Block, ns: &str, eol: &str, lang: Language) -> String {
    let l = labels(lang);
    let kept = |out: &mut Vec<String>, slot: Slot| {
        out.extend(block.kept_in(slot).map(str::to_owned));
    };
    let mut out: Vec<String> = vec![start_marker(ns)];
    let before = out.len();
    kept(&mut out, Slot::Preamble);
    if out.len() > before {
        out.push(String::new());
    }
    out.extend([l.project.into(), String::new()]);
    out.push(
        block
            .project
            .clone()
            .unwrap_or_else(|| l.project_placeholder.to_owned()),
    );
    out.extend([String::new(), l.sources.into(), String::new()]);
    if block.sources.is_empty() {
        out.push(l.no_sources.into());
    } else {
        out.push(l.table_header.into());
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
    kept(&mut out, Slot::Sources);
    out.extend([String::new(), l.stack.into(), String::new()]);
    if block.stack.is_empty() {
        out.push(l.no_stack.into());
    } else {
        let st = &block.stack;
        for (label, v) in [
            (l.language, &st.language),
            ("Framework", &st.framework),
            (l.database, &st.db),
            ("Build", &st.build),
        ] {
            if let Some(v) = v {
                out.push(format!("- {label}: {v}"));
            }
        }
    }
    kept(&mut out, Slot::Stack);
    out.extend([String::new(), l.status.into(), String::new()]);
    kept(&mut out, Slot::StatusStart);
    branch_list(&mut out, l.default_branches, &block.default_branches);
    kept(&mut out, Slot::StatusDefaults);
    branch_list(&mut out, l.working_branches, &block.working_branches);
    kept(&mut out, Slot::StatusWorking);
    branch_list(&mut out, l.qa_branches, &block.qa_branches);
    kept(&mut out, Slot::StatusQa);
    if let Some(at) = &block.last_activity {
        out.push(format!("- {}: {at}", l.last_activity));
    }
    kept(&mut out, Slot::StatusActivity);
    out.push(format!("- {}: `.{ns}/HISTORY.md`", l.history));
    kept(&mut out, Slot::StatusHistory);
    if block.kept_in(Slot::Trailing).next().is_some() {
        out.push(String::new());
        kept(&mut out, Slot::Trailing);
    }
    out.push(end_marker(ns));
    out.join(eol)
}
