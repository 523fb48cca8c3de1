//! Retirements on the board: the terminal events `HISTORY.md` records under `## Retiros`, and
//! the retirements still in flight, one journal per operation in `.<ns>/.retirement/`.
//!
//! Both are read as the reference reads them, quirks included, because the writer of these files
//! is the reference's retirement (isolation-spec-v22 §3.9) and a board that parsed them more
//! cleverly would list rows the reference does not, or hide ones it shows.

use aw_json::js::js_trim;
use serde::Serialize;
use serde_json::Value;

/// The heading of the retirements ledger in `HISTORY.md` (the reference's wire text).
const HEADING: &str = "## Retiros";

/// The first cell of the ledger's header row (the reference's wire text).
const HEADER_FIRST_CELL: &str = "Operación";

/// The `digest` and `phase` of a journal that could not be read (the reference's wire value).
const UNREADABLE: &str = "ilegible";

/// The `command` of a journal that could not be read (the reference's wire value).
const UNREADABLE_COMMAND: &str = "retiro";

/// One row of the retirements ledger: a retirement that finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TerminalEvent {
    /// The operation's key: the first 12 characters of its approval digest.
    pub operation: String,
    /// The local date it was applied, `YYYY-MM-DD`.
    pub date: String,
    /// The command that retired it (`discard`, …).
    pub command: String,
    /// What was retired (`plan:009`, …).
    pub target: String,
    /// What happened, as the writer summed it up.
    pub result: String,
}

/// The rows of the table under the line `## Retiros` of `HISTORY.md`, in file order.
///
/// The rules are the reference's, line by line: every line is trimmed (JavaScript's `trim`); the
/// section starts after a line that is exactly `## Retiros` and ends at the first other line
/// starting with `#` (a second `## Retiros` does not end it: the reference checks for the
/// heading first). Inside it, a row is a line starting with `|`, split at every `|` (a `\|` is
/// not an escape here) into at least 7 cells, the first and last being what lies outside the
/// outer pipes; its five data cells are trimmed and any further ones ignored. The header row
/// (first cell `Operación`) and separator rows (first cell made only of `-` and `:`) are not
/// events; any other line (blank, prose, a row with fewer cells) is skipped.
pub fn terminal_events(history_md: &str) -> Vec<TerminalEvent> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in history_md.split('\n') {
        let trimmed = js_trim(line);
        if trimmed == HEADING {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if trimmed.starts_with('#') {
            break;
        }
        if let Some(event) = event_of(trimmed) {
            out.push(event);
        }
    }
    out
}

/// One data row of the ledger; `None` for the header, a separator or a line that is no row.
fn event_of(line: &str) -> Option<TerminalEvent> {
    if !line.starts_with('|') {
        return None;
    }
    // `| a | b | c | d | e |` splits into ["", a, b, c, d, e, ""]: seven cells at least.
    let cells: Vec<&str> = line.split('|').map(js_trim).collect();
    let [_, operation, date, command, target, result, _, ..] = cells.as_slice() else {
        return None;
    };
    if *operation == HEADER_FIRST_CELL || is_separator(operation) {
        return None;
    }
    Some(TerminalEvent {
        operation: (*operation).to_owned(),
        date: (*date).to_owned(),
        command: (*command).to_owned(),
        target: (*target).to_owned(),
        result: (*result).to_owned(),
    })
}

/// A table separator's cell: one or more of `-` and `:` and nothing else.
fn is_separator(cell: &str) -> bool {
    !cell.is_empty() && cell.bytes().all(|b| b == b'-' || b == b':')
}

/// A retirement in flight: its journal exists, so it is neither applied nor undone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PendingRetirement {
    /// The approval's digest (`ilegible` when the journal could not be read).
    pub digest: String,
    /// The retiring command (`retiro` when the journal could not be read).
    pub command: String,
    /// What is being retired; the journal's absolute path when it could not be read.
    pub target: String,
    /// How far the writer believed it got (`prepared`, `ready`, `committed`; `ilegible` when
    /// the journal could not be read).
    pub phase: String,
    /// When the journal was opened (empty when it could not be read).
    pub opened: String,
    /// The command that converges it, or what to inspect and why when it could not be read.
    pub next: String,
}

/// The board's entry for the journal at `absolute_path` holding `json_text`.
///
/// A journal is read when it is a JSON object with the fields the reference checks, of the types
/// it checks (`version` a number, `digest`, `phase` and `quarantine` strings, `private_refs` an
/// array, `proposal` a non-null object), plus what the board then prints: `opened`, and
/// `proposal.event.command` and `proposal.event.key`, strings. The reference checks none of these
/// three (it omits a missing `opened`, prints `undefined` for a missing command, and fails the
/// whole board when `proposal.event` is absent); here a journal missing one is unreadable, so
/// the board stands and names it. Anything else is unreadable, see [`unreadable_retirement`].
pub fn pending_retirement(json_text: &str, absolute_path: &str) -> PendingRetirement {
    journal_entry(json_text).unwrap_or_else(|reason| unreadable_retirement(absolute_path, &reason))
}

/// The board's entry for a journal that could not be read, with `reason` saying why in English
/// (for a file the shell could not read at all).
pub fn unreadable_retirement(absolute_path: &str, reason: &str) -> PendingRetirement {
    PendingRetirement {
        digest: UNREADABLE.to_owned(),
        command: UNREADABLE_COMMAND.to_owned(),
        target: absolute_path.to_owned(),
        phase: UNREADABLE.to_owned(),
        opened: String::new(),
        next: format!("inspect {absolute_path}: {reason}"),
    }
}

/// One journal as the shell found it: its absolute path, and its text or why it could not be
/// read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalFile {
    /// The journal's absolute path.
    pub path: String,
    /// The file's text, or an English reason it could not be read.
    pub text: Result<String, String>,
}

/// The board's `pending_retirements`: every journal that reads, in the order given, then every
/// one that does not, in the order given (the reference lists the unreadable ones last).
pub fn pending_retirements(journals: &[JournalFile]) -> Vec<PendingRetirement> {
    let mut read = Vec::new();
    let mut unread = Vec::new();
    for journal in journals {
        let entry = match &journal.text {
            Ok(text) => journal_entry(text),
            Err(reason) => Err(reason.clone()),
        };
        match entry {
            Ok(entry) => read.push(entry),
            Err(reason) => unread.push(unreadable_retirement(&journal.path, &reason)),
        }
    }
    read.append(&mut unread);
    read
}

/// The entry of a journal that reads, or why it does not.
fn journal_entry(json_text: &str) -> Result<PendingRetirement, String> {
    let journal = parse_journal(json_text)?;
    let next = format!(
        "aw {} apply {} --approval {}",
        journal.command, journal.key, journal.digest
    );
    Ok(PendingRetirement {
        digest: journal.digest,
        command: journal.command,
        target: journal.key,
        phase: journal.phase,
        opened: journal.opened,
        next,
    })
}

/// What the board takes from a journal.
struct Journal {
    digest: String,
    phase: String,
    opened: String,
    command: String,
    key: String,
}

/// Reads a journal's text, or says in English why it is not one.
fn parse_journal(text: &str) -> Result<Journal, String> {
    let value: Value = aw_json::parse_bounded(text).map_err(|e| format!("it is not JSON ({e})"))?;
    let Value::Object(j) = &value else {
        return Err("it is not a retirement journal: it is not a JSON object".to_owned());
    };
    let shape = |what: &str| format!("it is not a retirement journal: {what}");
    if !j.get("version").is_some_and(Value::is_number) {
        return Err(shape("`version` is not a number"));
    }
    let string = |key: &str| {
        j.get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| shape(&format!("`{key}` is not a string")))
    };
    let digest = string("digest")?;
    let phase = string("phase")?;
    string("quarantine")?;
    if !j.get("private_refs").is_some_and(Value::is_array) {
        return Err(shape("`private_refs` is not an array"));
    }
    // JavaScript's `typeof` calls an array an object too, and the reference accepts one here.
    let Some(proposal) = j.get("proposal").filter(|p| p.is_object() || p.is_array()) else {
        return Err(shape("`proposal` is not an object"));
    };
    let opened = string("opened")?;
    let event = proposal.get("event").filter(|e| e.is_object());
    let event_string = |key: &str| {
        event
            .and_then(|e| e.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| shape(&format!("`proposal.event.{key}` is not a string")))
    };
    let command = event_string("command")?;
    let key = event_string("key")?;
    Ok(Journal {
        digest,
        phase,
        opened,
        command,
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "| Operación | Fecha | Comando | Objetivo | Resultado |";
    const SEPARATOR: &str = "|-----------|-------|---------|----------|-----------|";
    const ROW: &str =
        "| 0123456789ab | 2026-08-20 | discard | plan:009 | retirado plan 009 · sin efectos git |";

    fn event(
        operation: &str,
        date: &str,
        command: &str,
        target: &str,
        result: &str,
    ) -> TerminalEvent {
        TerminalEvent {
            operation: operation.to_owned(),
            date: date.to_owned(),
            command: command.to_owned(),
            target: target.to_owned(),
            result: result.to_owned(),
        }
    }

    fn example_event() -> TerminalEvent {
        event(
            "0123456789ab",
            "2026-08-20",
            "discard",
            "plan:009",
            "retirado plan 009 · sin efectos git",
        )
    }

    #[test]
    fn the_spec_example_reads_one_event_with_its_keys_in_order() {
        let text = format!(
            "# Historial\n\n| Sesión | Estado |\n|---|---|\n| 001 | cerrada |\n\n## Retiros\n\n{HEADER}\n{SEPARATOR}\n{ROW}\n"
        );
        let events = terminal_events(&text);
        assert_eq!(events, vec![example_event()]);
        assert_eq!(
            serde_json::to_string(&events).expect("serializes"),
            r#"[{"operation":"0123456789ab","date":"2026-08-20","command":"discard","target":"plan:009","result":"retirado plan 009 · sin efectos git"}]"#
        );
    }

    #[test]
    fn without_the_heading_there_are_no_events() {
        assert!(terminal_events("").is_empty());
        // The session table's rows are never events, however many cells they have.
        let text = format!("# Historial\n\n{HEADER}\n{SEPARATOR}\n{ROW}\n");
        assert!(terminal_events(&text).is_empty());
        // The heading must be the whole line: another level, case, or text is not it.
        for heading in [
            "### Retiros",
            "## retiros",
            "## Retiros pendientes",
            "##  Retiros",
        ] {
            let text = format!("{heading}\n{ROW}\n");
            assert!(terminal_events(&text).is_empty(), "{heading}");
        }
    }

    #[test]
    fn the_heading_and_rows_are_read_trimmed_and_crlf_reads_like_lf() {
        let text = format!("  ## Retiros \r\n\r\n{HEADER}\r\n{SEPARATOR}\r\n   {ROW}  \r\n");
        assert_eq!(terminal_events(&text), vec![example_event()]);
        // JavaScript's trim takes a byte-order mark and a no-break space too.
        let text = format!("\u{feff}## Retiros\n\u{a0}{ROW}\u{feff}\n");
        assert_eq!(terminal_events(&text), vec![example_event()]);
        // ... and cells are trimmed the same way.
        let text = "## Retiros\n|\u{a0}op\u{feff}|\td\t| c | t | r |\n";
        assert_eq!(terminal_events(text), vec![event("op", "d", "c", "t", "r")]);
    }

    #[test]
    fn the_section_ends_at_the_next_heading_line_but_not_at_a_second_ledger_heading() {
        let text = format!("## Retiros\n{ROW}\n## Notas\n| x | y | z | w | v |\n");
        assert_eq!(terminal_events(&text), vec![example_event()]);
        // Any line starting with `#` ends it, not only a heading.
        let text = format!("## Retiros\n{ROW}\n#nota\n| x | y | z | w | v |\n");
        assert_eq!(terminal_events(&text), vec![example_event()]);
        // The heading is looked for before the end: a second `## Retiros` goes on reading.
        let text = format!("## Retiros\n{ROW}\n## Retiros\n| x | y | z | w | v |\n");
        assert_eq!(
            terminal_events(&text),
            vec![example_event(), event("x", "y", "z", "w", "v")]
        );
    }

    #[test]
    fn blank_lines_and_prose_inside_the_section_are_skipped_not_an_end() {
        let text = format!("## Retiros\n\nsome prose\n{HEADER}\n\n{SEPARATOR}\n{ROW}\n\n{ROW}\n");
        assert_eq!(
            terminal_events(&text),
            vec![example_event(), example_event()]
        );
    }

    #[test]
    fn header_and_separator_rows_are_skipped_by_their_first_cell() {
        let text = "## Retiros\n| Operación | a | b | c | d |\n| :---: | a | b | c | d |\n| - | a | b | c | d |\n";
        assert!(terminal_events(text).is_empty());
        // Only the first cell decides: a separator elsewhere is a row, and so is a header word
        // spelled otherwise.
        let text = "## Retiros\n| op | --- | --- | --- | --- |\n| operación | a | b | c | d |\n";
        assert_eq!(
            terminal_events(text),
            vec![
                event("op", "---", "---", "---", "---"),
                event("operación", "a", "b", "c", "d")
            ]
        );
        // An empty first cell is not a separator.
        let text = "## Retiros\n|  | a | b | c | d |\n";
        assert_eq!(terminal_events(text), vec![event("", "a", "b", "c", "d")]);
    }

    #[test]
    fn a_row_needs_seven_cells_and_ignores_the_ones_after_the_fifth() {
        let text = "## Retiros\n| a | b | c | d |\n| a | b | c | d | e\n a | b | c | d | e | f |\n";
        assert!(terminal_events(text).is_empty());
        let text = "## Retiros\n| a | b | c | d | e | f | g |\n|a|b|c|d|e|\n";
        assert_eq!(
            terminal_events(text),
            vec![
                event("a", "b", "c", "d", "e"),
                event("a", "b", "c", "d", "e")
            ]
        );
        // Without the closing pipe, a sixth cell makes the seventh.
        let text = "## Retiros\n| a | b | c | d | e | f\n";
        assert_eq!(terminal_events(text), vec![event("a", "b", "c", "d", "e")]);
    }

    #[test]
    fn an_escaped_pipe_still_splits_a_row() {
        let text = "## Retiros\n| a | b | c | d | x \\| y |\n";
        assert_eq!(
            terminal_events(text),
            vec![event("a", "b", "c", "d", "x \\")]
        );
    }

    #[test]
    fn fences_are_not_looked_at() {
        let text = format!("## Retiros\n```\n{ROW}\n```\n");
        assert_eq!(terminal_events(&text), vec![example_event()]);
    }

    fn digest() -> String {
        "a".repeat(64)
    }

    fn journal_text() -> String {
        format!(
            r#"{{"version":1,"digest":"{}","phase":"prepared","opened":"2026-08-20T10:00:00.000Z","quarantine":"q","private_refs":[],"proposal":{{"event":{{"command":"discard","key":"plan:002"}}}}}}"#,
            digest()
        )
    }

    fn journal_with(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
        let mut v: Value = serde_json::from_str(&journal_text()).expect("json");
        if let Value::Object(map) = &mut v {
            edit(map);
        }
        v.to_string()
    }

    const PATH: &str = "/w/.workflow/.retirement/aaaa.json";

    fn unreadable_with(reason: &str) -> PendingRetirement {
        PendingRetirement {
            digest: "ilegible".to_owned(),
            command: "retiro".to_owned(),
            target: PATH.to_owned(),
            phase: "ilegible".to_owned(),
            opened: String::new(),
            next: format!("inspect {PATH}: {reason}"),
        }
    }

    #[test]
    fn the_spec_example_journal_reads_with_its_next_command() {
        let d = digest();
        let entry = pending_retirement(&journal_text(), PATH);
        assert_eq!(
            entry,
            PendingRetirement {
                digest: d.clone(),
                command: "discard".to_owned(),
                target: "plan:002".to_owned(),
                phase: "prepared".to_owned(),
                opened: "2026-08-20T10:00:00.000Z".to_owned(),
                next: format!("aw discard apply plan:002 --approval {d}"),
            }
        );
        assert_eq!(
            serde_json::to_string(&entry).expect("serializes"),
            format!(
                r#"{{"digest":"{d}","command":"discard","target":"plan:002","phase":"prepared","opened":"2026-08-20T10:00:00.000Z","next":"aw discard apply plan:002 --approval {d}"}}"#
            )
        );
    }

    #[test]
    fn only_the_types_are_checked_not_the_values() {
        // Any number is a version, any string a phase or digest; extra keys are ignored and the
        // private refs' items are not looked at.
        let text = journal_with(|j| {
            j.insert("version".into(), serde_json::json!(7.5));
            j.insert("phase".into(), serde_json::json!("whatever"));
            j.insert("digest".into(), serde_json::json!("short"));
            j.insert("private_refs".into(), serde_json::json!([1, null]));
            j.insert("prepared_tip".into(), serde_json::json!("abc"));
        });
        let entry = pending_retirement(&text, PATH);
        assert_eq!(entry.phase, "whatever");
        assert_eq!(entry.next, "aw discard apply plan:002 --approval short");
    }

    #[test]
    fn a_text_that_is_not_json_is_unreadable() {
        for text in ["", "{bad", "\u{feff}{}", "{} x"] {
            let entry = pending_retirement(text, PATH);
            assert_eq!(entry.digest, "ilegible", "{text:?}");
            assert!(
                entry
                    .next
                    .starts_with(&format!("inspect {PATH}: it is not JSON (")),
                "{}",
                entry.next
            );
        }
    }

    #[test]
    fn json_that_is_not_an_object_is_unreadable() {
        for text in ["[]", "null", "1", "\"x\""] {
            assert_eq!(
                pending_retirement(text, PATH),
                unreadable_with("it is not a retirement journal: it is not a JSON object"),
                "{text}"
            );
        }
    }

    #[test]
    fn each_required_field_of_the_wrong_type_or_missing_makes_it_unreadable() {
        let cases: [(&str, Value, &str); 8] = [
            (
                "version",
                serde_json::json!("1"),
                "`version` is not a number",
            ),
            ("digest", serde_json::json!(1), "`digest` is not a string"),
            ("phase", Value::Null, "`phase` is not a string"),
            (
                "quarantine",
                serde_json::json!(["q"]),
                "`quarantine` is not a string",
            ),
            (
                "private_refs",
                serde_json::json!({}),
                "`private_refs` is not an array",
            ),
            ("proposal", Value::Null, "`proposal` is not an object"),
            (
                "proposal",
                serde_json::json!("p"),
                "`proposal` is not an object",
            ),
            ("opened", serde_json::json!(0), "`opened` is not a string"),
        ];
        for (key, value, why) in cases {
            let reason = format!("it is not a retirement journal: {why}");
            let wrong = journal_with(|j| {
                j.insert(key.into(), value.clone());
            });
            assert_eq!(
                pending_retirement(&wrong, PATH),
                unreadable_with(&reason),
                "{key}"
            );
            let missing = journal_with(|j| {
                j.remove(key);
            });
            assert_eq!(
                pending_retirement(&missing, PATH),
                unreadable_with(&reason),
                "{key}"
            );
        }
    }

    #[test]
    fn the_event_must_carry_a_command_and_a_key() {
        let cases: [(Value, &str); 5] = [
            (serde_json::json!({}), "command"),
            (serde_json::json!({"event": null}), "command"),
            (serde_json::json!({"event": {"key": "plan:002"}}), "command"),
            (
                serde_json::json!({"event": {"command": "discard", "key": 2}}),
                "key",
            ),
            (
                serde_json::json!([{"event": {"command": "discard", "key": "k"}}]),
                "command",
            ),
        ];
        for (proposal, field) in cases {
            let text = journal_with(|j| {
                j.insert("proposal".into(), proposal.clone());
            });
            assert_eq!(
                pending_retirement(&text, PATH),
                unreadable_with(&format!(
                    "it is not a retirement journal: `proposal.event.{field}` is not a string"
                )),
                "{proposal}"
            );
        }
    }

    #[test]
    fn a_file_that_could_not_be_read_is_unreadable_with_the_shells_reason() {
        assert_eq!(
            unreadable_retirement(PATH, "permission denied"),
            unreadable_with("permission denied")
        );
    }

    #[test]
    fn readable_journals_come_first_each_group_in_the_order_given() {
        let other = journal_with(|j| {
            j.insert("digest".into(), serde_json::json!("b"));
        });
        let files = [
            JournalFile {
                path: "/r/1.json".to_owned(),
                text: Ok("{bad".to_owned()),
            },
            JournalFile {
                path: "/r/2.json".to_owned(),
                text: Ok(journal_text()),
            },
            JournalFile {
                path: "/r/3.json".to_owned(),
                text: Err("could not be read".to_owned()),
            },
            JournalFile {
                path: "/r/4.json".to_owned(),
                text: Ok(other),
            },
        ];
        let got = pending_retirements(&files);
        let digests: Vec<&str> = got.iter().map(|p| p.digest.as_str()).collect();
        assert_eq!(digests, [digest().as_str(), "b", "ilegible", "ilegible"]);
        let targets: Vec<&str> = got.iter().map(|p| p.target.as_str()).collect();
        assert_eq!(targets[2..], ["/r/1.json", "/r/3.json"]);
        assert_eq!(got[3].next, "inspect /r/3.json: could not be read");
        assert!(pending_retirements(&[]).is_empty());
    }
}
