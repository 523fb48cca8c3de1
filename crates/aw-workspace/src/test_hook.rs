//! A testing aid, documented in docs/PROTOCOL.md: `AW_TEST_STALL_MS=<n>` makes a mutating
//! session command sleep `n` ms while it holds the workspace lock, between two of its writes, so
//! a crash test can kill it exactly there. Unset (always, outside tests), it does nothing.

use std::time::Duration;

/// Sleeps when `AW_TEST_STALL_MS` is set to a number of milliseconds.
pub fn stall() {
    if let Some(ms) = std::env::var("AW_TEST_STALL_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        std::thread::sleep(Duration::from_millis(ms));
    }
}
