//! Capabilities (capability spec §4, §7): the descriptor a capability publishes, its grammars,
//! the validator that holds a descriptor to the contract (with the JSON Schema as a second
//! layer), the SKILL.md locator that seals an installed descriptor, the built-in `design`
//! descriptor, the `skills.toml` bindings that select what runs for each role, and the protocol
//! envelopes (§5): requests with their digests and attempt chain, receipts with their invariants;
//! effects and durable plans (§6); resolution and the selection pin (§8), readiness as `aw skills`
//! reports it (§7.6), and the callers: host detection, the flows' caller table, and the gates a
//! flow holds a composed result to (§9).

pub mod answer;
pub mod binding_check;
pub mod bindings;
pub mod builtin;
pub mod callers;
pub mod carry;
pub mod descriptor;
pub mod dispatch;
pub mod effects;
pub mod error;
pub mod grammar;
pub mod handler;
pub mod inventory;
pub mod locator;
pub mod paths;
pub mod plan;
pub mod readiness;
pub mod receipt;
pub mod receipt_human;
pub mod request;
pub mod resolution;
#[cfg(test)]
mod schema;
#[cfg(test)]
pub(crate) mod test_support;
pub mod validate;
pub mod wrapper;
