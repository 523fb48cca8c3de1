//! `HISTORY.md`: the durable four-column session table (§7.9).
//!
//! `| Session | Date | State | Refs |`, one row per session. We write our English title and
//! header; the reference's Spanish header (`| Sesión | Fecha | Estado | Refs |`) reads and
//! upserts the same. A legacy 6- or 7-column table (`# | Flujo | Sesión | … | Resumen | Refs`)
//! is migrated in place to four columns on the first upsert.

use crate::markdown;
use crate::session::folder::{SessionState, identity};
use std::collections::HashMap;

/// The title of a new history file.
pub const TITLE: &str = "# Session History";
/// The header row we write.
pub const HEADER: &str = "| Session | Date | State | Refs |";
/// The separator row we write.
pub const SEPARATOR: &str = "|---------|------|-------|------|";

/// A new, empty history file.
pub fn template() -> String {
    format!("{TITLE}\n\n{HEADER}\n{SEPARATOR}\n")
}

/// The key of a session's row: its code (without a `session` prefix), followed by `-<name>`
/// when the name differs and does not already start with `<code>-`.
pub fn row_key(code: &str, name: Option<&str>) -> String {
    let code = code.strip_prefix("session").unwrap_or(code);
    match name {
        Some(n) if !n.is_empty() && n != code && !n.starts_with(&format!("{code}-")) => {
            format!("{code}-{n}")
        }
        _ => code.to_owned(),
    }
}

/// Renders a `--refs` list for the Refs cell: `dec:X` → `[DEC](../docs/decisiones/X.md)`,
/// `plan:X` → `[PLAN](../docs/planes/X.md)`, … (the folder names are the reference's), free text
/// and URLs verbatim, `—` when empty.
pub fn render_refs(refs: &str) -> String {
    let items: Vec<String> = refs
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(render_ref)
        .collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

fn render_ref(item: &str) -> String {
    let Some((kind, val)) = item.split_once(':') else {
        return item.to_owned();
    };
    let is_url = val.starts_with("//")
        && !kind.is_empty()
        && kind
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if is_url {
        return item.to_owned();
    }
    let val = val.trim();
    match kind.trim().to_lowercase().as_str() {
        "dec" | "decision" => format!("[DEC](../docs/decisiones/{val}.md)"),
        "plan" => format!("[PLAN](../docs/planes/{val}.md)"),
        "sql" | "script" | "scripts" => format!("[SQL](../docs/scripts/{val}/)"),
        "conclusion" | "conclusions" => format!("[CONCLUSION](../docs/conclusiones/{val}.md)"),
        "manual" | "manuales" => format!("[MANUAL](../docs/manuales/{val}.md)"),
        "especificacion" | "especificaciones" => {
            format!("[ESPECIFICACION](../docs/especificaciones/{val}/)")
        }
        "release" => format!("[RELEASE](../docs/release/{val}.md)"),
        other => format!("[{}]({val})", other.to_uppercase()),
    }
}

/// One logical row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The Session cell.
    pub key: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// `active` or `closed`.
    pub state: String,
    /// The rendered Refs cell.
    pub refs: String,
}

impl Row {
    /// The table line.
    pub fn render(&self) -> String {
        format!(
            "| {} | {} | {} | {} |",
            cell(&self.key),
            cell(&self.date),
            cell(&self.state),
            cell(&self.refs)
        )
    }
}

/// A cell's text, kept on one line and without unescaped pipes.
fn cell(s: &str) -> String {
    let one_line = s.replace(['\r', '\n'], " ");
    let mut out = String::with_capacity(one_line.len());
    let mut prev = '\0';
    for c in one_line.chars() {
        if c == '|' && prev != '\\' {
            out.push('\\');
        }
        out.push(c);
        prev = c;
    }
    out.trim().to_owned()
}

/// What an upsert did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upsert {
    /// A new row.
    Added,
    /// An existing row was replaced.
    Updated,
    /// The row was already exactly so.
    Unchanged,
}

impl Upsert {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Upsert::Added => "added",
            Upsert::Updated => "updated",
            Upsert::Unchanged => "unchanged",
        }
    }
}

/// The result of an upsert: the whole new text and what happened to the row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upserted {
    /// The file's new text (equal to the old one only when nothing changed at all).
    pub text: String,
    /// What happened to the row.
    pub action: Upsert,
    /// Whether a legacy table was migrated to four columns.
    pub migrated: bool,
}

/// Splits a table line into trimmed cells (a `\|` stays inside its cell).
fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let inner = t.strip_prefix('|').unwrap_or(t);
    let inner = match inner.strip_suffix('|') {
        Some(s) if !s.ends_with('\\') => s,
        _ => inner,
    };
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev = '\0';
    for c in inner.chars() {
        if c == '|' && prev != '\\' {
            out.push(cur.trim().to_owned());
            cur.clear();
        } else {
            cur.push(c);
        }
        prev = c;
    }
    out.push(cur.trim().to_owned());
    out
}

fn is_separator(line: &str) -> bool {
    let cs = cells(line);
    !cs.is_empty()
        && cs.iter().all(|c| {
            let c = c.trim_matches(':');
            !c.is_empty() && c.bytes().all(|b| b == b'-')
        })
}

/// A pipe table found in the file: line indices of its header and of its data rows.
#[derive(Debug, Clone)]
struct Table {
    header: usize,
    /// One past the last line of the table.
    end: usize,
    rows: Vec<usize>,
    cols: Columns,
}

/// Where each field lives in a table's columns.
#[derive(Debug, Clone, Default)]
struct Columns {
    legacy: bool,
    code: Option<usize>,
    session: Option<usize>,
    date: Option<usize>,
    state: Option<usize>,
    refs: Option<usize>,
}

fn columns(header: &[String]) -> Columns {
    let names: Vec<String> = header.iter().map(|h| markdown::fold(h)).collect();
    let find = |keys: &[&str]| names.iter().position(|n| keys.contains(&n.as_str()));
    let legacy = names
        .iter()
        .any(|n| n == "#" || n == "flujo" || n == "resumen");
    let mut c = Columns {
        legacy,
        code: find(&["#"]),
        session: find(&["sesion", "session"]),
        date: find(&["fecha", "date"]),
        state: find(&["estado", "state", "status"]),
        refs: find(&["refs"]),
    };
    if !legacy {
        // A four-column table is positional: whatever its header says, it is ours.
        c = Columns {
            legacy,
            code: None,
            session: Some(0),
            date: Some(1),
            state: Some(2),
            refs: Some(3),
        };
    }
    c
}

/// Finds the tables of the file (outside fences), in order.
fn tables(lines: &[markdown::Line<'_>]) -> Vec<Table> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        if l.fenced || !l.text.trim_start().starts_with('|') {
            i += 1;
            continue;
        }
        let header = i;
        let mut end = i + 1;
        while end < lines.len()
            && !lines[end].fenced
            && lines[end].text.trim_start().starts_with('|')
        {
            end += 1;
        }
        let rows = (header + 1..end)
            .filter(|&j| !is_separator(lines[j].text))
            .collect();
        out.push(Table {
            header,
            end,
            rows,
            cols: columns(&cells(lines[header].text)),
        });
        i = end;
    }
    out
}

/// A data row read through its table's column map.
fn logical(cols: &Columns, line: &str) -> Row {
    let cs = cells(line);
    let get = |i: Option<usize>| i.and_then(|i| cs.get(i)).cloned().unwrap_or_default();
    let key = if cols.legacy {
        let code = get(cols.code);
        let session = get(cols.session);
        match (code.is_empty(), session.is_empty()) {
            (false, false) if !session.starts_with(&format!("{code}-")) => {
                format!("{code}-{session}")
            }
            (false, false) | (true, false) => session,
            (false, true) => code,
            (true, true) => String::new(),
        }
    } else {
        get(cols.session)
    };
    Row {
        key,
        date: get(cols.date),
        state: get(cols.state),
        refs: get(cols.refs),
    }
}

/// Every row of the history (the first table), read in either layout.
pub fn rows(text: &str) -> Vec<Row> {
    let lines = markdown::scan(text);
    let Some(t) = tables(&lines).into_iter().next() else {
        return Vec::new();
    };
    t.rows
        .iter()
        .map(|&j| logical(&t.cols, lines[j].text))
        .collect()
}

/// Whether a row key belongs to the session `code`: the key itself, or — for a numeric (legacy)
/// code — `<code>-<anything>`. A current session's code is its whole folder name, so a prefix
/// match there would hit another session (`005-a` vs `005-a-b`).
pub fn key_matches(row_key: &str, code: &str, key: &str) -> bool {
    let code = code.strip_prefix("session").unwrap_or(code);
    row_key == key
        || row_key == code
        || (code.bytes().all(|b| b.is_ascii_digit())
            && !code.is_empty()
            && row_key.starts_with(&format!("{code}-")))
}

/// The Refs cell for an upsert: `refs` rendered when given, else the row's current refs (a
/// state change does not erase them; the reference reset them to `—`), else `—`.
pub fn refs_cell(text: Option<&str>, code: &str, key: &str, refs: Option<&str>) -> String {
    if let Some(r) = refs {
        return render_refs(r);
    }
    text.and_then(|t| {
        rows(t)
            .into_iter()
            .find(|r| key_matches(&r.key, code, key))
            .map(|r| r.refs)
    })
    .filter(|r| !r.is_empty())
    .unwrap_or_else(|| "—".to_owned())
}

/// The dates of HISTORY.md's rows, read once and indexed, so a listing of any number of sessions
/// looks each one up in constant time (reading the table again for every session made a listing
/// quadratic in its sessions). A lookup answers what scanning the rows for the first one whose
/// key matches ([`key_matches`]) would.
#[derive(Debug, Clone, Default)]
pub struct Dates {
    /// Each row's date, in table order.
    dates: Vec<String>,
    /// The first row of each key.
    by_key: HashMap<String, usize>,
    /// The first row whose key is `<digits>-…`, by those digits.
    by_number: HashMap<String, usize>,
}

impl Dates {
    /// Reads the first table of HISTORY.md's `text`.
    pub fn of(text: &str) -> Self {
        let mut d = Dates::default();
        for (i, row) in rows(text).into_iter().enumerate() {
            if let Some((digits, _)) = row.key.split_once('-')
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
            {
                d.by_number.entry(digits.to_owned()).or_insert(i);
            }
            d.by_key.entry(row.key).or_insert(i);
            d.dates.push(row.date);
        }
        d
    }

    /// Every row key (each once).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.by_key.keys().map(String::as_str)
    }

    /// The date of the session `code` whose row key would be `key`: that of the first row that
    /// belongs to it, when that row has one.
    pub fn get(&self, code: &str, key: &str) -> Option<&str> {
        let code = code.strip_prefix("session").unwrap_or(code);
        let numeric = !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit());
        let first = [
            self.by_key.get(key),
            self.by_key.get(code),
            numeric.then(|| self.by_number.get(code)).flatten(),
        ]
        .into_iter()
        .flatten()
        .min()?;
        self.dates
            .get(*first)
            .map(String::as_str)
            .filter(|d| !d.is_empty())
    }
}

/// Rewrites a legacy 6/7-column first table to four columns. `None` when there is nothing to
/// migrate (no table, already four columns, or a table we cannot map, which stays verbatim).
pub fn migrate(text: &str) -> Option<String> {
    let lines = markdown::scan(text);
    let t = tables(&lines).into_iter().next()?;
    let identifiable = t.cols.code.is_some() || t.cols.session.is_some();
    if !t.cols.legacy || !identifiable || t.cols.state.is_none() {
        return None;
    }
    let mut out: Vec<String> = lines[..t.header]
        .iter()
        .map(|l| l.text.to_owned())
        .collect();
    out.push(HEADER.to_owned());
    out.push(SEPARATOR.to_owned());
    for &j in &t.rows {
        let mut r = logical(&t.cols, lines[j].text);
        if r.refs.is_empty() {
            r.refs = "—".to_owned();
        }
        out.push(r.render());
    }
    out.extend(lines[t.end..].iter().map(|l| l.text.to_owned()));
    Some(join(out, text))
}

fn join(lines: Vec<String>, original: &str) -> String {
    let eol = if original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    lines.join(eol)
}

/// Upserts the row of session `code` (key `row.key`) into `text` (`None`: the file does not
/// exist yet). Migrates a legacy table first.
pub fn upsert(text: Option<&str>, code: &str, row: &Row) -> Upserted {
    let original = text.map(str::to_owned).unwrap_or_else(template);
    let migrated_text = migrate(&original);
    let migrated = migrated_text.is_some();
    let base = migrated_text.unwrap_or(original);
    let lines = markdown::scan(&base);
    let table = tables(&lines).into_iter().find(|t| !t.cols.legacy);
    let rendered = row.render();
    let mut out: Vec<String> = lines.iter().map(|l| l.text.to_owned()).collect();
    let action = match table {
        Some(t) => {
            let hit = t
                .rows
                .iter()
                .copied()
                .find(|&j| key_matches(&logical(&t.cols, lines[j].text).key, code, &row.key));
            match hit {
                Some(j) if lines[j].text == rendered => Upsert::Unchanged,
                Some(j) => {
                    out[j] = rendered;
                    Upsert::Updated
                }
                None => {
                    out.insert(t.end, rendered);
                    Upsert::Added
                }
            }
        }
        None => {
            // No four-column table (an empty file, or only an unmappable legacy one): start ours
            // at the end.
            while out.last().is_some_and(|l| l.trim().is_empty()) {
                out.pop();
            }
            if !out.is_empty() {
                out.push(String::new());
            }
            out.extend([
                HEADER.to_owned(),
                SEPARATOR.to_owned(),
                rendered,
                String::new(),
            ]);
            Upsert::Added
        }
    };
    Upserted {
        text: join(out, &base),
        action,
        migrated,
    }
}

/// A session's date, as listings and rows show it: the `Start date:` its document declares, else
/// the date of its HISTORY row (`history`: HISTORY.md's rows, read once by the caller), else
/// `today`. Never the folder's modification time, which moves whenever anything in the folder
/// changes.
pub fn session_date(
    folder: &str,
    declared: Option<&str>,
    history: Option<&Dates>,
    today: &str,
) -> String {
    if let Some(d) = declared {
        return d.to_owned();
    }
    let id = identity(folder);
    let key = row_key(&id.code, Some(&id.name));
    history
        .and_then(|h| h.get(&id.code, &key))
        .unwrap_or(today)
        .to_owned()
}

/// What `history-update` asks of a session's row (values already checked).
#[derive(Debug, Clone, Copy)]
pub struct RowRequest<'a> {
    /// The row's state.
    pub state: SessionState,
    /// The row's date; else the session's date, else `today`.
    pub date: Option<&'a str>,
    /// The name to put in the row key instead of the session's.
    pub name: Option<&'a str>,
    /// The Refs cell's new references.
    pub refs: Option<&'a str>,
    /// Today's local date, `YYYY-MM-DD`.
    pub today: &'a str,
}

/// The row `history-update` writes for the session in `folder` (whose date is `session_date`,
/// see [`session_date`]), and the code it is keyed by: the key is the session's code and name
/// (the request's name replaces the name), the date is the request's, else the session's, else
/// today; the Refs cell merges the request's refs into the row's.
pub fn updated_row(
    current: Option<&str>,
    folder: &str,
    session_date: &str,
    req: &RowRequest<'_>,
) -> (String, Row) {
    let id = identity(folder);
    let key = row_key(&id.code, Some(req.name.unwrap_or(&id.name)));
    let row = Row {
        refs: refs_cell(current, &id.code, &key, req.refs),
        key,
        date: req
            .date
            .or(Some(session_date))
            .filter(|d| !d.is_empty())
            .unwrap_or(req.today)
            .to_owned(),
        state: req.state.as_str().to_owned(),
    };
    (id.code, row)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEGACY: &str = "# QTC Session History\n\n\
        | # | Flujo | Sesión | Fecha | Estado | Resumen | Refs |\n\
        |---|-------|--------|-------|--------|---------|------|\n\
        | 001 | dev | foo | 2026-01-01 | active | Implementar foo | — |\n\
        | 002 | analyze | bar | 2026-01-02 | active | Analizar bar | |\n\
        | 003 | dev | baz | 2026-01-03 | closed | Hecho | [DEC](x) |\n\n\
        Notes below stay.\n";

    fn row(key: &str, state: &str, refs: &str) -> Row {
        Row {
            key: key.into(),
            date: "2026-01-01".into(),
            state: state.into(),
            refs: render_refs(refs),
        }
    }

    #[test]
    fn keys() {
        assert_eq!(row_key("001", Some("dev-foo")), "001-dev-foo");
        assert_eq!(row_key("session001", Some("dev-foo")), "001-dev-foo");
        assert_eq!(row_key("004-login", Some("004-login")), "004-login");
        assert_eq!(row_key("001", Some("001-x")), "001");
        assert_eq!(row_key("777", None), "777");
    }

    #[test]
    fn refs_table() {
        assert_eq!(render_refs(""), "—");
        assert_eq!(render_refs(" , "), "—");
        assert_eq!(
            render_refs("plan:003-plan-x,https://x.y/z, free text"),
            "[PLAN](../docs/planes/003-plan-x.md), https://x.y/z, free text"
        );
        assert_eq!(render_refs("dec:001"), "[DEC](../docs/decisiones/001.md)");
        assert_eq!(render_refs("decision:a"), "[DEC](../docs/decisiones/a.md)");
        assert_eq!(render_refs("sql:s"), "[SQL](../docs/scripts/s/)");
        assert_eq!(render_refs("scripts:s"), "[SQL](../docs/scripts/s/)");
        assert_eq!(
            render_refs("conclusions:c"),
            "[CONCLUSION](../docs/conclusiones/c.md)"
        );
        assert_eq!(render_refs("manuales:m"), "[MANUAL](../docs/manuales/m.md)");
        assert_eq!(
            render_refs("especificacion:e"),
            "[ESPECIFICACION](../docs/especificaciones/e/)"
        );
        assert_eq!(render_refs("release:r"), "[RELEASE](../docs/release/r.md)");
        assert_eq!(render_refs("jira:ABC-1"), "[JIRA](ABC-1)");
        assert_eq!(
            render_refs("see docs/decisiones/001-foo.md"),
            "see docs/decisiones/001-foo.md"
        );
    }

    #[test]
    fn creates_then_adds_updates_and_keeps() {
        let r = upsert(None, "004-x", &row("004-x", "active", ""));
        assert_eq!(r.action, Upsert::Added);
        assert_eq!(
            r.text,
            format!("{TITLE}\n\n{HEADER}\n{SEPARATOR}\n| 004-x | 2026-01-01 | active | — |\n")
        );
        let same = upsert(Some(&r.text), "004-x", &row("004-x", "active", ""));
        assert_eq!(
            (same.action, same.text == r.text),
            (Upsert::Unchanged, true)
        );
        let closed = upsert(Some(&r.text), "004-x", &row("004-x", "closed", "dec:1"));
        assert_eq!(closed.action, Upsert::Updated);
        assert!(
            closed
                .text
                .contains("| 004-x | 2026-01-01 | closed | [DEC](../docs/decisiones/1.md) |")
        );
        let other = upsert(
            Some(&closed.text),
            "004-x-more",
            &row("004-x-more", "active", ""),
        );
        assert_eq!(
            other.action,
            Upsert::Added,
            "a folder prefix is another session"
        );
        assert_eq!(rows(&other.text).len(), 2);
    }

    #[test]
    fn migrates_the_legacy_table() {
        let r = upsert(Some(LEGACY), "001", &row("001-dev-foo", "closed", ""));
        assert!(r.migrated);
        assert_eq!(r.action, Upsert::Updated);
        assert_eq!(
            r.text,
            format!(
                "# QTC Session History\n\n{HEADER}\n{SEPARATOR}\n\
                 | 001-dev-foo | 2026-01-01 | closed | — |\n\
                 | 002-bar | 2026-01-02 | active | — |\n\
                 | 003-baz | 2026-01-03 | closed | [DEC](x) |\n\nNotes below stay.\n"
            )
        );
        assert_eq!(
            Dates::of(LEGACY).get("002", "002-analyze-bar"),
            Some("2026-01-02")
        );
        let keys: Vec<_> = rows(LEGACY).into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["001-foo", "002-bar", "003-baz"]);
    }

    #[test]
    fn migrates_a_six_column_table_by_header_names() {
        let six = "| # | Sesión | Fecha | Estado | Resumen | Refs |\n|---|---|---|---|---|---|\n\
                   | 004 | 004-already | 2026-01-04 | active | s | r |\n| 005 | x | 2026-01-05 | closed | s | |\n";
        let out = migrate(six).unwrap();
        assert_eq!(
            out,
            format!(
                "{HEADER}\n{SEPARATOR}\n| 004-already | 2026-01-04 | active | r |\n| 005-x | 2026-01-05 | closed | — |\n"
            )
        );
        assert_eq!(migrate(&out), None, "a migrated table stays as it is");
    }

    #[test]
    fn spanish_header_is_upserted_in_place() {
        let es = "# Session History\r\n\r\n| Sesión | Fecha | Estado | Refs |\r\n|---|---|---|---|\r\n| 777 | 2026-01-01 | active | — |\r\n";
        let r = upsert(Some(es), "777", &row("777", "closed", ""));
        assert_eq!(r.action, Upsert::Updated);
        assert!(!r.migrated);
        assert!(r.text.contains("| Sesión | Fecha | Estado | Refs |\r\n"));
        assert!(r.text.contains("| 777 | 2026-01-01 | closed | — |\r\n"));
    }

    #[test]
    fn unmappable_legacy_table_stays_and_ours_is_appended() {
        let odd = "| # | Flujo |\n|---|---|\n| 1 | x |\n";
        assert_eq!(migrate(odd), None);
        let r = upsert(Some(odd), "001", &row("001-a", "active", ""));
        assert!(r.text.starts_with(odd));
        assert!(r.text.ends_with(&format!(
            "{HEADER}\n{SEPARATOR}\n| 001-a | 2026-01-01 | active | — |\n"
        )));
    }

    #[test]
    fn refs_are_kept_unless_given() {
        let t = upsert(None, "001", &row("001-a", "active", "dec:1")).text;
        assert_eq!(
            refs_cell(Some(&t), "001", "001-a", None),
            "[DEC](../docs/decisiones/1.md)"
        );
        assert_eq!(refs_cell(Some(&t), "001", "001-a", Some("x")), "x");
        assert_eq!(refs_cell(None, "001", "001-a", None), "—");
    }

    #[test]
    fn cells_escape_pipes() {
        let r = Row {
            key: "a|b".into(),
            date: "d".into(),
            state: "s".into(),
            refs: "x\ny".into(),
        };
        assert_eq!(r.render(), "| a\\|b | d | s | x y |");
        assert_eq!(cells(&r.render()), ["a\\|b", "d", "s", "x y"]);
    }

    #[test]
    fn a_session_date_is_declared_else_recorded_else_today() {
        let text = "| Session | Date | State | Refs |\n|---|---|---|---|\n| 001-a | 2026-01-02 | active | — |\n";
        let h = &Dates::of(text);
        assert_eq!(
            session_date("001-a", Some("2026-03-04"), Some(h), "2026-05-06"),
            "2026-03-04"
        );
        assert_eq!(
            session_date("001-a", None, Some(h), "2026-05-06"),
            "2026-01-02"
        );
        assert_eq!(
            session_date("002-b", None, Some(h), "2026-05-06"),
            "2026-05-06"
        );
        assert_eq!(
            session_date("001-a", None, None, "2026-05-06"),
            "2026-05-06"
        );
    }

    #[test]
    fn the_date_lookup_answers_what_a_scan_of_the_rows_would() {
        let text = "| Session | Date | State | Refs |\n|---|---|---|---|\n\
            | 007-b | 2026-01-01 | active | — |\n\
            | 007 | 2026-01-02 | active | — |\n\
            | 007-a | 2026-01-03 | closed | — |\n\
            | 008-x | | closed | — |\n\
            | 008-x | 2026-01-05 | closed | — |\n\
            | 009-login-quick | 2026-01-06 | closed | — |\n\
            | 009-login-quick-2 | 2026-01-07 | closed | — |\n\
            | abc-x | 2026-01-08 | closed | — |\n\
            | 0x-1 | 2026-01-09 | closed | — |\n";
        let dates = Dates::of(text);
        let scan = |code: &str, key: &str| {
            rows(text)
                .into_iter()
                .find(|r| key_matches(&r.key, code, key))
                .map(|r| r.date)
                .filter(|d| !d.is_empty())
        };
        for (code, key) in [
            ("007", "007-a"),
            ("session007", "007-a"),
            ("007", "007-zzz"),
            ("007-a", "007-a"),
            ("008", "008-x"),
            ("008-x", "008-x"),
            ("009-login-quick", "009-login-quick"),
            ("009-login-quick-2", "009-login-quick-2"),
            ("009", "009-other"),
            ("abc-x", "abc-x"),
            ("abc", "abc-x"),
            ("0x", "0x-1"),
            ("010", "010-none"),
            ("", ""),
        ] {
            assert_eq!(
                dates.get(code, key).map(str::to_owned),
                scan(code, key),
                "{code} {key}"
            );
        }
    }

    #[test]
    fn an_updated_row_takes_the_given_date_else_the_sessions() {
        let id = identity("001-login-quick");
        let ask = RowRequest {
            state: SessionState::Active,
            date: None,
            name: None,
            refs: None,
            today: "2026-05-06",
        };
        let (code, row) = updated_row(None, "001-login-quick", "2026-03-04", &ask);
        assert_eq!(
            (code.as_str(), row.date.as_str(), row.state.as_str()),
            (id.code.as_str(), "2026-03-04", "active")
        );
        assert_eq!(row.key, row_key(&id.code, Some(&id.name)));
        let renamed_ask = RowRequest {
            name: Some("other"),
            date: Some("2026-07-08"),
            ..ask
        };
        let (_, renamed) = updated_row(None, "001-login-quick", "2026-03-04", &renamed_ask);
        assert_eq!(
            (renamed.key, renamed.date),
            (row_key(&id.code, Some("other")), "2026-07-08".to_owned())
        );
        let (_, undated) = updated_row(None, "001-login-quick", "", &ask);
        assert_eq!(undated.date, "2026-05-06");
    }
}
