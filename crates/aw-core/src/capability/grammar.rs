//! The capability grammars (§4.1): every name, identifier, schema id and digest a descriptor or a
//! locator carries is checked against one of these, and every `pattern` of the published schema
//! embeds one of their fragments (a drift-guard test holds the schema to that).

use regex::Regex;
use std::sync::LazyLock;

/// A capability or skill name: lowercase words joined by single hyphens.
pub const NAME: &str = "[a-z][a-z0-9]*(?:-[a-z0-9]+)*";
/// An operation or input identifier.
pub const IDENTIFIER: &str = "[a-z][a-z0-9_]*";
/// A canonical format id such as `workline.design-baseline/v1`.
pub const SCHEMA_ID: &str = "[a-z][a-z0-9.-]*/v[1-9][0-9]*";
/// A sealed SHA-256 digest: 64 lowercase hex digits (uppercase is refused).
pub const DIGEST: &str = "[0-9a-f]{64}";

/// Every fragment, for the drift guard over the schema's patterns.
pub const FRAGMENTS: [&str; 4] = [NAME, IDENTIFIER, SCHEMA_ID, DIGEST];

/// One grammar, matched against a whole string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// [`NAME`].
    Name,
    /// [`IDENTIFIER`].
    Identifier,
    /// [`SCHEMA_ID`].
    SchemaId,
    /// [`DIGEST`].
    Digest,
}

/// Anchored, ASCII-only (`(?-u)`): a non-ASCII letter never passes for `[a-z]`.
fn anchored(fragment: &str) -> Option<Regex> {
    Regex::new(&format!("(?-u)^(?:{fragment})$")).ok()
}

static COMPILED: LazyLock<[Option<Regex>; 4]> = LazyLock::new(|| FRAGMENTS.map(anchored));

impl Grammar {
    /// The unanchored fragment.
    pub fn fragment(self) -> &'static str {
        FRAGMENTS[self as usize]
    }

    /// Whether the whole of `s` matches. The patterns are constants compiled once; a test
    /// proves they compile, so `None` (never seen) reads as "no match".
    pub fn matches(self, s: &str) -> bool {
        COMPILED[self as usize]
            .as_ref()
            .is_some_and(|re| re.is_match(s))
    }

    /// What the grammar accepts, for an action.
    pub fn describe(self) -> &'static str {
        match self {
            Grammar::Name => {
                "lowercase letters and digits in words joined by single hyphens, starting with a letter"
            }
            Grammar::Identifier => {
                "lowercase letters, digits and underscores, starting with a letter"
            }
            Grammar::SchemaId => "a format id like `workline.design-baseline/v1`",
            Grammar::Digest => "64 lowercase hexadecimal digits",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert!(COMPILED.iter().all(Option::is_some));
    }

    #[test]
    fn names() {
        for ok in ["design", "acme-design-lab", "a1", "x-2"] {
            assert!(Grammar::Name.matches(ok), "{ok}");
        }
        for bad in [
            "", "Design", "-a", "a-", "a--b", "a_b", "1a", "dés", "a\n", " a",
        ] {
            assert!(!Grammar::Name.matches(bad), "{bad:?}");
        }
    }

    #[test]
    fn identifiers() {
        assert!(Grammar::Identifier.matches("consumer_document"));
        for bad in ["", "Create", "_a", "a-b", "1a", "a b", "ñ"] {
            assert!(!Grammar::Identifier.matches(bad), "{bad:?}");
        }
    }

    #[test]
    fn schema_ids() {
        assert!(Grammar::SchemaId.matches("workline.design-baseline/v1"));
        assert!(Grammar::SchemaId.matches("a/v10"));
        for bad in ["", "a/v0", "a/v01", "A/v1", "a/1", "a/v1 ", "/v1"] {
            assert!(!Grammar::SchemaId.matches(bad), "{bad:?}");
        }
    }

    #[test]
    fn digests() {
        assert!(Grammar::Digest.matches(&"0a".repeat(32)));
        assert!(!Grammar::Digest.matches(&"0A".repeat(32)));
        assert!(!Grammar::Digest.matches(&"0".repeat(63)));
        assert!(!Grammar::Digest.matches(&"0".repeat(65)));
    }
}
