//! Spec and plan documents as aw reads them, and the board built from them.
//!
//! The grammars (§9 of the workspace spec) read the reference's Spanish keywords and our English
//! ones alike, folding case and accents; CRLF text reads like LF text; headings, state lines and
//! phase blocks inside fenced code never count (task checkboxes do, as in the reference).
//!
//! - [`names`]: `NNN-spec-<slug>.md` / `PPP-plan-<slug>.md` and the inventory order.
//! - [`frontmatter`], [`preamble`]: the parts of a document before its first section.
//! - [`relative_time`]: how long ago, in English, with "now" passed in (dates themselves are
//!   read by [`crate::calendar`]).
//! - [`spec`]: maturity and open questions.
//! - [`plan`], [`phases`], [`relation`], [`batches`]: a plan's three progress axes, its spec
//!   and its execution batches.
//! - [`session_view`]: what the board reads of a session folder.
//! - [`flow_view`]: the slot where the flow engine's per-session projection plugs in.
//! - [`board_input`], [`status`], [`pipeline`], [`discarded`]: the `aw status` model and what
//!   it is built from.
//! - [`resume`]: the `aw resume` proposals.
//! - [`titles`]: allocation-free folded comparisons of headings and keys.

pub mod batches;
pub mod board_input;
pub mod discarded;
pub mod flow_view;
pub mod frontmatter;
pub mod names;
pub mod phases;
pub mod pipeline;
pub mod plan;
pub mod preamble;
pub mod relation;
pub mod relative_time;
pub mod resume;
pub mod session_view;
pub mod spec;
pub mod status;
pub mod titles;
