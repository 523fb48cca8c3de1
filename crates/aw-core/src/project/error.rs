//! Why a project-block input was refused. Every variant reads as an English sentence and has a
//! next action; the binary reports them all as `INVALID_INPUT`.

/// A refused input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// `--source` without a colon, or starting with one.
    #[error("`--source {raw}` is not of the form `alias:path[:main-branch]`")]
    SourceFormat {
        /// The value as typed.
        raw: String,
    },
    /// `--source` with an empty alias or path.
    #[error("`--source {raw}` needs both an alias and a path (`alias:path[:main-branch]`)")]
    SourceIncomplete {
        /// The value as typed.
        raw: String,
    },
    /// `C:foo`: a drive letter not followed by a separator, the mark of a shell that ate the
    /// backslashes of `C:\foo`.
    #[error(
        "`--source {raw}` has a drive letter without a separator after it; the shell probably removed the backslashes of a Windows path"
    )]
    DrivePathMangled {
        /// The value as typed.
        raw: String,
    },
    /// An alias outside the alias grammar.
    #[error(
        "`{alias}` is not a valid source alias: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    )]
    InvalidAlias {
        /// The rejected alias.
        alias: String,
    },
    /// A path that would break the block (control characters, `|`) or is empty.
    #[error("`{path}` is not a usable source path: {why}")]
    InvalidPath {
        /// The rejected path.
        path: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A branch name git would refuse, or that would break the block.
    #[error("`{branch}` is not a valid branch name")]
    InvalidBranch {
        /// The rejected branch.
        branch: String,
    },
    /// `--working-branch` / `--qa-branch` not of the form `alias:branch`.
    #[error("`--{flag} {raw}` is not of the form `alias:branch`")]
    BranchItemFormat {
        /// The flag, without dashes.
        flag: &'static str,
        /// The value as typed.
        raw: String,
    },
    /// `--scope` names an alias the block has no source for.
    #[error("`--scope` names `{alias}`, which is not a source of this workspace")]
    UnknownScope {
        /// The alias asked for.
        alias: String,
        /// The block's aliases, in order.
        known: Vec<String>,
    },
    /// `remove-source` names an alias the block has no source for.
    #[error("`{alias}` is not a source of this workspace")]
    UnknownSource {
        /// The alias asked for.
        alias: String,
        /// The block's aliases, in order.
        known: Vec<String>,
    },
    /// The same alias declared twice in one command.
    #[error("the alias `{alias}` is declared twice")]
    DuplicateAlias {
        /// The repeated alias.
        alias: String,
    },
    /// A branch given for an alias that is not among the sources.
    #[error("`--{flag}` names the alias `{alias}`, which is not one of the sources ({known})")]
    UnknownAlias {
        /// The flag, without dashes.
        flag: &'static str,
        /// The unknown alias.
        alias: String,
        /// The declared aliases, comma-separated.
        known: String,
    },
    /// `workspace-init` with no `--source` and no existing block to reuse.
    #[error(
        "no source was declared, and this folder has no project block to take the sources from"
    )]
    NoSources,
    /// A project description that would break the block.
    #[error("the project description {why}")]
    InvalidProject {
        /// What is wrong with it.
        why: &'static str,
    },
    /// A document language that is neither `en` nor `es`.
    #[error("{from} is `{value}`, which is not a language aw writes documents in")]
    DocLanguage {
        /// The value as found.
        value: String,
        /// Where it was found.
        from: String,
    },
}

impl InputError {
    /// What to do next.
    pub fn action(&self) -> String {
        match self {
            InputError::SourceFormat { .. } | InputError::SourceIncomplete { .. } => {
                "Pass each source as `--source alias:path` or `--source alias:path:main-branch`, for example `--source api:../api:main`.".to_owned()
            }
            InputError::DrivePathMangled { .. } => {
                "Quote the Windows path, or write it with forward slashes (`C:/repos/api`).".to_owned()
            }
            InputError::InvalidAlias { .. } => {
                "Choose a short alias such as `api` or `web-front`.".to_owned()
            }
            InputError::InvalidPath { .. } => {
                "Pass the folder's path on one line, without `|` or control characters.".to_owned()
            }
            InputError::InvalidBranch { .. } => {
                "Pass a branch name git accepts (no spaces, `..`, `:`, `~`, `^`, `?`, `*`, `[`, `\\` or `|`).".to_owned()
            }
            InputError::BranchItemFormat { flag, .. } => {
                format!("Pass `--{flag} alias:branch`, for example `--{flag} api:feature/login`.")
            }
            InputError::DuplicateAlias { .. } => {
                "Give each source its own alias.".to_owned()
            }
            InputError::UnknownScope { known, .. } | InputError::UnknownSource { known, .. }
                if known.is_empty() =>
            {
                "This workspace declares no source: run `aw workspace-init --source alias:path` first.".to_owned()
            }
            InputError::UnknownScope { known, .. } => {
                format!("Use aliases from the project block: {}.", known.join(", "))
            }
            InputError::UnknownSource { known, .. } => {
                format!("Name one of the project block's sources: {}.", known.join(", "))
            }
            InputError::UnknownAlias { flag, .. } => format!(
                "Declare the source with `--source alias:path` in the same command, or fix the alias given to `--{flag}`."
            ),
            InputError::NoSources => {
                "Declare at least one source: `aw workspace-init --source alias:path[:main-branch]`.".to_owned()
            }
            InputError::InvalidProject { .. } => {
                "Describe the project in one plain line of text.".to_owned()
            }
            InputError::DocLanguage { .. } => {
                "Set it to `en` (English) or `es` (the reference's Spanish form), or remove it.".to_owned()
            }
        }
    }
}
