//! The checkout proof (flow-spec-v22 §11): the local, reproducible observation that backs the
//! evidence `workline.source-bounded`, and the digest that ties it to one checkout state.
//!
//! A gate that demands that evidence wants more than a green line: the validation must say which
//! checkout it looked at (`source`, `relative_cwd`), what it ran or read there (`invocation`),
//! and the digest of that checkout at the time (`checkout_digest`). The verdict then compares the
//! digest with the live one, observed by the shell before the lock, so a proof captured on
//! another tree, or before the tree moved, does not pass.
//!
//! Two moments judge a proof, and the split follows the reference exactly:
//!
//! * **Parsing** ([`parse_proof`], [`validation_proof`]): a `proof` key that is present but is not
//!   an object, has a `kind` other than `command` / `inspection`, lacks a text `source`,
//!   `relative_cwd` or `checkout_digest`, lacks an object `invocation`, or whose invocation does
//!   not have the fields of its kind (`program` text and `args` a list of texts for `command`,
//!   `artifact` text for `inspection`) makes the whole `validations` list malformed:
//!   `FLOW_RESULT_INVALID`, an envelope refusal that spends nothing. This covers `"proof": null`
//!   too, and a kind/invocation mismatch (a `command` with only an `artifact`, an `inspection`
//!   without one), and non-text args. Keys beyond these are ignored.
//! * **Verdict** ([`proof_verdict`]): what parsed but cannot be evidence is
//!   `WORKLINE_CHECKOUT_PROOF_INVALID` (blank source or digest, unsafe `relative_cwd`, blank
//!   program, blank or unsafe artifact, a remote locator in program/args/artifact, a source that
//!   is not an observed checkout); no proof at all is `..._MISSING`; a digest other than the
//!   live one is `..._STALE`. These are evaluated refusals: they spend an attempt, and the
//!   directive's outcome is `needs_input`.
//!
//! The digest is the reference's, byte for byte, so a proof captured with either tool verifies
//! with the other: [`checkout_digest`] over `{source, head, dirty, changed_files,
//! worktree_fingerprint}`, the fingerprint being [`worktree_fingerprint`] over git's raw output.
//! Running git is the shell's part (`aw_workspace::git::checkout_digest`).

use super::answer::Rejection;
use super::request::capitalized;
use crate::canonical::{semantic_digest, utf16_cmp};
use crate::error_code::ErrorCode;
use crate::vocab::flow::Outcome;
use aw_json::js::js_trim;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The evidence id of every gate that asks whether a local proof is enough.
pub const SOURCE_BOUNDED_EVIDENCE: &str = "workline.source-bounded";

/// The source alias of the workspace's own checkout (always eligible when it is a repository).
pub use super::source_boundary::WORKSPACE_SOURCE;

/// What a checkout proof did in its checkout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofKind {
    /// It ran a program.
    Command,
    /// It read an artifact.
    Inspection,
}

impl ProofKind {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ProofKind::Command => "command",
            ProofKind::Inspection => "inspection",
        }
    }
}

/// What a proof ran or read. The kind is carried by the variant, so a kind/invocation mismatch
/// cannot be represented: it is refused while parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofInvocation {
    /// `{program, args}` of a `command` proof.
    Command {
        /// The program run.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// `{artifact}` of an `inspection` proof.
    Inspection {
        /// The checkout-relative path read.
        artifact: String,
    },
}

/// A parsed checkout proof: well typed, not yet judged (see [`proof_verdict`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutProof {
    /// The source alias of the checkout (`workspace` or an alias of the WORKSPACE block).
    pub source: String,
    /// Where inside the checkout it ran: `.` or a safe relative path.
    pub relative_cwd: String,
    /// The checkout's digest when the proof was captured.
    pub checkout_digest: String,
    /// What it ran or read.
    pub invocation: ProofInvocation,
}

impl CheckoutProof {
    /// The proof's kind.
    pub fn kind(&self) -> ProofKind {
        match self.invocation {
            ProofInvocation::Command { .. } => ProofKind::Command,
            ProofInvocation::Inspection { .. } => ProofKind::Inspection,
        }
    }
}

/// Reads a `proof` value. `None` when it is malformed, which makes the validations it sits in
/// malformed (`FLOW_RESULT_INVALID`; see the module documentation for what counts).
pub fn parse_proof(value: &Value) -> Option<CheckoutProof> {
    let o = value.as_object()?;
    let kind = match o.get("kind").and_then(Value::as_str)? {
        "command" => ProofKind::Command,
        "inspection" => ProofKind::Inspection,
        _ => return None,
    };
    let text =
        |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_owned);
    let source = text(o, "source")?;
    let relative_cwd = text(o, "relative_cwd")?;
    let checkout_digest = text(o, "checkout_digest")?;
    let inv = o.get("invocation")?.as_object()?;
    let invocation = match kind {
        ProofKind::Command => ProofInvocation::Command {
            program: text(inv, "program")?,
            args: inv
                .get("args")?
                .as_array()?
                .iter()
                .map(|a| a.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()?,
        },
        ProofKind::Inspection => ProofInvocation::Inspection {
            artifact: text(inv, "artifact")?,
        },
    };
    Some(CheckoutProof {
        source,
        relative_cwd,
        checkout_digest,
        invocation,
    })
}

/// A `proof` key whose value [`parse_proof`] refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedProof;

/// The proof of one validation entry: `Ok(None)` when the entry has no `proof` key, `Err` when it
/// has one that [`parse_proof`] refuses. The caller answers that `Err` with `FLOW_RESULT_INVALID`
/// and its usual "validations must be {id, passed, detail}" message (the reference names no proof
/// there either).
pub fn validation_proof(
    entry: &Map<String, Value>,
) -> Result<Option<CheckoutProof>, MalformedProof> {
    match entry.get("proof") {
        None => Ok(None),
        Some(v) => parse_proof(v).map(Some).ok_or(MalformedProof),
    }
}

/// One eligible checkout as the shell observed it before the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObservedCheckout {
    /// Its source alias.
    pub source: String,
    /// Its live digest ([`checkout_digest`]).
    pub digest: String,
    /// Whether two consecutive fingerprints agreed (a caller that measured once passes `true`).
    pub reproducible: bool,
}

/// Why a proof is not accepted: a `WORKLINE_CHECKOUT_PROOF_*` code and an English message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofRefusal {
    /// `WorklineCheckoutProofMissing`, `...Invalid` or `...Stale`.
    pub code: ErrorCode,
    /// What is wrong.
    pub message: String,
}

impl ProofRefusal {
    fn invalid(message: impl Into<String>) -> Self {
        ProofRefusal {
            code: ErrorCode::WorklineCheckoutProofInvalid,
            message: message.into(),
        }
    }

    /// The refusal as the execution verdict returns it: evaluated (spends an attempt), outcome
    /// `needs_input`, the action's recovery as what to do.
    pub fn into_rejection(self, recovery: &str) -> Rejection {
        Rejection::spent(self.code, self.message, capitalized(recovery))
            .with_outcome(Outcome::NeedsInput)
    }
}

/// The verdict on the proof of the `workline.source-bounded` validation (the first validation
/// with that id), checked after the evidence is present and before the effects.
///
/// `observed` is `None` for a caller that observed no checkout (a pure or fixture caller): only
/// the proof's shape is judged then. With `Some`, the source must be one of the observed
/// checkouts and the digest its live one.
pub fn proof_verdict(
    proof: Option<&CheckoutProof>,
    observed: Option<&[ObservedCheckout]>,
) -> Result<(), ProofRefusal> {
    let Some(proof) = proof else {
        return Err(ProofRefusal {
            code: ErrorCode::WorklineCheckoutProofMissing,
            message: format!(
                "The {SOURCE_BOUNDED_EVIDENCE} validation must carry its local checkout proof: \
                 \"proof\": {{kind, source, relative_cwd, checkout_digest, invocation}}."
            ),
        });
    };
    if let Some(refusal) = shape_refusal(proof) {
        return Err(refusal);
    }
    let Some(observed) = observed else {
        return Ok(());
    };
    let Some(live) = observed.iter().find(|c| c.source == proof.source) else {
        let eligible = if observed.is_empty() {
            "none".to_owned()
        } else {
            observed
                .iter()
                .map(|c| c.source.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(ProofRefusal::invalid(format!(
            "The proof names the source '{}', which is not a checkout this run acquired \
             (eligible: {eligible}).",
            proof.source
        )));
    };
    if live.digest != proof.checkout_digest {
        let message = if live.reproducible {
            format!(
                "The checkout of '{}' changed since the proof was captured.",
                proof.source
            )
        } else {
            format!(
                "The digest of '{}' does not match, and it is NOT stable across two consecutive \
                 computations: either the tree changes while it is validated or its fingerprint \
                 cannot be reproduced; capturing the proof again is not enough if this persists.",
                proof.source
            )
        };
        return Err(ProofRefusal {
            code: ErrorCode::WorklineCheckoutProofStale,
            message,
        });
    }
    Ok(())
}

/// What makes a parsed proof unusable as evidence whatever the checkouts, in the reference's
/// order: blank source or digest, unsafe `relative_cwd`, then the invocation of its kind.
pub fn shape_refusal(proof: &CheckoutProof) -> Option<ProofRefusal> {
    if blank(&proof.source) || blank(&proof.checkout_digest) {
        return Some(ProofRefusal::invalid(
            "The proof must declare a non-blank source and checkout_digest.",
        ));
    }
    if proof.relative_cwd != "." && safe_relative(&proof.relative_cwd).is_none() {
        return Some(ProofRefusal::invalid(format!(
            "relative_cwd '{}' is not a safe path inside the checkout ('.' or a relative path \
             without '.', '..' or empty segments).",
            proof.relative_cwd
        )));
    }
    match &proof.invocation {
        ProofInvocation::Command { program, args } => {
            if blank(program) {
                return Some(ProofRefusal::invalid(
                    "A command proof must declare its program and its args as texts.",
                ));
            }
            let remote = std::iter::once(program.as_str())
                .chain(args.iter().map(String::as_str))
                .find_map(remote_locator)?;
            Some(ProofRefusal::invalid(format!(
                "A command proof cannot invoke the external surface '{remote}': it must run in \
                 the checkout."
            )))
        }
        ProofInvocation::Inspection { artifact } => {
            if blank(artifact) {
                return Some(ProofRefusal::invalid(
                    "An inspection proof must declare its artifact.",
                ));
            }
            let Some(path) = safe_relative(artifact) else {
                return Some(ProofRefusal::invalid(format!(
                    "artifact '{artifact}' is not a safe path inside the checkout."
                )));
            };
            let remote = remote_locator(path)?;
            Some(ProofRefusal::invalid(format!(
                "An inspection proof cannot point at the external surface '{remote}': it must \
                 read a file of the checkout."
            )))
        }
    }
}

fn blank(s: &str) -> bool {
    js_trim(s).is_empty()
}

/// The reference's relative-path guard: the trimmed path, when it is not empty, has no
/// backslash, is not absolute (`/…` or a drive letter) and has no `.`, `..` or empty segment.
/// (Unlike `capability::paths::unsafe_relative`, it trims, and it bounds neither depth nor
/// control characters: a proof path is compared, never written.)
fn safe_relative(raw: &str) -> Option<&str> {
    let path = js_trim(raw);
    let b = path.as_bytes();
    let absolute =
        path.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':');
    let bad_segment = path
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..");
    (!path.is_empty() && !path.contains('\\') && !absolute && !bad_segment).then_some(path)
}

pub use super::source_boundary::remote_locator;

/// The digest of one checkout's state: the semantic digest of `{source, head, dirty,
/// changed_files (sorted by UTF-16 code units), worktree_fingerprint}`.
pub fn checkout_digest(
    source: &str,
    head: Option<&str>,
    dirty: bool,
    changed_files: &[String],
    worktree_fingerprint: &str,
) -> String {
    let mut changed: Vec<&str> = changed_files.iter().map(String::as_str).collect();
    changed.sort_by(|a, b| utf16_cmp(a, b));
    semantic_digest(&json!({
        "source": source,
        "head": head,
        "dirty": dirty,
        "changed_files": changed,
        "worktree_fingerprint": worktree_fingerprint,
    }))
}

/// `git rev-parse HEAD`'s answer as the digest takes it: the trimmed text, `None` when git failed
/// (`ok` false) or printed nothing.
pub fn head_of(ok: bool, stdout: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stdout);
    let sha = js_trim(&text);
    (ok && !sha.is_empty()).then(|| sha.to_owned())
}

/// Whether `git status --porcelain` printed anything but blanks.
pub fn porcelain_dirty(stdout: &[u8]) -> bool {
    !js_trim(&String::from_utf8_lossy(stdout)).is_empty()
}

/// The changed files of `git status --porcelain` as the digest takes them: the output decoded
/// (invalid UTF-8 replaced), split on newlines, each line past its three status columns (counted
/// in UTF-16 units), trimmed, blanks dropped. Paths stay as git wrote them: quoted when git quotes
/// them, and a rename as `old -> new`.
pub fn porcelain_changed_files(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .split('\n')
        .map(|line| js_trim(after_utf16_units(line, 3)))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `line.slice(n)` in JavaScript, for `n` falling on a character boundary.
fn after_utf16_units(line: &str, n: usize) -> &str {
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= n {
            return &line[i..];
        }
        units += c.len_utf16();
    }
    ""
}

/// The untracked paths of `git ls-files --others --exclude-standard -z`: decoded (invalid UTF-8
/// replaced), split on NUL, empties dropped, sorted by UTF-16 code units. Each is hashed with
/// `git hash-object --no-filters -- <path>` as written here.
pub fn untracked_paths(stdout: &[u8]) -> Vec<String> {
    let mut paths: Vec<String> = String::from_utf8_lossy(stdout)
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    paths.sort_by(|a, b| utf16_cmp(a, b));
    paths
}

/// What stands for an untracked path git could not hash (a dangling link, a folder, an
/// unreadable file); never a real blob id.
pub const UNHASHABLE_BLOB: &str = "unhashable";

/// The blob id of `git hash-object` as the fingerprint takes it: the trimmed output when git
/// succeeded, else [`UNHASHABLE_BLOB`].
pub fn blob_of(ok: bool, stdout: &[u8]) -> String {
    if ok {
        js_trim(&String::from_utf8_lossy(stdout)).to_owned()
    } else {
        UNHASHABLE_BLOB.to_owned()
    }
}

/// The content-sensitive fingerprint of a working tree: `sha256:` and the hex SHA-256 of
/// `patch\0` + the bytes of `git diff --binary --full-index --no-ext-diff HEAD --`, `status\0` +
/// the bytes of `git status --porcelain=v2 -z`, and for each untracked path in the given order
/// (see [`untracked_paths`]) `untracked\0<path>\0<blob id>\0` (see [`blob_of`]).
pub fn worktree_fingerprint(patch: &[u8], status: &[u8], untracked: &[(String, String)]) -> String {
    let mut hash = Sha256::new();
    hash.update(b"patch\0");
    hash.update(patch);
    hash.update(b"status\0");
    hash.update(status);
    for (path, blob) in untracked {
        hash.update(b"untracked\0");
        hash.update(path.as_bytes());
        hash.update(b"\0");
        hash.update(blob.as_bytes());
        hash.update(b"\0");
    }
    let mut out = String::from("sha256:");
    for b in hash.finalize() {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DIGEST: &str = "a2e759fe9bafc8f708dd90c34a6cb818521f07befb3d2879cb491f4550fe8c1c";

    fn command() -> Value {
        json!({
            "kind": "command",
            "source": "workspace",
            "relative_cwd": ".",
            "checkout_digest": DIGEST,
            "invocation": {"program": "cargo", "args": ["test", "-p", "aw-core"]},
        })
    }

    fn inspection() -> Value {
        json!({
            "kind": "inspection",
            "source": "ui",
            "relative_cwd": "web/app",
            "checkout_digest": DIGEST,
            "invocation": {"artifact": "docs/plans/001-plan-a.md"},
        })
    }

    fn with(mut v: Value, pointer: &str, new: Value) -> Value {
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        v.pointer_mut(parent)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert(key.to_owned(), new);
        v
    }

    fn without(mut v: Value, pointer: &str) -> Value {
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        v.pointer_mut(parent)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .remove(key);
        v
    }

    fn observed(source: &str, digest: &str, reproducible: bool) -> ObservedCheckout {
        ObservedCheckout {
            source: source.into(),
            digest: digest.into(),
            reproducible,
        }
    }

    /// The refusal of a proof that parses, judged without checkouts.
    fn shape(v: Value) -> ProofRefusal {
        let proof = parse_proof(&v).expect("a proof that parses");
        proof_verdict(Some(&proof), None).expect_err("a refused proof")
    }

    #[test]
    fn both_kinds_parse_and_keep_their_invocation() {
        let c = parse_proof(&command()).unwrap();
        assert_eq!(c.kind(), ProofKind::Command);
        assert_eq!(
            c.invocation,
            ProofInvocation::Command {
                program: "cargo".into(),
                args: vec!["test".into(), "-p".into(), "aw-core".into()],
            }
        );
        assert_eq!(c.source, "workspace");
        assert_eq!(c.relative_cwd, ".");
        assert_eq!(c.checkout_digest, DIGEST);
        let i = parse_proof(&inspection()).unwrap();
        assert_eq!(i.kind(), ProofKind::Inspection);
        assert_eq!(i.kind().as_str(), "inspection");
        assert_eq!(
            i.invocation,
            ProofInvocation::Inspection {
                artifact: "docs/plans/001-plan-a.md".into()
            }
        );
        // Keys beyond the shape are ignored, here and in the invocation.
        let extra = with(command(), "/invocation/artifact", json!("x"));
        assert_eq!(parse_proof(&extra), Some(c.clone()));
        assert_eq!(proof_verdict(Some(&c), None), Ok(()));
        assert_eq!(proof_verdict(Some(&i), None), Ok(()));
    }

    /// What makes `validations` malformed (FLOW_RESULT_INVALID), not a proof refusal.
    #[test]
    fn a_proof_of_the_wrong_types_does_not_parse() {
        let malformed = [
            json!(null),
            json!("proof"),
            json!([command()]),
            with(command(), "/kind", json!("Command")),
            with(command(), "/kind", json!("remote-read")),
            without(command(), "/kind"),
            with(command(), "/source", json!(1)),
            without(command(), "/source"),
            with(command(), "/relative_cwd", json!(null)),
            without(command(), "/relative_cwd"),
            with(command(), "/checkout_digest", json!(false)),
            without(command(), "/checkout_digest"),
            with(command(), "/invocation", json!(["cargo"])),
            without(command(), "/invocation"),
            // A kind whose invocation is the other kind's.
            with(command(), "/invocation", json!({"artifact": "a.md"})),
            with(
                inspection(),
                "/invocation",
                json!({"program": "cat", "args": []}),
            ),
            // Non-text program, args or artifact.
            with(command(), "/invocation/program", json!(null)),
            with(command(), "/invocation/args", json!("test")),
            with(command(), "/invocation/args", json!(["test", 1])),
            without(command(), "/invocation/args"),
            with(inspection(), "/invocation/artifact", json!(7)),
        ];
        for v in malformed {
            assert_eq!(parse_proof(&v), None, "{v}");
        }
        let entry = |p: Option<Value>| {
            let mut e = json!({"id": SOURCE_BOUNDED_EVIDENCE, "passed": true, "detail": "ok"});
            if let Some(p) = p {
                e["proof"] = p;
            }
            validation_proof(e.as_object().unwrap())
        };
        assert_eq!(entry(None), Ok(None));
        assert_eq!(entry(Some(json!(null))), Err(MalformedProof));
        assert_eq!(entry(Some(command())).unwrap().unwrap().source, "workspace");
    }

    #[test]
    fn no_proof_is_missing() {
        let refusal = proof_verdict(None, Some(&[])).unwrap_err();
        assert_eq!(refusal.code, ErrorCode::WorklineCheckoutProofMissing);
        assert!(refusal.message.contains("workline.source-bounded"));
        assert_eq!(
            proof_verdict(None, None).unwrap_err().code,
            ErrorCode::WorklineCheckoutProofMissing
        );
    }

    #[test]
    fn blank_source_or_digest_is_invalid() {
        for v in [
            with(command(), "/source", json!("")),
            with(command(), "/source", json!(" \u{feff}\t")),
            with(inspection(), "/checkout_digest", json!("  ")),
        ] {
            let r = shape(v);
            assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
            assert!(
                r.message.contains("source and checkout_digest"),
                "{}",
                r.message
            );
        }
    }

    #[test]
    fn relative_cwd_is_dot_or_a_safe_relative_path() {
        for ok in ["src", "web/app", " web/app ", "a..b/c"] {
            let p = parse_proof(&with(command(), "/relative_cwd", json!(ok))).unwrap();
            assert_eq!(proof_verdict(Some(&p), None), Ok(()), "{ok}");
        }
        for bad in [
            "", " ", " .", "./src", "..", "../x", "src/../x", "src/", "/abs", "C:/x", "c:x",
            "a\\b", "a//b",
        ] {
            let r = shape(with(command(), "/relative_cwd", json!(bad)));
            assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid, "{bad:?}");
            assert!(r.message.contains("relative_cwd"), "{}", r.message);
        }
    }

    #[test]
    fn a_command_needs_a_program_and_no_remote_locator() {
        let r = shape(with(command(), "/invocation/program", json!(" ")));
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
        assert!(r.message.contains("program"), "{}", r.message);
        // Empty args are fine.
        let p = parse_proof(&with(command(), "/invocation/args", json!([]))).unwrap();
        assert_eq!(proof_verdict(Some(&p), None), Ok(()));
        for (args, locator) in [
            (
                json!(["https://ci.example.com/run/1"]),
                "https://ci.example.com/run/1",
            ),
            (json!(["-h", "db.internal:5432"]), "db.internal:5432"),
            (json!(["--url=postgres://u@h/db"]), "postgres://u@h/db"),
            (json!(["see (http://x.y/z) now"]), "http://x.y/z"),
            (
                json!(["localhost:8080/health?x=1"]),
                "localhost:8080/health?x=1",
            ),
        ] {
            let r = shape(with(command(), "/invocation/args", args));
            assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
            assert!(r.message.contains(&format!("'{locator}'")), "{}", r.message);
        }
        let r = shape(with(
            command(),
            "/invocation/program",
            json!("ssh://deploy@prod"),
        ));
        assert!(r.message.contains("'ssh://deploy@prod'"), "{}", r.message);
        let p = parse_proof(&with(
            command(),
            "/invocation/args",
            json!(["a:1", "test", "--jobs=2", "C:\\x", "x_y:80", "1http://x"]),
        ))
        .unwrap();
        assert_eq!(proof_verdict(Some(&p), None), Ok(()));
    }

    /// The locator grammar, each expectation checked against the reference's regex in node.
    #[test]
    fn remote_locators_are_found_as_javascript_finds_them() {
        let cases: [(&str, Option<&str>); 16] = [
            ("a:1", None),
            ("12:30", Some("12:30")),
            ("test", None),
            ("--jobs=2", None),
            ("C:\\x", None),
            ("x_y:80", None),
            ("file.rs:12", Some("file.rs:12")),
            ("\u{e9}host:80", Some("host:80")),
            ("\u{f1}https://a\u{a0}b", Some("https://a")),
            ("x\u{feff}http://a\u{feff}b", Some("http://a")),
            ("http://a\u{85}b", Some("http://a\u{85}b")),
            ("1http://x", None),
            ("_ftp://x", None),
            ("see (http://x.y/z) now", Some("http://x.y/z")),
            (
                "localhost:8080/health?x=1",
                Some("localhost:8080/health?x=1"),
            ),
            ("h:123456", Some("h:12345")),
        ];
        for (text, found) in cases {
            assert_eq!(remote_locator(text), found, "{text:?}");
        }
    }

    #[test]
    fn an_inspection_needs_a_safe_local_artifact() {
        let r = shape(with(inspection(), "/invocation/artifact", json!("\t")));
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
        assert!(r.message.contains("artifact"), "{}", r.message);
        for bad in ["../secret", "/etc/passwd", "a//b", "docs\\x.md"] {
            let r = shape(with(inspection(), "/invocation/artifact", json!(bad)));
            assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
            assert!(r.message.contains("not a safe path"), "{}", r.message);
        }
        // A URI always has an empty segment, so it is an unsafe path before it is a locator.
        let r = shape(with(
            inspection(),
            "/invocation/artifact",
            json!("https://x.y/a.md"),
        ));
        assert!(r.message.contains("not a safe path"), "{}", r.message);
        let r = shape(with(
            inspection(),
            "/invocation/artifact",
            json!(" grafana.lan:3000/d "),
        ));
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
        assert!(r.message.contains("'grafana.lan:3000/d'"), "{}", r.message);
        let p = parse_proof(&with(
            inspection(),
            "/invocation/artifact",
            json!(" src/a.rs "),
        ))
        .unwrap();
        assert_eq!(proof_verdict(Some(&p), None), Ok(()));
    }

    #[test]
    fn the_shape_is_judged_before_the_checkouts() {
        let v = with(command(), "/relative_cwd", json!(".."));
        let p = parse_proof(&v).unwrap();
        let live = [observed("elsewhere", "d", true)];
        let r = proof_verdict(Some(&p), Some(&live)).unwrap_err();
        assert!(r.message.contains("relative_cwd"), "{}", r.message);
    }

    #[test]
    fn the_source_must_be_an_observed_checkout() {
        let p = parse_proof(&inspection()).unwrap();
        let r = proof_verdict(
            Some(&p),
            Some(&[
                observed("workspace", DIGEST, true),
                observed("api", DIGEST, true),
            ]),
        )
        .unwrap_err();
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
        assert!(r.message.contains("'ui'"), "{}", r.message);
        assert!(
            r.message.contains("(eligible: workspace, api)"),
            "{}",
            r.message
        );
        let r = proof_verdict(Some(&p), Some(&[])).unwrap_err();
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofInvalid);
        assert!(r.message.contains("(eligible: none)"), "{}", r.message);
    }

    #[test]
    fn a_digest_other_than_the_live_one_is_stale() {
        let p = parse_proof(&inspection()).unwrap();
        let live = |digest: &str, reproducible| {
            proof_verdict(
                Some(&p),
                Some(&[
                    observed("workspace", "other", true),
                    observed("ui", digest, reproducible),
                ]),
            )
        };
        assert_eq!(live(DIGEST, true), Ok(()));
        // The live digest decides even when it could not be reproduced.
        assert_eq!(live(DIGEST, false), Ok(()));
        let moved = live("0000", true).unwrap_err();
        assert_eq!(moved.code, ErrorCode::WorklineCheckoutProofStale);
        assert!(moved.message.contains("changed since"), "{}", moved.message);
        let unstable = live("0000", false).unwrap_err();
        assert_eq!(unstable.code, ErrorCode::WorklineCheckoutProofStale);
        assert!(
            unstable.message.contains("NOT stable"),
            "{}",
            unstable.message
        );
        assert_ne!(moved.message, unstable.message);
    }

    #[test]
    fn a_refusal_is_an_evaluated_needs_input_rejection() {
        let r = proof_verdict(None, None)
            .unwrap_err()
            .into_rejection("recapture the proof and submit again");
        assert_eq!(r.code, ErrorCode::WorklineCheckoutProofMissing);
        assert!(r.spent);
        assert_eq!(r.outcome, Some(Outcome::NeedsInput));
        assert_eq!(r.action, "Recapture the proof and submit again");
    }

    // The golden values below were computed by the reference's own code (its git adapter over a
    // fake process returning these bytes, and its `checkoutDigest`).

    #[test]
    fn the_fingerprint_and_digest_match_the_reference() {
        let patch = [b"diff --git a/x b/x\n".as_slice(), &[0, 0xff, 0xfe, 10]].concat();
        let status =
            "1 .M N... 100644 100644 100644 abc abc x\0? \u{ff61}x\0? \u{1F600}y\0? gone\0";
        let listed = ["\u{ff61}x\0gone\0\u{1F600}y\0".as_bytes(), &[0x62, 0xff, 0]].concat();
        let paths = untracked_paths(&listed);
        // UTF-16 order: a surrogate pair sorts below U+FF61 (bytes would put it above).
        assert_eq!(paths, ["b\u{fffd}", "gone", "\u{1F600}y", "\u{ff61}x"]);
        let untracked: Vec<(String, String)> = paths
            .into_iter()
            .map(|p| {
                let blob = if p == "gone" {
                    blob_of(false, b"")
                } else {
                    blob_of(true, format!("  blob-of-{p}\n").as_bytes())
                };
                (p, blob)
            })
            .collect();
        assert_eq!(untracked[1].1, "unhashable");
        let fp = worktree_fingerprint(&patch, status.as_bytes(), &untracked);
        assert_eq!(
            fp,
            "sha256:265e840790be546225d9b6bc0892614c90a8ff233488e89400208309683ee1f9"
        );
        let porcelain =
            " M x\nR  old -> new\n?? \"\\303\\251.txt\"\n?? \u{ff61}x\n?? \u{1F600}y\n  \n"
                .as_bytes();
        let changed = porcelain_changed_files(porcelain);
        assert_eq!(
            changed,
            [
                "x",
                "old -> new",
                "\"\\303\\251.txt\"",
                "\u{ff61}x",
                "\u{1F600}y"
            ]
        );
        assert!(porcelain_dirty(porcelain));
        assert!(!porcelain_dirty(b" \n\n"));
        let head = head_of(true, b"0123456789abcdef0123456789abcdef01234567\n");
        assert_eq!(
            head.as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert_eq!(head_of(false, b"HEAD\n"), None);
        assert_eq!(head_of(true, b"\n"), None);
        assert_eq!(
            checkout_digest("ui", head.as_deref(), true, &changed, &fp),
            "8c9d551f6380ce54db5af3d3d62e0cfe6c3ec93975395f9171a263a26d0c3fe9"
        );
        assert_eq!(
            checkout_digest("workspace", None, false, &[], &fp),
            "deddd7cd5fd785086d8ca2d95ec298484becd1d8fef62a2b594a134b3c20ed9a"
        );
    }

    #[test]
    fn changed_files_are_cut_line_by_line() {
        // The first line keeps its first character; short lines and blanks are dropped.
        assert_eq!(
            porcelain_changed_files(b" M src/a.rs\r\nM  b\nab\n\n?? c d \n"),
            ["src/a.rs", "b", "c d"]
        );
    }
}

/// `aw flow proof`'s output: a proof as an answer carries it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ProofOutput {
    /// `command` or `inspection`.
    pub kind: &'static str,
    /// The source alias checked.
    pub source: String,
    /// The folder the check ran from, relative to the checkout.
    pub relative_cwd: String,
    /// The live digest of the checkout.
    pub checkout_digest: String,
    /// What was checked: `{program, args}` or `{artifact}`.
    pub invocation: ProofInvocationOutput,
}

/// What a proof says was checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ProofInvocationOutput {
    /// A command run.
    Command {
        /// Its program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A file inspected.
    Inspection {
        /// Its path.
        artifact: String,
    },
}

impl From<&CheckoutProof> for ProofOutput {
    fn from(p: &CheckoutProof) -> Self {
        ProofOutput {
            kind: p.kind().as_str(),
            source: p.source.clone(),
            relative_cwd: p.relative_cwd.clone(),
            checkout_digest: p.checkout_digest.clone(),
            invocation: match &p.invocation {
                ProofInvocation::Command { program, args } => ProofInvocationOutput::Command {
                    program: program.clone(),
                    args: args.clone(),
                },
                ProofInvocation::Inspection { artifact } => ProofInvocationOutput::Inspection {
                    artifact: artifact.clone(),
                },
            },
        }
    }
}
