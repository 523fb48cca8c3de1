//! Command failures and their envelope.
//!
//! Every failure carries a stable UPPER_SNAKE code, a message and the next action to take; the
//! output layer turns it into `{"ok":false,"error":{…},"data":{"action":…}}` (JSON) or a short
//! human block.

use aw_core::error_code::ErrorCode;
use aw_core::session::resolve::RefusalKind;
use aw_core::wire::envelope::{
    CandidateOut, DataOut, Details, ErrorBody, FailureData, FailureEnvelope,
};
use aw_workspace::WorkspaceError;

/// A failed command.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The stable error code (`ARGS_INVALID`, `UNKNOWN_COMMAND`, …).
    pub code: ErrorCode,
    /// What went wrong, in one or two sentences.
    pub message: String,
    /// What to do next.
    pub action: String,
    /// Structured context (`error.details`), when there is any. Boxed, like `extra_data`, to keep
    /// `Result<_, Failure>` small on the happy path.
    pub details: Option<Box<Details>>,
    /// The process exit code (1 unless a command documents otherwise).
    pub exit: u8,
    /// The context `data` carries before `action` (the session resolver's `candidates`, …).
    pub data: Box<FailureData>,
}

impl Failure {
    /// A failure with exit code 1 and no details.
    pub fn new(code: ErrorCode, message: impl Into<String>, action: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            action: action.into(),
            details: None,
            exit: 1,
            data: Box::default(),
        }
    }

    /// Attaches `error.details`.
    pub fn with_details(mut self, details: impl Into<Details>) -> Self {
        self.details = Some(Box::new(details.into()));
        self
    }

    /// Sets the context `data` carries beside `action`.
    pub fn with_data(mut self, set: impl FnOnce(&mut FailureData)) -> Self {
        set(&mut self.data);
        self
    }

    /// Adds the message as `data.error`, where the reference's failure carried its reason there.
    pub fn with_error_data(mut self) -> Self {
        self.data.error = Some(self.message.clone());
        self
    }

    /// Adds the error code as `data.code`, where the reference's failure repeated it there.
    pub fn with_code_data(mut self) -> Self {
        self.data.code = Some(self.code);
        self
    }

    /// The JSON envelope.
    pub fn envelope(&self) -> FailureEnvelope<'_> {
        FailureEnvelope {
            ok: aw_core::wire::envelope::False,
            error: ErrorBody {
                code: self.code,
                message: &self.message,
                details: self.details.as_deref(),
            },
            data: DataOut {
                context: &self.data,
                action: &self.action,
            },
        }
    }

    /// The human projection (see `views::failure`): a cross mark with the code, the message,
    /// and the next action.
    pub fn human(&self, color: bool) -> String {
        use crate::views::View;
        self.envelope().text(&crate::output::Style {
            format: crate::output::Format::Human,
            detail: false,
            color,
        })
    }
}

impl From<aw_core::capability::error::CapabilityError> for Failure {
    fn from(e: aw_core::capability::error::CapabilityError) -> Self {
        Failure::new(e.code, e.message, e.action)
    }
}

impl From<WorkspaceError> for Failure {
    fn from(e: WorkspaceError) -> Self {
        let mut f = Failure::new(e.code(), sentence(&e.to_string()), e.action());
        if let WorkspaceError::LockBusy { pid, .. } = &e {
            f = f.with_details(aw_core::wire::lock::LockHeld { pid: pid.clone() });
        }
        if let WorkspaceError::Session(r) = &e {
            f.data.candidates = Some(CandidateOut::all(&r.candidates));
        }
        f
    }
}

/// A failed session write (`session-create`, `session-close`, `session-resume --reopen`) with
/// the reference's `data`. A refusal to settle on the session `--code` names keeps the
/// resolver's candidates only; any other failure carries its message as `data.error`, and a busy
/// lock or an unusable conversation registry its code as `data.code` too. None of these commands
/// resolves its session through the registry (create resolves none; close and reopen need
/// `--code`), so the registry is read only to write a binding: its refusal is the write's, not
/// the resolver's, and has no candidates.
pub fn session_write(e: WorkspaceError) -> Failure {
    let registry =
        matches!(&e, WorkspaceError::Session(r) if r.kind == RefusalKind::BindingInvalid);
    let resolver = matches!(e, WorkspaceError::Session(_)) && !registry;
    let lock = matches!(e, WorkspaceError::LockBusy { .. });
    let mut f = Failure::from(e);
    if resolver {
        return f;
    }
    f.data.candidates = None;
    f = f.with_error_data();
    if registry || lock {
        f.with_code_data()
    } else {
        f
    }
}

/// Any other failure of a command whose reference reported every failure but the resolver's
/// with `data.error` (`history-update`): the resolver's refusals keep their candidates only.
pub fn with_error_unless_unresolved(e: WorkspaceError) -> Failure {
    let resolver = matches!(e, WorkspaceError::Session(_));
    let f = Failure::from(e);
    if resolver { f } else { f.with_error_data() }
}

/// Capitalises the first letter and ends with a period.
pub fn sentence(s: &str) -> String {
    let mut c = s.chars();
    let mut out = match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}
