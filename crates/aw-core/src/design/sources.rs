//! Declared sources and what became of each (capability spec §10.4): the v1 source catalog,
//! the classifier, the five dispositions, the report that refuses an omission nobody explained,
//! the maturity a result may claim, and the gate an original must pass before it is copied into
//! a package.
//!
//! The rule the whole module exists for is fail-closed: a source that did not contribute
//! blocks `handoff` unless someone wrote down why the design does not need it. A design that
//! silently dropped a requirements document must not call itself ready for implementation.

use super::failure::DesignFailure;
use crate::capability::descriptor::Sensitivity;
use crate::error_code::ErrorCode;
use aw_json::js::{js_string, js_trim};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::LazyLock;

/// The kind of a source, from the v1 catalog. Binary documents are read by the host, never by
/// aw: the catalog says what the domain can account for, not what aw decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// Markdown or plain text.
    Markdown,
    /// A picture.
    Image,
    /// A PDF document.
    Pdf,
    /// A Word document.
    Docx,
    /// A PowerPoint deck.
    Pptx,
    /// Conversation or attachments the host exposed; also what an unclassifiable locator is
    /// reported as.
    HostContext,
    /// An existing package, by identity (`DES-001`, `DES-001@r2`).
    Package,
    /// A provider reference (`figma://…`).
    ProviderLocator,
}

impl SourceKind {
    /// Whether a locator of this kind names a file (markdown, image, pdf, docx, pptx): what can
    /// be checked for existence.
    pub fn is_file(self) -> bool {
        matches!(
            self,
            SourceKind::Markdown
                | SourceKind::Image
                | SourceKind::Pdf
                | SourceKind::Docx
                | SourceKind::Pptx
        )
    }
}

/// Every kind, in the catalog's order.
pub const SOURCE_KINDS: [SourceKind; 8] = [
    SourceKind::Markdown,
    SourceKind::Image,
    SourceKind::Pdf,
    SourceKind::Docx,
    SourceKind::Pptx,
    SourceKind::HostContext,
    SourceKind::Package,
    SourceKind::ProviderLocator,
];

impl SourceKind {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Markdown => "markdown",
            SourceKind::Image => "image",
            SourceKind::Pdf => "pdf",
            SourceKind::Docx => "docx",
            SourceKind::Pptx => "pptx",
            SourceKind::HostContext => "host_context",
            SourceKind::Package => "package",
            SourceKind::ProviderLocator => "provider_locator",
        }
    }
}

/// What became of a source. Five values because the four ways a source can fail to contribute
/// are four different problems for whoever has to fix them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    /// Read, and its content reached the design.
    Used,
    /// Deliberately not read: a decision, with its reason.
    Skipped,
    /// A format v1 never promised, retired formats included.
    Unsupported,
    /// It should have been readable and was not.
    Unavailable,
    /// Withheld on purpose.
    Redacted,
}

/// Every disposition, in the vocabulary's order.
pub const SOURCE_DISPOSITIONS: [Disposition; 5] = [
    Disposition::Used,
    Disposition::Skipped,
    Disposition::Unsupported,
    Disposition::Unavailable,
    Disposition::Redacted,
];

impl Disposition {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::Used => "used",
            Disposition::Skipped => "skipped",
            Disposition::Unsupported => "unsupported",
            Disposition::Unavailable => "unavailable",
            Disposition::Redacted => "redacted",
        }
    }
}

/// One declared source and what became of it (keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DesignSource {
    /// The declared input it arrived as.
    pub name: String,
    /// Its catalog kind.
    pub kind: SourceKind,
    /// Where it is, as declared.
    pub locator: String,
    /// What became of it.
    pub disposition: Disposition,
    /// Why it did not contribute (required for every disposition but `used`).
    pub reason: Option<String>,
    /// What reading it produced (extracted sections, transcribed screens), for an audit.
    pub derived: Vec<String>,
    /// Whether reading it needs more than the invocation's authority.
    pub sensitivity: Sensitivity,
    /// Whether the design can be complete without it (essential unless someone says otherwise:
    /// assuming a source is optional is how a dropped requirement goes unnoticed).
    pub essential: bool,
}

static PACKAGE_SOURCE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^DES-(?:[0-9]{3}|[1-9][0-9]{3,})(?:@r[1-9][0-9]{0,5})?$").ok());
static PROVIDER_LOCATOR: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^[a-z][a-z0-9+.-]*://").ok());

fn matches(re: &LazyLock<Option<Regex>>, text: &str) -> bool {
    re.as_ref().is_some_and(|re| re.is_match(text))
}

/// The kind a locator looks like, or `None` when nothing in the catalog matches (never a
/// guess). Trimmed first; a package identity, then a `scheme://` provider locator, then the
/// lowercased text after the last `.` (the whole locator when it has no dot, as the reference
/// reads it: a bare `pdf` is a pdf).
pub fn classify_source(locator: &str) -> Option<SourceKind> {
    let trimmed = js_trim(locator);
    if trimmed.is_empty() {
        return None;
    }
    if matches(&PACKAGE_SOURCE, trimmed) {
        return Some(SourceKind::Package);
    }
    if matches(&PROVIDER_LOCATOR, trimmed) {
        return Some(SourceKind::ProviderLocator);
    }
    let extension = trimmed
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_lowercase();
    match extension.as_str() {
        "md" | "markdown" | "txt" => Some(SourceKind::Markdown),
        "png" | "jpg" | "jpeg" | "webp" | "gif" | "svg" => Some(SourceKind::Image),
        "pdf" => Some(SourceKind::Pdf),
        "docx" => Some(SourceKind::Docx),
        "pptx" => Some(SourceKind::Pptx),
        _ => None,
    }
}

/// The locators an input's value declares: each item of an array (as JavaScript's `String`
/// writes it), a string as one locator (a comma is part of it, not a separator), nothing
/// otherwise.
pub fn declared_locators(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items.iter().map(js_string).collect(),
        Some(Value::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// The floor's record of a declared source under the input `name`. The floor never opens a
/// source: a classified one is `used`, an unclassifiable one is reported as `host_context`,
/// `unsupported`, with its reason — it costs the run its `handoff`, it does not sink it.
pub fn floor_source(name: &str, locator: &str) -> DesignSource {
    let (kind, disposition, reason) = match classify_source(locator) {
        Some(kind) => (kind, Disposition::Used, None),
        None => (
            SourceKind::HostContext,
            Disposition::Unsupported,
            Some(format!(
                "'{locator}' matches no source kind of the v1 catalog"
            )),
        ),
    };
    DesignSource {
        name: name.to_owned(),
        kind,
        locator: locator.to_owned(),
        disposition,
        reason,
        derived: Vec::new(),
        sensitivity: Sensitivity::Public,
        essential: true,
    }
}

/// A set of sources judged: shape first, then consequence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SourceReport {
    /// Every source, as given.
    pub sources: Vec<DesignSource>,
    /// The sources that did not contribute (every disposition but `used`).
    pub omitted: Vec<DesignSource>,
    /// Whether an omitted source is essential.
    pub blocks_handoff: bool,
    /// Sources that cannot be reported as they stand.
    pub failures: Vec<DesignFailure>,
}

fn blank(reason: Option<&str>) -> bool {
    js_trim(reason.unwrap_or_default()).is_empty()
}

/// Judges a set of sources. A source that did not contribute and does not say why
/// (`DESIGN_SOURCE_WITHOUT_REASON`), or that is declared non-essential without saying why
/// (`DESIGN_SOURCE_OPTIONAL_WITHOUT_REASON`), is a failure of the caller: it could only reach a
/// receipt as an invisible decision. `artifact` names what the failures are about.
pub fn report_sources(sources: &[DesignSource], artifact: &str) -> SourceReport {
    let mut failures = Vec::new();
    for s in sources {
        if s.disposition != Disposition::Used && blank(s.reason.as_deref()) {
            failures.push(DesignFailure::new(
                ErrorCode::DesignSourceWithoutReason,
                artifact,
                format!(
                    "the source '{}' was left '{}' and does not say why",
                    s.name,
                    s.disposition.as_str()
                ),
                "state the reason: a source dropped in silence is a decision nobody can see",
            ));
        }
        if !s.essential && blank(s.reason.as_deref()) {
            failures.push(DesignFailure::new(
                ErrorCode::DesignSourceOptionalWithoutReason,
                artifact,
                format!(
                    "the source '{}' is declared non-essential without a reason",
                    s.name
                ),
                "explain why the design holds without it, or keep it essential",
            ));
        }
    }
    let omitted: Vec<DesignSource> = sources
        .iter()
        .filter(|s| s.disposition != Disposition::Used)
        .cloned()
        .collect();
    SourceReport {
        sources: sources.to_vec(),
        blocks_handoff: omitted.iter().any(|s| s.essential),
        omitted,
        failures,
    }
}

/// One gap per essential omitted source, naming its locator (several sources arrive under one
/// input, so the input's name alone would not say which file to go and get).
pub fn handoff_gaps(report: &SourceReport) -> Vec<String> {
    report
        .omitted
        .iter()
        .filter(|s| s.essential)
        .map(|s| {
            format!(
                "the essential source '{}' ({}, input '{}') was left '{}': {} — obtain it, or declare it non-essential with its reason",
                s.locator,
                s.kind.as_str(),
                s.name,
                s.disposition.as_str(),
                s.reason.as_deref().unwrap_or("no reason given")
            )
        })
        .collect()
}

/// A rung of the maturity ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Maturity {
    /// Enough to discuss, not to build from.
    Outline,
    /// Ready to hand to implementation.
    Handoff,
}

impl Maturity {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Maturity::Outline => "outline",
            Maturity::Handoff => "handoff",
        }
    }

    /// The maturity a `maturity` input asks for: only the exact strings `outline` and
    /// `handoff` count; anything else asks for nothing.
    pub fn requested(value: Option<&Value>) -> Option<Maturity> {
        match value.and_then(Value::as_str) {
            Some("outline") => Some(Maturity::Outline),
            Some("handoff") => Some(Maturity::Handoff),
            _ => None,
        }
    }
}

/// The maturity a result may claim, with what keeps it from the one asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct AttainedMaturity {
    /// The rung reached.
    pub attained: Maturity,
    /// Non-empty exactly when something holds the result below what it could claim.
    pub gaps: Vec<String>,
}

/// The maturity a result may honestly claim. Two ceilings, neither negotiable: an essential
/// source that did not contribute (always `outline`, one gap per such source), and the gate's
/// verdict (a `handoff` request the gate does not back gets the gate's verdict and a gap).
pub fn attained_maturity(
    requested: Option<Maturity>,
    gate_verdict: Maturity,
    report: &SourceReport,
) -> AttainedMaturity {
    if report.blocks_handoff {
        return AttainedMaturity {
            attained: Maturity::Outline,
            gaps: handoff_gaps(report),
        };
    }
    if requested == Some(Maturity::Handoff) && gate_verdict != Maturity::Handoff {
        return AttainedMaturity {
            attained: gate_verdict,
            gaps: vec![format!(
                "'handoff' was requested and the package's evidence reaches '{}': complete what the gate asks for",
                gate_verdict.as_str()
            )],
        };
    }
    AttainedMaturity {
        attained: gate_verdict,
        gaps: Vec::new(),
    }
}

/// The sources whose originals may be copied into a package: only those a person approved by
/// name, and of those only the ones the design used and that are not sensitive. Nothing by
/// default — the sources of a design are often the least shareable thing in the room. The
/// first refusal wins: an unknown name (`DESIGN_SOURCE_COPY_UNKNOWN`), a source not used
/// (`DESIGN_SOURCE_COPY_UNUSED`), a sensitive one (`DESIGN_SOURCE_COPY_SENSITIVE`). Nothing
/// calls it yet (the floor only writes what the agent authored); it is the gate a future copy
/// must pass.
pub fn plan_original_copy(
    sources: &[DesignSource],
    approved: &[&str],
    artifact: &str,
) -> Result<Vec<DesignSource>, DesignFailure> {
    let mut copy = Vec::new();
    for name in approved {
        // The last source of a name wins, as a map keyed by name keeps it.
        let Some(source) = sources.iter().rev().find(|s| s.name == *name) else {
            let mut known: Vec<&str> = Vec::new();
            for s in sources {
                if !known.contains(&s.name.as_str()) {
                    known.push(&s.name);
                }
            }
            return Err(DesignFailure::new(
                ErrorCode::DesignSourceCopyUnknown,
                artifact,
                format!("copying '{name}' was approved and no source has that name"),
                format!(
                    "name one of: {}",
                    if known.is_empty() {
                        "(none)".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        };
        if source.disposition != Disposition::Used {
            return Err(DesignFailure::new(
                ErrorCode::DesignSourceCopyUnused,
                artifact,
                format!(
                    "'{name}' was left '{}' and is not copied into the package",
                    source.disposition.as_str()
                ),
                "copy only sources the design actually used",
            ));
        }
        if source.sensitivity == Sensitivity::Sensitive {
            return Err(DesignFailure::new(
                ErrorCode::DesignSourceCopySensitive,
                artifact,
                format!("'{name}' is classified sensitive: it does not go into the package"),
                "declassify it explicitly, or keep only its provenance",
            ));
        }
        copy.push(source.clone());
    }
    Ok(copy)
}

#[cfg(test)]
#[path = "sources_tests.rs"]
mod tests;
