//! The output layer: format resolution, and writing a result whole.
//!
//! Output is written in one `write_all` and flushed before the process exits, to a pipe as to a
//! file, whatever its size. A reader that goes away early (`aw … | head -n 1`) ends the write
//! quietly: Rust ignores SIGPIPE, so the write returns `BrokenPipe`, which is not an error. Any
//! other write error (a full disk, a closed terminal) is: the caller reports it on stderr and
//! exits 1, so a truncated output never looks like a success.

use crate::failure::Failure;
use crate::style;
use aw_core::error_code::ErrorCode;
use serde_json::Value;
use std::io::{IsTerminal, Write};

/// How a result is projected (`--format human|json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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
    /// Colour is on (see [`crate::style::sink_for`]).
    pub color: bool,
    /// The human text is bound for a terminal (see [`crate::style::Sink`]).
    pub terminal: bool,
}

/// The output flags as typed, before resolution.
#[derive(Debug, Clone, Default)]
pub struct FormatFlags {
    /// `--format <v>`.
    pub format: Option<Format>,
    /// `--json`.
    pub json: bool,
    /// `--detail`.
    pub detail: bool,
}

/// Whether stdout is a terminal.
pub fn stdout_is_tty() -> bool {
    std::io::stdout().is_terminal()
}

impl FormatFlags {
    /// Resolves the projection. `default` is what the command wants when no flag decides (most
    /// commands: human on a TTY, JSON when piped).
    pub fn resolve(&self, default: Format) -> Result<Style, Failure> {
        let declared = self.format;
        if self.json && declared == Some(Format::Human) {
            return Err(Failure::new(
                ErrorCode::ArgsInvalid,
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
                ErrorCode::ArgsInvalid,
                "`--detail` widens the human view only; the JSON model is always complete.",
                "Drop `--detail`, or ask for `--format human`.",
            ));
        }
        let sink = style::stdout_sink();
        Ok(Style {
            format,
            detail: self.detail,
            color: format == Format::Human && sink.color,
            terminal: format == Format::Human && sink.terminal,
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
    /// A JSON model already serialised (large models are never held twice, as a tree and as
    /// text), printed as is.
    JsonText(String),
    /// Text for a person, printed as is once it is safe for a terminal.
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

    /// A successful JSON result, serialised straight from its model: pretty, with a trailing
    /// newline, as every command prints its model.
    pub fn json_of<T: serde::Serialize>(model: &T) -> Self {
        let mut s = serde_json::to_string_pretty(model).unwrap_or_else(|_| "null".to_owned());
        s.push('\n');
        Outcome {
            body: Body::JsonText(s),
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

/// The text a body prints: JSON as it is, human text made safe for a terminal.
pub fn render(body: &Body) -> std::borrow::Cow<'_, str> {
    match body {
        Body::Json(v) => pretty(v).into(),
        Body::JsonText(t) => t.into(),
        Body::Text(t) => style::for_terminal(t, style::stdout_sink()),
    }
}

/// Writes the whole text to stdout and flushes it. A closed pipe is not an error; any other
/// write error is returned. (A process started with stdout closed gets it reopened on
/// `/dev/null` by the Rust runtime, so `aw … >&-` behaves like `aw … >/dev/null`.)
pub fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes a line to stderr. Nothing is left to report to if that fails.
pub fn emit_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Prints a failure in the resolved format.
pub fn emit_failure(f: &Failure, format: Format) -> std::io::Result<()> {
    match format {
        Format::Json => emit(&pretty(&f.envelope())),
        Format::Human => {
            let sink = style::stdout_sink();
            emit(&style::for_terminal(&f.human(sink.color), sink))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::error_code::ErrorCode;

    fn flags(format: Option<Format>, json: bool, detail: bool) -> FormatFlags {
        FormatFlags {
            format,
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
        let (human, json) = (Some(Format::Human), Some(Format::Json));
        assert_eq!(r(flags(human, false, false)), Ok(Format::Human));
        assert_eq!(r(flags(human, true, false)), Err(ErrorCode::ArgsInvalid));
        assert_eq!(r(flags(None, true, true)), Err(ErrorCode::ArgsInvalid));
        assert_eq!(r(flags(json, false, true)), Err(ErrorCode::ArgsInvalid));
        assert_eq!(r(flags(json, true, false)), Ok(Format::Json));
    }
}
