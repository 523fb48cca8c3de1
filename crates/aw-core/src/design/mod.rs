//! The built-in `design` capability (capability spec §10): its floor handler and the design
//! domain rules the floor stands on — where authored output may land, what a declared source
//! is and what its omission costs, and the index of the packages under `docs/designs/`.
//!
//! Everything here is pure. The shell reads the folders under `docs/designs/` into a
//! [`index::DesignDir`] tree (`aw_workspace::designs::read_index`), and the floor is built with
//! the index that tree gives: nothing in this module opens a file.
//!
//! The package model is deliberately minimal (a manifest with an identity, a title, a revision
//! and the digest of `DESIGN.md`); the full package format grows in [`manifest`].

pub mod failure;
pub mod floor;
pub mod gate;
pub mod graph;
pub mod index;
pub mod manifest;
pub mod output_root;
pub mod receipt_fields;
pub mod render;
pub mod review;
pub mod sources;
#[cfg(test)]
mod test_support;

pub use failure::DesignFailure;
pub use floor::{ADAPTERS, DesignFloor};
pub use index::{DesignIndex, DesignPackageEntry};
pub use output_root::{DESIGNS_DIR, OutputRoot, resolve_output_root};
pub use receipt_fields::DesignReceiptFields;
