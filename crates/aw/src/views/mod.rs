//! Human views, rendered from the typed output models (`aw_core::wire`), and the projections
//! more than one command shows.
//!
//! A command builds its model once; [`crate::output::Outcome::shown`] prints it as JSON or, for
//! a person, through its [`View`]: the two projections cannot disagree about what happened. A
//! view reads nothing, decides no rule and never looks into a JSON value; it writes with
//! `write!` into the one buffer it is given.

pub mod family_links;
pub mod family_modes;
pub mod family_posture;
pub mod family_sandbox;
pub mod family_settings;
pub mod family_status;
pub mod hooks;
pub mod multiroot;
pub mod narrative;
pub mod project_block;
pub mod sources;
pub mod status;

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
