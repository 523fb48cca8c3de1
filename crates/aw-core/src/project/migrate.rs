//! `aw workspace-migrate`'s first migration: a hub file (`CLAUDE.md`, `AGENTS.md`) whose project
//! block still carries another prefix's markers (`<!-- AGENT-WORKFLOW-PROJECT-START -->`, say)
//! gets this namespace's. The block's content is never re-rendered: only the marker strings
//! change. When the file also holds an empty block of this namespace (appended by a release
//! that could not see the old markers), that shell is cut out first, unless it declares
//! something the old block does not: then nothing is guessed and the file is left as a
//! conflict.

use super::markers::{end_marker, find, start_marker};
use super::model::Block;
use super::parse::parse;
use regex::Regex;
use std::sync::LazyLock;

/// Why a hub file is left untouched. The ids are the reference's wire values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerConflict {
    /// More than one foreign prefix has a complete block.
    Ambiguous,
    /// The foreign block cannot be read with its own markers.
    Unreadable,
    /// This namespace's block declares something the foreign one does not.
    DuplicateWithContent,
}

impl MarkerConflict {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkerConflict::Ambiguous => "marcadores_ambiguos",
            MarkerConflict::Unreadable => "bloque_ilegible",
            MarkerConflict::DuplicateWithContent => "duplicado_con_contenido",
        }
    }
}

/// What the migration does to one hub file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkerPlan {
    /// No foreign block: nothing to do.
    Nothing,
    /// The foreign markers become this namespace's.
    Rename {
        /// The foreign prefix (`AGENT-WORKFLOW`).
        from: String,
        /// This namespace's prefix (`WORKFLOW`).
        to: String,
        /// Whether an empty block of this namespace was cut out first.
        drops_duplicate: bool,
        /// The file's new text.
        text: String,
    },
    /// Left untouched.
    Conflict {
        /// Why.
        reason: MarkerConflict,
        /// What was found, in English.
        detail: String,
    },
}

static START: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"<!--\s*([A-Z0-9_-]+)-PROJECT-START\s*-->").ok());

/// The prefixes of the complete blocks of `text`, in order of first appearance: a start marker
/// whose exact end marker also occurs.
fn complete_prefixes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(start) = START.as_ref() else {
        return out;
    };
    for cap in start.captures_iter(text) {
        let prefix = cap[1].to_owned();
        if text.contains(&end_marker(&prefix)) && !out.contains(&prefix) {
            out.push(prefix);
        }
    }
    out
}

/// What this namespace's block declares that the foreign one does not: a project description,
/// a source, a stack entry or a branch entry (the last-activity stamp aside).
fn declares_more(current: &Block, foreign: &Block) -> Vec<String> {
    let mut more = Vec::new();
    // A description in italics alone (`_…_`) is a template's placeholder, whatever its words.
    let placeholder = |p: &str| p.len() > 1 && p.starts_with('_') && p.ends_with('_');
    if let Some(p) = &current.project
        && !placeholder(p)
        && foreign.project.as_ref() != Some(p)
    {
        more.push("a project description".to_owned());
    }
    for s in &current.sources {
        if !foreign
            .sources
            .iter()
            .any(|f| f.alias == s.alias && f.path == s.path)
        {
            more.push(format!("the source {}", s.alias));
        }
    }
    let stack = [
        ("language", &current.stack.language, &foreign.stack.language),
        (
            "framework",
            &current.stack.framework,
            &foreign.stack.framework,
        ),
        ("database", &current.stack.db, &foreign.stack.db),
        ("build", &current.stack.build, &foreign.stack.build),
    ];
    for (name, mine, theirs) in stack {
        if mine.is_some() && mine != theirs {
            more.push(format!("the stack's {name}"));
        }
    }
    let maps = [
        (
            "default branch",
            &current.default_branches,
            &foreign.default_branches,
        ),
        (
            "working branch",
            &current.working_branches,
            &foreign.working_branches,
        ),
        ("QA branch", &current.qa_branches, &foreign.qa_branches),
    ];
    for (name, mine, theirs) in maps {
        for (key, value) in mine.entries() {
            if theirs.get(key) != Some(value.as_str()) {
                more.push(format!("the {name} of {key}"));
            }
        }
    }
    more
}

/// `before` and `after` joined where a block was cut out: the newlines around the cut dropped,
/// one blank line between what is left, a single newline when nothing follows.
fn cut(before: &str, after: &str) -> String {
    let before = before.trim_end_matches(['\n', '\r']);
    let after = after.trim_start_matches(['\n', '\r']);
    match (before.is_empty(), after.is_empty()) {
        (true, _) => after.to_owned(),
        (false, true) => format!("{before}\n"),
        (false, false) => format!("{before}\n\n{after}"),
    }
}

/// Plans the marker migration of one hub file's `text` for namespace `ns`.
pub fn plan(text: &str, ns: &str) -> MarkerPlan {
    let current = ns.to_uppercase();
    let prefixes = complete_prefixes(text);
    let foreign: Vec<&String> = prefixes.iter().filter(|p| **p != current).collect();
    let from = match foreign.as_slice() {
        [] => return MarkerPlan::Nothing,
        [one] => (*one).clone(),
        many => {
            let names: Vec<&str> = many.iter().map(|p| p.as_str()).collect();
            return MarkerPlan::Conflict {
                reason: MarkerConflict::Ambiguous,
                detail: format!(
                    "blocks with the markers of {} are all in the file: which one is the \
                     project's is not guessed; keep one and run the migration again",
                    names.join(", ")
                ),
            };
        }
    };
    let Some(old) = find(text, &from).filter(|f| text[f.start..].starts_with(&start_marker(&from)))
    else {
        return MarkerPlan::Conflict {
            reason: MarkerConflict::Unreadable,
            detail: format!(
                "the {from} block cannot be read between its own markers (its end marker comes \
                 before its start): fix the markers by hand"
            ),
        };
    };
    let foreign_block = parse(old.inner(text));
    let mut base = text.to_owned();
    let mut drops_duplicate = false;
    if prefixes.contains(&current)
        && let Some(mine) =
            find(text, ns).filter(|f| text[f.start..].starts_with(&start_marker(ns)))
    {
        let more = declares_more(&parse(mine.inner(text)), &foreign_block);
        if !more.is_empty() {
            return MarkerPlan::Conflict {
                reason: MarkerConflict::DuplicateWithContent,
                detail: format!(
                    "the {current} block declares what the {from} block does not ({}): merge \
                     them by hand into one block, then run the migration again",
                    more.join(", ")
                ),
            };
        }
        base = cut(&text[..mine.start], &text[mine.end..]);
        drops_duplicate = true;
    }
    let text = base
        .replace(&start_marker(&from), &start_marker(ns))
        .replace(&end_marker(&from), &end_marker(ns));
    MarkerPlan::Rename {
        from,
        to: current,
        drops_duplicate,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "<!-- AGENT-WORKFLOW-PROJECT-START -->\n## Proyecto\n\nDemo\n\n## Fuentes\n\n\
        | Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n\
        <!-- AGENT-WORKFLOW-PROJECT-END -->";

    #[test]
    fn a_foreign_block_gets_this_namespaces_markers_and_nothing_else_changes() {
        let text = format!("# Hub\n\n{OLD}\nafter\n");
        let MarkerPlan::Rename {
            from,
            to,
            drops_duplicate,
            text: out,
        } = plan(&text, "workflow")
        else {
            panic!("{:?}", plan(&text, "workflow"));
        };
        assert_eq!(
            (from.as_str(), to.as_str(), drops_duplicate),
            ("AGENT-WORKFLOW", "WORKFLOW", false)
        );
        assert_eq!(
            out,
            text.replace("AGENT-WORKFLOW-PROJECT", "WORKFLOW-PROJECT")
        );
        assert_eq!(plan(&out, "workflow"), MarkerPlan::Nothing);
        assert_eq!(plan("# nothing here\n", "workflow"), MarkerPlan::Nothing);
    }

    #[test]
    fn an_empty_shell_of_this_namespace_is_cut_out_first() {
        let shell = "<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\n_Describe el proyecto aquí._\n\n\
            ## Status\n\n- Última actividad: 2026-01-01\n<!-- WORKFLOW-PROJECT-END -->\n";
        let text = format!("# Agents\n\n{OLD}\n\n{shell}");
        let MarkerPlan::Rename {
            drops_duplicate,
            text: out,
            ..
        } = plan(&text, "workflow")
        else {
            panic!("{:?}", plan(&text, "workflow"));
        };
        assert!(drops_duplicate);
        assert_eq!(
            out,
            format!(
                "# Agents\n\n{}\n",
                OLD.replace("AGENT-WORKFLOW-PROJECT", "WORKFLOW-PROJECT")
            )
        );
        // In the middle: one blank line joins what is left.
        let text = format!("{OLD}\n\n{shell}\n\ntail\n");
        let MarkerPlan::Rename { text: out, .. } = plan(&text, "workflow") else {
            panic!();
        };
        assert!(out.ends_with("-->\n\ntail\n"), "{out}");
    }

    #[test]
    fn a_shell_that_declares_more_two_foreign_prefixes_or_a_broken_block_is_a_conflict() {
        let declaring = "<!-- WORKFLOW-PROJECT-START -->\n## Fuentes\n\n| Alias | Path | Rama principal |\n\
            |---|---|---|\n| web | ../web | main |\n<!-- WORKFLOW-PROJECT-END -->\n";
        let text = format!("{OLD}\n{declaring}");
        let MarkerPlan::Conflict { reason, detail } = plan(&text, "workflow") else {
            panic!();
        };
        assert_eq!(reason.as_str(), "duplicado_con_contenido");
        assert!(detail.contains("the source web"), "{detail}");
        let two = format!("{OLD}\n<!-- QTC-PROJECT-START -->\nx\n<!-- QTC-PROJECT-END -->\n");
        assert!(matches!(
            plan(&two, "workflow"),
            MarkerPlan::Conflict {
                reason: MarkerConflict::Ambiguous,
                ..
            }
        ));
        let broken = "<!-- OLD-PROJECT-END -->\nx\n<!-- OLD-PROJECT-START -->\n";
        assert!(matches!(
            plan(broken, "workflow"),
            MarkerPlan::Conflict {
                reason: MarkerConflict::Unreadable,
                ..
            }
        ));
    }
}
