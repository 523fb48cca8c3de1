//! Reads a block, whether the reference wrote it (Spanish headings and labels) or we did
//! (English ones).

use super::language::Language;
use super::model::{Block, DEFAULT_BRANCH_ROLES, Source, Stack};
use super::render::{
    NO_SOURCES, NO_SOURCES_ES, NO_STACK, NO_STACK_ES, PROJECT_PLACEHOLDER, PROJECT_PLACEHOLDER_ES,
};
use crate::markdown::{fold, scan, section_in};

/// `## Project`.
const PROJECT: &[&str] = &["project", "proyecto"];
/// `## Sources`.
const SOURCES: &[&str] = &["sources", "fuentes"];
/// `## Stack`.
const STACK: &[&str] = &["stack"];
/// `## Status`.
const STATUS: &[&str] = &["status", "estado"];

/// The placeholders of both languages mean "nothing here".
fn is_placeholder(text: &str) -> bool {
    let f = fold(text);
    [
        PROJECT_PLACEHOLDER,
        NO_SOURCES,
        NO_STACK,
        PROJECT_PLACEHOLDER_ES,
        NO_SOURCES_ES,
        NO_STACK_ES,
    ]
    .iter()
    .any(|p| fold(p) == f)
}

/// The language a block is written in, from its headings (`## Proyecto` / `## Fuentes` are
/// the reference's Spanish, `## Project` / `## Sources` ours), else from its status labels;
/// `None` when nothing in it says.
pub fn language(inner: &str) -> Option<Language> {
    let lines = scan(inner);
    let has = |names: &[&str]| names.iter().any(|n| section_in(&lines, n).is_some());
    let spanish = has(&["proyecto", "fuentes"]);
    let english = has(&["project", "sources"]);
    match (spanish, english) {
        (true, false) => return Some(Language::Spanish),
        (false, true) => return Some(Language::English),
        _ => {}
    }
    inner.lines().find_map(|line| {
        let (label, _) = labelled(line)?;
        match label.as_str() {
            "ramas por defecto"
            | "ramas de trabajo actuales"
            | "ramas qa actuales"
            | "ultima actividad" => Some(Language::Spanish),
            "default branches" | "working branches" | "qa branches" | "last activity" => {
                Some(Language::English)
            }
            _ => None,
        }
    })
}

/// Parses the text between the markers. Unknown lines are ignored; nothing fails.
pub fn parse(inner: &str) -> Block {
    let lines = scan(inner);
    let sect = |names: &[&str]| names.iter().find_map(|n| section_in(&lines, n));
    let mut block = Block {
        project: sect(PROJECT).and_then(|t| project(&t)),
        sources: sect(SOURCES).map(|t| sources(&t)).unwrap_or_default(),
        stack: sect(STACK).map(|t| stack(&t)).unwrap_or_default(),
        ..Block::default()
    };
    if let Some(t) = sect(STATUS) {
        status(&t, &mut block);
    }
    block
}

/// The description, without the legacy `Mode:` line.
fn project(body: &str) -> Option<String> {
    let kept: Vec<&str> = body
        .lines()
        .filter(|l| !fold(l).starts_with("mode:"))
        .collect();
    let text = kept.join("\n").trim().to_owned();
    (!text.is_empty() && !is_placeholder(&text)).then_some(text)
}

fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(|c| c.trim().to_owned()).collect()
}

fn is_separator(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        let c = c.trim_start_matches(':').trim_end_matches(':');
        !c.is_empty() && c.bytes().all(|b| b == b'-')
    })
}

/// Table rows: the first non-separator row is the header; data rows need three cells.
fn sources(body: &str) -> Vec<Source> {
    let mut out = Vec::new();
    let mut header_seen = false;
    for line in body.lines().filter(|l| l.trim_start().starts_with('|')) {
        let row = cells(line);
        if is_separator(&row) {
            continue;
        }
        if !header_seen {
            header_seen = true;
            continue;
        }
        if row.len() < 3 {
            continue;
        }
        out.push(Source {
            alias: row[0].clone(),
            path: row[1].clone(),
            main_branch: (!row[2].is_empty()).then(|| row[2].clone()),
        });
    }
    out
}

/// `- Label: value` → (folded label, value).
fn labelled(line: &str) -> Option<(String, &str)> {
    let rest = line.trim().strip_prefix(['-', '*'])?.trim_start();
    let (label, value) = rest.split_once(':')?;
    Some((fold(label.trim_matches('*')), value.trim()))
}

fn stack(body: &str) -> Stack {
    let mut st = Stack::default();
    for line in body.lines() {
        let Some((label, value)) = labelled(line) else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        let slot = match label.as_str() {
            "lenguaje" | "language" => &mut st.language,
            "framework" => &mut st.framework,
            "bd" | "db" | "database" => &mut st.db,
            "build" => &mut st.build,
            _ => continue,
        };
        slot.get_or_insert_with(|| value.to_owned());
    }
    st
}

#[derive(Clone, Copy)]
enum Open {
    Defaults,
    Working,
    Qa,
}

/// The status list: three nested lists, the last-activity line and the history line.
fn status(body: &str, block: &mut Block) {
    let mut open: Option<Open> = None;
    for line in body.lines() {
        let folded = fold(line.trim().trim_start_matches(['-', '*']));
        let history = ["historico", "history"].iter().any(|h| {
            folded
                .strip_prefix(h)
                .is_some_and(|r| r.is_empty() || r.starts_with([':', ' ']))
        });
        if history {
            open = None;
            continue;
        }
        let Some((label, value)) = labelled(line) else {
            continue;
        };
        match label.as_str() {
            "ramas por defecto" | "default branches" => open = Some(Open::Defaults),
            "ramas de trabajo actuales" | "working branches" | "current working branches" => {
                open = Some(Open::Working)
            }
            "ramas qa actuales" | "qa branches" | "current qa branches" => open = Some(Open::Qa),
            "ultima actividad" | "last activity" => {
                block.last_activity = (!value.is_empty()).then(|| value.to_owned());
                open = None;
            }
            _ => {
                // Nested `- alias: branch` items; the alias keeps its case.
                let alias = line.trim().trim_start_matches(['-', '*']).trim_start();
                let alias = alias.split_once(':').map(|(a, _)| a.trim()).unwrap_or("");
                if alias.is_empty() || value.is_empty() {
                    continue;
                }
                match open {
                    Some(Open::Defaults) if DEFAULT_BRANCH_ROLES.contains(&alias) => {
                        block.default_branches.set(alias, value)
                    }
                    Some(Open::Working) => block.working_branches.set(alias, value),
                    Some(Open::Qa) => block.qa_branches.set(alias, value),
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::markers::find;
    use crate::project::render::render;
    use serde_json::json;

    /// The reference's golden fixture block (case 5), in Spanish, with the legacy `Mode:` line.
    const GOLDEN: &str = "# Sample\n\n<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\nWorkspace de prueba para golden tests.\nMode: single-repo\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| sample | . | main |\n\n## Stack\n\n_Stack sin detectar._\n\n## Status\n\n- Ramas de trabajo actuales:\n  - sample: main\n- Ramas QA actuales:\n  - sample: desarrollo\n- Última actividad: 2026-01-03 — fixture\n- Histórico: `.workflow/HISTORY.md`\n<!-- WORKFLOW-PROJECT-END -->\n";

    #[test]
    fn reads_the_reference_golden_block() {
        let f = find(GOLDEN, "workflow").unwrap();
        let b = parse(f.inner(GOLDEN));
        assert_eq!(
            b.to_json(),
            json!({
                "proyecto": "Workspace de prueba para golden tests.",
                "fuentes": [{"alias": "sample", "path": ".", "main_branch": "main"}],
                "stack": {},
                "default_branches": {},
                "working_branches": {"sample": "main"},
                "qa_branches": {"sample": "desarrollo"},
                "last_activity": "2026-01-03 — fixture",
            })
        );
    }

    #[test]
    fn reads_spanish_stack_defaults_and_empty_cells() {
        let inner = "\n## Proyecto\n\n_Describe el proyecto aquí: qué es y por qué existe._\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| api | ../api |  |\n| short | x |\n\n## Stack\n\n- Lenguaje: Java\n- Framework: Spring Boot\n- BD: Postgres\n- Build: Maven\n\n## Status\n\n- Ramas por defecto:\n  - principal: main\n  - otra: x\n  - qa: qa\n- Ramas de trabajo actuales:\n  - api: feat/a\n- Historico: `.workflow/HISTORY.md`\n  - api: ignored\n";
        let b = parse(inner);
        assert_eq!(b.project, None);
        assert_eq!(b.sources.len(), 1);
        assert_eq!(b.sources[0].main_branch, None);
        assert_eq!(
            b.stack.to_json(),
            json!({"language": "Java", "framework": "Spring Boot", "db": "Postgres", "build": "Maven"})
        );
        assert_eq!(
            b.default_branches.to_json(),
            json!({"principal": "main", "qa": "qa"})
        );
        assert_eq!(b.working_branches.to_json(), json!({"api": "feat/a"}));
        assert_eq!(b.last_activity, None);
    }

    /// A block that uses every line the renderer can write.
    fn full_block() -> Block {
        let mut b = Block {
            project: Some("Billing".into()),
            sources: vec![
                Source {
                    alias: "api".into(),
                    path: "../api".into(),
                    main_branch: Some("main".into()),
                },
                Source {
                    alias: "web".into(),
                    path: "C:\\web".into(),
                    main_branch: None,
                },
            ],
            stack: Stack {
                language: Some("TypeScript".into()),
                framework: Some("React".into()),
                db: Some("Postgres".into()),
                build: Some("npm".into()),
            },
            last_activity: Some("2026-02-03 10:20".into()),
            ..Block::default()
        };
        b.default_branches.set("principal", "main");
        b.working_branches.set("api", "feature/x");
        b.qa_branches.set("web", "qa");
        b
    }

    #[test]
    fn both_languages_read_back_to_the_same_model() {
        let b = full_block();
        for lang in [Language::English, Language::Spanish] {
            for eol in ["\n", "\r\n"] {
                let text = render(&b, "acme", eol, lang);
                let inner = find(&text, "acme").unwrap().inner(&text);
                assert_eq!(parse(inner), b, "{lang:?} {eol:?}");
                assert_eq!(language(inner), Some(lang));
            }
            let empty = Block::default();
            let text = render(&empty, "workflow", "\n", lang);
            let inner = find(&text, "workflow").unwrap().inner(&text);
            assert_eq!(
                parse(inner),
                empty,
                "{lang:?}: placeholders read as nothing"
            );
            assert_eq!(language(inner), Some(lang));
        }
        let text = render(&Block::default(), "workflow", "\n", Language::English);
        assert!(
            text.contains(NO_SOURCES)
                && text.contains(NO_STACK)
                && text.contains(PROJECT_PLACEHOLDER)
        );
    }

    #[test]
    fn spanish_rendering_is_the_reference_shape() {
        // workspace-spec §5.3, line for line: what the reference's parser (§5.4) reads. The
        // history line names the real namespace (the reference hard-codes `.workflow`).
        let text = render(&full_block(), "workflow", "\n", Language::Spanish);
        assert_eq!(
            text,
            "<!-- WORKFLOW-PROJECT-START -->\n\
             ## Proyecto\n\
             \n\
             Billing\n\
             \n\
             ## Fuentes\n\
             \n\
             | Alias | Path | Rama principal |\n\
             |---|---|---|\n\
             | api | ../api | main |\n\
             | web | C:\\web |  |\n\
             \n\
             ## Stack\n\
             \n\
             - Lenguaje: TypeScript\n\
             - Framework: React\n\
             - BD: Postgres\n\
             - Build: npm\n\
             \n\
             ## Status\n\
             \n\
             - Ramas por defecto:\n\
             \x20 - principal: main\n\
             - Ramas de trabajo actuales:\n\
             \x20 - api: feature/x\n\
             - Ramas QA actuales:\n\
             \x20 - web: qa\n\
             - Última actividad: 2026-02-03 10:20\n\
             - Histórico: `.workflow/HISTORY.md`\n\
             <!-- WORKFLOW-PROJECT-END -->"
        );
        let empty = render(&Block::default(), "workflow", "\n", Language::Spanish);
        assert!(empty.contains(
            "## Proyecto\n\n_Describe el proyecto aquí: qué es y por qué existe._\n\n## Fuentes\n\n\
             _Sin fuentes declaradas. Edita manualmente o usa `project-md-upsert --init`._\n\n\
             ## Stack\n\n_Stack sin detectar._\n\n## Status\n\n- Histórico:"
        ));
    }

    #[test]
    fn language_comes_from_headings_else_status_labels() {
        assert_eq!(language(GOLDEN), Some(Language::Spanish));
        assert_eq!(
            language("\n## Stack\n\n## Status\n\n- Last activity: x\n"),
            Some(Language::English)
        );
        assert_eq!(
            language("\n## Status\n\n- Ramas QA actuales:\n  - a: b\n"),
            Some(Language::Spanish)
        );
        assert_eq!(language("\n## Stack\n\n- Build: npm\n"), None);
        assert_eq!(language(""), None);
    }

    #[test]
    fn history_line_names_the_real_namespace() {
        for lang in [Language::English, Language::Spanish] {
            let text = render(&Block::default(), "acme", "\n", lang);
            assert!(text.contains("`.acme/HISTORY.md`"));
            assert!(!text.contains(".workflow/"));
        }
        let text = render(&Block::default(), "acme", "\n", Language::English);
        assert!(text.contains("- History: `.acme/HISTORY.md`"));
    }

    proptest::proptest! {
        #[test]
        fn parsing_any_text_never_panics(body in "(\\PC|\n|\r|#|-|:|\\|){0,200}") {
            // Never a panic, and a block reads the same wherever its text sits.
            let alone = parse(&body);
            let text = format!("<!-- WORKFLOW-PROJECT-START -->{body}<!-- WORKFLOW-PROJECT-END -->");
            let f = find(&text, "workflow").unwrap();
            proptest::prop_assert_eq!(parse(f.inner(&text)), alone);
        }
    }

    #[test]
    fn fenced_headings_do_not_cut_sections() {
        let inner = "## Project\n\nA\n```\n## Sources\n```\n## Sources\n\n| Alias | Path | Main branch |\n|---|---|---|\n| a | b | c |\n";
        let b = parse(inner);
        assert_eq!(b.project.as_deref(), Some("A\n```\n## Sources\n```"));
        assert_eq!(b.sources.len(), 1);
    }
}
