//! Capabilities (capability spec §4, §7): the descriptor a capability publishes, its grammars,
//! the validator that holds a descriptor to the contract (with the JSON Schema as a second
//! layer), the SKILL.md locator that seals an installed descriptor, the built-in `design`
//! descriptor, and the `skills.toml` bindings that select what runs for each role.

pub mod bindings;
pub mod builtin;
pub mod descriptor;
pub mod grammar;
pub mod inventory;
pub mod locator;
pub mod schema;
pub mod validate;
