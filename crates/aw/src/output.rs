//! The output layer: format resolution, and writing a result whole.
//!
//! Output is written whole and flushed before the process exits, to a pipe as to a file,
//! whatever its size: in one `write_all`, or, for a large model, serialised straight into a
//! buffered stdout (the text never exists whole in memory). A reader that goes away early (`aw … | head -n 1`) ends the write
//! quietly: Rust ignores SIGPIPE, so the write returns `BrokenPipe`, which is not an error. Any
//! other write error (a full disk, a closed terminal) is: the caller reports it on stderr and
//! exits 1, so a truncated output never looks like a success.

use crate::failure::Failure;
use crate::style;
use crate::views::View;
use aw_core::error_code::ErrorCode;
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
    /// A JSON model already serialised (large models are never held twice, as a tree and as
    /// text), printed as is.
    JsonText(String),
    /// A large JSON model, serialised straight to stdout when printed: pretty, with a trailing
    /// newline, the same text [`Outcome::json_of`] would hold.
    JsonModel(Streamed),
    /// Text for a person, printed as is once it is safe for a terminal.
    Text(String),
}

/// Writes a model into the writer it is given.
type WriteModel = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>;

/// A model waiting to be serialised into the writer it is given.
pub struct Streamed(WriteModel);

impl Body {
    /// The same body held in memory: a streamed model serialised into its text (the demo
    /// quotes what commands print); any other body unchanged.
    pub fn held(self) -> Body {
        let Body::JsonModel(model) = self else {
            return self;
        };
        let mut out = Vec::new();
        // Writing into a `Vec` cannot fail, and the models aw streams always serialise.
        let _ = (model.0)(&mut out);
        Body::JsonText(String::from_utf8_lossy(&out).into_owned())
    }
}

impl std::fmt::Debug for Streamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Streamed(..)")
    }
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
    /// A successful JSON result, serialised from its typed model: pretty, with a trailing
    /// newline, as every command prints its model.
    pub fn json<T: serde::Serialize + ?Sized>(model: &T) -> Self {
        let mut s = pretty_string(model);
        s.push('\n');
        Outcome {
            body: Body::JsonText(s),
            exit: 0,
        }
    }

    /// A successful JSON result for a large model: serialised only when printed, straight into
    /// a buffered stdout, so its text is never held whole in memory (for a board of thousands of
    /// documents, megabytes of fresh pages and a copy saved).
    pub fn json_model<T: serde::Serialize + 'static>(model: T) -> Self {
        let write = move |w: &mut dyn Write| {
            // Buffered here, not by the caller: the serialiser's many small writes then reach a
            // buffer it knows, not a writer behind a vtable.
            let mut out = std::io::BufWriter::with_capacity(STREAM_BUFFER, w);
            write_pretty(&mut out, &model)?;
            out.write_all(b"\n")?;
            out.flush()?;
            // Printing is the command's last act: freeing thousands of small allocations one by
            // one would be wasted work the process exit does at once.
            std::mem::forget(model);
            Ok(())
        };
        Outcome {
            body: Body::JsonModel(Streamed(Box::new(write))),
            exit: 0,
        }
    }

    /// A successful result, shown as its model asks: JSON, or its human [`View`].
    pub fn shown<T: serde::Serialize + View>(model: &T, style: &Style) -> Self {
        match style.format {
            Format::Json => Outcome::json(model),
            Format::Human => Outcome::text(model.text(style)),
        }
    }

    /// A large model shown as its model asks: streamed JSON (see [`Outcome::json_model`]), or
    /// its human [`View`].
    pub fn shown_model<T: serde::Serialize + View + 'static>(model: T, style: &Style) -> Self {
        match style.format {
            Format::Json => Outcome::json_model(model),
            Format::Human => {
                let text = model.text(style);
                // The command's last use of the model: the process exit frees it at once, where
                // dropping it would free thousands of allocations one by one.
                std::mem::forget(model);
                Outcome::text(text)
            }
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
pub fn pretty<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut s = pretty_string(value);
    s.push('\n');
    s
}

/// Prints a body (see [`emit`]): JSON as it is, human text made safe for a terminal, and a
/// streamed model serialised straight into a buffered stdout.
pub fn emit_body(body: Body) -> std::io::Result<()> {
    let text: std::borrow::Cow<'_, str> = match &body {
        Body::JsonText(t) => t.into(),
        Body::Text(t) => style::for_terminal(t, style::stdout_sink()),
        Body::JsonModel(_) => {
            let Body::JsonModel(model) = body else {
                return Ok(());
            };
            return stream(model);
        }
    };
    emit(&text)
}

/// The buffer a streamed model is written through: few writes, few pages.
const STREAM_BUFFER: usize = 128 * 1024;

/// Serialises a model into stdout (the model buffers its own writes) and flushes it; a closed
/// pipe is not an error.
fn stream(model: Streamed) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match (model.0)(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Pretty JSON (two spaces), as a string; `null` for a value that cannot be serialised.
fn pretty_string<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    if write_pretty(&mut out, value).is_err() {
        return "null".to_owned();
    }
    String::from_utf8(out).unwrap_or_else(|_| "null".to_owned())
}

/// Writes pretty JSON (two spaces): the text of `serde_json::to_writer_pretty`, byte for byte.
fn write_pretty<W: Write, T: serde::Serialize + ?Sized>(
    w: &mut W,
    value: &T,
) -> std::io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(w, Pretty::default());
    value.serialize(&mut ser).map_err(std::io::Error::from)
}

/// A comma, a new line and the indentation of 32 levels: a line start (with or without the
/// comma) is one slice of it, written at once (the standard pretty formatter writes the two
/// spaces of each level one call at a time, a tenth of a large board's serialisation).
const LINE_START: &[u8; 2 + 2 * 32] =
    b",\n                                                                ";

/// serde_json's `PrettyFormatter` with a two-space indent, writing each line start at once.
#[derive(Default)]
struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    /// A new line (after a comma when `comma`) and the current indentation.
    fn line<W: ?Sized + Write>(&self, w: &mut W, comma: bool) -> std::io::Result<()> {
        let from = usize::from(!comma);
        let mut spaces = 2 * self.level;
        let now = spaces.min(LINE_START.len() - 2);
        w.write_all(&LINE_START[from..2 + now])?;
        spaces -= now;
        // Deeper than the slice: the rest of the indentation in more writes.
        while spaces > 0 {
            let more = spaces.min(LINE_START.len() - 2);
            w.write_all(&LINE_START[2..2 + more])?;
            spaces -= more;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
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

    #[test]
    fn a_streamed_model_prints_what_a_held_one_would() {
        let model = serde_json::json!({"specs": [{"file": "docs/specs/001-spec-a.md"}], "n": 1});
        let Body::JsonText(held) = Outcome::json(&model).body else {
            panic!("json_of holds its text");
        };
        let Body::JsonText(streamed) = Outcome::json_model(model).body.held() else {
            panic!("held() serialises a streamed model");
        };
        assert_eq!(streamed, held);
        assert!(held.ends_with("}\n"));
    }

    #[test]
    fn pretty_json_is_serde_json_pretty_byte_for_byte() {
        let mut deep = serde_json::json!("leaf");
        for i in 0..40 {
            deep = if i % 2 == 0 {
                serde_json::json!([deep, 1, [], {}])
            } else {
                serde_json::json!({"k": deep, "e": [], "o": {}, "s": "a\"b\n"})
            };
        }
        for v in [
            serde_json::json!(null),
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!({"a": [1, {"b": null}], "c": "é"}),
            deep,
        ] {
            let want = serde_json::to_string_pretty(&v).unwrap();
            assert_eq!(pretty_string(&v), want);
            assert_eq!(pretty(&v), format!("{want}\n"));
        }
    }
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
