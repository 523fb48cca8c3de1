//! The ownership marker every file `aw self install` writes carries, in a form valid for the
//! file's format: an HTML comment line in Markdown, a `#` comment line in TOML, the
//! `description` value of a generated JSON file. Install and uninstall touch only files that
//! carry it (or, for a descriptor, whose skill folder's SKILL.md does), and the doctor reads the
//! installing version from it.
//!
//! The marker also names the SHA-256 of the bytes aw wrote (`sha256=<hex>`, computed over the
//! file with that hex zeroed), so a file the person edited since is told apart from one aw
//! wrote: an edited file is the person's and is kept.

use crate::canonical::sha256_hex;

/// The words that identify the marker, followed by `version=<aw version>`.
pub const MARKER_TAG: &str = "aw:installed version=";

/// What the marker says after the version and digest.
const TAIL: &str = "written by `aw self install`; `aw self uninstall` removes it; edit it and it is yours (aw keeps it)";

/// The digest field's name.
const DIGEST_KEY: &str = " sha256=";

/// The digest's place holder in a file not sealed yet: as many zeros as the digest has digits.
pub const UNSEALED: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The marker's text for `version` (no comment syntax), with the digest not filled in yet:
/// [`seal`] fills it once the whole file is known.
pub fn marker_text(version: &str) -> String {
    format!("{MARKER_TAG}{version}{DIGEST_KEY}{UNSEALED} · {TAIL}")
}

/// The marker as a Markdown line (an HTML comment: hosts show it to no one).
pub fn markdown_marker(version: &str) -> String {
    format!("<!-- {} -->", marker_text(version))
}

/// The marker as a TOML (or shell) comment line.
pub fn hash_marker(version: &str) -> String {
    format!("# {}", marker_text(version))
}

/// What a marker found at its place says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// The aw version that wrote the file.
    pub version: String,
    /// The digest of what it wrote (markers of aw versions before digests have none).
    pub digest: Option<String>,
}

/// The version and digest after [`MARKER_TAG`] (`rest`): the version runs to a blank or a
/// quote; a digest is the 64 lowercase hex digits after ` sha256=`.
fn parse_rest(rest: &str) -> Option<Marker> {
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(rest.len());
    let version = &rest[..end];
    if version.is_empty() {
        return None;
    }
    let digest = rest[end..]
        .strip_prefix(DIGEST_KEY)
        .and_then(|d| d.get(..64))
        .filter(|d| {
            d.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
        .map(str::to_owned);
    Some(Marker {
        version: version.to_owned(),
        digest,
    })
}

/// The marker on `line`, when it is one of the marker's comment forms: the Markdown comment,
/// the `#` comment or the `//` comment (OpenCode's module), each whole.
fn line_marker(line: &str, forms: &[(&str, &str)]) -> Option<Marker> {
    let line = line.trim_end_matches('\r');
    forms.iter().find_map(|(open, close)| {
        let rest = line.strip_prefix(open)?.strip_prefix(MARKER_TAG)?;
        if !line.ends_with(close) {
            return None;
        }
        parse_rest(rest)
    })
}

/// The marker at the end of a generated JSON file's `description`, as the writer puts it there.
fn json_marker(text: &str) -> Option<Marker> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let description = value.get("description")?.as_str()?;
    let at = description.find(MARKER_TAG)?;
    if at > 0 && !description[..at].ends_with(' ') {
        return None;
    }
    let found = parse_rest(&description[at + MARKER_TAG.len()..])?;
    let digest = found.digest.as_deref().unwrap_or_default();
    let expected = marker_text(&found.version).replace(UNSEALED, digest);
    let legacy = format!("{MARKER_TAG}{} · ", found.version);
    let tail = &description[at..];
    let whole = if found.digest.is_some() {
        tail == expected
    } else {
        tail.starts_with(&legacy)
    };
    whole.then_some(found)
}

/// The marker of a file, when it carries one where aw's writers put it (the exact inverse of
/// them): in Markdown with a frontmatter, the HTML comment line right after it; in a file
/// without one, its first line (the HTML comment, a `#` comment opening a TOML file, a `//`
/// comment opening a JS module); in a JSON object, the end of its `description`. The marker's
/// words anywhere else (a person's skill quoting them) do not make a file aw's.
pub fn marker(text: &str) -> Option<Marker> {
    if text.trim_start().starts_with('{') {
        return json_marker(text);
    }
    let split = super::render::split(text);
    let first = split.body.lines().next().unwrap_or_default();
    if split.head.is_empty() {
        line_marker(first, &[("<!-- ", " -->"), ("# ", ""), ("// ", "")])
    } else {
        line_marker(first, &[("<!-- ", " -->")])
    }
}

/// The aw version a file's marker names (see [`marker`]).
pub fn marker_version(text: &str) -> Option<String> {
    marker(text).map(|m| m.version)
}

/// Whether `text` carries the marker at its place.
pub fn is_marked(text: &str) -> bool {
    marker(text).is_some()
}

/// Where the digest of `text`'s marker lies: the first place its version and digest are
/// written (the marker itself, in every file aw writes).
fn digest_at(text: &str, m: &Marker, digest: &str) -> Option<usize> {
    let field = format!("{MARKER_TAG}{}{DIGEST_KEY}{digest}", m.version);
    text.find(&field).map(|at| at + field.len() - digest.len())
}

/// `text` (a file just rendered, its marker's digest not filled in) with its digest filled in:
/// the SHA-256 of the text as it is, zeros in place. A text without the place holder is
/// returned as it is.
pub fn seal(text: &str) -> String {
    let Some(m) = marker(text) else {
        return text.to_owned();
    };
    let Some(at) = digest_at(text, &m, UNSEALED) else {
        return text.to_owned();
    };
    let digest = sha256_hex(text.as_bytes());
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..at]);
    out.push_str(&digest);
    out.push_str(&text[at + UNSEALED.len()..]);
    out
}

/// Whether `found` holds the same bytes as `unsealed` (a rendered file, digest not filled in)
/// but for the digest's 64 digits: aw wrote exactly this, whatever digest it noted.
pub fn same_but_digest(found: &str, unsealed: &str) -> bool {
    let (f, u) = (found.as_bytes(), unsealed.as_bytes());
    if f.len() != u.len() {
        return false;
    }
    // Up to the first difference; it must fall inside the digest's place holder, and the rest
    // after the place holder must be the same.
    let mut i = 0;
    while i + 64 <= f.len() && f[i..i + 64] == u[i..i + 64] {
        i += 64;
    }
    while i < f.len() && f[i] == u[i] {
        i += 1;
    }
    if i == f.len() {
        return true;
    }
    let from = i.saturating_sub(UNSEALED.len() - 1);
    let to = (i + UNSEALED.len()).min(u.len());
    let Some(at) = unsealed
        .get(from..to)
        .and_then(|w| w.find(UNSEALED))
        .map(|p| p + from)
    else {
        return false;
    };
    let end = at + UNSEALED.len();
    at <= i && i < end && f[end..] == u[end..]
}

/// Whether a file of aw's has been edited since aw wrote it: its marker names a digest, and
/// the text (that digest zeroed) no longer hashes to it. A marker without a digest (an older
/// aw's) cannot tell, and says no.
pub fn edited(text: &str) -> bool {
    let Some(m) = marker(text) else {
        return false;
    };
    let Some(digest) = m.digest.clone() else {
        return false;
    };
    let Some(at) = digest_at(text, &m, &digest) else {
        return true;
    };
    let mut zeroed = String::with_capacity(text.len());
    zeroed.push_str(&text[..at]);
    zeroed.push_str(UNSEALED);
    zeroed.push_str(&text[at + 64..]);
    sha256_hex(zeroed.as_bytes()) != digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_marker_names_its_version_at_its_place() {
        for line in [markdown_marker("1.2.3"), hash_marker("1.2.3")] {
            assert_eq!(
                marker_version(&format!("{line}\nb")).as_deref(),
                Some("1.2.3")
            );
        }
        let md = format!("---\nname: w\n---\n{}\n# w\n", markdown_marker("1.2.3"));
        assert_eq!(marker_version(&md).as_deref(), Some("1.2.3"));
        let js = format!("// {}\nimport x;\n", marker_text("1.2.3"));
        assert_eq!(marker_version(&js).as_deref(), Some("1.2.3"));
        let json = format!(
            "{{\"description\": \"aw's hooks. {}\"}}",
            marker_text("0.1.0")
        );
        assert!(is_marked(&seal(&json)));
        assert_eq!(marker_version(&json).as_deref(), Some("0.1.0"));
        assert!(!is_marked("---\nname: w\n---\nmine\n"));
        // An older aw's marker, without a digest, still names its version.
        assert_eq!(
            marker_version("<!-- aw:installed version=0.0.1 · old -->\nx\n").as_deref(),
            Some("0.0.1")
        );
    }

    #[test]
    fn a_sealed_file_names_its_own_digest_and_an_edit_shows() {
        let text = format!("---\nname: w\n---\n{}\n# w\n", markdown_marker("1.2.3"));
        let sealed = seal(&text);
        assert_ne!(sealed, text);
        let m = marker(&sealed).unwrap();
        assert_eq!(m.version, "1.2.3");
        assert_eq!(m.digest.as_deref().map(str::len), Some(64));
        assert!(!edited(&sealed));
        assert!(same_but_digest(&sealed, &text));
        let mine = sealed.replace("# w\n", "# w\nmy own line\n");
        assert!(is_marked(&mine), "still carries aw's marker");
        assert!(edited(&mine), "but its bytes are not what aw wrote");
        assert!(!same_but_digest(&mine, &text));
        // A digest changed by hand does not hide an edit either.
        let forged = sealed.replace(m.digest.as_deref().unwrap(), &"a".repeat(64));
        assert!(edited(&forged));
        // Every form seals: TOML, JS and JSON.
        for t in [
            format!("{}\nprompt = 1\n", hash_marker("1")),
            format!("// {}\nexport {{}};\n", marker_text("1")),
            format!("{{\n  \"description\": \"aw. {}\"\n}}\n", marker_text("1")),
        ] {
            let s = seal(&t);
            assert!(is_marked(&s), "{s}");
            assert!(!edited(&s), "{s}");
            assert!(edited(&s.replace("1", "2")), "{s}");
        }
    }

    #[test]
    fn the_marker_words_elsewhere_do_not_make_a_file_ours() {
        let line = markdown_marker("1.2.3");
        // Quoted in a person's skill body, below the line after the frontmatter.
        assert!(!is_marked(&format!(
            "---\nname: w-notes\n---\n# Notes\naw writes `{line}`\n{line}\n"
        )));
        // A Markdown comment inside the frontmatter, or a `#` line after it.
        assert!(!is_marked(&format!(
            "---\nname: x\n# {}\n---\nbody\n",
            marker_text("1")
        )));
        assert!(!is_marked(&format!(
            "---\nname: x\n---\n{}\n",
            hash_marker("1")
        )));
        // Not on the first line of a file without frontmatter.
        assert!(!is_marked(&format!("a\n{}\n", hash_marker("1"))));
        // A marker line with more after its comment.
        assert!(!is_marked(&format!("{line} and mine\n")));
        // A JSON file mentioning it outside `description`, or not as the writer ends it.
        let other = format!("{{\"notes\": \"{}\"}}", marker_text("1"));
        assert!(!is_marked(&other));
        let mid = format!("{{\"description\": \"{} and mine\"}}", marker_text("1"));
        assert!(!is_marked(&mid));
    }
}
