//! How a person runs the aw that is running now, for the commands a hook's words name.
//!
//! Hooks run aw by its absolute path (an install writes it there), so a hook works where `aw` is
//! not on `PATH`; the command a blocked hook tells the agent to run must work there too.

use crate::install::on_path;
use aw_core::checkpoint::hold::shell_word;

/// `aw` when the `aw` on `PATH` is this very program, else this program's path as one shell
/// word (`aw` again when the path cannot be known or written on a command line).
pub fn invocation() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "aw".to_owned();
    };
    let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
    let on_path = on_path("aw").and_then(|p| p.canonicalize().ok());
    if on_path.as_deref() == Some(real.as_path()) {
        return "aw".to_owned();
    }
    shell_word(&exe.to_string_lossy()).unwrap_or_else(|| "aw".to_owned())
}
