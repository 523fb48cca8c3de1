//! The agent-workflow family's members as aw reads them (`aw family …`), values in, no I/O: the
//! static roster (detection has to work before a member is installed, so it cannot come from a
//! manifest on disk), the detection ladder, where `detect.installed` points, freshness against a
//! bundled copy, the configured posture line, the sandbox-lane recipe (and the wiring and
//! acknowledgement it depends on) and the wrapper links.

pub mod bridge_settings;
pub mod ladder;
pub mod links;
pub mod posture;
pub mod resolve;
pub mod roster;
pub mod sandbox;
pub mod wiring;

pub use ladder::{Classified, ManifestFacts, State, classify};
pub use resolve::{
    Found, Freshness, Resolved, Via, authoritative_version, candidates, compares_with_bundle,
    freshness, kit_bundles, missing_reason, resolve_installed,
};
pub use roster::{MEMBERS, Member};
