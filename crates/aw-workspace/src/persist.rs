//! `aw persist`'s disk: reading the docs folders into the persist inventory, and the apply's
//! transaction (the lock, the folders read again under it, aw-core's checks, the publish).
//!
//! The folders are listed with `next-number`'s own scan (`numbering::scan`), so both commands see
//! the same names and the same next number; only names that fit a folder's document grammar are
//! read, and only when they are (or lead to) a regular file.

use crate::error::{Result, WorkspaceError};
use crate::folder::read_regular_path;
use crate::locate::Workspace;
use crate::numbering;
use crate::publish::{PublishError, Published, lock_for_publish, publish_held, published_already};
use aw_core::capability::plan::Artifact;
use aw_core::docs::names::{DocKind, parse_name};
use aw_core::persist::inventory::{self, Entry, Inventory};
use aw_core::persist::plan::{Planned, allowed_destinations, check_fresh};
use std::time::Duration;

/// The entries of each kind's folder (a missing folder has none), every kind.
pub fn list(ws: &Workspace) -> Result<Vec<(DocKind, Vec<Entry>)>> {
    DocKind::ALL
        .into_iter()
        .map(|kind| Ok((kind, entries(ws, kind)?)))
        .collect()
}

fn entries(ws: &Workspace, kind: DocKind) -> Result<Vec<Entry>> {
    let dir = ws.root.join(kind.folder());
    let scan = numbering::scan(&dir)?;
    Ok(scan
        .files
        .into_iter()
        .map(|name| {
            // A folder, a FIFO or an unreadable file named like a document still counts for the
            // numbering; it has no title.
            let text = parse_name(kind, &name)
                .and_then(|_| read_regular_path(&dir.join(&name)).ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
            Entry { name, text }
        })
        .collect())
}

/// The persist inventory of `kinds`.
pub fn read_inventory(ws: &Workspace, kinds: &[DocKind]) -> Result<Inventory> {
    Ok(inventory::build(&list(ws)?, kinds))
}

/// Publishes a checked persist plan (`planned`, what `persist::plan::check_carried` made of
/// `artifacts`): takes the workspace lock (waiting up to `wait`; an interrupted earlier publish
/// is settled first), answers already published when every document is in place with exactly
/// its bytes (the same plan applied again: nothing written, never its own numbers "taken"),
/// else reads every folder again under the lock, refuses when a number is no longer free or a
/// duplicate appeared (`check_fresh`: nothing written), then publishes all or nothing into the
/// three folders.
pub fn apply(
    ws: &Workspace,
    planned: &[Planned],
    artifacts: &[Artifact],
    wait: Duration,
) -> std::result::Result<Published, PublishError> {
    let lock = lock_for_publish(ws, wait)?;
    if published_already(ws, &lock, artifacts, &allowed_destinations())? {
        return Ok(Published {
            written: Vec::new(),
            created_dirs: Vec::new(),
            already_published: true,
        });
    }
    // A concurrent `persist apply` or `next-number --claim` holds this lock while it writes, so
    // what is read here stays true until the publish below is done.
    let now = read_inventory(ws, &DocKind::ALL).map_err(|e: WorkspaceError| {
        PublishError::before_any_write(aw_core::capability::error::CapabilityError::new(
            e.code(),
            e.to_string(),
            e.action(),
        ))
    })?;
    check_fresh(planned, &now).map_err(PublishError::before_any_write)?;
    crate::test_hook::stall();
    publish_held(ws, &lock, artifacts, None, &allowed_destinations())
}
