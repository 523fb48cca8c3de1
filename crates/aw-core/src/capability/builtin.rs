//! The built-in `design` descriptor (§4.5): the reference's ids and values, our own English text.
//! Its bytes are published as they stand in `design.descriptor.json`.

use super::descriptor::Descriptor;
use super::validate::{Failure, validate};

/// The `design` capability's name (also its `skills.toml` role).
pub const DESIGN_CAPABILITY: &str = "design";

/// The published bytes of the `design` descriptor.
pub const DESIGN_DESCRIPTOR_JSON: &str = include_str!("design.descriptor.json");

/// The artifact the `design` descriptor is published as.
pub const DESIGN_ARTIFACT: &str = "design/workline-capability.json";

/// The `design` descriptor, read and validated.
pub fn design_descriptor() -> Result<Descriptor, Vec<Failure>> {
    let value: serde_json::Value = serde_json::from_str(DESIGN_DESCRIPTOR_JSON).map_err(|e| {
        vec![Failure {
            code: crate::error_code::ErrorCode::CapabilityDescriptorNotJson,
            artifact: DESIGN_ARTIFACT.to_owned(),
            path: String::new(),
            message: format!("the built-in descriptor is not JSON: {e}"),
            action: "report this as a bug in aw".to_owned(),
        }]
    })?;
    validate(&value, DESIGN_ARTIFACT)
}

/// The `design` descriptor for a command to run: deserialized without running the validator and
/// its JSON Schema again (a few milliseconds per call), since the bytes are compiled in and a
/// test holds them to every rule ([`design_descriptor`] is the checked reading, and the two
/// agree). Should the bytes ever fail to deserialize, the checked reading reports why.
pub fn trusted_design_descriptor() -> Result<Descriptor, Vec<Failure>> {
    serde_json::from_str(DESIGN_DESCRIPTOR_JSON).or_else(|_| design_descriptor())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::descriptor::{OffPolicy, Route};
    use crate::vocab::flow::EffectClass;

    #[test]
    fn the_trusted_reading_is_the_checked_one() {
        assert_eq!(
            trusted_design_descriptor().unwrap(),
            design_descriptor().unwrap()
        );
    }

    #[test]
    fn the_design_descriptor_validates_with_its_operations_in_order() {
        let d = design_descriptor().unwrap();
        assert_eq!(d.name, DESIGN_CAPABILITY);
        let ops: Vec<&str> = d.operations.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(ops, ["create", "update", "validate", "render", "record"]);
        assert!(d.exposes(Route::Direct) && d.exposes(Route::Compose));
        assert!(d.operation("consume").is_none());
        assert!(d.operation("create").is_some());
        assert_eq!(d.compatibility.retired_names, ["ui-design", "ui-spec"]);
        assert_eq!(d.default_operation, None);
        // Only `validate` survives `off`.
        let allowed: Vec<&str> = d
            .operations
            .iter()
            .filter(|o| o.off == OffPolicy::Allowed)
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(allowed, ["validate"]);
        let render = d.operation("render").unwrap();
        let classes: Vec<EffectClass> = render.effects.iter().map(|e| e.class).collect();
        assert_eq!(
            classes,
            [
                EffectClass::ReadOnly,
                EffectClass::LocalAdditive,
                EffectClass::NetworkExternal
            ]
        );
    }

    #[test]
    fn the_design_descriptor_keeps_the_reference_data_with_english_text() {
        // Same ids and values as the reference's descriptor; only the prose differs.
        let ours: serde_json::Value = serde_json::from_str(DESIGN_DESCRIPTOR_JSON).unwrap();
        let text = DESIGN_DESCRIPTOR_JSON;
        assert!(text.is_ascii(), "the prose is ours, in English");
        assert!(text.ends_with("}\n"));
        let summaries = ours["operations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| !o["summary"].as_str().unwrap().is_empty());
        assert!(summaries);
        assert_eq!(
            ours["floor"],
            serde_json::json!({"builtin": true, "kind": "core", "improvements": "host_selected"})
        );
        assert_eq!(ours["degradations"].as_array().unwrap().len(), 4);
    }
}
