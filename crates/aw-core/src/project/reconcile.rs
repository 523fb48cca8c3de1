//! How a command's inputs change the block: which sources, branches and description result, and
//! which lines fall out.

use super::error::InputError;
use super::model::{Block, Source};
use super::source::check_unique;

/// How the declared sources combine with the block's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceMode {
    /// `workspace-init`: the declared sources are the new set (none declared: keep the block's).
    Replace,
    /// `project-md-upsert --init`: declared sources are added, or replace the row of the same
    /// alias.
    Merge,
}

/// What a command asks for (every value already validated by the grammars of `source`).
#[derive(Debug, Clone)]
pub struct Changes {
    /// `--project`.
    pub project: Option<String>,
    /// `--source`, in order.
    pub sources: Vec<Source>,
    /// How `sources` combine with the block's.
    pub mode: SourceMode,
    /// `--working-branch`, in order.
    pub working: Vec<(String, String)>,
    /// `--qa-branch`, in order.
    pub qa: Vec<(String, String)>,
    /// `--main-branch`: fills the branch of every source that declares none.
    pub main_branch: Option<String>,
    /// The description when neither the command nor the block has one (the folder's name).
    pub fallback_project: String,
}

/// A branch line that a re-init removed because its source is gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedLine {
    /// `working_branches` or `qa_branches`.
    pub list: &'static str,
    /// The alias.
    pub alias: String,
    /// The branch it carried.
    pub branch: String,
}

impl DroppedLine {
    /// The line as the block carried it, the form `dropped_lines` reports (the reference's).
    pub fn text(&self) -> String {
        format!("  - {}: {}", self.alias, self.branch)
    }
}

/// The description after `--project`: a one-line value renames the project, replacing only the
/// first line of the description and keeping the paragraphs under it (a person wrote those);
/// a value of several lines replaces it whole.
pub fn project_text(given: &str, current: Option<&str>) -> String {
    let given = given.trim();
    match current.map(str::trim).filter(|c| !c.is_empty()) {
        Some(current) if !given.contains('\n') => match current.split_once('\n') {
            Some((_, rest)) => format!("{given}\n{rest}"),
            None => given.to_owned(),
        },
        _ => given.to_owned(),
    }
}

/// The block a command will write, and what it dropped.
#[derive(Debug, Clone)]
pub struct Reconciled {
    /// The new block (its `last_activity` is set when it is written).
    pub block: Block,
    /// Branch lines pruned with their sources (replace mode only).
    pub dropped_lines: Vec<DroppedLine>,
    /// Sources the previous block had and the new one does not.
    pub removed_sources: Vec<Source>,
}

/// Applies `changes` to the `existing` block.
pub fn reconcile(existing: Option<&Block>, changes: Changes) -> Result<Reconciled, InputError> {
    check_unique(changes.sources.iter().map(|s| s.alias.as_str()))?;
    let previous = existing.cloned().unwrap_or_default();
    let mut sources = match changes.mode {
        SourceMode::Replace if changes.sources.is_empty() => previous
            .sources
            .iter()
            .filter(|s| !s.path.trim().is_empty())
            .cloned()
            .collect(),
        SourceMode::Replace => changes.sources,
        SourceMode::Merge => {
            let mut merged = previous.sources.clone();
            for s in changes.sources {
                match merged.iter_mut().find(|m| m.alias == s.alias) {
                    Some(slot) => *slot = s,
                    None => merged.push(s),
                }
            }
            merged
        }
    };
    if changes.mode == SourceMode::Replace {
        if sources.is_empty() {
            return Err(InputError::NoSources);
        }
        let known: Vec<&str> = sources.iter().map(|s| s.alias.as_str()).collect();
        for (flag, items) in [
            ("working-branch", &changes.working),
            ("qa-branch", &changes.qa),
        ] {
            if let Some((alias, _)) = items.iter().find(|(a, _)| !known.contains(&a.as_str())) {
                return Err(InputError::UnknownAlias {
                    flag,
                    alias: alias.clone(),
                    known: known.join(", "),
                });
            }
        }
    }
    if let Some(main) = &changes.main_branch {
        for s in sources.iter_mut().filter(|s| s.main_branch.is_none()) {
            s.main_branch = Some(main.clone());
        }
    }
    let removed_sources: Vec<Source> = previous
        .sources
        .iter()
        .filter(|p| !sources.iter().any(|s| s.alias == p.alias))
        .cloned()
        .collect();
    let project = match &changes.project {
        Some(p) => Some(project_text(p, previous.project.as_deref())),
        None => previous.project,
    };
    let mut block = Block {
        project: project.or(Some(changes.fallback_project).filter(|p| !p.trim().is_empty())),
        sources,
        stack: previous.stack,
        default_branches: previous.default_branches,
        working_branches: previous.working_branches,
        qa_branches: previous.qa_branches,
        last_activity: previous.last_activity,
        kept: previous.kept,
    };
    for (a, b) in &changes.working {
        block.working_branches.set(a, b);
    }
    for (a, b) in &changes.qa {
        block.qa_branches.set(a, b);
    }
    let dropped_lines = if changes.mode == SourceMode::Replace {
        prune_branch_lines(&mut block)
    } else {
        Vec::new()
    };
    Ok(Reconciled {
        block,
        dropped_lines,
        removed_sources,
    })
}

/// Removes the working and QA branch lines of aliases that are not sources of `block`; returns
/// them, working lines first.
fn prune_branch_lines(block: &mut Block) -> Vec<DroppedLine> {
    let aliases: Vec<String> = block.sources.iter().map(|s| s.alias.clone()).collect();
    let keep = |a: &str| aliases.iter().any(|s| s == a);
    let mut dropped = Vec::new();
    for (list, map) in [
        ("working_branches", &mut block.working_branches),
        ("qa_branches", &mut block.qa_branches),
    ] {
        dropped.extend(
            map.split_off_unless(keep)
                .into_iter()
                .map(|(alias, branch)| DroppedLine {
                    list,
                    alias,
                    branch,
                }),
        );
    }
    dropped
}

/// A source taken out of the block (`remove-source`).
#[derive(Debug, Clone)]
pub struct Removal {
    /// The block without it.
    pub block: Block,
    /// The source removed.
    pub source: Source,
    /// Its branch lines, removed with it (and any other line of an alias that is no source).
    pub dropped_lines: Vec<DroppedLine>,
}

/// Takes the source `alias` out of `block`, with its branch lines. An alias the block does not
/// declare is refused, naming the ones it does.
pub fn remove_source(block: &Block, alias: &str) -> Result<Removal, InputError> {
    let Some(at) = block.sources.iter().position(|s| s.alias == alias) else {
        return Err(InputError::UnknownSource {
            alias: alias.to_owned(),
            known: block.sources.iter().map(|s| s.alias.clone()).collect(),
        });
    };
    let mut block = block.clone();
    let source = block.sources.remove(at);
    let dropped_lines = prune_branch_lines(&mut block);
    Ok(Removal {
        block,
        source,
        dropped_lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: &str, p: &str, b: Option<&str>) -> Source {
        Source {
            alias: a.into(),
            path: p.into(),
            main_branch: b.map(Into::into),
        }
    }

    fn changes(mode: SourceMode, sources: Vec<Source>) -> Changes {
        Changes {
            project: None,
            sources,
            mode,
            working: vec![],
            qa: vec![],
            main_branch: None,
            fallback_project: "folder".into(),
        }
    }

    /// The branch lines of `web` in [`existing`].
    fn web_lines() -> Vec<DroppedLine> {
        vec![
            DroppedLine {
                list: "working_branches",
                alias: "web".into(),
                branch: "feat/w".into(),
            },
            DroppedLine {
                list: "qa_branches",
                alias: "web".into(),
                branch: "qa".into(),
            },
        ]
    }

    fn existing() -> Block {
        let mut b = Block {
            project: Some("Old".into()),
            sources: vec![
                s("api", "../api", Some("main")),
                s("web", "../web", None),
                s("ghost", "", None),
            ],
            ..Block::default()
        };
        b.working_branches.set("api", "feat/a");
        b.working_branches.set("web", "feat/w");
        b.qa_branches.set("web", "qa");
        b.default_branches.set("principal", "main");
        b.stack.build = Some("Maven".into());
        b
    }

    #[test]
    fn replace_prunes_branches_of_removed_sources() {
        let r = reconcile(
            Some(&existing()),
            changes(SourceMode::Replace, vec![s("api", "../api", None)]),
        )
        .unwrap();
        assert_eq!(r.block.sources, vec![s("api", "../api", None)]);
        assert_eq!(
            r.block.working_branches.to_json(),
            serde_json::json!({"api": "feat/a"})
        );
        assert!(r.block.qa_branches.is_empty());
        assert_eq!(r.block.default_branches.get("principal"), Some("main"));
        assert_eq!(r.dropped_lines, web_lines());
        let removed: Vec<_> = r.removed_sources.iter().map(|s| s.alias.as_str()).collect();
        assert_eq!(removed, ["web", "ghost"]);
        assert_eq!(r.block.project.as_deref(), Some("Old"));
        assert_eq!(
            r.block.stack.build.as_deref(),
            Some("Maven"),
            "a known stack is kept"
        );
    }

    #[test]
    fn replace_without_sources_reuses_the_block_and_needs_one() {
        let r = reconcile(Some(&existing()), changes(SourceMode::Replace, vec![])).unwrap();
        let aliases: Vec<_> = r.block.sources.iter().map(|s| s.alias.as_str()).collect();
        assert_eq!(
            aliases,
            ["api", "web"],
            "rows without a path are not reused"
        );
        assert!(r.dropped_lines.is_empty());
        assert_eq!(
            reconcile(None, changes(SourceMode::Replace, vec![])).unwrap_err(),
            InputError::NoSources
        );
    }

    #[test]
    fn replace_refuses_branches_for_undeclared_aliases_and_duplicates() {
        let mut c = changes(SourceMode::Replace, vec![s("api", ".", None)]);
        c.qa.push(("web".into(), "qa".into()));
        assert!(matches!(
            reconcile(None, c).unwrap_err(),
            InputError::UnknownAlias {
                flag: "qa-branch",
                ..
            }
        ));
        let c = changes(
            SourceMode::Replace,
            vec![s("api", ".", None), s("api", "..", None)],
        );
        assert!(matches!(
            reconcile(None, c).unwrap_err(),
            InputError::DuplicateAlias { .. }
        ));
    }

    #[test]
    fn merge_adds_and_replaces_rows_and_keeps_branches() {
        let mut c = changes(
            SourceMode::Merge,
            vec![s("web", "../web2", Some("dev")), s("db", "../db", None)],
        );
        c.main_branch = Some("trunk".into());
        c.working.push(("other".into(), "x".into()));
        c.project = Some("New".into());
        let r = reconcile(Some(&existing()), c).unwrap();
        assert_eq!(
            r.block.sources,
            vec![
                s("api", "../api", Some("main")),
                s("web", "../web2", Some("dev")),
                s("ghost", "", Some("trunk")),
                s("db", "../db", Some("trunk")),
            ]
        );
        assert_eq!(r.block.working_branches.get("other"), Some("x"));
        assert_eq!(r.block.qa_branches.get("web"), Some("qa"));
        assert!(r.dropped_lines.is_empty() && r.removed_sources.is_empty());
        assert_eq!(r.block.project.as_deref(), Some("New"));
    }

    #[test]
    fn project_falls_back_to_the_folder_name() {
        let r = reconcile(None, changes(SourceMode::Merge, vec![])).unwrap();
        assert_eq!(r.block.project.as_deref(), Some("folder"));
        let mut c = changes(SourceMode::Replace, vec![s("a", ".", None)]);
        c.working.push(("a".into(), "w".into()));
        let r = reconcile(None, c).unwrap();
        assert_eq!(r.block.working_branches.get("a"), Some("w"));
    }

    #[test]
    fn remove_source_takes_the_row_and_its_branch_lines() {
        let r = remove_source(&existing(), "web").unwrap();
        assert_eq!(r.source, s("web", "../web", None));
        let aliases: Vec<&str> = r.block.sources.iter().map(|s| s.alias.as_str()).collect();
        assert_eq!(aliases, ["api", "ghost"]);
        assert_eq!(r.dropped_lines, web_lines());
        assert_eq!(r.block.working_branches.get("api"), Some("feat/a"));
        assert_eq!(r.block.default_branches.get("principal"), Some("main"));
        assert_eq!(r.block.stack.build.as_deref(), Some("Maven"));
        let e = remove_source(&existing(), "nope").unwrap_err();
        assert_eq!(
            e,
            InputError::UnknownSource {
                alias: "nope".into(),
                known: vec!["api".into(), "web".into(), "ghost".into()]
            }
        );
        assert!(e.action().contains("api, web, ghost"), "{}", e.action());
        let e = remove_source(&Block::default(), "api").unwrap_err();
        assert!(e.action().contains("declares no source"), "{}", e.action());
    }
}
