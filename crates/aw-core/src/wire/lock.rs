//! The `details` of a failure because another aw invocation holds the workspace lock.

use schemars::JsonSchema;
use serde::Serialize;

/// Who holds the lock.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LockHeld {
    /// The holder's pid, as its lock file records it.
    pub pid: String,
}
