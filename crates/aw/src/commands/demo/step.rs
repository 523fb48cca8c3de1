//! Running one real `aw` command inside the demo, in-process, through the same parser and
//! dispatcher as the command line, so the demo shows exactly what a user would get.

use crate::cli::Cli;
use crate::commands::dispatch;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Body, Format};
use aw_core::error_code::ErrorCode;
use aw_core::wire::demo::DemoCommand;
use clap::Parser;
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

/// One command the demo ran, with what it printed.
pub(super) struct Step {
    /// The command line as a user would type it (without the demo's fixed flags).
    pub shown: String,
    /// The exit code.
    pub exit: u8,
    /// What the command printed (text or JSON).
    pub body: Body,
}

impl Step {
    /// The step as JSON: `{command, exit, output}`.
    pub fn json(&self) -> DemoCommand<'_> {
        let output = match &self.body {
            // A command may hand its JSON already serialised (`status`, `resume`): embed it as
            // JSON, not as a string.
            Body::JsonText(t) => {
                serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.clone()))
            }
            Body::Text(t) => Value::String(t.clone()),
            // Never here: `run` holds every body in memory.
            Body::JsonModel(_) => Value::Null,
        };
        DemoCommand {
            command: &self.shown,
            exit: self.exit,
            output,
        }
    }

    /// The step as text: the prompt line, then the command's own text, indented.
    pub fn human(&self) -> String {
        let body = match &self.body {
            Body::Text(t) | Body::JsonText(t) => t.clone(),
            // Never here: `run` holds every body in memory.
            Body::JsonModel(_) => String::new(),
        };
        let mut out = format!("   $ {}\n", self.shown);
        for line in body.lines() {
            // Writing into a `String` cannot fail.
            let _ = writeln!(out, "     {line}");
        }
        out
    }
}

/// Runs `aw <args>` against the workspace at `root` with `stdin` piped in, in the given format.
pub(super) fn run_piped(
    root: &Path,
    args: &[&str],
    stdin: String,
    format: Format,
    cx: &Ctx<'_>,
) -> Result<Step, Failure> {
    aw_workspace::io::stdin::provide(stdin);
    run(root, args, format, cx)
}

/// Runs `aw <args>` against the workspace at `root`, in the given format.
pub(super) fn run(
    root: &Path,
    args: &[&str],
    format: Format,
    cx: &Ctx<'_>,
) -> Result<Step, Failure> {
    let root_str = root.to_string_lossy().into_owned();
    let format_str = match format {
        Format::Human => "human",
        Format::Json => "json",
    };
    // The namespace is pinned so a user's own pin file cannot redirect the example.
    let mut argv = vec![
        "aw",
        "--workspace",
        &root_str,
        "--namespace",
        "workflow",
        "--format",
        format_str,
    ];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        Failure::new(
            ErrorCode::Internal,
            format!("The demo built an invalid command line: {e}"),
            "This is a bug in aw's demo; please report it.",
        )
    })?;
    let shown = format!(
        "aw {}",
        args.iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let inner = Ctx {
        global: &cli.global,
        now: cx.now,
        home: cx.home,
    };
    let (exit, body) = match dispatch(&cli.command, &inner) {
        // Held in memory: the demo quotes what the command printed.
        Ok(outcome) => (outcome.exit, outcome.body.held()),
        Err(f) => (
            f.exit,
            match format {
                Format::Json => Body::JsonText(crate::output::pretty(&f.envelope())),
                Format::Human => Body::Text(f.human(false)),
            },
        ),
    };
    Ok(Step { shown, exit, body })
}

/// Quotes an argument for display the way a POSIX shell would need it.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,+".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_quote;

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(shell_quote("app:."), "app:.");
        assert_eq!(shell_quote("Fix it"), "'Fix it'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
