//! Where the conversation's context id comes from: `AW_CONTEXT_ID`, and for lifecycle hooks the
//! host's JSON on stdin.
//!
//! A hook host pipes its JSON and closes stdin; a person at a terminal, or a script that pipes
//! nothing, must not make aw wait. So stdin is read only when it is not a terminal and its first
//! byte arrives within a short wait; a reader thread does the blocking read, and the caller
//! gives up on the channel when the wait runs out (the thread dies with the process).

use std::io::{IsTerminal, Read};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the first byte of a hook's stdin may take.
pub const FIRST_BYTE_WAIT: Duration = Duration::from_millis(150);
/// How long the rest may take once the first byte came (a host writes its JSON at once).
const REST_WAIT: Duration = Duration::from_secs(2);
/// The most we read: a hook payload is a few hundred bytes.
const MAX_BYTES: usize = 1 << 20;

/// `AW_CONTEXT_ID`, trimmed; `None` when unset or blank.
pub fn from_env() -> Option<String> {
    aw_core::context_id::clean(std::env::var("AW_CONTEXT_ID").ok().as_deref())
}

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
