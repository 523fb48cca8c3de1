//! Reading one member's manifest for the `family` verbs: the folder argument, its bytes, the
//! failures they share.

use crate::failure::Failure;
use aw_core::error_code::ErrorCode;
use aw_workspace::family::skill::{SkillDir, resolve_arg};
use aw_workspace::locate::current_dir;

/// A member folder and its manifest text.
pub struct Member {
    /// The folder, resolved against the current directory.
    pub dir: SkillDir,
    /// The text of its `capability.json` (invalid UTF-8 replaced, as the validator reads it).
    pub text: String,
    /// The bytes that text was read from.
    bytes: Vec<u8>,
}

impl Member {
    /// The validator's report on the folder, from the manifest bytes already read.
    pub fn validate(&self) -> aw_manifest::Report {
        aw_manifest::validate(
            Some(&self.bytes),
            &self.dir.root().to_string_lossy(),
            &self.dir,
        )
    }
}

/// Reads the manifest of the skill folder named by `arg`.
pub fn member(arg: &str) -> Result<Member, Failure> {
    let dir = SkillDir::new(resolve_arg(&current_dir()?, arg));
    let bytes = dir.manifest_bytes().map_err(|e| {
        Failure::new(
            ErrorCode::FamilyManifestUnreadable,
            format!("cannot read {}/capability.json: {e}", dir.root().display()),
            "name a family member's skill folder (the folder that holds capability.json)",
        )
    })?;
    Ok(Member {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        bytes,
        dir,
    })
}

/// The failure for a manifest that does not parse as a JSON object.
pub fn malformed(member: &Member, why: &str) -> Failure {
    malformed_at(member.dir.root(), why)
}

/// [`malformed`] for the member folder at `dir`.
pub fn malformed_at(dir: &std::path::Path, why: &str) -> Failure {
    Failure::new(
        ErrorCode::FamilyManifestMalformed,
        format!(
            "{}/capability.json is not a JSON object: {why}",
            dir.display()
        ),
        format!(
            "run `aw manifest validate {}` for the full report",
            dir.display()
        ),
    )
}
