//! Session custody (`.<ns>/sessions/<folder>/.custody.json`, the reference v22's format): what a
//! session was handed at birth (its inputs, each with the text it had), the source checkouts it
//! took units of, and what it did later (units taken and integrated, documents published, a flow
//! adopted), sealed by one digest that every change recomputes.
//!
//! Everything here is pure: the shell reads the inputs, the documents folders and the clock,
//! and writes the file this module renders. A session without the file is a legacy session: every
//! later append is a no-op for it (the shell's call), and only retirement refuses it.
//!
//! The seal (isolation-spec-v22 §2.2) is the semantic digest of a projection of the record:
//! parents sorted by `kind:key`, artifacts sorted by path with each baseline's `content` replaced
//! by its digest, sources sorted by alias, effects in recorded order. The file keeps the
//! recorded order of everything; only the projection sorts.

use crate::calendar::parse_date;
use crate::canonical::{semantic_digest, string_digest, utf16_cmp};
use crate::capability::paths::unsafe_relative;
use crate::flow::docs_canon::CATEGORIES;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[cfg(test)]
mod tests;

/// The file's name inside a session folder.
pub const FILE: &str = ".custody.json";
/// The only version there is.
pub const VERSION: u64 = 1;

/// A whole custody record, fields in the reference's order (the file is written in this order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Custody {
    /// Always [`VERSION`] when aw writes it; anything else is a completeness gap.
    pub version: u64,
    /// The session it belongs to.
    pub subject: Subject,
    /// The session folder, absolute, as it was at birth.
    pub subject_path: String,
    /// The spec and plan documents the session's inputs are, in input order.
    pub parents: Vec<Parent>,
    /// The local date of birth, `YYYY-MM-DD`.
    pub created: String,
    /// The files sealed: inputs at birth, then what publications touched.
    pub artifacts: Vec<Artifact>,
    /// The source checkouts the session took units of.
    pub sources: Vec<Source>,
    /// What happened, in order.
    pub effects: Vec<Effect>,
    /// The seal ([`seal`]).
    pub digest: String,
}

/// The subject of a custody: `{kind:"session", key:<folder>}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subject {
    /// Always `session`.
    pub kind: String,
    /// The session folder's name.
    pub key: String,
}

/// A typed parent: a core document the session was born from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parent {
    /// `spec` or `plan`.
    pub kind: String,
    /// The document's number as written in its file name (`001`, `0010`).
    pub key: String,
}

/// Whether a sealed file was handed to the session or made by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// It existed (or was named) before the session changed it.
    Input,
    /// The session created it.
    Output,
}

/// One sealed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// Workspace-relative path.
    pub path: String,
    /// Input or output.
    pub role: Role,
    /// What it was before the session touched it.
    pub before: Baseline,
}

/// A file as it was: absent (every other field null), or its full text with its digest and
/// UTF-8 length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// Whether the file existed.
    pub existed: bool,
    /// The baseline digest of the text ([`string_digest`]).
    pub digest: Option<String>,
    /// The text's UTF-8 length.
    pub bytes: Option<u64>,
    /// The full text.
    pub content: Option<String>,
}

impl Baseline {
    /// The baseline of a path with no file.
    pub fn absent() -> Baseline {
        Baseline {
            existed: false,
            digest: None,
            bytes: None,
            content: None,
        }
    }

    /// The baseline of a file holding `text`.
    pub fn of_text(text: &str) -> Baseline {
        Baseline {
            existed: true,
            digest: Some(string_digest(text)),
            bytes: Some(text.len() as u64),
            content: Some(text.to_owned()),
        }
    }

    /// The baseline of what was read: `None` is an absent file.
    pub fn of(text: Option<&str>) -> Baseline {
        text.map_or_else(Baseline::absent, Baseline::of_text)
    }
}

/// A source checkout the session took a unit of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The source's alias.
    pub alias: String,
    /// The `## Fuentes` cell, as written.
    pub path: String,
    /// The main checkout's branch when the unit was taken.
    pub branch: Option<String>,
    /// The unit's HEAD when it was taken.
    pub baseline_head: Option<String>,
    /// `aw/<folder>`.
    pub unit_branch: Option<String>,
    /// The unit's folder, absolute.
    pub unit_path: Option<String>,
    /// The semantic digest of `dirty_paths`.
    pub dirty_digest: Option<String>,
    /// The main checkout's uncommitted paths, sorted.
    pub dirty_paths: Vec<String>,
}

/// What kind of thing happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// `worktree ensure`.
    UnitTaken,
    /// `worktree integrate` merged the unit.
    UnitIntegrated,
    /// Declared by the format; no command records it.
    Commit,
    /// A flow published a proposal.
    ArtifactPublished,
    /// `flow advance --adopt`.
    FlowAdopted,
    /// Declared by the format; no command records it.
    HistoryRow,
}

/// One recorded effect. Every field is always written (null or empty when it does not apply).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// What happened.
    pub kind: EffectKind,
    /// The source it happened to, for unit effects.
    pub alias: Option<String>,
    /// The commit before.
    pub before: Option<String>,
    /// The commit after.
    pub after: Option<String>,
    /// Typed parents (no command records any).
    pub parents: Vec<Parent>,
    /// The git ref moved or taken.
    #[serde(rename = "ref")]
    pub ref_name: Option<String>,
    /// The paths (published documents) or the flow id (adoption).
    pub paths: Vec<String>,
    /// The local date, `YYYY-MM-DD`.
    pub at: String,
}

impl Effect {
    fn new(kind: EffectKind, at: &str) -> Effect {
        Effect {
            kind,
            alias: None,
            before: None,
            after: None,
            parents: Vec::new(),
            ref_name: None,
            paths: Vec::new(),
            at: at.to_owned(),
        }
    }
}

/// The seal of a record: the semantic digest of its projection (module doc). The stored
/// `digest` is not part of it.
pub fn seal(c: &Custody) -> String {
    let mut parents: Vec<&Parent> = c.parents.iter().collect();
    parents.sort_by(|a, b| {
        utf16_cmp(
            &format!("{}:{}", a.kind, a.key),
            &format!("{}:{}", b.kind, b.key),
        )
    });
    let mut artifacts: Vec<&Artifact> = c.artifacts.iter().collect();
    artifacts.sort_by(|a, b| utf16_cmp(&a.path, &b.path));
    let artifacts: Vec<Value> = artifacts
        .into_iter()
        .map(|a| {
            json!({
                "path": a.path,
                "role": a.role,
                "before": {
                    "existed": a.before.existed,
                    "digest": a.before.digest,
                    "bytes": a.before.bytes,
                    "content_digest": a.before.content.as_deref().map(string_digest),
                },
            })
        })
        .collect();
    let mut sources: Vec<&Source> = c.sources.iter().collect();
    sources.sort_by(|a, b| utf16_cmp(&a.alias, &b.alias));
    semantic_digest(&json!({
        "version": c.version,
        "subject": c.subject,
        "subject_path": c.subject_path,
        "parents": parents,
        "created": c.created,
        "artifacts": artifacts,
        "sources": sources,
        "effects": c.effects,
    }))
}

impl Custody {
    /// The record of a session born today: its inputs (each path with its text, `None` when
    /// absent) become `input` artifacts in order, the core documents among them its parents.
    pub fn born(
        folder: &str,
        subject_path: &str,
        created: &str,
        inputs: &[(String, Option<String>)],
    ) -> Custody {
        let mut parents: Vec<Parent> = Vec::new();
        for (path, _) in inputs {
            if let Some(p) = parent_of(path)
                && !parents.contains(&p)
            {
                parents.push(p);
            }
        }
        let mut c = Custody {
            version: VERSION,
            subject: Subject {
                kind: "session".to_owned(),
                key: folder.to_owned(),
            },
            subject_path: subject_path.to_owned(),
            parents,
            created: created.to_owned(),
            artifacts: inputs
                .iter()
                .map(|(path, text)| Artifact {
                    path: path.clone(),
                    role: Role::Input,
                    before: Baseline::of(text.as_deref()),
                })
                .collect(),
            sources: Vec::new(),
            effects: Vec::new(),
            digest: String::new(),
        };
        c.reseal();
        c
    }

    /// Recomputes and stores the seal.
    pub fn reseal(&mut self) {
        self.digest = seal(self);
    }

    /// The file's text: JSON indented by two spaces, with a trailing newline.
    pub fn render(&self) -> String {
        // Serializing plain strings, numbers and vectors cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a record; the error is a short English reason.
    pub fn parse(text: &str) -> Result<Custody, String> {
        let value = crate::canonical::parse_json(text)?;
        serde_json::from_value(value).map_err(|e| format!("not a custody record ({e})"))
    }

    /// Records a unit taken of a source ([`UnitSource`]): the first time per alias adds its
    /// `sources[]` entry; a known alias only gets the unit fields it lacks. Then appends
    /// `unit_taken` (`after` the unit's HEAD, `ref` its branch) and re-seals.
    pub fn unit_taken(&mut self, unit: &UnitSource, at: &str) {
        match self.sources.iter_mut().find(|s| s.alias == unit.alias) {
            Some(known) => {
                fill(&mut known.baseline_head, &unit.baseline_head);
                fill(&mut known.unit_branch, &Some(unit.unit_branch.clone()));
                fill(&mut known.unit_path, &Some(unit.unit_path.clone()));
            }
            None => {
                let mut dirty = unit.dirty_paths.clone();
                dirty.sort_by(|a, b| utf16_cmp(a, b));
                self.sources.push(Source {
                    alias: unit.alias.clone(),
                    path: unit.path.clone(),
                    branch: unit.branch.clone(),
                    baseline_head: unit.baseline_head.clone(),
                    unit_branch: Some(unit.unit_branch.clone()),
                    unit_path: Some(unit.unit_path.clone()),
                    dirty_digest: Some(semantic_digest(&json!(dirty))),
                    dirty_paths: dirty,
                });
            }
        }
        let mut e = Effect::new(EffectKind::UnitTaken, at);
        e.alias = Some(unit.alias.clone());
        e.after = unit.baseline_head.clone();
        e.ref_name = Some(format!("refs/heads/{}", unit.unit_branch));
        self.push(e);
    }

    /// Records a unit merged into its source's working branch: `before`/`after` are that
    /// branch's HEAD around the merge.
    pub fn unit_integrated(
        &mut self,
        alias: &str,
        before: Option<&str>,
        after: Option<&str>,
        working_branch: &str,
        at: &str,
    ) {
        let mut e = Effect::new(EffectKind::UnitIntegrated, at);
        e.alias = Some(alias.to_owned());
        e.before = before.map(str::to_owned);
        e.after = after.map(str::to_owned);
        e.ref_name = Some(format!("refs/heads/{working_branch}"));
        self.push(e);
    }

    /// Records a publication: each destination not sealed yet becomes an `input` with its
    /// previous text when it had one, else an `output` with the absent baseline; then appends
    /// `artifact_published` naming every destination.
    pub fn artifact_published(&mut self, destinations: &[(String, Option<String>)], at: &str) {
        for (path, previous) in destinations {
            if self.artifacts.iter().any(|a| &a.path == path) {
                continue;
            }
            let role = if previous.is_some() {
                Role::Input
            } else {
                Role::Output
            };
            self.artifacts.push(Artifact {
                path: path.clone(),
                role,
                before: Baseline::of(previous.as_deref()),
            });
        }
        let mut e = Effect::new(EffectKind::ArtifactPublished, at);
        e.paths = destinations.iter().map(|(p, _)| p.clone()).collect();
        self.push(e);
    }

    /// Records that a flow adopted the session.
    pub fn flow_adopted(&mut self, flow: &str, at: &str) {
        let mut e = Effect::new(EffectKind::FlowAdopted, at);
        e.paths = vec![flow.to_owned()];
        self.push(e);
    }

    fn push(&mut self, e: Effect) {
        self.effects.push(e);
        self.reseal();
    }
}

/// Sets `slot` to `value` only when it is empty.
fn fill(slot: &mut Option<String>, value: &Option<String>) {
    if slot.is_none() {
        slot.clone_from(value);
    }
}

/// A unit just taken, as `worktree ensure` sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSource {
    /// The source's alias.
    pub alias: String,
    /// The `## Fuentes` cell, as written.
    pub path: String,
    /// The main checkout's current branch (the base when it has none).
    pub branch: Option<String>,
    /// The unit's HEAD (the source's when the unit has none).
    pub baseline_head: Option<String>,
    /// The unit's branch, `aw/<folder>`.
    pub unit_branch: String,
    /// The unit's folder, absolute.
    pub unit_path: String,
    /// The paths `git status --porcelain` reports in the main checkout (any order).
    pub dirty_paths: Vec<String>,
}

/// The typed parent a workspace-relative path is, if it is a core document: directly in the
/// spec or plan folder, named `NNN-spec[-…].md` / `NNN-plan[-…].md` (`NNN` three digits or
/// more; the word in any case, the `.md` as written).
pub fn parent_of(path: &str) -> Option<Parent> {
    let (dir, name) = path.rsplit_once('/')?;
    let kind = ["spec", "plan"]
        .into_iter()
        .find(|k| category_dir(k) == Some(dir))?;
    let stem = name.strip_suffix(".md")?;
    let digits = stem.bytes().take_while(u8::is_ascii_digit).count();
    if digits < 3 {
        return None;
    }
    let rest = stem[digits..].strip_prefix('-')?;
    let word = rest.get(..kind.len())?;
    let after = &rest[kind.len()..];
    (word.eq_ignore_ascii_case(kind) && (after.is_empty() || after.starts_with('-'))).then(|| {
        Parent {
            kind: kind.to_owned(),
            key: stem[..digits].to_owned(),
        }
    })
}

/// The folder of a documents category in the canonical layout (the only one the docs canon
/// accepts for specs and plans).
fn category_dir(category: &str) -> Option<&'static str> {
    CATEGORIES
        .iter()
        .find(|(c, _)| *c == category)
        .map(|(_, d)| *d)
}

/// Why a `--input` cannot be sealed, if it cannot; else the path to seal (trimmed). The rule is
/// the safe relative path: not empty, no backslash, not absolute, no `.`, `..` or empty segment.
pub fn input_path(raw: &str) -> Result<String, String> {
    let path = raw.trim();
    let why = if path.is_empty() {
        Some("is empty")
    } else {
        unsafe_relative(path)
    };
    match why {
        None => Ok(path.to_owned()),
        Some(why) => Err(format!(
            "--input '{raw}' must be a workspace-relative path: it {why}"
        )),
    }
}

/// The declared inputs as sealed: each checked ([`input_path`]), duplicates collapsed (the
/// first kept). The first refusal wins.
pub fn declared_inputs(raw: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for r in raw {
        let p = input_path(r)?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The document a session's name says it works on: a spec for `-spec-refine` and `-plan-new`,
/// a plan for `-plan-refine` and `-plan-exec`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// `spec` or `plan`.
    pub kind: &'static str,
    /// Its folder, workspace-relative.
    pub dir: &'static str,
    /// The descriptor without its flow suffix.
    pub slug: String,
}

/// What the descriptor (the name without a leading `NNN-`) expects, if anything.
pub fn expected(descriptor: &str) -> Option<Expected> {
    const FLOWS: [(&str, &str); 4] = [
        ("-spec-refine", "spec"),
        ("-plan-new", "spec"),
        ("-plan-refine", "plan"),
        ("-plan-exec", "plan"),
    ];
    let digits = descriptor.bytes().take_while(u8::is_ascii_digit).count();
    let descriptor = match descriptor[digits..].strip_prefix('-') {
        Some(rest) if digits >= 3 => rest,
        _ => descriptor,
    };
    FLOWS.iter().find_map(|(suffix, kind)| {
        let slug = descriptor.strip_suffix(suffix)?;
        Some(Expected {
            kind,
            dir: category_dir(kind)?,
            slug: slug.to_owned(),
        })
    })
}

/// Where the inputs came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputsFrom {
    /// `--input`.
    Declared,
    /// Found from the session's name.
    Derived,
    /// No input.
    None,
}

/// The inputs a session is born with, when none is declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// The one document found, workspace-relative.
    pub input: Option<String>,
    /// Why there is none when the name expected one.
    pub note: Option<String>,
}

/// Finds the expected document among the names of its folder's entries: `NNN-<kind>-<slug>.md`
/// compared without case. Exactly one match is the input; none or several, a note.
pub fn derive(expected: &Expected, names: &[String]) -> Derived {
    let wanted = format!("-{}-{}.md", expected.kind, expected.slug).to_lowercase();
    let mut found: Vec<&String> = names
        .iter()
        .filter(|n| {
            let digits = n.bytes().take_while(u8::is_ascii_digit).count();
            digits >= 3 && n[digits..].to_lowercase() == wanted
        })
        .collect();
    found.sort_by(|a, b| utf16_cmp(a, b));
    match found.as_slice() {
        [one] => Derived {
            input: Some(format!("{}/{one}", expected.dir)),
            note: None,
        },
        [] => Derived {
            input: None,
            note: Some(format!(
                "the custody starts with no inputs: there is no '{}/NNN-{}-{}.md' to seal",
                expected.dir, expected.kind, expected.slug
            )),
        },
        several => Derived {
            input: None,
            note: Some(format!(
                "the custody starts with no inputs: '{}' matches {} documents ({}) and aw does \
                 not choose between them; create the session again with --input <path>",
                expected.slug,
                several.len(),
                several
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        },
    }
}

/// A reason a custody is not complete enough to retire its session by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gap {
    /// A version other than 1.
    Version(u64),
    /// The stored digest is not the seal of the record.
    Digest,
    /// An input that existed has no digest.
    InputWithoutDigest(String),
    /// A source with a unit has no baseline head.
    UnitWithoutBaseline(String),
}

impl std::fmt::Display for Gap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gap::Version(v) => write!(f, "custody version {v} is not 1"),
            Gap::Digest => f.write_str("the custody digest does not match its content"),
            Gap::InputWithoutDigest(p) => write!(f, "input {p} existed but has no digest"),
            Gap::UnitWithoutBaseline(a) => {
                write!(f, "the unit of source {a} has no baseline head")
            }
        }
    }
}

/// Every completeness gap of a record, in the order: version, digest, inputs, sources.
pub fn gaps(c: &Custody) -> Vec<Gap> {
    let mut out = Vec::new();
    if c.version != VERSION {
        out.push(Gap::Version(c.version));
    }
    if seal(c) != c.digest {
        out.push(Gap::Digest);
    }
    for a in &c.artifacts {
        if a.role == Role::Input && a.before.existed && a.before.digest.is_none() {
            out.push(Gap::InputWithoutDigest(a.path.clone()));
        }
    }
    for s in &c.sources {
        let has_unit = s.unit_branch.is_some() || s.unit_path.is_some();
        if has_unit && s.baseline_head.is_none() {
            out.push(Gap::UnitWithoutBaseline(s.alias.clone()));
        }
    }
    out
}

/// The custody's `created` date, when `text` is a JSON object whose `created` is a real
/// `YYYY-MM-DD` date; `None` for anything else (a custody that cannot be read dates nothing).
/// Read leniently on purpose: a record too damaged to append to still dates its session.
pub fn created(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    let created = value.as_object()?.get("created")?.as_str()?;
    parse_date(created).map(|_| created.to_owned())
}
