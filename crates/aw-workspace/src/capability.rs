//! Reading a capability descriptor from disk: a descriptor file, or a skill folder whose
//! SKILL.md seals one with its `metadata.workline-capability-descriptor` locator (§4.3). The
//! rules are aw-core's; this module only reads the bytes they judge.

use crate::error::{Result, WorkspaceError};
use crate::folder::read_regular_path;
use aw_core::capability::descriptor::Descriptor;
use aw_core::capability::locator::{self, METADATA_KEY, parse_json};
use aw_core::capability::validate::{Failure, validate};
use aw_core::error_code::ErrorCode;
use std::path::Path;

/// A descriptor, or every failure found in it.
pub type Checked = std::result::Result<Descriptor, Vec<Failure>>;

fn read(path: &Path, what: &'static str) -> Result<Vec<u8>> {
    read_regular_path(path).map_err(|source| WorkspaceError::Io {
        what,
        path: path.to_path_buf(),
        source,
    })
}

/// Bytes as text; bytes that are not UTF-8 are not JSON either.
fn text(bytes: Vec<u8>, artifact: &str) -> std::result::Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| Failure {
        code: ErrorCode::CapabilityDescriptorNotJson,
        artifact: artifact.to_owned(),
        path: String::new(),
        message: format!("the descriptor is not UTF-8 text: {e}"),
        action: "publish the descriptor as UTF-8 JSON".to_owned(),
    })
}

/// Checks the descriptor at `path`: a folder is a skill folder (its SKILL.md locator names and
/// seals the descriptor), anything else a descriptor file. `shown` is how failures name `path`.
/// An unreadable file is an I/O error; everything about the contents is a failure.
pub fn check_descriptor(path: &Path, shown: &str) -> Result<Checked> {
    if path.is_dir() {
        return check_skill_dir(path, shown);
    }
    let bytes = read(path, "cannot read the descriptor")?;
    let checked = text(bytes, shown)
        .and_then(|t| parse_json(&t, shown))
        .map_err(|f| vec![f])
        .and_then(|value| validate(&value, shown));
    Ok(checked)
}

fn check_skill_dir(dir: &Path, shown: &str) -> Result<Checked> {
    let skill_md_shown = format!("{}/SKILL.md", shown.trim_end_matches('/'));
    let skill_md = read(&dir.join("SKILL.md"), "cannot read the skill's SKILL.md")?;
    let skill_md = String::from_utf8_lossy(&skill_md);
    let raw = aw_manifest::skill_md_metadata(&skill_md, METADATA_KEY);
    let loc = match locator::parse(raw.as_deref(), &skill_md_shown) {
        Ok(loc) => loc,
        Err(f) => return Ok(Err(vec![f])),
    };
    let artifact = format!("{}/{}", shown.trim_end_matches('/'), loc.path);
    // The locator's path is safe-relative (no `..`, not absolute), so it stays in the folder.
    let bytes = read(&dir.join(&loc.path), "cannot read the sealed descriptor")?;
    Ok(text(bytes, &artifact)
        .map_err(|f| vec![f])
        .and_then(|t| locator::verify_payload_all(&loc, &t, &artifact)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::canonical::sha256_hex;
    use aw_core::capability::builtin::DESIGN_DESCRIPTOR_JSON;

    fn skill(dir: &Path, locator: &str, descriptor: &str) {
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: design\nmetadata:\n  {METADATA_KEY}: \"{locator}\"\n---\n"),
        )
        .unwrap();
        std::fs::write(dir.join("workline-capability.json"), descriptor).unwrap();
    }

    #[test]
    fn a_file_and_a_sealed_skill_dir_both_validate() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("d.json");
        std::fs::write(&file, DESIGN_DESCRIPTOR_JSON).unwrap();
        assert_eq!(
            check_descriptor(&file, "d.json").unwrap().unwrap().name,
            "design"
        );
        let digest = sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes());
        skill(
            t.path(),
            &format!("workline-capability.json#sha256={digest}"),
            DESIGN_DESCRIPTOR_JSON,
        );
        assert_eq!(
            check_descriptor(t.path(), "s").unwrap().unwrap().name,
            "design"
        );
    }

    #[test]
    fn skill_dir_failures_name_their_file() {
        let t = tempfile::tempdir().unwrap();
        skill(t.path(), "../x.json#sha256=00", DESIGN_DESCRIPTOR_JSON);
        let f = check_descriptor(t.path(), "s").unwrap().unwrap_err();
        assert_eq!(
            (f[0].code, f[0].artifact.as_str()),
            (ErrorCode::CapabilityLocatorInvalid, "s/SKILL.md")
        );
        skill(
            t.path(),
            &format!("workline-capability.json#sha256={}", "0".repeat(64)),
            DESIGN_DESCRIPTOR_JSON,
        );
        let f = check_descriptor(t.path(), "s").unwrap().unwrap_err();
        assert_eq!(
            (f[0].code, f[0].artifact.as_str()),
            (
                ErrorCode::CapabilityDescriptorDigestMismatch,
                "s/workline-capability.json"
            )
        );
    }

    #[test]
    fn bytes_that_are_not_json_or_not_utf8_are_not_json() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("d.json");
        for bytes in [&b"{"[..], &b"\xff\xfe"[..]] {
            std::fs::write(&file, bytes).unwrap();
            let f = check_descriptor(&file, "d.json").unwrap().unwrap_err();
            assert_eq!(f[0].code, ErrorCode::CapabilityDescriptorNotJson);
        }
        assert!(check_descriptor(&t.path().join("nope.json"), "nope.json").is_err());
    }
}
