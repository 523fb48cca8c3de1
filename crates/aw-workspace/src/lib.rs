//! The filesystem shell of aw.
//!
//! Everything that touches the disk lives here: reading skill folders for the manifest
//! validator, workspace discovery and namespace resolution, atomic writes and the workspace
//! lock. The rules themselves stay in `aw-core`.

#![forbid(unsafe_code)]

pub mod bundle_tree;
pub mod capability;
pub mod documents;
pub mod error;
pub mod example;
pub mod family;
pub mod flow;
pub mod git;
pub mod install;
pub mod invocation;
pub mod io;
pub mod isolation;
pub mod locate;
pub mod migrate;
pub mod project;
pub mod publish;
pub mod sessions;

pub use error::{Result, WorkspaceError};
