//! What commands read from standard input: a hook host's JSON, and a flow answer.
//!
//! A hook host pipes its JSON and closes stdin; a person at a terminal, or a script that pipes
//! nothing, must not make aw wait. So hook input is read only when stdin is not a terminal and
//! its first byte arrives within a short wait; a reader thread does the blocking read, and the
//! caller gives up on the channel when the wait runs out (the thread dies with the process).

use crate::error::WorkspaceError;
use aw_core::error_code::ErrorCode;
use std::io::{IsTerminal, Read};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the first byte of a hook's stdin may take.
pub const FIRST_BYTE_WAIT: Duration = Duration::from_millis(150);
/// How long the rest may take once the first byte came (a host writes its JSON at once).
const REST_WAIT: Duration = Duration::from_secs(2);
/// The most we read. Most hook payloads are a few hundred bytes, but a `Write` carries the
/// whole file it writes: a payload cut short would no longer parse, and a hook that fails open
/// would then allow what it should judge.
const MAX_BYTES: usize = 64 << 20;

/// The hook JSON on stdin, as text, when stdin is not a terminal and its first byte arrives
/// within `first_byte_wait`. `None` for a terminal, an empty or silent stdin, or bytes that are
/// not UTF-8.
pub fn read_hook_stdin(first_byte_wait: Duration) -> Option<String> {
    if std::io::stdin().is_terminal() {
        return None;
    }
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = [0u8; 8192];
        let mut total = 0;
        while total < MAX_BYTES {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    total += n;
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut bytes = rx.recv_timeout(first_byte_wait).ok()?;
    let deadline = Instant::now() + REST_WAIT;
    while bytes.len() < MAX_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(_) => break,
        }
    }
    String::from_utf8(bytes).ok()
}

/// What a hook that must judge its payload read on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookPayload {
    /// Nothing: a terminal, a closed empty stdin, or no byte before the deadline.
    Absent,
    /// The whole text, up to the end of stdin (invalid UTF-8 replaced, as a JavaScript host
    /// reads it).
    Whole(String),
    /// What had arrived when the deadline passed with stdin still open.
    Cut(String),
    /// More than the bound arrived; reading stopped there.
    TooLarge,
}

/// Reads a hook's payload to the end of stdin, at most `max_bytes`, giving up at `deadline`.
/// Unlike [`read_hook_stdin`], it says whether the text is whole, so that a hook which must not
/// let an edit through unjudged can tell a payload cut short from one that is no edit.
pub fn read_hook_payload(max_bytes: usize, deadline: Instant) -> HookPayload {
    if std::io::stdin().is_terminal() {
        return HookPayload::Absent;
    }
    read_payload_from(std::io::stdin(), max_bytes, deadline)
}

fn read_payload_from(
    source: impl Read + Send + 'static,
    max_bytes: usize,
    deadline: Instant,
) -> HookPayload {
    // A sync channel keeps the reader a few chunks ahead at most; an empty chunk marks the end.
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    std::thread::spawn(move || {
        let mut source = source;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match source.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Vec::new());
                    break;
                }
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut bytes = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(chunk) if chunk.is_empty() => {
                return if bytes.is_empty() {
                    HookPayload::Absent
                } else {
                    HookPayload::Whole(text(&bytes))
                };
            }
            Ok(chunk) => {
                if bytes.len() + chunk.len() > max_bytes {
                    return HookPayload::TooLarge;
                }
                bytes.extend_from_slice(&chunk);
            }
            Err(mpsc::RecvTimeoutError::Timeout) if bytes.is_empty() => return HookPayload::Absent,
            Err(mpsc::RecvTimeoutError::Timeout) => return HookPayload::Cut(text(&bytes)),
            Err(mpsc::RecvTimeoutError::Disconnected) => return HookPayload::Whole(text(&bytes)),
        }
    }
}

/// How long `flow submit` waits for the next byte of its answer, and how much it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerLimits {
    /// The longest silence before the answer is given up on.
    pub idle: Duration,
    /// The largest answer, in bytes.
    pub max_bytes: usize,
}

impl AnswerLimits {
    /// The default silence: long enough for an agent to pipe a file, short enough that a
    /// forgotten `flow submit` in a terminal-less pipeline does not hang a script forever.
    pub const DEFAULT_IDLE: Duration = Duration::from_secs(30);
    /// The default cap: an answer is a small JSON object; 4 MiB leaves room for long evidence.
    pub const DEFAULT_MAX_BYTES: usize = 4 << 20;

    /// The limits from `AW_ANSWER_IDLE_MS` and `AW_ANSWER_MAX_BYTES`, each falling back to its
    /// default when unset, unparsable or zero.
    pub fn from_env() -> Self {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|&n| n > 0)
        };
        AnswerLimits {
            idle: var("AW_ANSWER_IDLE_MS").map_or(Self::DEFAULT_IDLE, Duration::from_millis),
            max_bytes: var("AW_ANSWER_MAX_BYTES")
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(Self::DEFAULT_MAX_BYTES),
        }
    }
}

/// Why no answer could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerReadError {
    /// No byte arrived for the idle limit (stdin was left open with nothing written).
    Silent {
        /// The limit that ran out.
        idle: Duration,
        /// How many bytes had arrived before the silence.
        received: usize,
    },
    /// The answer is larger than the cap; reading stopped there.
    TooLarge {
        /// The cap.
        max_bytes: usize,
    },
}

impl AnswerReadError {
    /// The stable code, message and next action, for `aw flow submit`.
    pub fn into_error(self) -> WorkspaceError {
        self.into_error_for("aw flow submit < answer.json")
    }

    /// The stable code, message and next action; `example` is the command line the action shows
    /// as the way to pipe the input (`aw capability validate … < state.json`).
    pub fn into_error_for(self, example: &str) -> WorkspaceError {
        match self {
            AnswerReadError::Silent { idle, received } => WorkspaceError::Refused {
                code: ErrorCode::FlowAnswerTimeout,
                message: format!(
                    "No answer arrived on stdin: it stayed open and silent for {} ms{}.",
                    idle.as_millis(),
                    if received == 0 {
                        String::new()
                    } else {
                        format!(" after {received} bytes")
                    }
                ),
                action: format!(
                    "Pipe the input and close stdin, e.g. `{example}`; AW_ANSWER_IDLE_MS sets how \
                     long aw waits."
                ),
            },
            AnswerReadError::TooLarge { max_bytes } => WorkspaceError::Refused {
                code: ErrorCode::FlowAnswerTooLarge,
                message: format!("The answer on stdin is larger than {max_bytes} bytes."),
                action: "Send the answer's JSON object only (evidence belongs in files the \
                         answer names); AW_ANSWER_MAX_BYTES raises the cap."
                    .to_owned(),
            },
        }
    }
}

thread_local! {
    /// Text handed to the next [`read_answer`] of this thread instead of stdin.
    static PROVIDED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Hands `text` to the next [`read_answer`] on this thread, as if it had been piped: how `aw
/// demo`, which runs real commands in-process, feeds a command its stdin.
pub fn provide(text: String) {
    PROVIDED.with(|p| *p.borrow_mut() = Some(text));
}

/// The whole of stdin as the text of a flow answer: empty on a terminal or when it cannot be
/// read; a leading BOM dropped and invalid UTF-8 replaced (the text that is both parsed and
/// hashed). A stdin that stays open and silent for `limits.idle`, or that carries more than
/// `limits.max_bytes`, is refused; no lock is held while this waits.
pub fn read_answer(limits: AnswerLimits) -> Result<String, AnswerReadError> {
    if let Some(text) = PROVIDED.with(|p| p.borrow_mut().take()) {
        return Ok(text);
    }
    if std::io::stdin().is_terminal() {
        return Ok(String::new());
    }
    read_bounded(std::io::stdin(), limits).map(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
    })
}

/// Reads `source` to its end, giving up after `limits.idle` without a byte or past
/// `limits.max_bytes`. The blocking reads happen on a thread; when the caller gives up, the
/// thread is left blocked and dies with the process.
fn read_bounded(
    mut source: impl Read + Send + 'static,
    limits: AnswerLimits,
) -> Result<Vec<u8>, AnswerReadError> {
    // A bounded channel keeps the reader at most a few chunks ahead, so an endless stdin is
    // never buffered past the cap.
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match source.read(&mut buf) {
                // An empty chunk marks the end (a read error counts as the end, as before).
                Ok(0) | Err(_) => {
                    let _ = tx.send(Vec::new());
                    break;
                }
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut bytes = Vec::new();
    loop {
        match rx.recv_timeout(limits.idle) {
            Ok(chunk) if chunk.is_empty() => return Ok(bytes),
            Ok(chunk) => {
                if bytes.len() + chunk.len() > limits.max_bytes {
                    return Err(AnswerReadError::TooLarge {
                        max_bytes: limits.max_bytes,
                    });
                }
                bytes.extend_from_slice(&chunk);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(AnswerReadError::Silent {
                    idle: limits.idle,
                    received: bytes.len(),
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn limits(idle_ms: u64, max_bytes: usize) -> AnswerLimits {
        AnswerLimits {
            idle: Duration::from_millis(idle_ms),
            max_bytes,
        }
    }

    /// A reader that hands out its bytes, then blocks for good (a stdin left open).
    struct OpenThenSilent(Option<Vec<u8>>);
    impl Read for OpenThenSilent {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if let Some(bytes) = self.0.take() {
                buf[..bytes.len()].copy_from_slice(&bytes);
                return Ok(bytes.len());
            }
            loop {
                std::thread::park();
            }
        }
    }

    #[test]
    fn a_closed_stdin_is_read_whole() {
        let text = b"{\"input_digest\":\"x\"}".to_vec();
        let got = read_bounded(Cursor::new(text.clone()), limits(5_000, 1 << 20));
        assert_eq!(got, Ok(text));
        assert_eq!(
            read_bounded(Cursor::new(Vec::new()), limits(5_000, 10)),
            Ok(Vec::new())
        );
    }

    #[test]
    fn an_answer_at_the_cap_passes_and_one_byte_more_is_refused() {
        let at_cap = vec![b'a'; 100];
        assert_eq!(
            read_bounded(Cursor::new(at_cap.clone()), limits(5_000, 100)),
            Ok(at_cap)
        );
        assert_eq!(
            read_bounded(Cursor::new(vec![b'a'; 101]), limits(5_000, 100)),
            Err(AnswerReadError::TooLarge { max_bytes: 100 })
        );
    }

    #[test]
    fn an_endless_stdin_stops_at_the_cap() {
        let endless = std::io::repeat(b'x');
        assert_eq!(
            read_bounded(endless, limits(5_000, 1 << 20)),
            Err(AnswerReadError::TooLarge { max_bytes: 1 << 20 })
        );
    }

    #[test]
    fn a_hook_payload_is_whole_cut_too_large_or_absent() {
        let far = || Instant::now() + Duration::from_secs(60);
        let soon = || Instant::now() + Duration::from_millis(50);
        assert_eq!(
            read_payload_from(Cursor::new(b"{\"a\":1}".to_vec()), 100, far()),
            HookPayload::Whole("{\"a\":1}".to_owned())
        );
        assert_eq!(
            read_payload_from(Cursor::new(Vec::new()), 100, far()),
            HookPayload::Absent
        );
        // At the bound it is read; one byte more is too large, however long stdin goes on.
        assert!(matches!(
            read_payload_from(Cursor::new(vec![b'a'; 100]), 100, far()),
            HookPayload::Whole(t) if t.len() == 100
        ));
        assert_eq!(
            read_payload_from(Cursor::new(vec![b'a'; 101]), 100, far()),
            HookPayload::TooLarge
        );
        assert_eq!(
            read_payload_from(std::io::repeat(b'x'), 1 << 20, far()),
            HookPayload::TooLarge
        );
        // Stdin left open: what came is cut; nothing at all is no payload.
        assert_eq!(
            read_payload_from(OpenThenSilent(Some(b"{\"tool".to_vec())), 100, soon()),
            HookPayload::Cut("{\"tool".to_owned())
        );
        assert_eq!(
            read_payload_from(OpenThenSilent(None), 100, soon()),
            HookPayload::Absent
        );
        // Bytes that are not UTF-8 are replaced, as a JavaScript host reads them.
        assert_eq!(
            read_payload_from(Cursor::new(b"\"a\xff\"".to_vec()), 100, far()),
            HookPayload::Whole("\"a\u{fffd}\"".to_owned())
        );
    }

    #[test]
    fn a_stdin_left_open_is_given_up_on() {
        let got = read_bounded(OpenThenSilent(Some(b"{\"in".to_vec())), limits(50, 1 << 20));
        assert_eq!(
            got,
            Err(AnswerReadError::Silent {
                idle: Duration::from_millis(50),
                received: 4
            })
        );
        assert!(matches!(
            read_bounded(OpenThenSilent(None), limits(50, 10)),
            Err(AnswerReadError::Silent { received: 0, .. })
        ));
    }
}
