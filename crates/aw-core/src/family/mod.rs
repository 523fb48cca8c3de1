//! The agent-workflow family's members as aw detects them (`aw family status`, `aw family
//! posture`): the static roster (detection has to work before a member is installed, so it
//! cannot come from a manifest on disk), the detection ladder, where `detect.installed` points,
//! freshness against a bundled copy and the configured posture line. Values in, no I/O.

pub mod ladder;
pub mod posture;
pub mod resolve;
pub mod roster;

pub use ladder::{Classified, ManifestFacts, State, classify};
pub use resolve::{Found, Freshness, Resolved, Via, candidates, freshness, resolve_installed};
pub use roster::{MEMBERS, Member};
