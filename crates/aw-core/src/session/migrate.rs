//! `aw workspace-migrate`'s second migration: legacy session folders (`session<NNN>-<name>`)
//! reconciled with HISTORY.md, which indexes sessions by number. A folder with no row gets one
//! (its state read from its `.closed`); a folder whose row says closed gets its missing
//! `.closed`; anything that cannot be settled without a guess (a number two folders share, a
//! state the row does not spell, a row that says active over a folder that is closed) is left
//! as a conflict. Current folders (`NNN-<name>`) are never touched.

use super::history::Row;

/// Why a legacy folder is left untouched. The ids are the reference's wire values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionConflict {
    /// Another folder carries the same number.
    SharedNumber,
    /// The row's state is neither `active` nor `closed`.
    UnreadableState,
    /// The row says active and the folder is closed.
    DivergentState,
}

impl SessionConflict {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionConflict::SharedNumber => "numero_compartido",
            SessionConflict::UnreadableState => "estado_ilegible",
            SessionConflict::DivergentState => "estado_divergente",
        }
    }
}

/// A legacy folder as the shell read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyFolder {
    /// `session<NNN>-<name>`.
    pub folder: String,
    /// Whether it holds `.closed`.
    pub closed: bool,
    /// The date its document declares, else its custody's `created`.
    pub date: Option<String>,
}

/// What the migration does to the session series.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionPlan {
    /// Folders that get an empty `.closed`, with their row's date.
    pub sentinels: Vec<(String, String)>,
    /// Folders that get a HISTORY row: `(folder, row)`.
    pub rows: Vec<(String, Row)>,
    /// Folders left untouched: `(folder, why, detail)`.
    pub conflicts: Vec<(String, SessionConflict, String)>,
}

/// `session<NNN>-<name>` as its number and name (`NNN` three digits or more).
pub fn legacy_parts(folder: &str) -> Option<(&str, &str)> {
    let rest = folder.strip_prefix("session")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits < 3 || rest.as_bytes().get(digits) != Some(&b'-') || rest.len() == digits + 1 {
        return None;
    }
    Some((&rest[..digits], &rest[digits + 1..]))
}

/// The number a folder (either layout) or a row key starts with, as a value.
fn numeric(text: &str) -> Option<u128> {
    let rest = text.strip_prefix("session").unwrap_or(text);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Plans the session migration: `legacy` are the legacy folders, `all` every session folder's
/// name (both layouts), `rows` HISTORY.md's first table.
pub fn plan(legacy: &[LegacyFolder], all: &[String], rows: &[Row]) -> SessionPlan {
    let mut out = SessionPlan::default();
    for f in legacy {
        let Some((number, name)) = legacy_parts(&f.folder) else {
            continue;
        };
        let value = numeric(number);
        let sharing: Vec<&String> = all.iter().filter(|other| numeric(other) == value).collect();
        if sharing.len() > 1 {
            let mut names: Vec<&str> = sharing.iter().map(|s| s.as_str()).collect();
            names.sort_unstable();
            out.conflicts.push((
                f.folder.clone(),
                SessionConflict::SharedNumber,
                format!(
                    "{} folders carry the number {number} ({}), and HISTORY.md keys its rows by \
                     number: rename the legacy one to the current model (`NNN-<slug>`) and run \
                     the migration again",
                    names.len(),
                    names.join(", ")
                ),
            ));
            continue;
        }
        let row = rows.iter().find(|r| numeric(&r.key) == value);
        match row {
            None => out.rows.push((
                f.folder.clone(),
                Row {
                    key: format!("{number}-{name}"),
                    date: f.date.clone().unwrap_or_else(|| "—".to_owned()),
                    state: if f.closed { "closed" } else { "active" }.to_owned(),
                    refs: "—".to_owned(),
                },
            )),
            Some(r) => match (r.state.as_str(), f.closed) {
                ("active", false) | ("closed", true) => {}
                ("active", true) => out.conflicts.push((
                    f.folder.clone(),
                    SessionConflict::DivergentState,
                    "HISTORY.md says it is active and the folder holds `.closed`: which of the \
                     two fell behind is not guessed; fix one of them by hand"
                        .to_owned(),
                )),
                ("closed", false) => out.sentinels.push((f.folder.clone(), r.date.clone())),
                (other, _) => out.conflicts.push((
                    f.folder.clone(),
                    SessionConflict::UnreadableState,
                    format!(
                        "its HISTORY.md row gives the state '{other}', which is neither active \
                         nor closed: set it by hand"
                    ),
                )),
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legacy(folder: &str, closed: bool, date: Option<&str>) -> LegacyFolder {
        LegacyFolder {
            folder: folder.to_owned(),
            closed,
            date: date.map(str::to_owned),
        }
    }

    fn row(key: &str, date: &str, state: &str) -> Row {
        Row {
            key: key.to_owned(),
            date: date.to_owned(),
            state: state.to_owned(),
            refs: "—".to_owned(),
        }
    }

    #[test]
    fn the_worked_example_of_the_spec() {
        let folders = [
            legacy("session001-alpha", false, Some("2025-02-01")),
            legacy("session002-beta", false, Some("2025-02-02")),
            legacy("session003-gamma", true, None),
            legacy("session004-delta", false, None),
        ];
        let all: Vec<String> = folders
            .iter()
            .map(|f| f.folder.clone())
            .chain(["004-new-quick".to_owned(), "005-current-quick".to_owned()])
            .collect();
        let rows = [
            row("001-alpha", "2025-02-01", "closed"),
            row("003-gamma", "2025-02-03", "active"),
        ];
        let p = plan(&folders, &all, &rows);
        assert_eq!(
            p.sentinels,
            [("session001-alpha".to_owned(), "2025-02-01".to_owned())]
        );
        assert_eq!(p.rows.len(), 1);
        assert_eq!(p.rows[0].0, "session002-beta");
        assert_eq!(p.rows[0].1, row("002-beta", "2025-02-02", "active"));
        let why: Vec<(&str, &str)> = p
            .conflicts
            .iter()
            .map(|(f, c, _)| (f.as_str(), c.as_str()))
            .collect();
        assert_eq!(
            why,
            [
                ("session003-gamma", "estado_divergente"),
                ("session004-delta", "numero_compartido")
            ]
        );
    }

    #[test]
    fn a_row_with_no_date_gets_a_dash_and_an_odd_state_is_a_conflict() {
        let p = plan(
            &[
                legacy("session007-x", true, None),
                legacy("session008-y", false, None),
            ],
            &["session007-x".to_owned(), "session008-y".to_owned()],
            &[row("008", "2025-01-01", "paused")],
        );
        assert_eq!(p.rows[0].1, row("007-x", "—", "closed"));
        assert_eq!(p.conflicts[0].1, SessionConflict::UnreadableState);
        assert_eq!(legacy_parts("session12-x"), None);
        assert_eq!(legacy_parts("session1000-x"), Some(("1000", "x")));
        assert_eq!(legacy_parts("001-x"), None);
    }
}
