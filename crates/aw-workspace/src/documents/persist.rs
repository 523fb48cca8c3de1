//! `aw persist`'s disk: reading the docs folders into the persist inventory, and the apply's
//! transaction (the lock, the folders read again under it, aw-core's checks, the publish).
//!
//! The folders are listed with `next-number`'s own scan (`numbering::scan`), so both commands see
//! the same names and the same next number; only names that fit a folder's document grammar are
//! read, and only when they are (or lead to) a regular file.

use crate::documents::numbering;
use crate::error::{Result, WorkspaceError};
use crate::io::folder::read_regular_path;
use crate::locate::Workspace;
use crate::publish::{PublishError, Published, lock_for_publish, placed_already, publish_held};
use aw_core::capability::plan::Artifact;
use aw_core::documents::names::{DocKind, parse_name};
use aw_core::persist::answer::Item;
use aw_core::persist::inventory::{self, Entry, Inventory};
use aw_core::persist::plan::{Planned, allowed_destinations, approval_at, check_fresh};
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
/// else reads every folder again under the lock and checks the documents not yet in place:
/// their numbers must still be free and no duplicate may have appeared (`check_fresh`: nothing
/// written otherwise); then publishes them all or nothing into the three folders. Documents of
/// the plan already in place with exactly their text (what a writer that wrote them one by one
/// left when killed) are kept, and the rest completes the plan.
pub fn apply(
    ws: &Workspace,
    planned: &[Planned],
    artifacts: &[Artifact],
    wait: Duration,
) -> std::result::Result<Published, PublishError> {
    let lock = lock_for_publish(ws, wait)?;
    let placed = placed_already(ws, &lock, artifacts, &allowed_destinations())?;
    if !artifacts.is_empty() && placed.iter().all(|p| *p) {
        return Ok(Published::nothing_written(Vec::new()));
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
    let (rest_planned, rest): (Vec<Planned>, Vec<Artifact>) = planned
        .iter()
        .zip(artifacts)
        .zip(&placed)
        .filter(|(_, placed)| !**placed)
        .map(|((p, a), _)| (p.clone(), a.clone()))
        .unzip();
    check_fresh(&rest_planned, &now).map_err(PublishError::before_any_write)?;
    crate::io::test_hook::stall();
    publish_held(ws, &lock, &rest, None, &allowed_destinations())
}

/// Whether the answer `items` were applied before — a bare answer piped to apply again after
/// its apply, which the moved inventory makes stale: each item's document is in its folder
/// (its slug, exactly its text), and the plan those documents give, sealed with the digest the
/// answer quoted (`digest`), is the one the person approved (`approval`). Their paths when so.
pub fn applied_answer(
    ws: &Workspace,
    items: &[Item],
    digest: &str,
    approval: &str,
) -> Result<Option<Vec<String>>> {
    let listed = list(ws)?;
    let mut paths = Vec::with_capacity(items.len());
    for item in items {
        let found = listed
            .iter()
            .filter(|(kind, _)| *kind == item.kind)
            .flat_map(|(_, entries)| entries)
            .find(|e| {
                parse_name(item.kind, &e.name).is_some_and(|n| n.slug == item.slug)
                    && e.text.as_deref() == Some(item.content.as_str())
            });
        match found {
            Some(e) => paths.push(format!("{}/{}", item.kind.folder(), e.name)),
            None => return Ok(None),
        }
    }
    Ok((approval_at(items, &paths, digest) == approval).then_some(paths))
}
