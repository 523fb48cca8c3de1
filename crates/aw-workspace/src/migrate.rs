//! `aw workspace-migrate`: reads the hub files and the legacy session series, asks the core
//! what each migration does (`aw_core::project::migrate`, `aw_core::session::migrate`), and —
//! with `--apply` — writes it under the workspace lock, taken without waiting, after planning
//! again from what the disk holds then. Everything is read from the located workspace root.

use crate::error::{Result, WorkspaceError};
use crate::io::atomic;
use crate::io::lock::WorkspaceLock;
use crate::locate::Workspace;
use crate::sessions::{self, CLOSED_SENTINEL, history};
use aw_core::project::migrate::{self as markers, MarkerPlan};
use aw_core::session::migrate::{self as series, LegacyFolder, SessionPlan, legacy_parts};
use std::path::PathBuf;
use std::time::Duration;

/// The hub files, in the order they are migrated.
pub const HUBS: [&str; 2] = ["CLAUDE.md", "AGENTS.md"];

/// One hub file's migration.
#[derive(Debug, Clone)]
pub struct Hub {
    /// `CLAUDE.md` or `AGENTS.md`.
    pub name: &'static str,
    /// Its absolute path.
    pub path: PathBuf,
    /// What happens to it.
    pub plan: MarkerPlan,
}

/// Everything the migration would do, as read now.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The hub files that exist, each with its plan.
    pub hubs: Vec<Hub>,
    /// The session series' plan.
    pub sessions: SessionPlan,
    /// The legacy folders found, sorted.
    pub legacy: Vec<String>,
    /// The number the next session takes.
    pub next_correlative: String,
}

impl Plan {
    /// How many changes are pending.
    pub fn pending(&self) -> usize {
        let renames = self
            .hubs
            .iter()
            .filter(|h| matches!(h.plan, MarkerPlan::Rename { .. }))
            .count();
        renames + self.sessions.sentinels.len() + self.sessions.rows.len()
    }
}

/// Reads and plans, writing nothing.
pub fn plan(ws: &Workspace) -> Result<Plan> {
    let mut hubs = Vec::new();
    for name in HUBS {
        let path = ws.root.join(name);
        let bytes = match crate::io::folder::read_regular_path(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(WorkspaceError::io("read", &path, e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        hubs.push(Hub {
            name,
            plan: markers::plan(&text, &ws.ns),
            path,
        });
    }
    let listing = sessions::list(ws)?;
    let history_text = history::read(ws)?;
    let rows = history_text
        .as_deref()
        .map(aw_core::session::history::rows)
        .unwrap_or_default();
    let mut legacy = Vec::new();
    for f in listing.iter().filter(|f| legacy_parts(&f.folder).is_some()) {
        // `today` left empty: a session with no date of its own gets `—`, never today's.
        let info = sessions::info(ws, f, None, "")?;
        legacy.push(LegacyFolder {
            folder: f.folder.clone(),
            closed: info.folder.state == aw_core::session::folder::SessionState::Closed,
            date: Some(info.date).filter(|d| !d.is_empty()),
        });
    }
    let all: Vec<String> = listing.iter().map(|f| f.folder.clone()).collect();
    let plan = series::plan(&legacy, &all, &rows);
    let next = sessions::next_number(&listing, history_text.as_deref());
    Ok(Plan {
        hubs,
        sessions: plan,
        legacy: legacy.into_iter().map(|l| l.folder).collect(),
        next_correlative: next.padded(),
    })
}

/// What `--apply` changed.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Hub files whose markers were renamed (absolute paths).
    pub renamed: Vec<PathBuf>,
    /// Of those, the ones an empty block was cut out of.
    pub duplicates_dropped: Vec<PathBuf>,
    /// Folders that got `.closed`.
    pub sentinels: Vec<String>,
    /// Folders that got a HISTORY row.
    pub rows: Vec<String>,
    /// Of those, the rows written without a date (`—`).
    pub rows_without_date: Vec<String>,
}

/// Plans again under the workspace lock (not waited for: a busy lock is `LOCK_BUSY`, nothing
/// written) and writes the plan: each hub file whole and atomically, each sentinel, then the
/// HISTORY rows in one write. Returns the plan it applied (for the conflicts and the next
/// number) and what changed.
pub fn apply(ws: &Workspace) -> Result<(Plan, Applied)> {
    let lock = WorkspaceLock::of(ws, Duration::ZERO)?;
    let plan = plan(ws)?;
    let mut done = Applied::default();
    for hub in &plan.hubs {
        if let MarkerPlan::Rename {
            text,
            drops_duplicate,
            ..
        } = &hub.plan
        {
            atomic::write(&ws.root, &hub.path, text.as_bytes())?;
            done.renamed.push(hub.path.clone());
            if *drops_duplicate {
                done.duplicates_dropped.push(hub.path.clone());
            }
        }
    }
    for (folder, _) in &plan.sessions.sentinels {
        let path = sessions::folder_path(ws, folder).join(CLOSED_SENTINEL);
        atomic::create_new(&ws.root, &path, b"")?;
        done.sentinels.push(folder.clone());
    }
    if !plan.sessions.rows.is_empty() {
        let current = history::read_exact(ws)?;
        let mut text = current.clone();
        for (folder, row) in &plan.sessions.rows {
            let code = row.key.split('-').next().unwrap_or_default().to_owned();
            text = Some(history::plan(text.as_deref(), &code, row).text);
            done.rows.push(folder.clone());
            if row.date == "—" {
                done.rows_without_date.push(folder.clone());
            }
        }
        if let Some(text) = text {
            let planned = aw_core::session::history::Upserted {
                text,
                action: aw_core::session::history::Upsert::Added,
                migrated: false,
            };
            history::commit(ws, current.as_deref(), &planned, &lock)?;
        }
    }
    drop(lock);
    Ok((plan, done))
}
