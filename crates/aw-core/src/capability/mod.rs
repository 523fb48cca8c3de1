//! Capabilities (capability spec §4): the descriptor a capability publishes, its grammars, the
//! validator that holds a descriptor to the contract (with the JSON Schema as a second layer),
//! the SKILL.md locator that seals an installed descriptor, and the built-in `design` descriptor.

pub mod builtin;
pub mod descriptor;
pub mod grammar;
pub mod locator;
pub mod schema;
pub mod validate;
