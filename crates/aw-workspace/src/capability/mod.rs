//! Reading a capability descriptor from disk: a descriptor file, or a skill folder whose
//! SKILL.md seals one with its `metadata.workline-capability-descriptor` locator (§4.3). The
//! rules are aw-core's; this module only reads the bytes they judge.

pub mod designs;
pub mod inventory;
pub mod skill_bindings;
pub mod skill_index;

use crate::error::{Result, WorkspaceError};
use crate::io::folder::read_regular_path;
use aw_core::capability::descriptor::Descriptor;
use aw_core::capability::locator::{self, Locator, METADATA_KEY, parse_json};
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
    let skill_md = skill_md_text(&skill_md);
    let raw = aw_manifest::skill_md_metadata(&skill_md, METADATA_KEY);
    let loc = match locator::parse(raw.as_deref(), &skill_md_shown) {
        Ok(loc) => loc,
        Err(f) => return Ok(Err(vec![f])),
    };
    let artifact = format!("{}/{}", shown.trim_end_matches('/'), loc.path);
    Ok(read_sealed(dir, &loc, &artifact)
        .map_err(|f| vec![f])
        .and_then(|t| locator::verify_payload_all(&loc, &t, &artifact)))
}

/// Loads the descriptor an installed skill's locator seals (§4.4): the file read confined to
/// the skill folder `dir` ([`read_sealed`]), then [`locator::verify_payload`], stopping at the
/// first failure as the reference's loader does. `artifact` is how failures name the file.
pub fn load_sealed(
    dir: &Path,
    loc: &Locator,
    artifact: &str,
) -> std::result::Result<Descriptor, Failure> {
    read_sealed(dir, loc, artifact).and_then(|t| locator::verify_payload(loc, &t, artifact))
}

/// A capability skill's SKILL.md as text for its head reader: bad bytes replaced and CRLF line
/// ends read as LF, as the reference's SKILL.md head parser reads them (the narrower
/// `metadata.version` reader of the manifest validator stays as its own reference has it).
pub(crate) fn skill_md_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace("\r\n", "\n")
}

/// The text of the descriptor `loc` names, read only when it stays inside the skill folder
/// `dir`: every segment of its path is looked at without following it, so a link anywhere on
/// the way (the reference looks only at the last one), a `..` or an absolute path is
/// `CAPABILITY_DESCRIPTOR_NOT_CONFINED`, as is a last segment that is not a regular file (a
/// FIFO is never opened, so never waited on). Absent is `CAPABILITY_DESCRIPTOR_MISSING`; a
/// file that cannot be read `CAPABILITY_DESCRIPTOR_UNREADABLE`.
pub fn read_sealed(
    dir: &Path,
    loc: &Locator,
    artifact: &str,
) -> std::result::Result<String, Failure> {
    read_sealed_with(dir, loc, artifact, read_regular_path)
}

/// [`read_sealed`] with the final read given, so a test run as root (who reads any file
/// whatever its mode) can still prove what an unreadable file gives.
fn read_sealed_with(
    dir: &Path,
    loc: &Locator,
    artifact: &str,
    read: impl FnOnce(&Path) -> std::io::Result<Vec<u8>>,
) -> std::result::Result<String, Failure> {
    let fail = |code, message: String, action: &str| Failure {
        code,
        artifact: artifact.to_owned(),
        path: String::new(),
        message,
        action: action.to_owned(),
    };
    let not_confined = |why: &str| {
        fail(
            ErrorCode::CapabilityDescriptorNotConfined,
            format!("the descriptor '{}' {why}", loc.path),
            "ship the descriptor as a regular file inside the skill folder, not a link, and reinstall the skill",
        )
    };
    let missing = || {
        fail(
            ErrorCode::CapabilityDescriptorMissing,
            format!("the descriptor '{}' is not in the skill folder", loc.path),
            "reinstall the skill, or point its locator at the descriptor it ships",
        )
    };
    let unreadable = |e: std::io::Error| {
        fail(
            ErrorCode::CapabilityDescriptorUnreadable,
            format!("the descriptor '{}' cannot be read: {e}", loc.path),
            "make the descriptor readable, or reinstall the skill",
        )
    };
    let mut path = dir.to_path_buf();
    let segments: Vec<&str> = loc.path.split('/').collect();
    if loc.path.starts_with('/')
        || segments
            .iter()
            .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return Err(not_confined("leaves the skill folder"));
    }
    for (i, segment) in segments.iter().enumerate() {
        path.push(segment);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Err(missing());
            }
            Err(e) => return Err(unreadable(e)),
        };
        if meta.file_type().is_symlink() {
            return Err(not_confined("is reached through a symbolic link"));
        }
        let last = i + 1 == segments.len();
        if last && !meta.is_file() {
            return Err(not_confined("is not a regular file"));
        }
        if !last && !meta.is_dir() {
            return Err(missing());
        }
    }
    let bytes = read(&path).map_err(unreadable)?;
    // Decoded as the reference decodes it, bad bytes replaced: the seal is then checked on that
    // text, so a descriptor that is not UTF-8 fails its digest first, as the spec orders.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What lives where a host keeps the capability `name`'s direct wrapper, `<home>/<skills_dir>/
/// <name>`: ours, foreign or absent (the rule is `aw_core::capability::wrapper::ownership`).
/// A SKILL.md that is not a regular file (a FIFO, a folder) reads as absent text, never waited on.
pub fn wrapper_state(
    home: Option<&Path>,
    skills_dir: &str,
    name: &str,
) -> aw_core::capability::readiness::WrapperState {
    let root = home.map_or_else(|| Path::new("~").join(skills_dir), |h| h.join(skills_dir));
    let dir = root.join(name);
    let has_entries = std::fs::read_dir(&dir).is_ok_and(|mut e| e.next().is_some());
    let skill_md = read_regular_path(&dir.join("SKILL.md"))
        .ok()
        .map(|b| skill_md_text(&b));
    aw_core::capability::wrapper::ownership(
        has_entries,
        skill_md.as_deref(),
        &dir.display().to_string(),
        &root.display().to_string(),
    )
}

/// The agent host this process runs under, detected from its environment
/// (`aw_core::capability::callers::detect_host`), or `unknown`.
pub fn detected_host() -> &'static str {
    let names: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .collect();
    aw_core::capability::callers::detect_host(|name| std::env::var(name).ok(), &names)
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
    fn a_skill_md_with_crlf_line_ends_is_read() {
        let t = tempfile::tempdir().unwrap();
        let digest = sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes());
        std::fs::write(
            t.path().join("SKILL.md"),
            format!(
                "---\r\nname: design\r\nmetadata:\r\n  {METADATA_KEY}: \"workline-capability.json#sha256={digest}\"\r\n---\r\n"
            ),
        )
        .unwrap();
        std::fs::write(
            t.path().join("workline-capability.json"),
            DESIGN_DESCRIPTOR_JSON,
        )
        .unwrap();
        assert_eq!(
            check_descriptor(t.path(), "s").unwrap().unwrap().name,
            "design"
        );
    }

    #[test]
    fn a_sealed_descriptor_that_is_not_utf8_fails_its_digest_first() {
        let t = tempfile::tempdir().unwrap();
        let bytes = b"{\"x\":\"\xff\"}";
        let digest = sha256_hex(bytes);
        skill(
            t.path(),
            &format!("workline-capability.json#sha256={digest}"),
            "",
        );
        std::fs::write(t.path().join("workline-capability.json"), bytes).unwrap();
        let f = check_descriptor(t.path(), "s").unwrap().unwrap_err();
        assert_eq!(
            f[0].code,
            ErrorCode::CapabilityDescriptorDigestMismatch,
            "{f:?}"
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

    fn loc(path: &str) -> Locator {
        Locator {
            path: path.to_owned(),
            digest: sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes()),
        }
    }

    fn code(dir: &Path, path: &str) -> ErrorCode {
        load_sealed(dir, &loc(path), "a").unwrap_err().code
    }

    #[test]
    fn the_loader_reads_a_sealed_descriptor_in_the_folder_and_reports_the_first_failure() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("sub")).unwrap();
        std::fs::write(t.path().join("sub/d.json"), DESIGN_DESCRIPTOR_JSON).unwrap();
        assert_eq!(
            load_sealed(t.path(), &loc("sub/d.json"), "a").unwrap().name,
            "design"
        );
        let mut wrong = loc("sub/d.json");
        wrong.digest = "0".repeat(64);
        let f = load_sealed(t.path(), &wrong, "a").unwrap_err();
        assert_eq!(
            (f.code, f.artifact.as_str()),
            (ErrorCode::CapabilityDescriptorDigestMismatch, "a")
        );
        // A sealed descriptor with several faults: only the first is reported.
        let broken = r#"{"contract_version": 1, "name": "ui-design", "bogus": 1}"#;
        std::fs::write(t.path().join("b.json"), broken).unwrap();
        let sealed = Locator {
            path: "b.json".into(),
            digest: sha256_hex(broken.as_bytes()),
        };
        assert!(load_sealed(t.path(), &sealed, "a").is_err());
        assert!(
            locator::verify_payload_all(&sealed, broken, "a")
                .unwrap_err()
                .len()
                > 1
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_descriptor_reached_through_a_link_is_not_confined() {
        let t = tempfile::tempdir().unwrap();
        let (skill, outside) = (t.path().join("skill"), t.path().join("outside"));
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("d.json"), DESIGN_DESCRIPTOR_JSON).unwrap();
        std::os::unix::fs::symlink(outside.join("d.json"), skill.join("d.json")).unwrap();
        std::os::unix::fs::symlink(&outside, skill.join("sub")).unwrap();
        assert_eq!(
            code(&skill, "d.json"),
            ErrorCode::CapabilityDescriptorNotConfined
        );
        assert_eq!(
            code(&skill, "sub/d.json"),
            ErrorCode::CapabilityDescriptorNotConfined
        );
        // A link that stays inside the folder is still a link: refused as the reference does.
        std::fs::write(skill.join("real.json"), DESIGN_DESCRIPTOR_JSON).unwrap();
        std::os::unix::fs::symlink("real.json", skill.join("in.json")).unwrap();
        assert_eq!(
            code(&skill, "in.json"),
            ErrorCode::CapabilityDescriptorNotConfined
        );
    }

    #[test]
    fn a_path_that_escapes_the_folder_is_not_confined() {
        let t = tempfile::tempdir().unwrap();
        let skill = t.path().join("skill");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(t.path().join("d.json"), DESIGN_DESCRIPTOR_JSON).unwrap();
        for path in ["../d.json", "./../d.json", "/etc/d.json", "a//d.json"] {
            assert_eq!(
                code(&skill, path),
                ErrorCode::CapabilityDescriptorNotConfined,
                "{path}"
            );
        }
    }

    #[test]
    fn a_missing_descriptor_is_missing() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("file"), "x").unwrap();
        for path in ["d.json", "sub/d.json", "file/d.json"] {
            assert_eq!(
                code(t.path(), path),
                ErrorCode::CapabilityDescriptorMissing,
                "{path}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_folder_in_place_of_the_descriptor_is_refused_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("d.json");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        assert_eq!(
            code(t.path(), "d.json"),
            ErrorCode::CapabilityDescriptorNotConfined
        );
        std::fs::create_dir(t.path().join("e.json")).unwrap();
        assert_eq!(
            code(t.path(), "e.json"),
            ErrorCode::CapabilityDescriptorNotConfined
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_descriptor_is_unreadable() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("d.json");
        std::fs::write(&file, DESIGN_DESCRIPTOR_JSON).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
        // Root (tests run as root) reads a mode-000 file: then the loader's own read is given
        // the permission error the mode would give anyone else.
        if std::fs::read(&file).is_ok() {
            assert!(read_sealed(t.path(), &loc("d.json"), "a").is_ok());
            let denied = || Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
            let f = read_sealed_with(t.path(), &loc("d.json"), "a", |_| denied()).unwrap_err();
            assert_eq!(f.code, ErrorCode::CapabilityDescriptorUnreadable);
        } else {
            assert_eq!(
                code(t.path(), "d.json"),
                ErrorCode::CapabilityDescriptorUnreadable
            );
        }
    }
}
