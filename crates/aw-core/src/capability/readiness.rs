//! Readiness (spec §7.6): what `aw skills` reports about a registered capability — its resolution
//! verdict, whether the floor runs, how the detected host invokes it, each route and each
//! operation, and which installed skills could improve it — and the human `--detail` block.
//!
//! Pure: the resolution is made by [`super::resolution::resolve`] (without a host selection, from
//! the CLI), and the state of the direct wrapper on disk is read by the shell and handed in as a
//! [`WrapperState`].
//!
//! One deliberate difference from the reference (its quirk 8): an operation that cannot run
//! because the capability is misconfigured or unavailable shows that state; only an operation
//! blocked by `off` shows `disabled`.

use super::callers::{InvocationKind, harness};
use super::descriptor::{Descriptor, FloorKind, Improves, Route, WorkspaceNeed};
use super::inventory::{Instance, State};
use super::resolution::{CapabilityResolution, CapabilityState};
use crate::vocab::flow::EffectClass;
use serde::Serialize;

/// What the shell found where the detected host keeps the capability's direct wrapper
/// (`~/<host skills dir>/<name>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrapperState {
    /// Our wrapper (its SKILL.md carries the ownership marker).
    Ours,
    /// Something else lives there.
    Foreign {
        /// Why it is not ours, for a person.
        reason: String,
    },
    /// Nothing is installed there.
    Absent {
        /// The skill folder looked in.
        root: String,
    },
}

/// A state with why and what to do (a route's verdict).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Verdict {
    /// The state.
    pub state: CapabilityState,
    /// Why, when it is not plain.
    pub reason: Option<String>,
    /// What to do.
    pub action: Option<String>,
}

/// The floor's part (`floor` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FloorReadiness {
    /// Whether Workline carries it.
    pub builtin: bool,
    /// Core or feature.
    pub kind: FloorKind,
    /// Whether it is what runs.
    pub running: bool,
}

/// The first selected contributor (`instance` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InstanceReadiness {
    /// Its name.
    pub name: String,
    /// The skill root it is in.
    pub scope: String,
    /// Its skill folder.
    pub locator: String,
    /// Its version.
    pub version: Option<String>,
    /// Its digest.
    pub digest: String,
}

/// How the detected host invokes the capability (`invocation` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InvocationReadiness {
    /// The host id.
    pub host: String,
    /// Mention, slash, or unavailable.
    pub kind: InvocationKind,
    /// The form with the capability's name in it (null when unavailable).
    pub form: Option<String>,
    /// What the form means, for a person.
    pub note: String,
}

/// Both routes' verdicts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Exposures {
    /// The installed wrapper or a person.
    pub direct: Verdict,
    /// A Workline flow.
    pub compose: Verdict,
}

/// One operation's readiness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct OperationReadiness {
    /// Its name.
    pub operation: String,
    /// Its routes.
    pub exposure: Vec<Route>,
    /// Whether it needs a workspace.
    pub workspace: WorkspaceNeed,
    /// Its effect classes, in declaration order.
    pub effects: Vec<EffectClass>,
    /// Its state.
    pub state: CapabilityState,
    /// Why.
    pub reason: Option<String>,
    /// What to do.
    pub action: Option<String>,
}

/// One installed skill that might improve the capability.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ImprovementReadiness {
    /// Its name.
    pub name: String,
    /// Its digest (null when misconfigured).
    pub digest: Option<String>,
    /// What it claims to improve.
    pub improves: Option<Improves>,
    /// Whether a host could select it.
    pub eligible: bool,
    /// Why not (null when eligible).
    pub why: Option<String>,
}

/// The readiness of one capability (`CapabilityReadinessReport`, keys in emission order).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReadinessReport {
    /// The descriptor's name.
    pub capability: String,
    /// Its contract version.
    pub contract_version: u64,
    /// What it resolves.
    pub purpose: String,
    /// Its routes.
    pub exposure: Vec<Route>,
    /// The resolution's state.
    pub state: CapabilityState,
    /// The resolution's reason.
    pub reason: Option<String>,
    /// The resolution's action.
    pub action: Option<String>,
    /// The floor.
    pub floor: FloorReadiness,
    /// The first selected contributor (always null from the CLI, which selects nothing).
    pub instance: Option<InstanceReadiness>,
    /// How the host invokes it.
    pub invocation: InvocationReadiness,
    /// Each route's verdict.
    pub exposures: Exposures,
    /// Each operation, in descriptor order.
    pub operations: Vec<OperationReadiness>,
    /// Every other installed capability skill, in inventory order.
    pub improvements: Vec<ImprovementReadiness>,
}

/// The readiness of `descriptor` given its `resolution`, the installed `inventory`, the detected
/// (or `--host`) `host`, and what the shell found where that host keeps the direct wrapper.
pub fn readiness(
    descriptor: &Descriptor,
    resolution: &CapabilityResolution,
    inventory: &[Instance],
    host: &str,
    direct_wrapper: WrapperState,
) -> ReadinessReport {
    let name = &descriptor.name;
    let verdict = Verdict {
        state: resolution.state,
        reason: resolution.reason.clone(),
        action: resolution.action.clone(),
    };
    let harness = harness(host);
    let invocation = match harness {
        Some(h) => InvocationReadiness {
            host: host.to_owned(),
            kind: h.invocation,
            form: Some(h.form(name)),
            note: h.note.to_owned(),
        },
        None => InvocationReadiness {
            host: host.to_owned(),
            kind: InvocationKind::Unavailable,
            form: None,
            note: format!("there is no verified invocation form for '{host}'"),
        },
    };
    let direct = if !descriptor.exposes(Route::Direct) {
        route_closed(name, Route::Direct)
    } else if harness.is_none() {
        Verdict {
            state: CapabilityState::Unavailable,
            reason: Some(format!(
                "there is no verified invocation form for the host '{host}'"
            )),
            action: Some(
                "use the composed route from a flow, or install on a supported host (name it with --host)"
                    .to_owned(),
            ),
        }
    } else {
        match direct_wrapper {
            WrapperState::Ours => verdict.clone(),
            WrapperState::Foreign { reason } => Verdict {
                state: CapabilityState::Misconfigured,
                reason: Some(reason),
                action: Some(
                    "rename or remove that skill, then reinstall with 'aw self install --target <host>'"
                        .to_owned(),
                ),
            },
            WrapperState::Absent { root } => Verdict {
                state: CapabilityState::Unavailable,
                reason: Some(format!("no '{name}' wrapper is installed in {root}")),
                action: Some("install it with 'aw self install --target <host>'".to_owned()),
            },
        }
    };
    let compose = if descriptor.exposes(Route::Compose) {
        verdict.clone()
    } else {
        route_closed(name, Route::Compose)
    };
    let operations = descriptor
        .operations
        .iter()
        .map(|op| {
            let availability = resolution
                .operations
                .iter()
                .find(|a| a.operation == op.name);
            let (state, reason) = match availability {
                // Quirk 8, fixed: only `off` labels an operation `disabled`.
                Some(a) if !a.available => (
                    match resolution.state {
                        CapabilityState::Misconfigured | CapabilityState::Unavailable => {
                            resolution.state
                        }
                        _ => CapabilityState::Disabled,
                    },
                    a.reason.clone(),
                ),
                _ => (
                    match resolution.state {
                        CapabilityState::Disabled if resolution.floor => CapabilityState::Ready,
                        CapabilityState::Disabled => CapabilityState::Unavailable,
                        other => other,
                    },
                    resolution.reason.clone(),
                ),
            };
            OperationReadiness {
                operation: op.name.clone(),
                exposure: op.exposure.clone(),
                workspace: op.workspace,
                effects: op.effects.iter().map(|e| e.class).collect(),
                state,
                reason,
                action: resolution.action.clone(),
            }
        })
        .collect();
    let improvements = inventory
        .iter()
        .filter(|i| &i.name != name)
        .map(|i| improvement(descriptor, i))
        .collect();
    ReadinessReport {
        capability: name.clone(),
        contract_version: descriptor.contract_version,
        purpose: descriptor.purpose.clone(),
        exposure: descriptor.exposure.clone(),
        state: resolution.state,
        reason: resolution.reason.clone(),
        action: resolution.action.clone(),
        floor: FloorReadiness {
            builtin: descriptor.floor.builtin,
            kind: descriptor.floor.kind,
            running: resolution.floor,
        },
        instance: resolution.selection.first().map(|s| InstanceReadiness {
            name: s.name.clone(),
            scope: s.scope.clone(),
            locator: s.locator.clone(),
            version: s.version.clone(),
            digest: s.digest.clone(),
        }),
        invocation,
        exposures: Exposures { direct, compose },
        operations,
        improvements,
    }
}

/// The verdict of a route the capability does not open.
fn route_closed(name: &str, route: Route) -> Verdict {
    Verdict {
        state: CapabilityState::Unavailable,
        reason: Some(format!(
            "'{name}' does not expose the {} route",
            route.as_str()
        )),
        action: None,
    }
}

/// Whether an installed skill could improve the capability. Its operations are not checked here
/// (resolution checks them against the operation invoked).
fn improvement(descriptor: &Descriptor, i: &Instance) -> ImprovementReadiness {
    let cap = &descriptor.name;
    let improves = i
        .descriptor
        .as_ref()
        .and_then(|d| d.compatibility.improves.clone());
    let why = if i.state == State::Misconfigured || i.descriptor.is_none() {
        Some(
            i.failure
                .as_ref()
                .map(|f| f.message.clone())
                .unwrap_or_else(|| format!("'{}' is misconfigured", i.name)),
        )
    } else {
        match &improves {
            Some(imp) if &imp.capability != cap => {
                Some(format!("does not declare that it improves '{cap}'"))
            }
            None => Some(format!("does not declare that it improves '{cap}'")),
            Some(imp) if imp.contract_version != descriptor.contract_version => {
                Some(format!("speaks contract version {}", imp.contract_version))
            }
            Some(_) => None,
        }
    };
    ImprovementReadiness {
        name: i.name.clone(),
        digest: i.digest.clone(),
        improves,
        eligible: why.is_none(),
        why,
    }
}

/// The human `--detail` block of one report (§7.5), one string per line, without the blank line
/// that separates it from what comes before.
pub fn render_detail(report: &ReadinessReport) -> Vec<String> {
    let mut lines = vec![format!(
        "{} v{} — {}",
        report.capability,
        report.contract_version,
        report.state.as_str()
    )];
    if let Some(reason) = &report.reason {
        lines.push(format!("  reason: {reason}"));
    }
    if let Some(action) = &report.action {
        lines.push(format!("  next: {action}"));
    }
    let inv = &report.invocation;
    lines.push(format!(
        "  invocation ({}): {} — {}",
        inv.host,
        inv.form.as_deref().unwrap_or("unavailable"),
        inv.note
    ));
    lines.push(if report.floor.running {
        format!("  runs the built-in floor ({})", report.floor.kind.as_str())
    } else {
        let (name, digest) = report
            .instance
            .as_ref()
            .map_or(("—", "—"), |i| (i.name.as_str(), i.digest.as_str()));
        format!("  instance: {name}@{digest}")
    });
    for (label, v) in [
        ("direct", &report.exposures.direct),
        ("compose", &report.exposures.compose),
    ] {
        lines.push(match &v.reason {
            Some(reason) => format!("  {label}: {} — {reason}", v.state.as_str()),
            None => format!("  {label}: {}", v.state.as_str()),
        });
    }
    for op in &report.operations {
        let effects: Vec<&str> = op.effects.iter().map(|e| e.as_str()).collect();
        lines.push(format!(
            "  · {:<9} {:<13} {} · effects: {}",
            op.operation,
            op.state.as_str(),
            op.workspace.as_str(),
            effects.join(", ")
        ));
    }
    for imp in &report.improvements {
        lines.push(match &imp.why {
            None => format!("  improvement {}: eligible", imp.name),
            Some(why) => format!("  improvement {}: rejected — {why}", imp.name),
        });
    }
    lines
}

#[cfg(test)]
#[path = "readiness_tests.rs"]
mod tests;
