//! Writing the block into one file: the bytes, and what the write does.
//!
//! The `Last activity` line carries the time of the last change. A write whose only difference
//! would be that time is no change at all, so it is reported `unchanged` and the file keeps its
//! bytes: a re-run of an idempotent command must not rewrite files.
//!
//! The block keeps the language it is written in; a file without a block gets it in the
//! workspace's language (see [`super::language`]).

use super::language::{Language, for_block};
use super::markers::{Action, MarkerKind, eol_of, find, splice};
use super::model::Block;
use super::parse::{language, parse};
use super::render::render;

/// The planned write of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlan {
    /// What the write does.
    pub action: Action,
    /// The new file text (`None`: leave the file alone).
    pub text: Option<String>,
    /// The file carried legacy `QTC-PROJECT` markers, replaced by this write.
    pub migrated: bool,
}

/// Plans the write of `block` into a file whose current text is `current` (`None`: absent).
/// `now` is the local `YYYY-MM-DD HH:MM` stamped when the block changes; `fallback` is the
/// language of a block that has none of its own to keep.
pub fn plan_file(
    current: Option<&str>,
    ns: &str,
    block: &Block,
    now: &str,
    fallback: Language,
) -> FilePlan {
    let eol = current.map(eol_of).unwrap_or("\n");
    let found = current.and_then(|t| find(t, ns));
    let lang = for_block(
        current
            .zip(found.as_ref())
            .and_then(|(t, f)| language(f.inner(t))),
        fallback,
    );
    if let (Some(text), Some(f)) = (current, &found) {
        let mut same = block.clone();
        same.last_activity = parse(f.inner(text)).last_activity;
        if text[f.start..f.end] == render(&same, ns, eol, lang) {
            return FilePlan {
                action: Action::Unchanged,
                text: None,
                migrated: false,
            };
        }
    }
    let mut stamped = block.clone();
    stamped.last_activity = Some(now.to_owned());
    let (action, text) = splice(current, found.as_ref(), &render(&stamped, ns, eol, lang));
    FilePlan {
        action,
        text,
        migrated: found.is_some_and(|f| f.kind == MarkerKind::Legacy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::model::Source;

    const EN: Language = Language::English;
    const ES: Language = Language::Spanish;

    fn block() -> Block {
        Block {
            project: Some("P".into()),
            sources: vec![Source {
                alias: "a".into(),
                path: ".".into(),
                main_branch: None,
            }],
            ..Block::default()
        }
    }

    #[test]
    fn only_the_timestamp_differing_is_unchanged() {
        let first = plan_file(None, "workflow", &block(), "2026-01-01 10:00", EN);
        assert_eq!(first.action, Action::Created);
        let text = first.text.unwrap();
        assert!(text.contains("- Last activity: 2026-01-01 10:00"));
        let again = plan_file(Some(&text), "workflow", &block(), "2026-05-05 11:11", EN);
        assert_eq!(
            again,
            FilePlan {
                action: Action::Unchanged,
                text: None,
                migrated: false
            }
        );
        let mut changed = block();
        changed.project = Some("Q".into());
        let upd = plan_file(Some(&text), "workflow", &changed, "2026-05-05 11:11", EN);
        assert_eq!(upd.action, Action::Updated);
        assert!(
            upd.text
                .unwrap()
                .contains("- Last activity: 2026-05-05 11:11")
        );
    }

    #[test]
    fn crlf_files_get_a_crlf_block_and_stay_unchanged_on_rerun() {
        let user = "# Notes\r\nmine\r\n";
        let p = plan_file(Some(user), "workflow", &block(), "2026-01-01 10:00", EN);
        assert_eq!(p.action, Action::Appended);
        let text = p.text.unwrap();
        assert!(text.starts_with(user));
        assert!(!text.replace("\r\n", "").contains('\n'));
        let again = plan_file(Some(&text), "workflow", &block(), "2026-01-02 10:00", EN);
        assert_eq!(again.action, Action::Unchanged);
    }

    #[test]
    fn legacy_block_is_migrated_in_place() {
        let text =
            "top\n<!-- QTC-PROJECT-START -->\n## Proyecto\n\nP\n<!-- QTC-PROJECT-END -->\nbottom\n";
        let p = plan_file(Some(text), "workflow", &block(), "2026-01-01 10:00", EN);
        assert_eq!(p.action, Action::Updated);
        assert!(p.migrated);
        let out = p.text.unwrap();
        assert!(out.starts_with("top\n<!-- WORKFLOW-PROJECT-START -->"));
        assert!(out.ends_with("<!-- WORKFLOW-PROJECT-END -->\nbottom\n"));
        assert!(!out.contains("QTC-PROJECT"));
    }

    #[test]
    fn a_block_keeps_its_language_and_a_new_one_takes_the_fallback() {
        let new = plan_file(None, "workflow", &block(), "2026-01-01 10:00", ES)
            .text
            .unwrap();
        assert!(
            new.contains("## Proyecto\n") && new.contains("## Fuentes\n"),
            "{new}"
        );
        // A Spanish block stays Spanish whatever the fallback, and an unchanged one is
        // recognised as such in its own language.
        let again = plan_file(Some(&new), "workflow", &block(), "2026-01-02 10:00", EN);
        assert_eq!(again.action, Action::Unchanged);
        let mut changed = block();
        changed.project = Some("Q".into());
        let upd = plan_file(Some(&new), "workflow", &changed, "2026-01-02 10:00", EN)
            .text
            .unwrap();
        assert!(upd.contains("## Proyecto\n\nQ\n"), "{upd}");
        assert!(
            upd.contains("- Última actividad: 2026-01-02 10:00"),
            "{upd}"
        );
        // An English block stays English.
        let en = plan_file(None, "workflow", &block(), "2026-01-01 10:00", EN)
            .text
            .unwrap();
        let upd = plan_file(Some(&en), "workflow", &changed, "2026-01-02 10:00", ES)
            .text
            .unwrap();
        assert!(upd.contains("## Project\n\nQ\n"), "{upd}");
        // A file without a block gets the fallback.
        let user = "# Notes\n";
        let appended = plan_file(Some(user), "workflow", &block(), "2026-01-01 10:00", ES)
            .text
            .unwrap();
        assert!(appended.contains("## Fuentes"), "{appended}");
    }
}
