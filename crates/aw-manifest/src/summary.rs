//! A typed view of the few manifest fields the family's consumers read (`version`, `posture`),
//! taken from the same parse and the same checks as [`crate::validate`], so no consumer
//! re-parses `capability.json` with a shape check of its own.

use super::memory::MemoryFiles;
use super::value::Value;
use super::{Ctx, Finding, gate, posture};

/// The `posture` block of one manifest, as the validator judges it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostureBlock {
    /// The manifest has no own `posture` key.
    Absent,
    /// The block breaks a PO1–PO5 rule; the findings say which.
    Invalid(Vec<Finding>),
    /// A well-formed block.
    Pins(Posture),
}

/// The dispatch pins a member asks its callers to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posture {
    /// `posture.model`.
    pub model: String,
    /// `posture.effort`, when declared.
    pub effort: Option<String>,
    /// `posture.tier`, when declared and not `null`.
    pub tier: Option<String>,
    /// Whether the block has a `tier` key at all (`null` included): the family shows a tier
    /// only for a backend that declares one.
    pub tier_declared: bool,
}

/// What a consumer may read from one manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The manifest's `version` when it is a string.
    pub version: Option<String>,
    /// The `posture` block.
    pub posture: PostureBlock,
}

/// Reads the consumer fields of a manifest; `None` when the bytes are not a JSON object.
pub fn summary(manifest: &[u8]) -> Option<Summary> {
    let text = String::from_utf8_lossy(manifest);
    let root = gate::parse(&text).ok()?;
    let obj = root.as_object()?;
    let version = obj
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let posture = match obj.get("posture") {
        None => PostureBlock::Absent,
        Some(block) => {
            // The validator's own rule, run alone: a second copy of it could drift.
            let files = MemoryFiles::new();
            let mut cx = Ctx::new(obj, &files);
            posture::check(&mut cx);
            if cx.errors.is_empty() {
                let text = |k: &str| block.get(k).and_then(Value::as_str).map(str::to_owned);
                PostureBlock::Pins(Posture {
                    model: text("model").unwrap_or_default(),
                    effort: text("effort"),
                    tier: text("tier"),
                    tier_declared: block.get("tier").is_some(),
                })
            } else {
                PostureBlock::Invalid(cx.errors)
            }
        }
    };
    Some(Summary { version, posture })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posture_is_read_through_the_validator_rule() {
        let s = summary(br#"{"version":"1.2.3","posture":{"model":"m","tier":null}}"#).unwrap();
        assert_eq!(s.version.as_deref(), Some("1.2.3"));
        assert_eq!(
            s.posture,
            PostureBlock::Pins(Posture {
                model: "m".into(),
                effort: None,
                tier: None,
                tier_declared: true,
            })
        );
        let bad = summary(br#"{"posture":{"model":"m","colour":"red"}}"#).unwrap();
        assert!(
            matches!(bad.posture, PostureBlock::Invalid(ref f) if f[0].rule == "posture.unknown-key")
        );
        assert!(matches!(
            summary(br#"{"posture":null}"#).unwrap().posture,
            PostureBlock::Invalid(_)
        ));
        assert_eq!(summary(b"{}").unwrap().posture, PostureBlock::Absent);
        assert!(summary(b"[1]").is_none());
        assert!(summary(b"{").is_none());
    }
}
