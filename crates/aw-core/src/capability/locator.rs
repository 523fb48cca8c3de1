//! The descriptor locator (§4.3): the SKILL.md frontmatter `metadata` value that says where an
//! installed skill's descriptor is and seals its bytes, and the check of those bytes.

use super::descriptor::Descriptor;
use super::grammar::DIGEST;
use super::paths::unsafe_relative;
use super::validate::{Failure, validate};
use crate::canonical::sha256_hex;
use crate::error_code::ErrorCode;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

/// The SKILL.md frontmatter `metadata` key that holds the locator.
pub const METADATA_KEY: &str = "workline-capability-descriptor";

/// A parsed locator: exactly these two fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Locator {
    /// The descriptor's path, relative to the skill folder, ending in `.json`.
    pub path: String,
    /// The sealed SHA-256 of the descriptor's bytes (lowercase hex).
    pub digest: String,
}

impl Locator {
    /// The locator's text, as written in SKILL.md.
    pub fn value(&self) -> String {
        format!("{}#sha256={}", self.path, self.digest)
    }
}

static SEALED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        // JavaScript's `.`: any character but a line break (\n, \r, U+2028, U+2029).
        "^([^\n\r\u{2028}\u{2029}]+)#sha256=({DIGEST})$"
    ))
    .ok()
});

const SHAPE: &str = "<relative path>.json#sha256=<64 lowercase hex digits>";

fn invalid(artifact: &str, message: String) -> Failure {
    Failure {
        code: ErrorCode::CapabilityLocatorInvalid,
        artifact: artifact.to_owned(),
        path: format!("metadata.{METADATA_KEY}"),
        message,
        action: format!(
            "write metadata.{METADATA_KEY} as \"{SHAPE}\", the path inside the skill folder and the SHA-256 of the descriptor's bytes"
        ),
    }
}

/// Parses a locator read from `artifact` (`None` when the key is absent or not a string).
pub fn parse(raw: Option<&str>, artifact: &str) -> Result<Locator, Failure> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Err(invalid(
            artifact,
            "the descriptor locator is missing or blank".to_owned(),
        ));
    };
    let Some(caps) = SEALED.as_ref().and_then(|re| re.captures(raw)) else {
        return Err(invalid(
            artifact,
            format!("the descriptor locator '{raw}' is not sealed with a lowercase sha256 digest"),
        ));
    };
    let (path, digest) = (caps[1].trim(), &caps[2]);
    if let Some(why) = unsafe_relative(path) {
        return Err(invalid(
            artifact,
            format!("the descriptor path '{path}' {why}"),
        ));
    }
    if !path.ends_with(".json") {
        return Err(invalid(
            artifact,
            format!("the descriptor path '{path}' does not end in .json"),
        ));
    }
    Ok(Locator {
        path: path.to_owned(),
        digest: digest.to_owned(),
    })
}

/// Checks descriptor bytes against a locator: the digest first, then JSON, then the validator,
/// whose first failure is the one reported (the reference's loader behaviour).
pub fn verify_payload(
    locator: &Locator,
    text: &str,
    artifact: &str,
) -> Result<Descriptor, Failure> {
    verify_payload_all(locator, text, artifact).map_err(|mut failures| failures.swap_remove(0))
}

/// [`verify_payload`] keeping every failure of the validator (never empty on `Err`), for a
/// report that names everything to fix.
pub fn verify_payload_all(
    locator: &Locator,
    text: &str,
    artifact: &str,
) -> Result<Descriptor, Vec<Failure>> {
    let actual = sha256_hex(text.as_bytes());
    if actual != locator.digest {
        return Err(vec![Failure {
            code: ErrorCode::CapabilityDescriptorDigestMismatch,
            artifact: artifact.to_owned(),
            path: String::new(),
            message: format!(
                "the descriptor's bytes hash to {actual}, not to the sealed {}",
                locator.digest
            ),
            action: format!(
                "reinstall the skill, or reseal metadata.{METADATA_KEY} with the descriptor's new sha256"
            ),
        }]);
    }
    let value = parse_json(text, artifact).map_err(|f| vec![f])?;
    validate(&value, artifact)
}

/// Descriptor text as JSON, or `CAPABILITY_DESCRIPTOR_NOT_JSON`. Read with the bounded reader
/// every JSON input goes through: deep nesting the reference parses is parsed too.
pub fn parse_json(text: &str, artifact: &str) -> Result<serde_json::Value, Failure> {
    aw_json::parse_bounded::<serde_json::Value>(text).map_err(|e| Failure {
        code: ErrorCode::CapabilityDescriptorNotJson,
        artifact: artifact.to_owned(),
        path: String::new(),
        message: format!("the descriptor is not JSON: {e}"),
        action: "publish the descriptor as one JSON object".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::builtin::DESIGN_DESCRIPTOR_JSON;

    fn hex() -> String {
        "ab".repeat(32)
    }

    #[test]
    fn the_locator_pattern_compiles() {
        assert!(SEALED.is_some());
    }

    #[test]
    fn a_sealed_relative_json_path_parses_to_path_and_digest() {
        let raw = format!("capability/workline-capability.json#sha256={}", hex());
        let loc = parse(Some(&format!("  {raw} ")), "SKILL.md").unwrap();
        assert_eq!(loc.path, "capability/workline-capability.json");
        assert_eq!(loc.digest, hex());
        assert_eq!(loc.value(), raw);
        let keys: Vec<String> = serde_json::to_value(&loc)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["path", "digest"]);
        assert_eq!(METADATA_KEY, "workline-capability-descriptor");
    }

    #[test]
    fn bad_locators_are_refused_with_an_action() {
        let h = hex();
        let cases = [
            format!("/abs/d.json#sha256={h}"),
            format!("C:/d.json#sha256={h}"),
            format!("../d.json#sha256={h}"),
            format!("a/../d.json#sha256={h}"),
            format!("./d.json#sha256={h}"),
            format!("a//d.json#sha256={h}"),
            format!("a\\d.json#sha256={h}"),
            "d.json".to_owned(),
            format!("d.json#sha256={}", &h[..63]),
            format!("d.json#sha256={}", h.to_uppercase()),
            format!("d.txt#sha256={h}"),
            format!("#sha256={h}"),
            format!(" #sha256={h}"),
            String::new(),
            "   ".to_owned(),
        ];
        for raw in cases {
            let f = parse(Some(&raw), "SKILL.md").unwrap_err();
            assert_eq!(f.code, ErrorCode::CapabilityLocatorInvalid, "{raw:?}");
            assert!(!f.action.trim().is_empty());
        }
        assert_eq!(
            parse(None, "SKILL.md").unwrap_err().code,
            ErrorCode::CapabilityLocatorInvalid
        );
    }

    fn sealed(text: &str) -> Locator {
        Locator {
            path: "workline-capability.json".to_owned(),
            digest: sha256_hex(text.as_bytes()),
        }
    }

    #[test]
    fn correctly_sealed_bytes_verify() {
        let d =
            verify_payload(&sealed(DESIGN_DESCRIPTOR_JSON), DESIGN_DESCRIPTOR_JSON, "x").unwrap();
        assert_eq!(d.name, "design");
    }

    #[test]
    fn the_digest_is_checked_before_json_and_json_before_the_rules() {
        // Not JSON and not sealed: the digest speaks first.
        let mut loc = sealed("{");
        loc.digest = "0".repeat(64);
        assert_eq!(
            verify_payload(&loc, "{", "x").unwrap_err().code,
            ErrorCode::CapabilityDescriptorDigestMismatch
        );
        // Sealed but not JSON.
        assert_eq!(
            verify_payload(&sealed("{"), "{", "x").unwrap_err().code,
            ErrorCode::CapabilityDescriptorNotJson
        );
        // Sealed JSON with several faults: only the first is reported.
        let text = r#"{"contract_version": 2, "extra": true}"#;
        let f = verify_payload(&sealed(text), text, "x").unwrap_err();
        assert_eq!(f.code, ErrorCode::CapabilityContractVersionUnsupported);
        let text = r#"{"contract_version": 1, "extra": true}"#;
        let f = verify_payload(&sealed(text), text, "x").unwrap_err();
        assert_eq!(f.code, ErrorCode::CapabilityKeyUnknown);
    }

    #[test]
    fn deep_nesting_is_parsed_and_judged_by_the_rules() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let text = format!("{{\"contract_version\": 1, \"x\": {deep}}}");
        let value = parse_json(&text, "d.json").expect("parsed");
        assert!(value["x"].is_array());
    }

    #[test]
    fn a_line_break_in_the_path_is_no_locator() {
        for brk in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            let raw = format!("a{brk}b.json#sha256={}", "0".repeat(64));
            assert!(parse(Some(&raw), "SKILL.md").is_err(), "{brk:?}");
        }
    }
}
