//! CHECKPOINT.md: the snapshot aw writes before a host compacts a conversation
//! ([`snapshot`]), its sealed template and the overwrite guard ([`template`]), how it is read back
//! in English and in the reference's Spanish ([`read`]), how fresh it is ([`freshness`]), and
//! when the PreCompact hook holds a compaction ([`hold`]).

pub mod freshness;
pub mod hold;
pub mod read;
pub mod snapshot;
pub mod template;

pub use freshness::{Assessment, STALE_AFTER_SECONDS, Status, assess, unfilled_placeholders};
pub use read::{Fields, parse};
pub use snapshot::{
    FileTouched, Snapshot, SnapshotSources, origin_excerpt, parse_numstat, snapshot,
};
pub use template::{Guard, guard, is_pristine, is_stub, render};
