//! Resolution (spec §8): what runs when a capability is invoked, given its binding, the
//! installed inventory and the host's selection of improvements; and the selection pin an
//! invocation carries from attempt to attempt (§8.6).
//!
//! Pure: the shell hands in the descriptor, the binding policy (`bindings::classify`), the
//! inventory (`inventory::group`) and, when a host declares one, its selection. Nothing here
//! fails: every problem becomes a state (`degraded`, `misconfigured`, `unavailable`) with a reason
//! and the next step, and each operation says whether it can run.
//!
//! One deliberate difference from the reference (its quirk 9): a degradation's declared action is
//! applied. A cause declared `floor` falls back to the built-in floor; a cause declared `reject`
//! (or not declared, or with no built-in floor) leaves the capability `misconfigured`.

use super::bindings::{BindingPolicy, BindingState};
use super::descriptor::{DegradationAction, DegradationCause, Descriptor, Improvements};
use super::effects::blocked_by_off;
use super::error::{CapabilityError, CapabilityResult};
use super::inventory::{Instance, State};
use super::receipt::{ReceiptDegradation, SelectedInstance};
use crate::error_code::ErrorCode;
use serde::{Deserialize, Serialize};

/// The action of a blocked operation whose resolution names none.
pub const SKILLS_DETAIL_ACTION: &str = "run 'aw skills --detail' to see the capability's state";

/// The state a resolution ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CapabilityState {
    /// It runs as asked: the floor, or the host's verified selection.
    Ready,
    /// Something was wrong, and the built-in floor runs instead (the loss is recorded).
    Degraded,
    /// The binding is `off`: only operations whose policy allows it still run, on the floor.
    Disabled,
    /// Something is wrong and nothing runs.
    Misconfigured,
    /// There is no floor and nothing installed to run.
    Unavailable,
}

impl CapabilityState {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CapabilityState::Ready => "ready",
            CapabilityState::Degraded => "degraded",
            CapabilityState::Disabled => "disabled",
            CapabilityState::Misconfigured => "misconfigured",
            CapabilityState::Unavailable => "unavailable",
        }
    }
}

/// One improvement the host says contributed, as the host declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Contributor {
    /// The installed skill's name.
    pub name: String,
    /// Its place in the contribution order (the selection is sorted by it).
    pub order: u64,
    /// The version the host saw, if it says.
    #[serde(default)]
    pub version: Option<String>,
    /// The digest the host selected, if it says; it must match the installed one.
    #[serde(default)]
    pub digest: Option<String>,
    /// The skill folder that contributed, needed when the name is installed in several roots.
    #[serde(default)]
    pub locator: Option<String>,
}

/// What the host declares it selected. The CLI has no host producer yet, so it passes `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HostSelection {
    /// The contributors, in any order.
    pub contributors: Vec<Contributor>,
}

/// Whether one operation can run under the resolution (`operations[]` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct OperationAvailability {
    /// The operation's name.
    pub operation: String,
    /// Whether it can run.
    pub available: bool,
    /// Why not (null when available).
    pub reason: Option<String>,
}

/// The outcome of resolving a capability (`CapabilityResolution`, keys in emission order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CapabilityResolution {
    /// The descriptor's name.
    pub capability: String,
    /// The verdict.
    pub state: CapabilityState,
    /// Whether the built-in floor is what runs.
    pub floor: bool,
    /// The verified contributors in order (empty whenever the floor runs).
    pub selection: Vec<SelectedInstance>,
    /// The fallback taken, with what it cost.
    pub degradations: Vec<ReceiptDegradation>,
    /// Every operation of the descriptor, in its order.
    pub operations: Vec<OperationAvailability>,
    /// Why the state is not plain `ready` (null when it is).
    pub reason: Option<String>,
    /// What to do about it (null when nothing is to be done).
    pub action: Option<String>,
}

/// Resolves `descriptor` (§8.2) under `binding`, against the installed `inventory` and the host's
/// `selection`. `operation`, when given, is the one being invoked: an improvement must declare it
/// improves that operation to be selected.
pub fn resolve(
    descriptor: &Descriptor,
    binding: &BindingPolicy,
    inventory: &[Instance],
    selection: Option<&HostSelection>,
    operation: Option<&str>,
) -> CapabilityResolution {
    let name = &descriptor.name;
    // §8.1: only `off` makes an operation unavailable on its own, and only when its policy says so.
    let operations: Vec<OperationAvailability> = descriptor
        .operations
        .iter()
        .map(|op| {
            let blocked = blocked_by_off(binding.state, op);
            OperationAvailability {
                operation: op.name.clone(),
                available: !blocked,
                reason: blocked.then(|| {
                    format!("'{name}' is off, and this operation is blocked while it is off")
                }),
            }
        })
        .collect();
    let base = CapabilityResolution {
        capability: name.clone(),
        state: CapabilityState::Ready,
        floor: true,
        selection: Vec::new(),
        degradations: Vec::new(),
        operations,
        reason: None,
        action: None,
    };
    match binding.state {
        // Nothing a host, a wrapper or an old name does can undo `off`.
        BindingState::Off => {
            let any = base.operations.iter().any(|o| o.available);
            CapabilityResolution {
                state: CapabilityState::Disabled,
                floor: descriptor.floor.builtin && any,
                reason: binding.reason.clone(),
                action: Some(format!(
                    "to turn it back on, remove the '{name}' binding from skills.toml or set it to '{name}'"
                )),
                ..base
            }
        }
        BindingState::Misconfigured => {
            let loss = binding
                .reason
                .clone()
                .unwrap_or_else(|| format!("the binding of '{name}' is not valid"));
            let action = binding.action.clone().unwrap_or_else(|| {
                format!("leave the '{name}' binding unset in skills.toml, or set it to '{name}'")
            });
            degrade(
                descriptor,
                base,
                DegradationCause::InvalidBinding,
                loss,
                action,
            )
        }
        BindingState::FloorAndImprovements => {
            let contributors = selection.map(|s| s.contributors.as_slice()).unwrap_or(&[]);
            if descriptor.floor.improvements == Improvements::None || contributors.is_empty() {
                return floor_only(descriptor, base);
            }
            match verify(descriptor, inventory, contributors, operation) {
                Ok(selected) => CapabilityResolution {
                    floor: false,
                    selection: selected,
                    ..base
                },
                Err(problem) => degrade(
                    descriptor,
                    base,
                    problem.cause,
                    problem.loss,
                    problem.action,
                ),
            }
        }
    }
}

/// Nothing was selected: the built-in floor runs, which is not a degradation; without one,
/// nothing can run.
fn floor_only(descriptor: &Descriptor, base: CapabilityResolution) -> CapabilityResolution {
    if descriptor.floor.builtin {
        return base;
    }
    let name = &descriptor.name;
    let reason = format!("'{name}' has no built-in floor and no conformant instance is installed");
    CapabilityResolution {
        state: CapabilityState::Unavailable,
        floor: false,
        operations: unavailable(&base.operations, &reason),
        reason: Some(reason),
        action: Some(format!(
            "install a skill that conforms to '{name}', or stop invoking this feature"
        )),
        ..base
    }
}

/// Every operation made unavailable with `reason`.
fn unavailable(ops: &[OperationAvailability], reason: &str) -> Vec<OperationAvailability> {
    ops.iter()
        .map(|o| OperationAvailability {
            operation: o.operation.clone(),
            available: false,
            reason: Some(reason.to_owned()),
        })
        .collect()
}

/// Falls back for `cause` (§8.4). The descriptor's declared action is applied (quirk 9, fixed):
/// the floor runs only when the descriptor has a built-in floor and declares the cause with
/// action `floor`; otherwise (declared `reject` by any declaration of it, not declared, or no
/// built-in floor) the capability is misconfigured and no operation runs.
fn degrade(
    descriptor: &Descriptor,
    base: CapabilityResolution,
    cause: DegradationCause,
    loss: String,
    action: String,
) -> CapabilityResolution {
    let declared: Vec<DegradationAction> = descriptor
        .degradations
        .iter()
        .filter(|d| d.cause == cause)
        .map(|d| d.action)
        .collect();
    let falls_back = descriptor.floor.builtin
        && !declared.is_empty()
        && !declared.contains(&DegradationAction::Reject);
    let degradations = vec![ReceiptDegradation {
        cause,
        loss: loss.clone(),
    }];
    if falls_back {
        CapabilityResolution {
            state: CapabilityState::Degraded,
            floor: true,
            selection: Vec::new(),
            degradations,
            reason: Some(loss),
            action: Some(action),
            ..base
        }
    } else {
        CapabilityResolution {
            state: CapabilityState::Misconfigured,
            floor: false,
            selection: Vec::new(),
            degradations,
            operations: unavailable(&base.operations, &loss),
            reason: Some(loss),
            action: Some(action),
            ..base
        }
    }
}

/// Why a host's selection was not taken.
struct Problem {
    cause: DegradationCause,
    loss: String,
    action: String,
}

/// Verifies the host's contributors (§8.3), sorted by `order`; the first problem aborts the
/// whole selection.
fn verify(
    descriptor: &Descriptor,
    inventory: &[Instance],
    contributors: &[Contributor],
    operation: Option<&str>,
) -> Result<Vec<SelectedInstance>, Problem> {
    let cap = &descriptor.name;
    let mut sorted: Vec<&Contributor> = contributors.iter().collect();
    sorted.sort_by_key(|c| c.order);
    let opaque = |loss: String| {
        Problem {
        cause: DegradationCause::OpaqueSelection,
        loss,
        action: "select an installed improvement by its name, and by its skill folder when it is installed in several roots; run 'aw skills --detail' to see what is installed".to_owned(),
    }
    };
    let incompatible = |loss: String| Problem {
        cause: DegradationCause::IncompatibleImprovement,
        loss,
        action: format!(
            "select only improvements that declare they improve '{cap}' at contract version {} and the operation invoked; run 'aw skills --detail' to see which are eligible",
            descriptor.contract_version
        ),
    };
    let mut selected = Vec::new();
    for c in sorted {
        let n = &c.name;
        let Some(instance) = inventory.iter().find(|i| &i.name == n) else {
            return Err(opaque(format!(
                "the host declared '{n}' and no instance by that name is installed"
            )));
        };
        // A misconfigured instance has neither digest nor descriptor; both are checked so a
        // half-filled instance can never be selected.
        let usable = match (&instance.digest, &instance.descriptor) {
            (Some(d), Some(own)) if instance.state == State::Ready => Some((d, own)),
            _ => None,
        };
        let Some((digest, own)) = usable else {
            return Err(opaque(
                instance
                    .failure
                    .as_ref()
                    .map(|f| f.message.clone())
                    .unwrap_or_else(|| format!("'{n}' is installed but misconfigured")),
            ));
        };
        let named = c
            .locator
            .as_ref()
            .and_then(|l| instance.locations.iter().find(|loc| &loc.skill_dir == l));
        if instance.locations.len() > 1 && named.is_none() {
            return Err(opaque(format!(
                "'{n}' is installed in {} roots and the selection does not say which one contributed",
                instance.locations.len()
            )));
        }
        if let Some(wanted) = &c.digest
            && wanted != digest
        {
            return Err(Problem {
                cause: DegradationCause::DigestChanged,
                loss: format!(
                    "the host selected '{n}' with digest {wanted}, and the installed bytes have digest {digest}"
                ),
                action: format!(
                    "select '{n}' again as it is installed now, or reinstall the bytes that were selected"
                ),
            });
        }
        match &own.compatibility.improves {
            None => {
                return Err(incompatible(format!(
                    "'{n}' does not declare that it improves '{cap}'"
                )));
            }
            Some(imp) if &imp.capability != cap => {
                return Err(incompatible(format!(
                    "'{n}' improves '{}', not '{cap}'",
                    imp.capability
                )));
            }
            Some(imp) if imp.contract_version != descriptor.contract_version => {
                return Err(incompatible(format!(
                    "'{n}' speaks contract version {}, and '{cap}' speaks version {}",
                    imp.contract_version, descriptor.contract_version
                )));
            }
            Some(imp) => {
                if let Some(op) = operation
                    && !imp.operations.iter().any(|o| o == op)
                {
                    return Err(incompatible(format!(
                        "'{n}' does not declare that it improves '{cap}.{op}'"
                    )));
                }
            }
        }
        let Some(location) = named.or(instance.locations.first()) else {
            return Err(opaque(format!(
                "'{n}' is listed with no installed location"
            )));
        };
        selected.push(SelectedInstance {
            name: n.clone(),
            scope: location.scope.clone(),
            locator: location.skill_dir.clone(),
            version: instance.version.clone(),
            digest: digest.clone(),
            order: c.order,
        });
    }
    Ok(selected)
}

/// The availability of `operation` in `resolution`, when the descriptor declares it.
pub fn operation_state<'a>(
    resolution: &'a CapabilityResolution,
    operation: &str,
) -> Option<&'a OperationAvailability> {
    resolution
        .operations
        .iter()
        .find(|o| o.operation == operation)
}

/// Refuses an operation the resolution makes unavailable (dispatcher step 5):
/// `CAPABILITY_OPERATION_OFF` when the capability is `disabled`, otherwise
/// `CAPABILITY_UNAVAILABLE`; the message is the operation's reason, the action the
/// resolution's (or [`SKILLS_DETAIL_ACTION`]). An operation the resolution does not list passes:
/// naming an unknown operation is the request builder's refusal.
pub fn check_operation_available(
    resolution: &CapabilityResolution,
    operation: &str,
) -> CapabilityResult<()> {
    let Some(op) = operation_state(resolution, operation).filter(|o| !o.available) else {
        return Ok(());
    };
    let code = if resolution.state == CapabilityState::Disabled {
        ErrorCode::CapabilityOperationOff
    } else {
        ErrorCode::CapabilityUnavailable
    };
    let message = op.reason.clone().unwrap_or_else(|| {
        format!(
            "'{}.{operation}' cannot run: the capability is {}",
            resolution.capability,
            resolution.state.as_str()
        )
    });
    let action = resolution
        .action
        .clone()
        .unwrap_or_else(|| SKILLS_DETAIL_ACTION.to_owned());
    Err(CapabilityError::new(code, message, action))
}

/// One pinned contributor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PinnedInstance {
    /// The installed skill's name.
    pub name: String,
    /// The digest it had when the invocation started.
    pub digest: String,
    /// Its place in the contribution order.
    pub order: u64,
}

/// What an invocation ran with (`SelectionPin`, §8.6), carried back on stdin by later attempts
/// so a changed selection is noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectionPin {
    /// The capability.
    pub capability: String,
    /// Its contract version.
    pub contract_version: u64,
    /// Whether the floor ran.
    pub floor: bool,
    /// The selected contributors (empty when the floor ran).
    pub instances: Vec<PinnedInstance>,
}

/// The pin of `resolution`: the capability, its contract version, the floor flag and every
/// selected contributor's name, digest and order.
pub fn pin_selection(resolution: &CapabilityResolution, descriptor: &Descriptor) -> SelectionPin {
    SelectionPin {
        capability: resolution.capability.clone(),
        contract_version: descriptor.contract_version,
        floor: resolution.floor,
        instances: resolution
            .selection
            .iter()
            .map(|s| PinnedInstance {
                name: s.name.clone(),
                digest: s.digest.clone(),
                order: s.order,
            })
            .collect(),
    }
}

/// Checks that every pinned contributor is still installed with the same digest; a floor pin (no
/// instances) always passes. Otherwise `CAPABILITY_SELECTION_CHANGED`, naming the first one that
/// changed.
pub fn check_pin(pin: &SelectionPin, inventory: &[Instance]) -> CapabilityResult<()> {
    for p in &pin.instances {
        let same = inventory
            .iter()
            .any(|i| i.name == p.name && i.digest.as_deref() == Some(p.digest.as_str()));
        if !same {
            return Err(CapabilityError::new(
                ErrorCode::CapabilitySelectionChanged,
                format!(
                    "'{}' is no longer the bytes that were pinned when the invocation started",
                    p.name
                ),
                "start the invocation again with 'aw capability prepare': the pinned selection no longer exists as it was",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "resolution_tests.rs"]
mod tests;
