//! The built-in `design` capability (capability spec §10): its floor handler and the design
//! domain rules the floor stands on — where authored output may land, what a declared source
//! is and what its omission costs, and the index of the packages under `docs/designs/`.
//!
//! Everything here is pure. The shell reads the folders under `docs/designs/` into a
//! [`index::DesignDir`] tree (`aw_workspace::capability::designs::read_index`), and the floor is built with
//! the index that tree gives: nothing in this module opens a file.
//!
//! The package format is v1 (see `docs/PROTOCOL.md`, "The design package format (v1)"): an
//! authored `DESIGN.md` ([`document`]) and a manifest aw derives and checks ([`manifest`]),
//! with a maturity rule of its own ([`maturity`]).

pub mod authoring;
pub mod create;
pub mod document;
pub mod failure;
pub mod floor;
pub mod gate;
pub mod graph;
pub mod index;
pub mod manifest;
pub mod maturity;
pub mod output_root;
pub mod receipt_fields;
pub mod record;
pub mod render;
pub mod render_op;
pub mod review;
pub mod sources;
pub mod standing;
#[cfg(test)]
mod test_support;
pub mod update;

pub use failure::DesignFailure;
pub use floor::{ADAPTERS, DesignFloor};
pub use index::{DesignIndex, DesignPackageEntry};
pub use output_root::{DESIGNS_DIR, OutputRoot, resolve_output_root};
pub use receipt_fields::DesignReceiptFields;
