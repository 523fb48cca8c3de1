//! Rules over the agent-workflow family members' manifests (pure: values in, decisions out).

pub mod links;
pub mod sandbox;
