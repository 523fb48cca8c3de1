//! The command tree, argument parsing and the top-level run loop.

use crate::commands::{self, Command};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{self, Format, FormatFlags};
use aw_core::error_code::ErrorCode;
use aw_workspace::io::clock::Now;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, FromArgMatches, Parser};
use serde_json::json;
use std::ffi::OsString;

/// aw runs spec → plan → execution workflows for coding agents, deterministically.
///
/// It numbers documents, keeps sessions and checkpoints, validates skill manifests and walks
/// flows, and hands back to the agent or the person only what needs judgment or preference.
#[derive(Debug, Parser)]
#[command(
    name = "aw",
    version,
    args_override_self = true,
    disable_help_subcommand = true,
    after_help = "Output: JSON when stdout is piped, text on a terminal; `--format` or `--json` decide.\nRun `aw <command> --help` for the details of one command."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

// Flags every command accepts.
#[derive(Debug, Args)]
pub struct Global {
    /// Output format (default: human on a terminal, JSON when piped).
    #[arg(long, global = true, value_enum, help_heading = "Global options")]
    pub format: Option<Format>,
    /// Same as `--format json`.
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,
    /// Show the full lists in the human view.
    #[arg(long, global = true, help_heading = "Global options")]
    pub detail: bool,
    /// The workspace namespace (`.<ns>/`); default: detected, else `workflow`.
    #[arg(
        long,
        global = true,
        value_name = "NS",
        help_heading = "Global options"
    )]
    pub namespace: Option<String>,
    /// The workspace folder (default: the nearest folder above the current one holding `.<ns>/`).
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        help_heading = "Global options"
    )]
    pub workspace: Option<std::path::PathBuf>,
}

impl Global {
    /// The output flags.
    pub fn flags(&self) -> FormatFlags {
        FormatFlags {
            format: self.format,
            json: self.json,
            detail: self.detail,
        }
    }
}

/// A flag's value, trimmed; `None` when the flag is absent or blank: how the commands that take
/// free-text flags read them (`--code`, `--name`, `--objective`, …), as the reference did.
pub fn given(flag: &Option<String>) -> Option<&str> {
    flag.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// The session a command was given with `--session` or its alias `--code` (the reference's v21
/// and v22 spellings); both may be given only when they agree.
pub fn session_or_code<'a>(
    session: &'a Option<String>,
    code: &'a Option<String>,
) -> Result<Option<&'a str>, Failure> {
    match (given(session), given(code)) {
        (Some(s), Some(c)) if s != c => Err(Failure::new(
            ErrorCode::ArgsInvalid,
            format!("`--session {s}` and `--code {c}` name different sessions."),
            "Pass only one of them.",
        )),
        (session, code) => Ok(session.or(code)),
    }
}

/// Parses `argv`, runs the command, prints its result and returns the exit code.
pub fn run(argv: Vec<OsString>) -> u8 {
    // Before anything else, and before any thread exists (the local offset can only be read
    // while the process is single-threaded).
    let now = Now::read();
    let parsed = Cli::command()
        .try_get_matches_from(&argv)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return parse_failure(&argv, err),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        commands::dispatch(
            &cli.command,
            &Ctx {
                global: &cli.global,
                now,
                home: None,
            },
        )
    }));
    let fallback = raw_format(&argv);
    match result {
        Ok(Ok(outcome)) => {
            let written = output::emit_body(outcome.body);
            written_or_failed(written, outcome.exit)
        }
        Ok(Err(failure)) => {
            let written = output::emit_failure(&failure, fallback);
            written_or_failed(written, failure.exit)
        }
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let f = Failure::new(
                ErrorCode::Internal,
                format!("aw hit an internal error: {why}"),
                "This is a bug in aw; please report it with the command you ran.",
            );
            written_or_failed(output::emit_failure(&f, fallback), 1)
        }
    }
}

/// The exit code once the output is written: a write that failed (other than a reader going
/// away) is reported on stderr and exits 1, so a truncated output never passes for a success.
fn written_or_failed(written: std::io::Result<()>, exit: u8) -> u8 {
    match written {
        Ok(()) => exit,
        Err(e) => {
            output::emit_err(&format!("aw: the output could not be written: {e}\n"));
            1
        }
    }
}

/// The format a failure is printed in, read from the raw arguments (they may not have parsed).
/// Contradictory flags fall back to the default (JSON when piped).
fn raw_format(argv: &[OsString]) -> Format {
    let args: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut flags = FormatFlags::default();
    for (i, a) in args.iter().enumerate() {
        match a.as_str() {
            "--json" => flags.json = true,
            "--detail" => flags.detail = true,
            "--format" => flags.format = args.get(i + 1).and_then(|v| format_named(v)),
            other => {
                if let Some(v) = other.strip_prefix("--format=") {
                    flags.format = format_named(v);
                }
            }
        }
    }
    flags
        .resolve(output::tty_default())
        .map(|s| s.format)
        .unwrap_or_else(|_| output::tty_default())
}

fn format_named(v: &str) -> Option<Format> {
    <Format as clap::ValueEnum>::from_str(v, false).ok()
}

/// The groups whose missing verb the reference reports as `INVALID_INPUT` (the others, such as
/// `flow`, `capability` and `persist`, say `ARGS_INVALID`).
const MISSING_VERB_INVALID_INPUT: &[&str] = &["aw hook", "aw visibility"];

/// Flags whose refused values are `INVALID_INPUT` (the reference validates them inside the
/// command); every other refused value is `ARGS_INVALID`.
const INVALID_INPUT_FLAGS: &[&str] = &["--recent-days", "--state", "--date"];

/// Commands whose refused values the reference reported with their reason as `data.error` too
/// (it validated them inside the command).
const ERROR_DATA_COMMANDS: &[&str] = &["aw history-update"];

/// The deepest subcommand named by the bare tokens of `argv`, and its path.
fn command_at(argv: &[OsString]) -> (clap::Command, String) {
    let mut cmd = Cli::command();
    // Building propagates the global flags into every subcommand, so they are listed too.
    cmd.build();
    let mut path = String::from("aw");
    // Whether the token before was a flag of `cmd` waiting for its value (`--session 001`):
    // that value is not a verb.
    let mut value_next = false;
    for tok in argv.iter().skip(1) {
        let tok = tok.to_string_lossy();
        if std::mem::take(&mut value_next) {
            continue;
        }
        if let Some(name) = tok.strip_prefix("--") {
            value_next = !name.contains('=')
                && cmd
                    .get_arguments()
                    .find(|a| a.get_long() == Some(name))
                    .is_some_and(|a| a.get_action().takes_values());
            continue;
        }
        if tok.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(tok.as_ref()) {
            Some(sub) => {
                path.push(' ');
                path.push_str(sub.get_name());
                let sub = sub.clone();
                cmd = sub;
            }
            None => break,
        }
    }
    (cmd, path)
}

/// Every long flag on the command line that `known` does not hold (up to a `--`), in order, with
/// clap's `reported` one first: clap stops at the first, but a user fixing a line wants them all.
fn unknown_flags(argv: &[OsString], known: &[String], reported: &str) -> Vec<String> {
    let mut unknown = vec![reported.to_owned()];
    for tok in argv.iter().skip(1).map(|t| t.to_string_lossy()) {
        if tok == "--" {
            break;
        }
        let Some(name) = tok
            .strip_prefix("--")
            .map(|n| n.split('=').next().unwrap_or(n))
        else {
            continue;
        };
        let flag = format!("--{name}");
        if !name.is_empty() && !known.contains(&flag) && !unknown.contains(&flag) {
            unknown.push(flag);
        }
    }
    unknown.retain(|f| !f.is_empty());
    unknown
}

fn context_str(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        _ => None,
    }
}

/// Turns a clap error into help output or a failure envelope.
fn parse_failure(argv: &[OsString], err: clap::Error) -> u8 {
    let (cmd, path) = command_at(argv);
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            return written_or_failed(output::emit(&err.render().to_string()), 0);
        }
        // `aw` alone and `aw self` alone print the help, as the reference does (it lists the
        // commands; `self` lists its verbs with exit 0).
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            if matches!(path.as_str(), "aw" | "aw self") =>
        {
            return written_or_failed(output::emit(&err.render().to_string()), 0);
        }
        _ => {}
    }
    let mut subcommands: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    subcommands.sort();
    let mut flags: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .chain(["--help".to_owned()])
        .collect();
    flags.sort();
    flags.dedup();
    let failure = match err.kind() {
        // A group called without its verb is a refused command line, as in the reference: a
        // script that forgot the verb must not read help text as a success.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let code = if MISSING_VERB_INVALID_INPUT.contains(&path.as_str()) {
                ErrorCode::InvalidInput
            } else {
                ErrorCode::ArgsInvalid
            };
            Failure::new(
                code,
                format!("`{path}` needs a verb: {}.", subcommands.join(", ")),
                format!("Run `{path} <verb>`; `{path} --help` says what each one does."),
            )
            .with_details(json!({
                "command": path,
                "help_hint": format!("{path} --help"),
                "available_commands": subcommands,
            }))
        }
        ErrorKind::InvalidSubcommand => {
            let name = context_str(&err, ContextKind::InvalidSubcommand).unwrap_or_default();
            let suggestion = context_str(&err, ContextKind::SuggestedSubcommand)
                .map(|s| format!(" Did you mean `{path} {s}`?"))
                .unwrap_or_default();
            Failure::new(
                ErrorCode::UnknownCommand,
                format!("`{name}` is not a command of `{path}`.{suggestion}"),
                format!(
                    "Use one of: {}. Run `{path} --help` for details.",
                    subcommands.join(", ")
                ),
            )
            .with_details(json!({
                "command": name,
                "help_hint": format!("{path} --help"),
                "available_commands": subcommands,
            }))
        }
        // A stray word where the command takes none is not a flag: no `unknown_flags` for it.
        ErrorKind::UnknownArgument
            if !context_str(&err, ContextKind::InvalidArg)
                .unwrap_or_default()
                .starts_with('-') =>
        {
            let arg = context_str(&err, ContextKind::InvalidArg).unwrap_or_default();
            Failure::new(
                ErrorCode::ArgsInvalid,
                format!("`{path}` takes no argument `{arg}`."),
                format!("Remove it; run `{path} --help` for what the command takes."),
            )
            .with_details(json!({ "argument": arg }))
        }
        ErrorKind::UnknownArgument => {
            let arg = context_str(&err, ContextKind::InvalidArg).unwrap_or_default();
            // Aliases (`--sesion`) are flags too, though the list shown omits them.
            let known: Vec<String> = cmd
                .get_arguments()
                .flat_map(|a| {
                    a.get_long()
                        .into_iter()
                        .chain(a.get_all_aliases().unwrap_or_default())
                })
                .map(|l| format!("--{l}"))
                .chain(["--help".to_owned()])
                .collect();
            let unknown = unknown_flags(argv, &known, &arg);
            let named = unknown
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let what = if unknown.len() == 1 {
                "is not a flag"
            } else {
                "are not flags"
            };
            Failure::new(
                ErrorCode::UnknownFlag,
                format!("{named} {what} of `{path}`."),
                format!(
                    "Use one of: {}. Run `{path} --help` for details.",
                    flags.join(", ")
                ),
            )
            .with_details(json!({ "argument": arg, "valid_flags": flags }))
            // v22's key, so scripts written for it recognise the refusal.
            .with_data(|d| {
                d.unknown_flags = Some(unknown);
                d.valid_flags = Some(flags);
            })
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let arg = context_str(&err, ContextKind::InvalidArg).unwrap_or_default();
            let flag = arg.split_whitespace().next().unwrap_or_default().to_owned();
            let value = context_str(&err, ContextKind::InvalidValue).unwrap_or_default();
            let valid: Vec<String> = match err.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.clone(),
                _ => Vec::new(),
            };
            let why = std::error::Error::source(&err)
                .map(|e| e.to_string())
                .unwrap_or_else(|| format!("it takes one of: {}", valid.join(", ")));
            let code = if INVALID_INPUT_FLAGS.contains(&flag.as_str()) {
                ErrorCode::InvalidInput
            } else {
                ErrorCode::ArgsInvalid
            };
            let absent = err.kind() == ErrorKind::InvalidValue && value.is_empty();
            if absent {
                // A flag given without its value is a malformed command line, whatever the flag.
                let takes = if valid.is_empty() {
                    String::new()
                } else {
                    format!(": one of {}", valid.join(", "))
                };
                Failure::new(
                    ErrorCode::ArgsInvalid,
                    format!("`{flag}` needs a value{takes}."),
                    format!("Run `{path} --help` for the accepted values."),
                )
                .with_details(json!({ "argument": flag }))
            } else {
                let f = Failure::new(
                    code,
                    format!("`{flag}` does not take `{value}`: {why}."),
                    format!("Run `{path} --help` for the accepted values."),
                )
                .with_details(json!({ "argument": flag, "value": value }));
                if code == ErrorCode::InvalidInput && ERROR_DATA_COMMANDS.contains(&path.as_str()) {
                    f.with_error_data()
                } else {
                    f
                }
            }
        }
        ErrorKind::MissingRequiredArgument => {
            // clap lists the missing arguments on the lines after its first.
            let missing: Vec<String> = match err.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(v)) => v.clone(),
                Some(ContextValue::String(v)) => vec![v.clone()],
                _ => Vec::new(),
            };
            let named = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            Failure::new(
                ErrorCode::ArgsInvalid,
                format!("`{path}` needs {named}."),
                format!("Run `{path} --help` for what each one takes."),
            )
            .with_details(json!({ "missing": missing }))
        }
        _ => {
            let rendered = err.render().to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_owned();
            Failure::new(
                ErrorCode::ArgsInvalid,
                format!("{first}."),
                format!("Run `{path} --help` for the accepted arguments."),
            )
        }
    };
    written_or_failed(
        output::emit_failure(&failure, raw_format(argv)),
        failure.exit,
    )
}
