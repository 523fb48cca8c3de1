//! What commands read from standard input: a hook host's JSON, and a flow answer.
//!
//! A hook host pipes its JSON and closes stdin; a person at a terminal, or a script that pipes
//! nothing, must not make aw wait. So hook input is read only when stdin is not a terminal and
//! its first byte arrives within a short wait; a reader thread does the blocking read, and the
//! caller gives up on the channel when the wait runs out (the thread dies with the process).

use std::io::{IsTerminal, Read};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the first byte of a hook's stdin may take.
pub const FIRST_BYTE_WAIT: Duration = Duration::from_millis(150);
/// How long the rest may take once the first byte came (a host writes its JSON at once).
const REST_WAIT: Duration = Duration::from_secs(2);
/// The most we read: a hook payload is a few hundred bytes.
const MAX_BYTES: usize = 1 << 20;

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

/// The whole of stdin as the text of a flow answer: empty on a terminal or when it cannot be
/// read; a leading BOM dropped and invalid UTF-8 replaced (the text that is both parsed and
/// hashed).
pub fn read_answer() -> String {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return String::new();
    }
    let mut bytes = Vec::new();
    if stdin.lock().read_to_end(&mut bytes).is_err() {
        return String::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
}
