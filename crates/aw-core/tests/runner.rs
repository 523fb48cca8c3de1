//! The integration suite of `aw-core`, built as one test binary: every file of `tests/` is a
//! module here; `common` holds the fixture rows and the pure runs the flow suites share.
//! (With `autotests = false`, a file left out would never run: a test of `aw`'s runner checks
//! that every file of every crate's `tests/` is declared in its runner.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod board;
mod common;
mod decision_notes;
mod documents_props;
mod flow_directive;
mod flow_engine;
mod flow_registry;
mod flow_registry_table;
mod flow_robustness;
mod flow_runs;
mod flow_state;
mod flow_vectors;
mod layering;
