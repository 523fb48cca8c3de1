//! What the lifecycle hooks report when no session can be settled on: degraded continuity.

use crate::failure::Failure;
use crate::style::clean;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_workspace::hooks::Unresolved;
use serde_json::{Value, json};

/// An unresolved target, as the hooks report it.
#[derive(Debug, Clone)]
pub struct Degraded {
    /// Why, in the resolver's words.
    pub reason: String,
    /// The resolver's candidates, in the failure envelope's shape.
    pub candidates: Value,
    /// What to do next.
    pub action: String,
    /// The active sessions, in listing (byte) order.
    pub active: Vec<String>,
}

impl Degraded {
    /// Reads the refusal and the listing.
    pub fn of(u: Unresolved) -> Self {
        let active = active_folders(&u.listing);
        let f = Failure::from(u.refusal);
        Degraded {
            candidates: f.extra_data.get("candidates").cloned().unwrap_or(json!([])),
            reason: f.message,
            action: f.action,
            active,
        }
    }

    /// The human lines.
    pub fn text(&self) -> String {
        let mut out = format!("Continuity degraded: {}\n", clean(&self.reason));
        if !self.active.is_empty() {
            let active: Vec<_> = self.active.iter().map(|a| clean(a)).collect();
            out.push_str(&format!("  Active sessions  {}\n", active.join(", ")));
        }
        out.push_str(&format!("  Next             {}\n", clean(&self.action)));
        out
    }
}

/// The folders of the active sessions, in listing (byte) order.
pub fn active_folders(listing: &[SessionFolder]) -> Vec<String> {
    listing
        .iter()
        .filter(|f| f.state == SessionState::Active)
        .map(|f| f.folder.clone())
        .collect()
}
