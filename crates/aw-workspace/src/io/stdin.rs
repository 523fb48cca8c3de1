//! What commands read from standard input: a hook host's JSON, and a flow answer.
//!
//! A hook host pipes its JSON and closes stdin; a person at a terminal, or a script that pipes
//! nothing, must not make aw wait. So hook input is read only when stdin is not a terminal and
//! its first byte arrives within a short wait. The wait asks the kernel whether stdin can be read
//! (`poll`) and reads on the calling thread: bytes already in the pipe are seen at once, however
//! loaded the machine is (a reader thread that had to be scheduled within the wait could miss
//! them, and the hook then took its host's JSON for no input at all).

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
    let mut source = stdin_source()?;
    if !source.ready(first_byte_wait) {
        return None;
    }
    let mut bytes = Vec::new();
    read_while_ready(
        &mut source,
        &mut bytes,
        MAX_BYTES,
        Instant::now() + REST_WAIT,
    );
    bytes.truncate(MAX_BYTES);
    if bytes.is_empty() {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// A source that can say whether a read would return without waiting.
trait Ready: Read {
    /// Waits up to `wait` for bytes, or the end, to be there to read.
    fn ready(&mut self, wait: Duration) -> bool;
}

/// Stdin as a file of its own (unbuffered, so that what `poll` sees is what a read gets).
#[cfg(unix)]
fn stdin_source() -> Option<std::fs::File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    Some(std::fs::File::from(fd))
}

#[cfg(unix)]
impl<T: Read + std::os::fd::AsFd> Ready for T {
    fn ready(&mut self, wait: Duration) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let timeout = Timespec {
                tv_sec: i64::try_from(left.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: left.subsec_nanos().into(),
            };
            let mut fds = [PollFd::new(&*self, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => return false,
                Err(rustix::io::Errno::INTR) => continue,
                // Bytes, the end, or an error a read will report at once (macOS cannot poll
                // /dev/null): a read does not wait.
                Ok(_) | Err(_) => return true,
            }
        }
    }
}

/// Stdin itself, where it cannot be polled.
#[cfg(not(unix))]
fn stdin_source() -> Option<std::io::Stdin> {
    Some(std::io::stdin())
}

/// Without `poll`, a read is attempted at once (it waits for a host that writes late).
#[cfg(not(unix))]
impl Ready for std::io::Stdin {
    fn ready(&mut self, _wait: Duration) -> bool {
        true
    }
}

/// How reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopped {
    /// The end of the source.
    End,
    /// Nothing more came before the deadline; the source is still open.
    Silent,
    /// More than the limit came.
    Full,
}

/// Reads `source` into `bytes` until its end, more than `limit` bytes, or `deadline` passing
/// with nothing to read.
fn read_while_ready(
    source: &mut impl Ready,
    bytes: &mut Vec<u8>,
    limit: usize,
    deadline: Instant,
) -> Stopped {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        if bytes.len() > limit {
            return Stopped::Full;
        }
        if !source.ready(deadline.saturating_duration_since(Instant::now())) {
            return Stopped::Silent;
        }
        match source.read(&mut buf) {
            Ok(0) => return Stopped::End,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Stopped::End,
        }
    }
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
    match stdin_source() {
        Some(mut source) => read_payload_from(&mut source, max_bytes, deadline),
        None => HookPayload::Absent,
    }
}

fn read_payload_from(source: &mut impl Ready, max_bytes: usize, deadline: Instant) -> HookPayload {
    let mut bytes = Vec::new();
    let stopped = read_while_ready(source, &mut bytes, max_bytes, deadline);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    match stopped {
        Stopped::Full => HookPayload::TooLarge,
        _ if bytes.is_empty() => HookPayload::Absent,
        Stopped::End => HookPayload::Whole(text(&bytes)),
        Stopped::Silent => HookPayload::Cut(text(&bytes)),
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

    /// A pipe holding `bytes`, its writing end kept open (`Some`) or closed.
    #[cfg(unix)]
    fn pipe_with(
        bytes: &[u8],
        keep_open: bool,
    ) -> (std::io::PipeReader, Option<std::io::PipeWriter>) {
        use std::io::Write;
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(bytes).unwrap();
        (reader, keep_open.then_some(writer))
    }

    #[cfg(unix)]
    #[test]
    fn a_hook_payload_is_whole_cut_too_large_or_absent() {
        let far = || Instant::now() + Duration::from_secs(60);
        let soon = || Instant::now() + Duration::from_millis(50);
        let read = |bytes: &[u8], open: bool, max: usize, deadline: Instant| {
            let (mut r, _w) = pipe_with(bytes, open);
            read_payload_from(&mut r, max, deadline)
        };
        assert_eq!(
            read(b"{\"a\":1}", false, 100, far()),
            HookPayload::Whole("{\"a\":1}".to_owned())
        );
        assert_eq!(read(b"", false, 100, far()), HookPayload::Absent);
        // At the bound it is read; one byte more is too large.
        assert!(matches!(
            read(&[b'a'; 100], false, 100, far()),
            HookPayload::Whole(t) if t.len() == 100
        ));
        assert_eq!(read(&[b'a'; 101], false, 100, far()), HookPayload::TooLarge);
        // An endless stdin stops at the bound too.
        let (mut r, mut w) = std::io::pipe().unwrap();
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::repeat(b'x'), &mut w);
        });
        assert_eq!(
            read_payload_from(&mut r, 1 << 20, far()),
            HookPayload::TooLarge
        );
        // Stdin left open: what came is cut; nothing at all is no payload.
        assert_eq!(
            read(b"{\"tool", true, 100, soon()),
            HookPayload::Cut("{\"tool".to_owned())
        );
        assert_eq!(read(b"", true, 100, soon()), HookPayload::Absent);
        // Bytes that are not UTF-8 are replaced, as a JavaScript host reads them.
        assert_eq!(
            read(b"\"a\xff\"", false, 100, far()),
            HookPayload::Whole("\"a\u{fffd}\"".to_owned())
        );
    }

    #[cfg(unix)]
    #[test]
    fn bytes_already_in_the_pipe_are_seen_without_any_wait() {
        // A zero wait: only what the kernel already holds counts, and it does.
        let (mut r, _open) = pipe_with(b"{\"session_id\":\"conv-A\"}", true);
        assert!(r.ready(Duration::ZERO));
        let mut bytes = Vec::new();
        let stopped = read_while_ready(&mut r, &mut bytes, 1 << 20, Instant::now());
        assert_eq!(
            (stopped, bytes.as_slice()),
            (Stopped::Silent, &b"{\"session_id\":\"conv-A\"}"[..])
        );
        // The end of a closed pipe is there at once too.
        let (mut r, _) = pipe_with(b"", false);
        assert!(r.ready(Duration::ZERO));
        // An open, empty pipe is not ready.
        let (mut r, _open) = pipe_with(b"", true);
        assert!(!r.ready(Duration::ZERO));
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
