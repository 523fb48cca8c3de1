//! The board: the `aw status` model and the `aw resume` proposals, built from documents and
//! session folders already read and parsed.
//!
//! - [`session_view`]: what the board reads of a session folder.
//! - [`flow_view`]: the slot where the flow engine's per-session projection plugs in.
//! - [`board_input`], [`status`], [`pipeline`], [`discarded`]: the `aw status` model and what
//!   it is built from.
//! - [`retirements`]: the retirements ledger of `HISTORY.md` and the journals in flight.
//! - [`detail`]: what a spec or plan owes, for the pipeline and for `aw resume`.
//! - [`lineage`]: a plan's baseline seal, effective contract and reconciliation.
//! - [`resume`]: the `aw resume` proposals.
//! - [`relative_time`]: how long ago, in English, with "now" passed in (dates themselves are
//!   read by [`crate::calendar`]).

pub mod board_input;
pub mod detail;
pub mod discarded;
pub mod flow_view;
pub mod lineage;
pub mod pipeline;
pub mod relative_time;
pub mod resume;
pub mod retirements;
pub mod session_view;
pub mod status;
