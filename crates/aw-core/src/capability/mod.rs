//! Capabilities: named catalogs of operations, and the `skills.toml` bindings that select them.
pub mod bindings;
