//! The filesystem shell of aw.
//!
//! Everything that touches the disk lives here: reading skill folders for the manifest
//! validator, workspace discovery and namespace resolution, atomic writes and the workspace
//! lock. The rules themselves stay in `aw-core`.

#![forbid(unsafe_code)]

pub mod artifacts;
pub mod atomic;
pub mod bindings;
pub mod board;
pub mod branch_check;
pub mod bridge_settings;
pub mod bundle_tree;
pub mod capability;
pub mod checkpoint;
pub mod clock;
pub mod containment;
pub mod context_id;
pub mod designs;
pub mod doc_language;
pub mod error;
pub mod example;
pub mod family;
pub mod flow_store;
pub mod folder;
pub mod git;
pub mod git_head;
pub mod history;
pub mod hooks;
pub mod init;
pub mod install;
pub mod inventory;
pub mod invocation;
pub mod launch;
pub mod locate;
pub mod lock;
pub mod narrative;
pub mod numbering;
pub mod persist;
pub mod plan_evidence;
pub mod project;
pub mod publish;
pub mod random;
pub mod reference_trace;
pub mod resolver;
pub mod sessions;
pub mod skill;
pub mod skill_bindings;
pub mod skill_index;
pub mod source_removal;
pub mod stdin;
pub mod test_hook;
pub mod visibility;
pub mod wrapper_links;

pub use error::{Result, WorkspaceError};
