//! Pure rules of aw.
//!
//! Nothing in this crate touches the filesystem, the clock, the environment or other processes:
//! every function takes values and returns values, so every rule can be tested in isolation and
//! reused by every command that needs it.

#![forbid(unsafe_code)]

pub mod artifacts;
pub mod board;
pub mod bundle;
pub mod calendar;
pub mod canonical;
pub mod capability;
pub mod checkpoint;
pub mod context_id;
pub mod custody;
pub mod decimal;
pub mod design;
pub mod documents;
pub mod error_code;
pub mod family;
pub mod flow;
pub mod install;
pub mod isolation;
pub mod journal;
pub mod markdown;
pub mod names;
pub mod persist;
pub mod project;
pub mod session;
pub mod vocab;
pub mod wire;
