//! What the lifecycle hooks report when no session can be settled on: degraded continuity.

use crate::failure::Failure;
use crate::style::clean;
use aw_core::checkpoint::hold::bind_action;
use aw_core::session::folder::{SessionFolder, SessionState};
use aw_core::wire::envelope::CandidateOut;
use aw_workspace::WorkspaceError;
use aw_workspace::sessions::hooks::Unresolved;
use std::fmt::{self, Write};

/// An unresolved target, as the hooks report it.
#[derive(Debug, Clone)]
pub struct Degraded {
    /// Why, in the resolver's words.
    pub reason: String,
    /// The resolver's candidates, in the failure envelope's shape.
    pub candidates: Vec<CandidateOut>,
    /// What to do next.
    pub action: String,
    /// The active sessions, in listing (byte) order.
    pub active: Vec<String>,
}

impl Degraded {
    /// Reads the refusal and the listing. When binding the conversation (`context_id`) settles
    /// the choice, the action is the command that binds it.
    pub fn of(u: Unresolved, context_id: Option<&str>) -> Self {
        let active = active_folders(&u.listing);
        let bind = match &u.refusal {
            WorkspaceError::Session(r) => {
                bind_action(r, context_id, &aw_workspace::invocation::invocation())
            }
            _ => None,
        };
        let f = Failure::from(u.refusal);
        Degraded {
            candidates: f.data.candidates.clone().unwrap_or_default(),
            reason: f.message,
            action: bind.unwrap_or(f.action),
            active,
        }
    }
}

/// The human lines of degraded continuity: why, the active sessions, what to do next.
pub fn write_degraded(
    out: &mut dyn Write,
    reason: &str,
    active: &[String],
    action: &str,
) -> fmt::Result {
    writeln!(out, "Continuity degraded: {}", clean(reason))?;
    if !active.is_empty() {
        write!(out, "  Active sessions  ")?;
        for (i, a) in active.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(out, "{sep}{}", clean(a))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "  Next             {}", clean(action))
}

/// The folders of the active sessions, in listing (byte) order.
pub fn active_folders(listing: &[SessionFolder]) -> Vec<String> {
    listing
        .iter()
        .filter(|f| f.state == SessionState::Active)
        .map(|f| f.folder.clone())
        .collect()
}
