//! The `<NS>-PROJECT` block that `workspace-init` writes into `CLAUDE.md` and `AGENTS.md`, and
//! the other files init owns: the `.gitignore` sections, the `skills.toml` template, the
//! multi-root visibility settings (Claude Code's `settings.rs`, Codex's `codex.rs`, and what
//! `visibility doctor` concludes from them, `visibility.rs`) and the launch folders.
//!
//! We read English headings and labels and the reference's Spanish ones, and write either (see
//! [`language`]): a block keeps its language, a new one follows the configured language.

pub mod branch_check;
pub mod codex;
pub mod commit_advisor;
pub mod error;
pub mod gitignore;
pub mod kept;
pub mod language;
pub mod launch;
pub mod markers;
pub mod migrate;
pub mod model;
pub mod parse;
pub mod pretool;
pub mod reconcile;
pub mod reference_trace;
pub mod render;
pub mod settings;
pub mod skills_toml;
pub mod source;
pub mod sources;
pub mod sql_guard;
pub mod stack;
pub mod upsert;
pub mod visibility;

pub use error::InputError;
pub use model::{Block, BranchMap, Source, Stack};
