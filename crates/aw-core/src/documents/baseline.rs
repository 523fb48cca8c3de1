//! A plan's baseline seal (`> Baseline: <spec path>@sha256:<64 hex>`): which bytes of its spec
//! the plan was derived from, and how the spec in the workspace stands against it now.
//!
//! The seal is read from the plan's header: the lines before the first heading of level 2 or
//! more (the `# Plan …` title does not end it), fenced lines skipped; the first labelled line
//! decides. The sealed path is only a hint: the judgment reads the workspace's spec with the
//! sealed **number**, from its own file.

use crate::canonical::{is_digest, string_digest};
use crate::markdown::Line;
use regex::Regex;
use std::sync::LazyLock;

/// `> Baseline: <value>`, the label in any case.
static LABEL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\s*>\s*(?i:baseline):\s*(.+?)\s*$").ok());

/// `<path>@sha256:<hex>`.
static VALUE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^(\S+?)@(sha256:[0-9a-fA-F]+)$").ok());

/// The seal a plan's header declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seal {
    /// No baseline line: every plan written before seals existed.
    Unsealed,
    /// A baseline line whose value does not read.
    Malformed(Malformed),
    /// A well-formed seal.
    Sealed {
        /// The spec path as written (a hint).
        path: String,
        /// The spec number the path names.
        number: String,
        /// The sealed digest, lower-cased (`sha256:` + 64 hex).
        digest: String,
    },
}

/// Why a baseline line does not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Malformed {
    /// The value is not `<path>@sha256:<hex>`.
    NotASeal,
    /// The digest is not `sha256:` followed by 64 hex digits.
    BadDigest,
    /// The path is not a spec file under the spec folder.
    NotASpecPath,
}

impl Malformed {
    /// What is wrong, in one clause.
    pub fn why(self, spec_dir: &str) -> String {
        match self {
            Malformed::NotASeal => "it is not of the form '<spec path>@sha256:<64 hex>'".to_owned(),
            Malformed::BadDigest => {
                "the digest is not 'sha256:' followed by 64 hex digits".to_owned()
            }
            Malformed::NotASpecPath => format!("the path is not a spec under '{spec_dir}/'"),
        }
    }

    /// What to do about it.
    pub fn action(self, spec_dir: &str) -> String {
        match self {
            Malformed::NotASeal => {
                format!("write '> Baseline: {spec_dir}/NNN-spec-<slug>.md@sha256:<64 hex>'")
            }
            Malformed::BadDigest => {
                "seal the plan again from the spec it was derived from".to_owned()
            }
            Malformed::NotASpecPath => format!("point the baseline at a document of '{spec_dir}/'"),
        }
    }
}

/// Reads the seal of a scanned plan whose specs live in `spec_dir` (`docs/specs`).
pub fn read_seal(lines: &[Line<'_>], spec_dir: &str) -> Seal {
    let end = lines
        .iter()
        .position(|l| l.heading.is_some_and(|(level, _)| level >= 2))
        .unwrap_or(lines.len());
    let Some(label) = LABEL.as_ref() else {
        return Seal::Unsealed;
    };
    lines[..end]
        .iter()
        // A quote marker comes first on a labelled line, and the label is in it: most lines are
        // ruled out without the expression.
        .filter(|l| {
            !l.fenced
                && l.text.trim_start().starts_with('>')
                && l.text
                    .as_bytes()
                    .windows(8)
                    .any(|w| w.eq_ignore_ascii_case(b"baseline"))
        })
        .find_map(|l| label.captures(l.text))
        .map_or(Seal::Unsealed, |c| {
            seal_value(c.get(1).map_or("", |m| m.as_str()), spec_dir)
        })
}

/// Reads a baseline value: one leading and one trailing backtick dropped, then trimmed.
fn seal_value(raw: &str, spec_dir: &str) -> Seal {
    let raw = raw.strip_prefix('`').unwrap_or(raw);
    let value = raw.strip_suffix('`').unwrap_or(raw).trim();
    let Some(parts) = VALUE.as_ref().and_then(|re| re.captures(value)) else {
        return Seal::Malformed(Malformed::NotASeal);
    };
    let path = parts.get(1).map_or("", |m| m.as_str());
    let digest = parts.get(2).map_or("", |m| m.as_str()).to_ascii_lowercase();
    if !digest.strip_prefix("sha256:").is_some_and(is_digest) {
        return Seal::Malformed(Malformed::BadDigest);
    }
    match spec_number(path, spec_dir) {
        Some(number) => Seal::Sealed {
            path: path.to_owned(),
            number: number.to_owned(),
            digest,
        },
        None => Seal::Malformed(Malformed::NotASpecPath),
    }
}

/// The number of a spec path `<spec_dir>/<3+ digits>-spec<no space>.md`.
fn spec_number<'p>(path: &'p str, spec_dir: &str) -> Option<&'p str> {
    let name = path.strip_prefix(spec_dir)?.strip_prefix('/')?;
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    let rest = name[digits..].strip_prefix("-spec")?;
    let ok = digits >= 3 && rest.ends_with(".md") && !rest.chars().any(char::is_whitespace);
    ok.then(|| &name[..digits])
}

/// The baseline digest of a spec's text: `sha256:` + the SHA-256 of the text written as a JSON
/// string (the reference digests the canonical JSON of the text, not its raw bytes).
pub fn spec_digest(text: &str) -> String {
    ["sha256:", &string_digest(text)].concat()
}

/// How a plan stands against its spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// No seal.
    Unsealed,
    /// A seal that does not read.
    Malformed(Malformed),
    /// A seal naming a spec number the workspace does not have.
    Unresolved {
        /// The sealed path.
        path: String,
    },
    /// The spec still digests to the sealed value.
    Aligned {
        /// That digest.
        digest: String,
    },
    /// The spec changed since the plan was sealed.
    Divergent {
        /// The digest the plan was sealed on.
        sealed: String,
        /// The spec's digest now.
        current: String,
    },
}

/// Judges a seal against the workspace: `current_digest` gives the digest of the workspace's
/// spec with a number (read from its own file), `None` when there is no such spec.
pub fn judge(seal: &Seal, current_digest: impl FnOnce(&str) -> Option<String>) -> Standing {
    match seal {
        Seal::Unsealed => Standing::Unsealed,
        Seal::Malformed(m) => Standing::Malformed(*m),
        Seal::Sealed {
            path,
            number,
            digest,
        } => match current_digest(number) {
            None => Standing::Unresolved { path: path.clone() },
            Some(current) if current == *digest => Standing::Aligned { digest: current },
            Some(current) => Standing::Divergent {
                sealed: digest.clone(),
                current,
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::scan;

    const SPEC: &str = "---\nstatus: ready-for-plan\n---\n# Spec 001 — login\n\n## Acceptance criteria\n\n- [ ] **S001/AC-01 — login works.** a user logs in\n- [ ] **S001/AC-02 — logout works.** a user logs out\n";
    const SPEC_DIGEST: &str =
        "sha256:873db332f60bc84aa718beee8c5d26fc2d8bccb0cd78fa575dccf57eb56dc4be";

    fn seal(text: &str) -> Seal {
        read_seal(&scan(text), "docs/specs")
    }

    fn plan(baseline: &str) -> String {
        format!(
            "# Plan 001 — login\n\n> Derived from: docs/specs/001-spec-login.md\n> Estado: open\n{baseline}\n\n## Phases\n"
        )
    }

    #[test]
    fn the_spec_digest_is_of_its_text_as_a_json_string() {
        assert_eq!(
            spec_digest(""),
            "sha256:12ae32cb1ec02d01eda3581b127c1fee3b0dc53572ed6baf239721a03d82e126"
        );
        assert_eq!(spec_digest(SPEC), SPEC_DIGEST);
    }

    #[test]
    fn the_worked_examples_of_the_reference() {
        let current = |n: &str| (n == "001").then(|| SPEC_DIGEST.to_owned());
        let at = |line: &str| judge(&seal(&plan(line)), current);
        assert_eq!(
            at(&format!(
                "> Baseline: docs/specs/001-spec-login.md@{SPEC_DIGEST}"
            )),
            Standing::Aligned {
                digest: SPEC_DIGEST.to_owned()
            }
        );
        assert_eq!(at(""), Standing::Unsealed);
        let zeros = format!("sha256:{}", "0".repeat(64));
        assert_eq!(
            at(&format!("> Baseline: docs/specs/001-spec-login.md@{zeros}")),
            Standing::Divergent {
                sealed: zeros.clone(),
                current: SPEC_DIGEST.to_owned()
            }
        );
        assert_eq!(
            at("> Baseline: docs/specs/001-spec-login.md@sha256:abc"),
            Standing::Malformed(Malformed::BadDigest)
        );
        assert_eq!(
            at(&format!(
                "> Baseline: docs/specs/009-spec-gone.md@{SPEC_DIGEST}"
            )),
            Standing::Unresolved {
                path: "docs/specs/009-spec-gone.md".to_owned()
            }
        );
    }

    #[test]
    fn the_value_reads_as_the_reference_reads_it() {
        let d = "a".repeat(64);
        let sealed = |path: &str, number: &str| Seal::Sealed {
            path: path.to_owned(),
            number: number.to_owned(),
            digest: format!("sha256:{d}"),
        };
        // Label in any case, backticks around the value, an upper-case digest lower-cased.
        assert_eq!(
            seal(&plan(&format!(
                ">BASELINE:   `docs/specs/0012-spec-x.md@sha256:{}`  ",
                d.to_uppercase()
            ))),
            sealed("docs/specs/0012-spec-x.md", "0012")
        );
        // The `sha256:` prefix itself is case-sensitive, as the grammar writes it.
        assert_eq!(
            seal(&plan(&format!(
                "> Baseline: docs/specs/001-spec.md@SHA256:{d}"
            ))),
            Seal::Malformed(Malformed::NotASeal)
        );
        for path in [
            "docs/plans/001-plan-x.md",
            "docs/specs/01-spec-x.md",
            "docs/specs/001-x.md",
            "docs/specs/001-spec-x.txt",
            "docs/specs/sub/001-spec-x.md",
        ] {
            assert_eq!(
                seal(&plan(&format!("> Baseline: {path}@sha256:{d}"))),
                Seal::Malformed(Malformed::NotASpecPath),
                "{path}"
            );
        }
        assert_eq!(
            seal(&plan("> Baseline: docs/specs/001-spec-x.md")),
            Seal::Malformed(Malformed::NotASeal)
        );
    }

    #[test]
    fn only_the_header_outside_fences_declares_and_the_first_line_decides() {
        let d = "b".repeat(64);
        let line = |n: &str| format!("> Baseline: docs/specs/{n}-spec-x.md@sha256:{d}");
        // After the first level-2 heading: not the header.
        let late = format!("# Plan\n\n## F1\n{}\n", line("001"));
        assert_eq!(seal(&late), Seal::Unsealed);
        // Fenced: not a declaration.
        let fenced = format!("# Plan\n```\n{}\n```\n", line("001"));
        assert_eq!(seal(&fenced), Seal::Unsealed);
        // A malformed first line is not overridden by a good second one.
        let two = format!("# Plan\n> Baseline: nonsense\n{}\n", line("002"));
        assert_eq!(seal(&two), Seal::Malformed(Malformed::NotASeal));
        // A level-1 heading does not end the header.
        let titled = format!("# Plan\n# Again\n{}\n", line("003"));
        assert!(matches!(seal(&titled), Seal::Sealed { number, .. } if number == "003"));
        // An empty value is not a baseline line at all.
        assert_eq!(seal("# Plan\n> Baseline:\n"), Seal::Unsealed);
    }

    #[test]
    fn malformed_seals_say_why_and_what_to_do() {
        for m in [
            Malformed::NotASeal,
            Malformed::BadDigest,
            Malformed::NotASpecPath,
        ] {
            assert!(!m.why("docs/specs").is_empty());
            assert!(!m.action("docs/specs").is_empty());
        }
        assert!(
            Malformed::NotASpecPath
                .why("docs/specs")
                .contains("docs/specs/")
        );
    }
}
