//! The `details` of a failure because another aw invocation holds the workspace lock.

use serde::Serialize;

/// Who holds the lock.
#[derive(Debug, Clone, Serialize)]
pub struct LockHeld<'a> {
    /// The holder's pid, as its lock file records it.
    pub pid: &'a str,
}
