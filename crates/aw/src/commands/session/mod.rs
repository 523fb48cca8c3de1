//! `aw session-*`, `aw sessions` and `aw history-update`: a session's life and its HISTORY row.

pub mod artifacts;
pub mod close;
pub mod create;
pub mod history_update;
pub mod list;
pub mod resume;
