//! Builders the capability unit tests share: the direct caller and an invocation from
//! `name=value` pairs, as `--input` flags give them; the `design` descriptor, improvements and
//! installed instances, and the `design` role's binding policy.

use super::descriptor::Route;
use super::request::{Caller, Invocation, Policy, RequestContext, RequestInput};

/// An invocation id in the shape aw issues.
pub const ID: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

/// A person calling the capability directly, from no known host.
pub fn direct() -> Caller {
    Caller {
        route: Route::Direct,
        host: "unknown".to_owned(),
        flow: None,
    }
}

/// `operation` called by `caller` with `inputs` given as flags, default context and policy.
pub fn invocation(operation: &str, caller: Caller, inputs: &[(&str, &str)]) -> Invocation {
    Invocation {
        operation: operation.to_owned(),
        caller,
        context: RequestContext::default(),
        inputs: inputs
            .iter()
            .map(|(n, v)| RequestInput::from_flag(n, v))
            .collect(),
        policy: Policy::default(),
    }
}

/// The `design` descriptor.
pub fn design() -> super::descriptor::Descriptor {
    super::builtin::design_descriptor().unwrap()
}

/// A digest in the instance-digest shape, made of one repeated hex digit.
pub fn digest(c: char) -> String {
    c.to_string().repeat(64)
}

/// An improvement's descriptor: `design`'s, published as `name` with the given claim.
pub fn improvement(
    name: &str,
    improves: Option<super::descriptor::Improves>,
) -> super::descriptor::Descriptor {
    let mut d = design();
    d.name = name.to_owned();
    d.compatibility.retired_names.clear();
    d.compatibility.improves = improves;
    d
}

/// The claim of improving `capability`'s `operations` at contract version `version`.
pub fn improves(
    capability: &str,
    operations: &[&str],
    version: u64,
) -> super::descriptor::Improves {
    super::descriptor::Improves {
        capability: capability.to_owned(),
        operations: operations.iter().map(|o| (*o).to_owned()).collect(),
        contract_version: version,
    }
}

/// A ready instance of `descriptor` with `digest`, installed under each of `roots`.
pub fn ready(
    descriptor: super::descriptor::Descriptor,
    digest: &str,
    roots: &[&str],
) -> super::inventory::Instance {
    let name = descriptor.name.clone();
    super::inventory::Instance {
        name: name.clone(),
        state: super::inventory::State::Ready,
        version: Some("1.0.0".to_owned()),
        digest: Some(digest.to_owned()),
        descriptor: Some(descriptor),
        failure: None,
        locations: roots
            .iter()
            .map(|root| super::inventory::Location {
                scope: (*root).to_owned(),
                skill_dir: format!("{root}/{name}"),
                skill_md: format!("{root}/{name}/SKILL.md"),
                descriptor_path: "workline-capability.json".to_owned(),
            })
            .collect(),
    }
}

/// A misconfigured instance called `name` whose failure says `message`.
pub fn broken(name: &str, message: &str) -> super::inventory::Instance {
    super::inventory::Instance {
        name: name.to_owned(),
        state: super::inventory::State::Misconfigured,
        version: None,
        digest: None,
        descriptor: None,
        failure: Some(super::validate::Failure {
            code: crate::error_code::ErrorCode::CapabilityInstanceCollision,
            artifact: format!("/h/.claude/skills/{name}/SKILL.md"),
            path: String::new(),
            message: message.to_owned(),
            action: "keep one copy".to_owned(),
        }),
        locations: vec![super::inventory::Location {
            scope: "/h/.claude/skills".to_owned(),
            skill_dir: format!("/h/.claude/skills/{name}"),
            skill_md: format!("/h/.claude/skills/{name}/SKILL.md"),
            descriptor_path: "workline-capability.json".to_owned(),
        }],
    }
}

/// The binding policy of the `design` role bound to `skill` (`None`: off) from the workspace.
pub fn binding(skill: Option<&str>) -> super::bindings::BindingPolicy {
    let resolved = super::bindings::ResolvedSkill {
        role: "design",
        skill: skill.map(str::to_owned),
        source: super::bindings::Source::Workspace,
        enabled: skill.is_some(),
    };
    super::bindings::classify(Some(&resolved), "design")
}
