//! Capabilities (capability spec §4, §7): the descriptor a capability publishes, its grammars,
//! the validator that holds a descriptor to the contract (with the JSON Schema as a second
//! layer), the SKILL.md locator that seals an installed descriptor, the built-in `design`
//! descriptor, the `skills.toml` bindings that select what runs for each role, and the protocol
//! envelopes (§5): requests with their digests and attempt chain, receipts with their invariants.

pub mod answer;
pub mod bindings;
pub mod builtin;
pub mod descriptor;
pub mod effects;
pub mod error;
pub mod grammar;
pub mod handler;
pub mod inventory;
pub mod locator;
pub mod paths;
pub mod plan;
pub mod receipt;
pub mod request;
pub mod schema;
#[cfg(test)]
pub(crate) mod test_support;
pub mod validate;
