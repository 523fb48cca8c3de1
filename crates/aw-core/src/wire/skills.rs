//! `aw skills`: the role bindings as the cascade resolved them, which files exist, each role
//! checked, and each capability's readiness (the reference's keys).

use crate::capability::binding_check::BindingCheck;
use crate::capability::bindings::{ResolvedSkill, Sources};
use crate::capability::readiness::ReadinessReport;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw skills`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skills<'a> {
    /// Each role's binding, by role.
    pub skills: RoleMap<'a>,
    /// Which binding files exist.
    pub sources: &'a Sources,
    /// Each role, checked against the installed skills.
    #[serde(rename = "bindingChecks")]
    pub binding_checks: &'a [BindingCheck],
    /// Warnings: the files', then the checks'.
    pub warnings: &'a [String],
    /// Each capability's readiness.
    pub capabilities: &'a [ReadinessReport],
}

/// The resolved bindings as a JSON object from role to binding, in the roles' order.
#[derive(Debug, Clone)]
pub struct RoleMap<'a>(pub &'a [ResolvedSkill]);

impl Serialize for RoleMap<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|skill| (skill.role, skill)))
    }
}

impl JsonSchema for RoleMap<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RoleMap".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let skill = generator.subschema_for::<ResolvedSkill>();
        schemars::json_schema!({
            "description": "Role → its binding, in the roles' order.",
            "type": "object",
            "additionalProperties": skill
        })
    }
}
