//! A design package's governance decisions on disk (`reviews/rNNN.json`): read the review of its
//! current revision and let `aw_core::design::review` decide whether it approves those bytes.

use aw_core::design::index::DesignPackageEntry;
use aw_core::design::review::{is_approved, parse_review, review_path};
use std::path::Path;

/// Whether `entry`'s current revision carries an approving review of its current digest. A
/// package without a baseline, a missing or unreadable review, or one that does not parse is not
/// approved (the gate then says so; it never fails the read).
pub fn approved(ws_root: &Path, entry: &DesignPackageEntry) -> bool {
    let Some(baseline) = &entry.current_baseline else {
        return false;
    };
    let rel = format!("{}/{}", entry.path, review_path(baseline.revision));
    let Ok(bytes) = crate::folder::read_regular_path(&ws_root.join(&rel)) else {
        return false;
    };
    parse_review(&bytes, &rel).is_ok_and(|r| is_approved(&[r], baseline.revision, &baseline.digest))
}
