//! The output layer: format resolution, and writing a result whole.
//!
//! Output is written in one `write_all` and flushed before the process exits, to a pipe as to a
//! file, whatever its size. A reader that goes away early (`aw … | head -n 1`) ends the write
//! quietly: Rust ignores SIGPIPE, so the write returns `BrokenPipe`, which we swallow.

use crate::failure::Failure;
use serde_json::Value;
use std::io::{IsTerminal, Write};

/// How a result is projected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Text for a person.
    Human,
    /// The JSON model.
    Json,
}

/// What every command knows about how its result will be shown.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// The projection.
    pub format: Format,
    /// `--detail`: the wider human projection.
    pub detail: bool,
    /// Colour is allowed (a TTY, and `NO_COLOR` unset).
    pub color: bool,
}

/// The output flags as typed, before resolution.
#[derive(Debug, Clone, Default)]
pub struct FormatFlags {
    /// `--format <v>`.
    pub format: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--detail`.
    pub detail: bool,
}

/// Whether stdout is a terminal.
pub fn stdout_is_tty() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether colour may be used on stdout.
pub fn color_allowed() -> bool {
    stdout_is_tty() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

impl FormatFlags {
    /// Resolves the projection. `default` is what the command wants when no flag decides (most
    /// commands: human on a TTY, JSON when piped).
    pub fn resolve(&self, default: Format) -> Result<Style, Failure> {
        let declared = match self.format.as_deref() {
            None => None,
            Some("human") => Some(Format::Human),
            Some("json") => Some(Format::Json),
            Some(other) => {
                return Err(Failure::new(
                    "ARGS_INVALID",
                    format!("`--format` takes `human` or `json`, not `{other}`."),
                    "Pass `--format human` or `--format json`.",
                ));
            }
        };
        if self.json && declared == Some(Format::Human) {
            return Err(Failure::new(
                "ARGS_INVALID",
                "`--json` and `--format human` ask for two different outputs.",
                "Keep one of them.",
            ));
        }
        let format = match (declared, self.json, self.detail) {
            (Some(f), _, _) => f,
            (None, true, _) => Format::Json,
            (None, false, true) => Format::Human,
            (None, false, false) => default,
        };
        if self.detail && format == Format::Json {
            return Err(Failure::new(
                "ARGS_INVALID",
                "`--detail` widens the human view only; the JSON model is always complete.",
                "Drop `--detail`, or ask for `--format human`.",
            ));
        }
        Ok(Style {
            format,
            detail: self.detail,
            color: format == Format::Human && color_allowed(),
        })
    }
}

/// The default projection of most commands: human on a TTY, JSON when piped.
pub fn tty_default() -> Format {
    if stdout_is_tty() {
        Format::Human
    } else {
        Format::Json
    }
}

/// What a command produced.
#[derive(Debug)]
pub enum Body {
    /// A JSON model, printed pretty with a trailing newline.
    Json(Value),
    /// Text, printed as is.
    Text(String),
}

/// A finished command: what to print and how to exit.
#[derive(Debug)]
pub struct Outcome {
    /// What goes to stdout.
    pub body: Body,
    /// The exit code.
    pub exit: u8,
}

impl Outcome {
    /// A successful JSON result.
    pub fn json(value: Value) -> Self {
        Outcome {
            body: Body::Json(value),
            exit: 0,
        }
    }

    /// A successful text result.
    pub fn text(text: String) -> Self {
        Outcome {
            body: Body::Text(text),
            exit: 0,
        }
    }

    /// The same output with another exit code.
    pub fn with_exit(mut self, exit: u8) -> Self {
        self.exit = exit;
        self
    }
}

/// Pretty JSON (two spaces) with a trailing newline.
pub fn pretty(value: &Value) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".to_owned());
    s.push('\n');
    s
}

/// Writes the whole text to stdout and flushes it. A closed pipe is not an error.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Writes a line to stderr, ignoring a closed stream.
pub fn emit_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Prints a failure in the resolved format.
pub fn emit_failure(f: &Failure, format: Format) {
    match format {
        Format::Json => emit(&pretty(&f.envelope())),
        Format::Human => emit(&f.human(color_allowed())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(format: Option<&str>, json: bool, detail: bool) -> FormatFlags {
        FormatFlags {
            format: format.map(str::to_owned),
            json,
            detail,
        }
    }

    #[test]
    fn resolution_rules() {
        let r = |f: FormatFlags| {
            f.resolve(Format::Json)
                .map(|s| s.format)
                .map_err(|e| e.code)
        };
        assert_eq!(r(flags(None, false, false)), Ok(Format::Json));
        assert_eq!(r(flags(None, false, true)), Ok(Format::Human));
        assert_eq!(r(flags(None, true, false)), Ok(Format::Json));
        assert_eq!(r(flags(Some("human"), false, false)), Ok(Format::Human));
        assert_eq!(r(flags(Some("human"), true, false)), Err("ARGS_INVALID"));
        assert_eq!(r(flags(None, true, true)), Err("ARGS_INVALID"));
        assert_eq!(r(flags(Some("json"), false, true)), Err("ARGS_INVALID"));
        assert_eq!(r(flags(Some("xml"), false, false)), Err("ARGS_INVALID"));
        assert_eq!(r(flags(Some("json"), true, false)), Ok(Format::Json));
    }
}
