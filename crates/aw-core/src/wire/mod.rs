//! The wire: the typed output model of each command, and the failure envelope.
//!
//! A command's JSON output is one of these types, built by a function here from what the shell
//! read; serialising it gives the bytes on stdout (field order is the key order, an `Option`
//! skipped when `None` is a key left out, a bare `Option` is `null`). The same types give the JSON
//! Schema (draft 2020-12) `aw schema` prints and `docs/schemas/` holds, so the schema cannot
//! drift from the output. Commands not yet moved here still build `json!` literals; a house-rules
//! test counts them down to none.

pub mod arguments;
pub mod capability_descriptor;
pub mod check_branch;
pub mod checkpoint;
pub mod context;
pub mod demo;
pub mod designs;
pub mod envelope;
pub mod family;
pub mod lock;
pub mod manifest_validate;
pub mod multiroot;
pub mod next_number;
pub mod project_block;
pub mod project_md_upsert;
pub mod remove_source;
pub mod schema;
pub mod self_cmd;
pub mod session;
pub mod session_artifacts;
pub mod session_resume;
pub mod sessions;
pub mod shell;
pub mod skill_index;
pub mod skills;
pub mod sources;
pub mod stack;
pub mod visibility;
pub mod workspace_init;
pub mod workspace_migrate;
pub mod worktree;
