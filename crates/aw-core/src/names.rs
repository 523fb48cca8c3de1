//! Grammars of the names aw accepts from users and agents.

/// `^[a-z][a-z0-9-]{1,30}$`: a namespace selects `.<ns>/`, `~/.<ns>/` and the block markers.
pub fn is_valid_namespace(s: &str) -> bool {
    let b = s.as_bytes();
    (2..=31).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespace_grammar() {
        for ok in ["workflow", "ab", "a-1", &format!("a{}", "b".repeat(30))] {
            assert!(is_valid_namespace(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "1ab",
            "Ab",
            "a_b",
            "a/b",
            "..",
            &format!("a{}", "b".repeat(31)),
        ] {
            assert!(!is_valid_namespace(bad), "{bad}");
        }
    }
}
