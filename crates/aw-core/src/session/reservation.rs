//! Numbering reservations: a document slot (`docs/<kind>/NNN-<rest>`) claimed for a session.
//!
//! A reserved file holds exactly one marker line, `<!-- aw:reserva <session-folder> -->`, until
//! its owner writes real content. That is the reference's (v22) marker, byte for byte, so a slot
//! claimed by either tool is re-claimed and released by the other. Earlier aw releases wrote
//! `<!-- aw:reservation <session-folder> -->`; that spelling is still recognised (re-claimed and
//! released), never written. `session-close` releases the files of the closed session whose
//! bytes are still exactly a marker.

/// The marker aw writes into a slot reserved for `folder`: the reference's bytes.
pub fn marker(folder: &str) -> String {
    format!("<!-- aw:reserva {folder} -->\n")
}

/// The session that owns a slot, if `bytes` are exactly a reservation marker (the reference's,
/// or the one older aw releases wrote).
pub fn owner(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    let inner = text.strip_prefix("<!-- aw:")?.strip_suffix(" -->\n")?;
    let folder = inner
        .strip_prefix("reservation ")
        .or_else(|| inner.strip_prefix("reserva "))?;
    let one_component =
        !folder.is_empty() && !folder.contains(['/', '\\', '\n', '\r']) && !folder.contains(" -->");
    one_component.then_some(folder)
}

/// Whether `rest` may follow `NNN-` in a claimed file name: one path component, no `..`, no
/// control characters.
pub fn is_valid_rest(rest: &str) -> bool {
    !rest.is_empty()
        && rest.len() <= 200
        && !rest.contains(['/', '\\'])
        && !rest.contains("..")
        && !rest.starts_with('.')
        && !rest.chars().any(char::is_control)
}

/// The claimed name for number `padded` (already zero-padded).
pub fn claimed_name(padded: &str, rest: &str) -> String {
    format!("{padded}-{rest}")
}

/// The `rest` of a numbered name (`NNN-<rest>` → `<rest>`), if it has the correlative shape.
pub fn rest_of(name: &str) -> Option<&str> {
    crate::vocab::correlative::Correlative::of_name(name)?;
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    name.get(digits + 1..)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_in_both_spellings() {
        // v22's exact bytes (34 for this folder, as observed).
        assert_eq!(
            marker("002-two-quick"),
            "<!-- aw:reserva 002-two-quick -->\n"
        );
        assert_eq!(marker("002-two-quick").len(), 34);
        assert_eq!(owner(marker("004-x").as_bytes()), Some("004-x"));
        assert_eq!(owner(b"<!-- aw:reservation 004-x -->\n"), Some("004-x"));
        for not in [
            &b"<!-- aw:reservation 004-x -->"[..],
            b"<!-- aw:reservation 004-x -->\nmore",
            b"<!-- aw:reservation  -->\n",
            b"<!-- aw:reservation a/b -->\n",
            b"# Spec",
        ] {
            assert_eq!(owner(not), None);
        }
    }

    #[test]
    fn rest_grammar() {
        assert!(is_valid_rest("spec-login.md"));
        for bad in ["", "a/b", "..", "a\\b", ".x", "a\nb"] {
            assert!(!is_valid_rest(bad), "{bad:?}");
        }
        assert_eq!(claimed_name("007", "spec-x.md"), "007-spec-x.md");
        assert_eq!(rest_of("007-spec-x.md"), Some("spec-x.md"));
        assert_eq!(rest_of("007"), None);
        assert_eq!(rest_of("07-x"), None);
    }
}
