//! Human views, rendered from the typed output models (`aw_core::wire`), and the projections
//! more than one command shows.
//!
//! A command builds its model once; [`crate::output::Outcome::shown`] prints it as JSON or, for
//! a person, through its [`View`]: the two projections cannot disagree about what happened. A
//! view reads nothing, decides no rule and never looks into a JSON value; it writes with
//! `write!` into the one buffer it is given.

pub mod branch_set;
pub mod capability;
pub mod capability_descriptor;
pub mod check_branch;
pub mod checkpoint_read;
pub mod checkpoint_write;
pub mod context;
pub mod designs;
pub mod failure;
pub mod family_links;
pub mod family_modes;
pub mod family_posture;
pub mod family_sandbox;
pub mod family_settings;
pub mod family_status;
pub mod flow;
pub mod hooks;
pub mod manifest_validate;
pub mod narrative;
pub mod next_number;
pub mod persist;
pub mod project_md_upsert;
pub mod project_write;
pub mod remove_source;
pub mod resume;
pub mod resume_summary;
pub mod self_cmd;
pub mod session;
pub mod session_artifacts;
pub mod session_close;
pub mod session_resume;
pub mod sessions;
pub mod skill_index;
pub mod skills;
pub mod sources;
pub mod stack;
pub mod status;
pub mod visibility;
pub mod workspace_init;
pub mod workspace_migrate;
pub mod worktree;

use crate::output::Style;
use std::fmt::{self, Write};

/// The human projection of a typed output model.
pub trait View {
    /// Writes the view for a person into `out` (`style.detail` asks for the wider one).
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result;

    /// The view as text.
    fn text(&self, style: &Style) -> String {
        let mut out = String::new();
        // Writing into a `String` cannot fail.
        let _ = self.render(&mut out, style);
        out
    }
}
