//! `aw completions` and `aw man` with `--format json`: the text a shell or `man` reads, wrapped.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw completions <shell> --format json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Completions {
    /// The shell.
    pub shell: String,
    /// Its completion script.
    pub script: String,
}

/// The output of `aw man [<command> [<verb>]] --format json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManPage {
    /// The page's name (`aw-flow-advance`).
    pub page: String,
    /// Its roff source.
    pub roff: String,
}
