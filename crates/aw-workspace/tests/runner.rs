//! The integration suite of `aw-workspace`, built as one test binary: every file of `tests/` is
//! a module here.
//! (With `autotests = false`, a file left out would never run: a test of `aw`'s runner checks
//! that every file of every crate's `tests/` is declared in its runner.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod flow_projection;
mod inventory;
mod skill_bindings;
