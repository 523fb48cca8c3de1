//! Reads a block, whether the reference wrote it (Spanish headings and labels) or we did
//! (English ones).
//!
//! Every line between the markers lands in one of three buckets (workspace-spec-v22 §5.8):
//! **read** (what aw owns: the four sections' data), **kept** (a line aw does not own: a note, a
//! row the table shape cannot read, a person's own `##` section; written back verbatim at its
//! slot, see [`Slot`]) or **dropped** (an indented status record aw wrote for an alias or role
//! the block no longer declares; reported by the command that rewrites the block, never lost in
//! silence). Blank lines inside the sources, stack and status sections carry nothing and are
//! not kept, as in the reference. Where the reference loses text, aw keeps it: the lines before
//! the first `##` heading (slot `preamble`), a `#` heading inside an owned section and the lines
//! after it (lines of that section: only `##` lines cut the block), a second section under an
//! owned name that says something (a person's section), and a repeated stack key.

use super::language::Language;
use super::model::{Block, DEFAULT_BRANCH_ROLES, KeptLine, Slot, Source, Stack};
use super::render::{
    NO_SOURCES, NO_SOURCES_ES, NO_STACK, NO_STACK_ES, PROJECT_PLACEHOLDER, PROJECT_PLACEHOLDER_ES,
};
use crate::markdown::{fold, fold_eq, heading_of, scan, scan_closed, section_in, trim};

/// `## Project`.
const PROJECT: &[&str] = &["project", "proyecto"];
/// `## Sources`.
const SOURCES: &[&str] = &["sources", "fuentes"];
/// `## Stack`.
const STACK: &[&str] = &["stack"];
/// `## Status`.
const STATUS: &[&str] = &["status", "estado"];

/// What an older generator wrote for an undetected stack; the CLI's, never a person's.
const LEGACY_NO_STACK: &str = "Edita manualmente si aplica.";

/// The placeholders of both languages mean "nothing here".
fn is_placeholder(text: &str) -> bool {
    // Folded once per process: this is asked of nearly every line of a block.
    static FOLDED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let folded = FOLDED.get_or_init(|| {
        [
            PROJECT_PLACEHOLDER,
            NO_SOURCES,
            NO_STACK,
            PROJECT_PLACEHOLDER_ES,
            NO_SOURCES_ES,
            NO_STACK_ES,
            LEGACY_NO_STACK,
        ]
        .iter()
        .map(|p| fold(p))
        .collect()
    });
    folded.iter().any(|p| fold_eq(text, p))
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

/// A block as read: what it says (its kept lines included), and the records it can no longer
/// honour.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// What the block says.
    pub block: Block,
    /// Indented status records for an alias the block does not declare or a role that does not
    /// exist, as written (`  - ghost: feature`): the next write leaves them out.
    pub dropped: Vec<String>,
}

/// Parses the text between the markers. Nothing fails.
pub fn parse(inner: &str) -> Block {
    read(inner).block
}

/// Which owned section a `##` heading opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Project,
    Sources,
    Stack,
    Status,
}

const KINDS: [(Kind, &[&str]); 4] = [
    (Kind::Project, PROJECT),
    (Kind::Sources, SOURCES),
    (Kind::Stack, STACK),
    (Kind::Status, STATUS),
];

/// The owned section a title names, and the rank of the name among its aliases.
fn kind_of(title: &str) -> Option<(Kind, usize)> {
    KINDS.iter().find_map(|(kind, names)| {
        names
            .iter()
            .position(|n| fold_eq(title, n))
            .map(|rank| (*kind, rank))
    })
}

/// One `##` section: its heading line and its body.
struct Section<'a> {
    heading: &'a str,
    body: &'a [&'a str],
    kind: Option<(Kind, usize)>,
}

/// Reads the text between the markers into its three buckets (see the module's comment).
///
/// Only `##` lines cut the block (a `#` or `###` line belongs to the section it is in). The
/// block's own text ends at every `##` line, fenced or not: a `##` line with an owned name
/// (`Project`, `Sources`, `Stack`, `Status` and their Spanish names) always starts a section,
/// and the preamble and each owned section stop at the first `##` line after them. Those are
/// the places a rewrite writes text back around, so no code fence can pair up across them once
/// the text has moved. Only among a person's own sections (from a `##` line that is not owned
/// to the next owned one) does a `##` line inside a closed fence stay a line of its section.
/// A fence counts only when it closes inside its stretch of text.
pub fn read(inner: &str) -> Parsed {
    let raw: Vec<&str> = inner
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    fn level2(l: &str) -> Option<(usize, &str)> {
        heading_of(l).filter(|(level, _)| *level == 2)
    }
    let owned_cut = |i: usize| level2(raw[i]).and_then(|(_, t)| kind_of(t)).is_some();
    let any_cut = |i: usize| level2(raw[i]).is_some();
    let mut cuts: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if !any_cut(i) {
            i += 1;
            continue;
        }
        cuts.push(i);
        if owned_cut(i) {
            i += 1;
            continue;
        }
        // A person's sections, up to the next owned heading: their `##` lines cut outside fences.
        let end = (i + 1..raw.len())
            .find(|&j| owned_cut(j))
            .unwrap_or(raw.len());
        let stretch = raw[i..end].join("\n");
        cuts.extend(
            scan_closed(&stretch)
                .iter()
                .enumerate()
                .skip(1)
                .filter(|(_, l)| l.heading.is_some_and(|(level, _)| level == 2))
                .map(|(j, _)| i + j),
        );
        i = end;
    }
    let preamble = &raw[..cuts.first().copied().unwrap_or(raw.len())];
    let sections: Vec<Section<'_>> = cuts
        .iter()
        .enumerate()
        .map(|(n, &at)| Section {
            heading: raw[at],
            body: &raw[at + 1..cuts.get(n + 1).copied().unwrap_or(raw.len())],
            kind: level2(raw[at]).and_then(|(_, title)| kind_of(title)),
        })
        .collect();
    // Each owned section is read from the first section under one of its names (English or
    // Spanish) that says something, else from the first one; any other section is somebody
    // else's. (A block the other tool rewrote can hold both an empty `## Proyecto` and, further
    // down, the `## Project` that still has the description.) "Says something" is judged on what
    // the section reads to, so a rewrite, which writes that back, keeps the same owner.
    let owner = |kind: Kind| -> Option<usize> {
        let mut of_kind = sections
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind.is_some_and(|(k, _)| k == kind));
        let first = of_kind.clone().next().map(|(i, _)| i);
        of_kind
            .find(|(_, s)| says_something(kind, s.body))
            .map(|(i, _)| i)
            .or(first)
    };
    let owners: Vec<(Kind, Option<usize>)> = KINDS.iter().map(|(k, _)| (*k, owner(*k))).collect();
    let body_of = |kind: Kind| -> Option<&[&str]> {
        owners
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, i)| *i)
            .map(|i| sections[i].body)
    };

    let mut out = Parsed::default();
    let mut kept = Vec::new();
    block_text(preamble, Slot::Preamble, &mut kept);
    // Sources first: the status section honours only the aliases they declare.
    for (kind, _) in KINDS {
        if let Some(body) = body_of(kind) {
            read_section(kind, body, &mut out.block, &mut kept, &mut out.dropped);
        }
    }
    let owned = |i: usize| owners.iter().any(|(_, o)| *o == Some(i));
    let mut trailing: Vec<&str> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        // A second section under an owned name that holds only placeholders is the CLI's own
        // leftover (a mixed-up rewrite), not anybody's text.
        if owned(i) || s.kind.is_some_and(|(k, _)| !says_something(k, s.body)) {
            continue;
        }
        trailing.push(s.heading);
        trailing.extend(s.body);
    }
    block_text(&trailing, Slot::Trailing, &mut kept);
    out.block.kept = kept;
    out
}

/// Lines kept as a block of text: leading and trailing blank lines dropped, the rest verbatim.
fn block_text(lines: &[&str], slot: Slot, kept: &mut Vec<KeptLine>) {
    let blank = |l: &&str| trim(l).is_empty();
    let Some(first) = lines.iter().position(|l| !blank(l)) else {
        return;
    };
    let last = lines.iter().rposition(|l| !blank(l)).unwrap_or(first);
    kept.extend(lines[first..=last].iter().map(|l| KeptLine::new(slot, l)));
}

/// Reads one owned section's body into `block`, `kept` and `dropped`.
fn read_section(
    kind: Kind,
    body: &[&str],
    block: &mut Block,
    kept: &mut Vec<KeptLine>,
    dropped: &mut Vec<String>,
) {
    match kind {
        Kind::Project => block.project = project(body),
        Kind::Sources => block.sources = sources(body, kept),
        Kind::Stack => block.stack = stack(body, kept),
        Kind::Status => status(body, block, kept, dropped),
    }
}

/// Whether a section reads to anything: data, a kept line or a dropped one (a section holding
/// only placeholders, blank lines or the legacy `Mode:` line reads to nothing).
fn says_something(kind: Kind, body: &[&str]) -> bool {
    let (mut block, mut kept, mut dropped) = (Block::default(), Vec::new(), Vec::new());
    read_section(kind, body, &mut block, &mut kept, &mut dropped);
    block != Block::default() || !kept.is_empty() || !dropped.is_empty()
}

/// The description, without the legacy `Mode:` line.
fn project(body: &[&str]) -> Option<String> {
    let kept: Vec<&str> = body
        .iter()
        .copied()
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

/// A row made only of dashes, colons and blanks (a separator, or a row with nothing in it).
fn is_separator(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        c.chars()
            .all(|ch| matches!(ch, '-' | ':') || ch.is_whitespace())
    })
}

/// Table rows: data rows need three cells and an alias. The table's first row, when it has three
/// cells, is its header when a separator row follows it or its first cell is `Alias`; any other line but the placeholder, and a row
/// the table shape cannot read, is kept after the table.
fn sources(body: &[&str], kept: &mut Vec<KeptLine>) -> Vec<Source> {
    let mut out = Vec::new();
    let mut rows_seen = false;
    let row_of = |l: &str| Some(trim(l)).filter(|t| t.starts_with('|')).map(cells);
    for (i, l) in body.iter().enumerate() {
        let t = trim(l);
        if t.is_empty() {
            continue;
        }
        let Some(row) = row_of(l) else {
            if !is_placeholder(t) {
                kept.push(KeptLine::new(Slot::Sources, l));
            }
            continue;
        };
        if is_separator(&row) {
            continue;
        }
        let first = !rows_seen;
        rows_seen = true;
        if first && row.len() >= 3 {
            let next = body[i + 1..].iter().find(|n| !trim(n).is_empty());
            let separated = next
                .and_then(|n| row_of(n))
                .is_some_and(|r| is_separator(&r));
            if separated || fold(&row[0]) == "alias" {
                continue;
            }
        }
        // An alias of dashes and colons would write back as a separator row, and read as none.
        if row.len() < 3 || is_separator(&row[..1]) {
            kept.push(KeptLine::new(Slot::Sources, l));
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

/// The stack keys; a key given twice keeps its first value, and the second line is kept as
/// written (so a rewrite never loses it, and never lets it win on the next read).
fn stack(body: &[&str], kept: &mut Vec<KeptLine>) -> Stack {
    let mut st = Stack::default();
    for l in body {
        let t = trim(l);
        if t.is_empty() {
            continue;
        }
        if is_placeholder(t) {
            continue;
        }
        if let Some((label, value)) = labelled(t)
            && !value.is_empty()
        {
            let slot = match label.as_str() {
                "lenguaje" | "language" => Some(&mut st.language),
                "framework" => Some(&mut st.framework),
                "bd" | "db" | "database" => Some(&mut st.db),
                "build" => Some(&mut st.build),
                _ => None,
            };
            if let Some(slot @ None) = slot {
                *slot = Some(value.to_owned());
                continue;
            }
        }
        kept.push(KeptLine::new(Slot::Stack, l));
    }
    st
}

#[derive(Clone, Copy)]
enum Open {
    Defaults,
    Working,
    Qa,
}

/// Whether a status line is the history line (`- History: …` / `- Histórico: …`).
fn is_history(t: &str) -> bool {
    // The label is all that is compared: fold only its first characters.
    let head: String = t
        .trim_start_matches(['-', '*'])
        .trim_start()
        .chars()
        .take(10)
        .collect();
    let folded = fold(&head);
    ["historico", "history"].iter().any(|h| {
        folded
            .strip_prefix(h)
            .is_some_and(|r| r.is_empty() || r.starts_with([':', ' ']))
    })
}

/// `- key: value` with both sides non-empty: the shape of the records aw writes.
fn record(t: &str) -> Option<(&str, &str)> {
    let rest = t.strip_prefix(['-', '*'])?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let (key, value) = rest.split_once(':')?;
    let (key, value) = (key.trim(), value.trim());
    (!key.is_empty() && !value.is_empty()).then_some((key, value))
}

/// The status list: three nested lists, the last-activity line and the history line. A record
/// is a branch because its key names a role (defaults) or a declared source (working, QA), not
/// because of where it sits: an unknown key written flush left is a person's note (kept after the
/// entry it followed); one written indented is aw's own leftover (dropped, and reported).
fn status(body: &[&str], block: &mut Block, kept: &mut Vec<KeptLine>, dropped: &mut Vec<String>) {
    let mut open: Option<Open> = None;
    let mut slot = Slot::StatusStart;
    for l in body {
        let t = trim(l);
        if t.is_empty() {
            continue;
        }
        if is_history(t) {
            open = None;
            slot = Slot::StatusHistory;
            continue;
        }
        if let Some((label, value)) = labelled(t) {
            let to = match label.as_str() {
                "ramas por defecto" | "default branches" => {
                    Some((Open::Defaults, Slot::StatusDefaults))
                }
                "ramas de trabajo actuales" | "working branches" | "current working branches" => {
                    Some((Open::Working, Slot::StatusWorking))
                }
                "ramas qa actuales" | "qa branches" | "current qa branches" => {
                    Some((Open::Qa, Slot::StatusQa))
                }
                "ultima actividad" | "last activity" => {
                    block.last_activity = (!value.is_empty()).then(|| value.to_owned());
                    open = None;
                    slot = Slot::StatusActivity;
                    continue;
                }
                _ => None,
            };
            if let Some((o, s)) = to {
                open = Some(o);
                slot = s;
                continue;
            }
        }
        let honoured = match (open, record(t)) {
            (Some(Open::Defaults), Some((key, value))) => {
                let role = key.to_lowercase();
                DEFAULT_BRANCH_ROLES.contains(&role.as_str()) && {
                    block.default_branches.set(&role, value);
                    true
                }
            }
            (Some(list @ (Open::Working | Open::Qa)), Some((key, value))) => {
                block.source(key).is_some() && {
                    match list {
                        Open::Working => block.working_branches.set(key, value),
                        _ => block.qa_branches.set(key, value),
                    }
                    true
                }
            }
            _ => false,
        };
        if honoured {
            continue;
        }
        if open.is_some() && record(t).is_some() && l.starts_with(char::is_whitespace) {
            dropped.push(l.trim_end().to_owned());
        } else {
            kept.push(KeptLine::new(slot, l));
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
    fn owned_headings_cut_even_in_a_fence_and_a_persons_do_not() {
        // A `##` line with an owned name cuts wherever it is (its text is kept, not lost); in a
        // person's own section a fenced `##` line is a line of that section.
        let inner = "## Project\n\nA\n```\n## Sources\n```\n## Sources\n\n| Alias | Path | Main branch |\n|---|---|---|\n| a | b | c |\n\n## Notes\n```\n## Example\n```\n";
        let p = read(inner);
        assert_eq!(p.block.project.as_deref(), Some("A\n```"));
        assert!(p.block.sources.is_empty());
        let kept: Vec<&str> = p.block.kept.iter().map(|k| k.text.as_str()).collect();
        assert_eq!(
            kept,
            [
                "```",
                "## Sources",
                "",
                "| Alias | Path | Main branch |",
                "|---|---|---|",
                "| a | b | c |",
                "",
                "## Notes",
                "```",
                "## Example",
                "```"
            ]
        );
    }

    /// workspace-spec-v22 §5.8's observed case, notes everywhere, with the text the reference
    /// loses (before the first heading, a `#` heading in an owned section) and blank lines of a
    /// person's section the reference merges away.
    const NOTES: &str = "\nintro line before proyecto\n## Proyecto\n\nBilling\nsecond para line\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n| broken |\nnote under table\n\n## Stack\n\n- Lenguaje: Java\n- Editor: vim\n- Build:\n# My stack notes\n- Lenguaje: Kotlin\n\n## Status\n\nstatus start note\n- Ramas por defecto:\n  - principal: main\n  - weird: x\n- Ramas de trabajo actuales:\n  - app: feature/a\n  - ghost: feature\n- ghost2: flushleft\nnote after working\n- Ramas QA actuales:\n  - app: qa\n- Última actividad: 2026-01-01 10:00\nafter activity\n- Histórico: `.workflow/HISTORY.md`\nafter history\n\n## Notas\n\nmy note\n  indented\n\n# Top heading in notes\nmore\n";

    #[test]
    fn every_line_is_read_kept_or_dropped() {
        let p = read(NOTES);
        let b = &p.block;
        assert_eq!(b.project.as_deref(), Some("Billing\nsecond para line"));
        assert_eq!(b.sources.len(), 1);
        assert_eq!(b.stack.to_json(), json!({"language": "Java"}));
        assert_eq!(b.default_branches.to_json(), json!({"principal": "main"}));
        assert_eq!(b.working_branches.to_json(), json!({"app": "feature/a"}));
        assert_eq!(b.qa_branches.to_json(), json!({"app": "qa"}));
        assert_eq!(p.dropped, ["  - weird: x", "  - ghost: feature"]);
        let kept: Vec<(&str, &str)> = b
            .kept
            .iter()
            .map(|k| (k.slot.as_str(), k.text.as_str()))
            .collect();
        assert_eq!(
            kept,
            [
                ("preamble", "intro line before proyecto"),
                ("fuentes", "| broken |"),
                ("fuentes", "note under table"),
                ("stack", "- Editor: vim"),
                ("stack", "- Build:"),
                ("stack", "# My stack notes"),
                ("stack", "- Lenguaje: Kotlin"),
                ("status:start", "status start note"),
                ("status:working", "- ghost2: flushleft"),
                ("status:working", "note after working"),
                ("status:activity", "after activity"),
                ("status:historico", "after history"),
                ("trailing", "## Notas"),
                ("trailing", ""),
                ("trailing", "my note"),
                ("trailing", "  indented"),
                ("trailing", ""),
                ("trailing", "# Top heading in notes"),
                ("trailing", "more"),
            ]
        );
        assert_eq!(
            b.to_json()["preserved_lines"][1],
            json!({"slot": "fuentes", "text": "| broken |"})
        );
    }

    #[test]
    fn a_rewrite_puts_every_kept_line_back_in_place() {
        let mut b = parse(NOTES);
        b.working_branches.set("app", "feature/y");
        let text = render(&b, "workflow", "\n", Language::Spanish);
        assert_eq!(
            text,
            "<!-- WORKFLOW-PROJECT-START -->\nintro line before proyecto\n\n## Proyecto\n\nBilling\nsecond para line\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n| broken |\nnote under table\n\n## Stack\n\n- Lenguaje: Java\n- Editor: vim\n- Build:\n# My stack notes\n- Lenguaje: Kotlin\n\n## Status\n\nstatus start note\n- Ramas por defecto:\n  - principal: main\n- Ramas de trabajo actuales:\n  - app: feature/y\n- ghost2: flushleft\nnote after working\n- Ramas QA actuales:\n  - app: qa\n- Última actividad: 2026-01-01 10:00\nafter activity\n- Histórico: `.workflow/HISTORY.md`\nafter history\n\n## Notas\n\nmy note\n  indented\n\n# Top heading in notes\nmore\n<!-- WORKFLOW-PROJECT-END -->"
        );
        // Written again, the block reads the same and writes the same bytes.
        let inner = find(&text, "workflow").unwrap().inner(&text).to_owned();
        let again = read(&inner);
        assert!(again.dropped.is_empty());
        assert_eq!(again.block, b);
        assert_eq!(
            render(&again.block, "workflow", "\n", Language::Spanish),
            text
        );
        // In English, the same lines at the same places.
        let en = render(&b, "workflow", "\n", Language::English);
        let inner = find(&en, "workflow").unwrap().inner(&en).to_owned();
        assert_eq!(parse(&inner), b);
        assert!(
            en.contains(
                "  - app: feature/y\n- ghost2: flushleft\nnote after working\n- QA branches:"
            ),
            "{en}"
        );
    }

    #[test]
    fn nothing_a_person_wrote_is_read_as_structure_or_lost() {
        // A second section under an owned name is a person's (unless it holds only
        // placeholders, the CLI's leftovers); a row before any separator is a header only when
        // it says `Alias`; an unclosed fence does not swallow the headings after it.
        let inner = "\n## Project\n\nP\n\n## Sources\n\n_No sources declared. Edit this table by hand, or run `aw project-md-upsert --init --source alias:path`._\n| broken |\n\n## Fuentes\n\n_Sin fuentes declaradas. Edita manualmente o usa `project-md-upsert --init`._\n\n## Stack\n\n```\nunclosed\n\n## Status\n\n- Working branches:\n  - web: w\n\n## Project\n\nmine\n";
        let p = read(inner);
        assert!(p.block.sources.is_empty());
        assert_eq!(
            p.dropped,
            ["  - web: w"],
            "the status section is still read"
        );
        let kept: Vec<(&str, &str)> = p
            .block
            .kept
            .iter()
            .map(|k| (k.slot.as_str(), k.text.as_str()))
            .collect();
        assert_eq!(
            kept,
            [
                ("fuentes", "| broken |"),
                ("stack", "```"),
                ("stack", "unclosed"),
                ("trailing", "## Project"),
                ("trailing", ""),
                ("trailing", "mine"),
            ]
        );
        let headerless = read("\n## Sources\n\n| api | ../api | main |\n| Alias | Path | x |\n");
        assert_eq!(
            headerless.block.sources.len(),
            2,
            "no separator, no `Alias`: a data row"
        );
        let header = read("\n## Sources\n\n| alias | path | branch |\n| api | ../api | main |\n");
        assert_eq!(header.block.sources.len(), 1);
    }

    proptest::proptest! {
        #[test]
        fn one_rewrite_is_a_fixpoint(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::strategy::Just("## Project".to_owned()),
                proptest::strategy::Just("## Fuentes".to_owned()),
                proptest::strategy::Just("## Stack".to_owned()),
                proptest::strategy::Just("## Status".to_owned()),
                proptest::strategy::Just("## Notes".to_owned()),
                proptest::strategy::Just("# Title".to_owned()),
                proptest::strategy::Just("| Alias | Path | Main branch |".to_owned()),
                proptest::strategy::Just("|---|---|---|".to_owned()),
                proptest::strategy::Just("| a | b | c |".to_owned()),
                proptest::strategy::Just("| x |".to_owned()),
                proptest::strategy::Just("- Working branches:".to_owned()),
                proptest::strategy::Just("- Default branches:".to_owned()),
                proptest::strategy::Just("- Last activity: t".to_owned()),
                proptest::strategy::Just("- History: h".to_owned()),
                proptest::strategy::Just("  - a: w".to_owned()),
                proptest::strategy::Just("- z: q".to_owned()),
                proptest::strategy::Just("- Build: npm".to_owned()),
                proptest::strategy::Just("```".to_owned()),
                proptest::strategy::Just("~~~~".to_owned()),
                proptest::strategy::Just(String::new()),
                "[a-z #|:-]{0,12}",
            ], 0..40)
        ) {
            // Whatever a person leaves in the block, writing it twice gives the bytes of writing it
            // once: nothing is lost, duplicated or moved on the second write.
            let inner = parts.join("\n");
            for lang in [Language::English, Language::Spanish] {
                let mut b = parse(&inner);
                b.last_activity = Some("now".into());
                let once = render(&b, "workflow", "\n", lang);
                let f = find(&once, "workflow").unwrap();
                let mut b2 = parse(f.inner(&once));
                b2.last_activity = Some("now".into());
                proptest::prop_assert_eq!(render(&b2, "workflow", "\n", lang), once);
            }
        }
    }
}
