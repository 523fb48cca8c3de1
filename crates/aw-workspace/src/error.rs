//! The workspace shell's error type. Every variant has a stable code and a next action.

use aw_core::error_code::ErrorCode;
use std::path::PathBuf;

/// A failure of the filesystem shell.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// Another process holds the workspace lock past the wait.
    #[error(
        "the workspace is locked by another aw process (pid {pid}) and stayed locked for {waited_ms} ms"
    )]
    LockBusy {
        /// The holder's pid, when it could be read.
        pid: String,
        /// How long we waited.
        waited_ms: u64,
    },
    /// A namespace that does not match `^[a-z][a-z0-9-]{1,30}$`.
    #[error(
        "`{value}` (from {source_name}) is not a valid namespace: it must be 2 to 31 characters of a-z, 0-9 and '-', starting with a letter"
    )]
    InvalidNamespace {
        /// The rejected value.
        value: String,
        /// Where it came from (`--namespace`, `AW_NAMESPACE`, the pin file).
        source_name: String,
    },
    /// A session-scoped command could not settle on a session (`SESSION_*`), or its code is
    /// malformed (`INVALID_INPUT`); the refusal carries the candidates and the next action.
    #[error("{}", .0.message)]
    Session(Box<aw_core::session::resolve::Refusal>),
    /// The shell refused an operation for a stated reason (a stable code, an English message
    /// and the next action), for example a numbering claim that found no free slot.
    #[error("{message}")]
    Refused {
        /// The stable code.
        code: ErrorCode,
        /// What went wrong.
        message: String,
        /// What to do next.
        action: String,
    },
    /// A read or write the command needed failed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl WorkspaceError {
    /// The stable error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            WorkspaceError::LockBusy { .. } => ErrorCode::LockBusy,
            WorkspaceError::InvalidNamespace { .. } => ErrorCode::ArgsInvalid,
            WorkspaceError::Session(r) => r.kind.code(),
            WorkspaceError::Refused { code, .. } => *code,
            WorkspaceError::Io { .. } => ErrorCode::IoError,
        }
    }

    /// What to do next.
    pub fn action(&self) -> String {
        match self {
            WorkspaceError::LockBusy { .. } => {
                "Wait for the other aw command to finish, then run this one again (set AW_LOCK_WAIT_MS to wait longer).".to_owned()
            }
            WorkspaceError::InvalidNamespace { .. } => {
                "Pass a valid `--namespace` (for example `workflow`), or fix AW_NAMESPACE or ~/.config/agent-workflow/namespace.".to_owned()
            }
            WorkspaceError::Session(r) => r.action.clone(),
            WorkspaceError::Refused { action, .. } => action.clone(),
            WorkspaceError::Io { path, .. } => format!(
                "Check that {} exists and that you may read and write it, then run the command again.",
                path.display()
            ),
        }
    }

    /// Whether this is the resolver refusing to settle on a session (no session, several, a
    /// closed one, an unusable binding) rather than a malformed request or a failing disk: the
    /// kind of failure a lifecycle hook reports as degraded continuity instead of failing.
    pub fn is_unresolved(&self) -> bool {
        matches!(self, WorkspaceError::Session(_)) && self.code() != ErrorCode::InvalidInput
    }

    /// An I/O failure at `path`.
    pub fn io(what: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        WorkspaceError::Io {
            what,
            path: path.into(),
            source,
        }
    }
}

/// Results of the workspace shell.
pub type Result<T> = std::result::Result<T, WorkspaceError>;

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::session::resolve::{Refusal, RefusalKind};

    fn refusal(kind: RefusalKind) -> WorkspaceError {
        WorkspaceError::Session(Box::new(Refusal {
            kind,
            message: "m".into(),
            action: "a".into(),
            candidates: Vec::new(),
        }))
    }

    #[test]
    fn only_resolver_refusals_are_unresolved() {
        assert!(refusal(RefusalKind::Ambiguous).is_unresolved());
        assert!(refusal(RefusalKind::Closed).is_unresolved());
        assert!(refusal(RefusalKind::NotFound).is_unresolved());
        assert!(!refusal(RefusalKind::InvalidCode).is_unresolved());
        let io = WorkspaceError::io("x", "/p", std::io::Error::other("boom"));
        assert!(!io.is_unresolved());
    }
}
