//! V1–V2: the manifest `version` must equal the version the skill itself ships.
//!
//! `package.json` is authoritative whenever it exists (even without a `version`); otherwise the
//! `metadata.version` of the `SKILL.md` frontmatter is. The frontmatter reader is deliberately
//! narrow (LF only, X.Y.Z only, direct children of `metadata:` only) because a looser reader would
//! accept skills the family's other tools cannot read.

use super::value::Value;
use super::{Ctx, FileRead, SkillFiles, gate, js};

/// Where the authoritative version came from (or why there is none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionSource {
    /// `package.json` exists and parsed.
    PackageJson,
    /// `package.json` exists but could not be read or parsed (or its root is `null`).
    PackageJsonUnparseable,
    /// No `package.json`; `SKILL.md` was read.
    SkillMd,
    /// No `package.json`; `SKILL.md` exists but could not be read. The reference crashes here;
    /// we report it instead.
    SkillMdUnreadable(String),
    /// Neither file exists.
    Nothing,
}

impl VersionSource {
    /// A short label for messages.
    pub fn label(&self) -> &'static str {
        match self {
            VersionSource::PackageJson => "package.json",
            VersionSource::PackageJsonUnparseable => "package.json (unparseable)",
            VersionSource::SkillMd => "SKILL.md metadata.version",
            VersionSource::SkillMdUnreadable(_) => "SKILL.md (unreadable)",
            VersionSource::Nothing => "no package.json or SKILL.md",
        }
    }
}

/// The version a skill ships, and where it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthoritativeVersion {
    /// The version, as written: any JSON type from `package.json`, a string from `SKILL.md`;
    /// `None` when it could not be resolved (a `null` `package.json` version included).
    pub version: Option<serde_json::Value>,
    /// Where it came from.
    pub from: VersionSource,
}

/// Resolves the authoritative version of a skill folder.
pub fn read_authoritative_version(files: &dyn SkillFiles) -> AuthoritativeVersion {
    if files.exists("package.json") {
        return from_package_json(files.read("package.json"));
    }
    if !files.exists("SKILL.md") {
        return AuthoritativeVersion {
            version: None,
            from: VersionSource::Nothing,
        };
    }
    match files.read("SKILL.md") {
        FileRead::Bytes(bytes) => AuthoritativeVersion {
            version: skill_md_version(&String::from_utf8_lossy(&bytes))
                .map(serde_json::Value::from),
            from: VersionSource::SkillMd,
        },
        FileRead::Unreadable(why) => AuthoritativeVersion {
            version: None,
            from: VersionSource::SkillMdUnreadable(why),
        },
        // It vanished between the two calls; read it as never having been there.
        FileRead::Absent => AuthoritativeVersion {
            version: None,
            from: VersionSource::Nothing,
        },
    }
}

fn from_package_json(read: FileRead) -> AuthoritativeVersion {
    let unparseable = AuthoritativeVersion {
        version: None,
        from: VersionSource::PackageJsonUnparseable,
    };
    let FileRead::Bytes(bytes) = read else {
        return unparseable;
    };
    let text = String::from_utf8_lossy(&bytes);
    match gate::parse(&text) {
        // `null.version` throws in the reference, which it reports as unparseable.
        Err(_) | Ok(Value::Null) => unparseable,
        Ok(root) => AuthoritativeVersion {
            version: root
                .get("version")
                .filter(|v| !v.is_null())
                .map(Value::to_json),
            from: VersionSource::PackageJson,
        },
    }
}

/// `metadata.version` from the SKILL.md frontmatter, or `None`.
///
/// The frontmatter is `---\n` at byte 0 up to the first later `\n---` (so CRLF files never have
/// one). Inside it, the first line `metadata:` (trailing whitespace allowed) opens the block; its
/// children run until the first line that starts with a non-space, skipping blank lines. The
/// first child's indentation is the child indentation, and the first child line that is exactly
/// that indentation plus `version: X.Y.Z` (optionally quoted) wins.
pub fn skill_md_version(text: &str) -> Option<String> {
    crate::skill_md::metadata_children(text)?
        .into_iter()
        .find_map(direct_version)
}

/// `version:\s*['"]?\d+\.\d+\.\d+['"]?\s*` (the whole rest of the line), giving the digits.
fn direct_version(rest: &str) -> Option<String> {
    let v = rest.strip_prefix("version:")?;
    let v = v.trim_start_matches(js::is_js_space);
    let v = v.strip_prefix(['\'', '"']).unwrap_or(v);
    let v = v.trim_end_matches(js::is_js_space);
    let v = v.strip_suffix(['\'', '"']).unwrap_or(v);
    let mut parts = v.split('.');
    let ok = parts.by_ref().take(3).count() == 3
        && parts.next().is_none()
        && v.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| v.to_owned())
}

pub(super) fn check(cx: &mut Ctx) {
    let auth = read_authoritative_version(cx.files);
    let Some(version) = auth.version else {
        let text = match &auth.from {
            VersionSource::SkillMdUnreadable(why) => format!(
                "cannot be checked: there is no package.json and SKILL.md could not be read ({why})"
            ),
            from => format!(
                "cannot be checked: no authoritative version could be resolved from {}",
                from.label()
            ),
        };
        cx.fail("version.unresolved", "version", text);
        return;
    };
    if let Some(Value::String(declared)) = cx.root.get("version")
        && version.as_str() != Some(declared.as_ref())
    {
        cx.fail(
            "version.mismatch",
            "version",
            format!(
                "is {} but {} says {}",
                js::quote_str(declared),
                auth.from.label(),
                js::quote_str(&js::js_string(&version))
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_reader() {
        let v = |t: &str| skill_md_version(t);
        assert_eq!(
            v("---\nmetadata:\n  version: '1.0.0'\n---\n"),
            Some("1.0.0".into())
        );
        assert_eq!(
            v("---\nmetadata:  \n\n\tversion: \"1.2.3'  \n---"),
            Some("1.2.3".into())
        );
        assert_eq!(v("---\r\nmetadata:\r\n  version: 1.0.0\r\n---\r\n"), None);
        assert_eq!(v("\n---\nmetadata:\n  version: 1.0.0\n---\n"), None);
        assert_eq!(v("---\nmetadata: {version: 1.0.0}\n---\n"), None);
        assert_eq!(v("---\nmetadata:\n  version: 1.0.0-rc.1\n---\n"), None);
        assert_eq!(v("---\nmetadata:\n  version: 1.0.0 # c\n---\n"), None);
        assert_eq!(v("---\nmetadata:\n  version: 1.0\n---\n"), None);
        // The first `\n---` closes the block, even `\n----`.
        assert_eq!(v("---\nmetadata:\n----\n  version: 1.0.0\n---\n"), None);
        // Deeper-indented first child: the direct `version:` is not at the child indent.
        assert_eq!(v("---\nmetadata:\n    a: 1\n  version: 1.0.0\n---\n"), None);
        // A nested decoy is ignored; the direct child wins regardless of order.
        assert_eq!(
            v("---\nmetadata:\n  nested:\n    version: '9.9.9'\n  version: '1.0.0'\n---\n"),
            Some("1.0.0".into())
        );
        // A dedent ends the block.
        assert_eq!(v("---\nmetadata:\n  a: 1\nversion: 1.0.0\n---\n"), None);
        // Carriage returns inside LF lines count as trailing whitespace.
        assert_eq!(
            v("---\nmetadata:\r\n  version: 1.0.0\r\n---"),
            Some("1.0.0".into())
        );
    }

    #[test]
    fn direct_version_grammar() {
        assert_eq!(direct_version("version:1.2.3"), Some("1.2.3".into()));
        assert_eq!(
            direct_version("version: '10.20.30'"),
            Some("10.20.30".into())
        );
        assert_eq!(direct_version("version: 1.2.3.4"), None);
        assert_eq!(direct_version("version: ''1.2.3"), None);
        assert_eq!(direct_version("version: v1.2.3"), None);
        assert_eq!(direct_version("versions: 1.2.3"), None);
    }
}
