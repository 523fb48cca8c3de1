//! The command tree, argument parsing and the top-level run loop.

use crate::commands::{self, Command};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{self, Format, FormatFlags};
use crate::style::{self, ColorChoice};
use aw_core::error_code::ErrorCode;
use aw_core::wire::arguments::ArgumentDetails;
use aw_workspace::io::clock::Now;
use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, FromArgMatches, Parser};
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
struct Top {
    #[command(flatten)]
    global: Global,
}

/// The parsed command line: the global flags and the command.
#[derive(Debug)]
pub struct Cli {
    pub global: Global,
    pub command: Command,
}

/// The top-level help's map: each heading, in order, with the commands under it. Every command
/// is under exactly one heading (`tests/cli_contract.rs` checks it against the command list).
pub const HELP_MAP: &[(&str, &[&str])] = &[
    (
        "Workspace and sources",
        &[
            "workspace-init",
            "workspace-migrate",
            "sources",
            "check-branch",
            "worktree",
            "stack",
            "project-md-upsert",
            "set-working-branch",
            "set-qa-branch",
            "remove-source",
            "attach-multiroot",
            "detach-multiroot",
            "visibility",
        ],
    ),
    (
        "Sessions and checkpoints",
        &[
            "session-create",
            "sessions",
            "session-resume",
            "session-close",
            "session-artifacts",
            "history-update",
            "checkpoint-write",
            "checkpoint-read",
        ],
    ),
    (
        "Documents and the board",
        &["status", "resume", "next-number", "persist"],
    ),
    ("Flows", &["flow"]),
    (
        "Capabilities and designs",
        &["capability", "designs", "skills"],
    ),
    (
        "Agent hosts and the shell",
        &[
            "self",
            "skill-index",
            "context-plan",
            "schema",
            "completions",
            "man",
        ],
    ),
    ("Family manifests", &["manifest", "family"]),
    (
        "Hook targets (commands a host calls, not a person)",
        &["hook", "auto-compact-on-close", "resume-summary"],
    ),
    ("Development", &["context-budget", "demo"]),
];

/// The column the top-level help wraps its summaries at.
const HELP_WIDTH: usize = 100;

impl CommandFactory for Cli {
    /// The whole command tree, as help, errors, completions and man pages show it: the
    /// top-level help lists the commands under the headings of [`HELP_MAP`].
    fn command() -> clap::Command {
        let top = Top::command()
            .subcommand_required(true)
            .arg_required_else_help(true);
        // The command list would otherwise take the summary of aw from the enum's doc comment.
        let (about, long_about) = (top.get_about().cloned(), top.get_long_about().cloned());
        let mut cmd = <Command as clap::Subcommand>::augment_subcommands(top);
        if let (Some(about), Some(long_about)) = (about, long_about) {
            cmd = cmd.about(about).long_about(long_about);
        }
        let template = help_template(&cmd);
        cmd.help_template(template)
    }

    fn command_for_update() -> clap::Command {
        Cli::command()
    }
}

impl FromArgMatches for Cli {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(Cli {
            global: Global::from_arg_matches(m)?,
            command: Command::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Cli::from_arg_matches(m)?;
        Ok(())
    }
}

/// `Cli::try_parse_from` and the rest parse with the whole tree; `aw` itself parses with
/// [`Cli::read`].
impl Parser for Cli {}

impl Cli {
    /// Parses the command line. Start-up is most of a small command's time, so the tree is
    /// first cut to the verb the line names: clap then copies the global flags into one
    /// command, not into all of them (some 200 clones and 200 KiB of heap). A line the cut
    /// tree does not parse, or that asks for help (anything but a parse or `--version`), is
    /// parsed again by the whole tree, which alone decides what is printed.
    pub fn read(argv: &[OsString]) -> Result<Cli, clap::Error> {
        if let Some(cut) = cut_tree(argv) {
            match cut.try_get_matches_from(argv) {
                Ok(m) if m.subcommand_name().is_some() => return Cli::from_arg_matches(&m),
                Err(e) if e.kind() == ErrorKind::DisplayVersion => return Err(e),
                _ => {}
            }
        }
        let m = Cli::command().try_get_matches_from(argv)?;
        Cli::from_arg_matches(&m)
    }
}

/// The top-level command holding only the verb `argv` names (its first bare word, past the
/// global flags and their values), or none at all when it names none; `None` when that word
/// is not a command.
fn cut_tree(argv: &[OsString]) -> Option<clap::Command> {
    let top = Top::command();
    let mut words = argv.iter().skip(1).map(|a| a.to_str());
    let verb = loop {
        let Some(word) = words.next() else {
            return Some(top);
        };
        let word = word?;
        if word == "--" {
            return None;
        }
        if let Some(long) = word.strip_prefix("--") {
            let takes_value = !long.contains('=')
                && top
                    .get_arguments()
                    .any(|a| a.get_long() == Some(long) && a.get_action().takes_values());
            if takes_value {
                words.next();
            }
            continue;
        }
        if !word.starts_with('-') {
            break word;
        }
    };
    let all = <Command as clap::Subcommand>::augment_subcommands(clap::Command::new("aw"));
    let sub = all.find_subcommand(verb)?.clone();
    Some(top.subcommand(sub))
}

/// The top-level help: clap's, with the commands listed under the headings of [`HELP_MAP`] (a
/// command missing from the map is listed last, under "Other commands").
fn help_template(cmd: &clap::Command) -> StyledStr {
    use std::fmt::Write;
    let styles = cmd.get_styles();
    let (header, literal) = (styles.get_header(), styles.get_literal());
    let named: Vec<(&str, String)> = cmd
        .get_subcommands()
        .map(|c| {
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            (c.get_name(), about)
        })
        .collect();
    let width = named.iter().map(|(n, _)| n.len()).max().unwrap_or(0) + 2;
    let mapped: Vec<&str> = HELP_MAP
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .collect();
    let others: Vec<&str> = named
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !mapped.contains(n))
        .collect();
    let mut t = StyledStr::new();
    let _ = writeln!(
        t,
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}"
    );
    let groups = HELP_MAP
        .iter()
        .copied()
        .chain((!others.is_empty()).then_some(("Other commands", others.as_slice())));
    for (heading, names) in groups {
        let _ = write!(t, "\n{header}{heading}:{header:#}\n");
        for name in names {
            let about = named
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, a)| a.as_str())
                .unwrap_or_default();
            let pad = width - name.len();
            let _ = write!(t, "  {literal}{name}{literal:#}{:pad$}", "");
            let _ = writeln!(t, "{}", wrap(about, 2 + width, HELP_WIDTH));
        }
    }
    let _ = write!(
        t,
        "\n{header}Global options:{header:#}\n{{options}}{{after-help}}"
    );
    t
}

/// `text` wrapped at `width` columns, each line after the first indented by `indent`.
fn wrap(text: &str, indent: usize, width: usize) -> String {
    let mut out = String::new();
    let mut col = indent;
    for word in text.split_whitespace() {
        if col > indent && col + 1 + word.chars().count() > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            col = indent;
        } else if col > indent {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.chars().count();
    }
    out
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
    /// Colour in text output and help: `auto` (on a terminal, unless `NO_COLOR` is set;
    /// `CLICOLOR_FORCE` forces it), `always` or `never`; the flag wins over the variables.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        help_heading = "Global options"
    )]
    pub color: Option<ColorChoice>,
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
    let cli = match Cli::read(&argv) {
        Ok(cli) => cli,
        Err(err) => {
            style::choose(raw_color(&argv));
            return parse_failure(&argv, err);
        }
    };
    // Before the command, and before any thread exists (the local offset can only be read
    // while the process is single-threaded); not for help, the version or a refused line.
    let now = Now::read();
    style::choose(cli.global.color.unwrap_or_default());
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

/// The `--color` choice read from the raw arguments (they may not have parsed): the last one
/// given wins, as when they parse; a value that is not a choice is `auto`.
fn raw_color(argv: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut words = argv.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        let value = match word.strip_prefix("--color") {
            Some("") => words.next().map(|v| v.into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_owned),
            None => continue,
        };
        choice = value
            .and_then(|v| <ColorChoice as clap::ValueEnum>::from_str(&v, false).ok())
            .unwrap_or_default();
    }
    choice
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

/// Help or the version as clap renders it, in colour when colour is on.
fn rendered(err: &clap::Error) -> String {
    let text = err.render();
    if style::stdout_sink().color {
        text.ansi().to_string()
    } else {
        text.to_string()
    }
}

/// Turns a clap error into help output or a failure envelope.
fn parse_failure(argv: &[OsString], err: clap::Error) -> u8 {
    // Help and the version are rendered by clap as it parsed: the whole tree is not built for
    // them (`aw --version` is the start-up floor that scripts and hooks pay).
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return written_or_failed(output::emit(&rendered(&err)), 0);
    }
    let (cmd, path) = command_at(argv);
    // `aw` alone and `aw self` alone print the help, as the reference does (it lists the
    // commands; `self` lists its verbs with exit 0).
    if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        && matches!(path.as_str(), "aw" | "aw self")
    {
        return written_or_failed(output::emit(&rendered(&err)), 0);
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
            .with_details(ArgumentDetails {
                command: Some(path.clone()),
                help_hint: Some(format!("{path} --help")),
                available_commands: Some(subcommands),
                ..Default::default()
            })
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
            .with_details(ArgumentDetails {
                command: Some(name),
                help_hint: Some(format!("{path} --help")),
                available_commands: Some(subcommands),
                ..Default::default()
            })
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
            .with_details(ArgumentDetails {
                argument: Some(arg),
                ..Default::default()
            })
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
            .with_details(ArgumentDetails {
                argument: Some(arg),
                valid_flags: Some(flags.clone()),
                ..Default::default()
            })
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
                .with_details(ArgumentDetails {
                    argument: Some(flag),
                    ..Default::default()
                })
            } else {
                let f = Failure::new(
                    code,
                    format!("`{flag}` does not take `{value}`: {why}."),
                    format!("Run `{path} --help` for the accepted values."),
                )
                .with_details(ArgumentDetails {
                    argument: Some(flag),
                    value: Some(value),
                    ..Default::default()
                });
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
            .with_details(ArgumentDetails {
                missing: Some(missing),
                ..Default::default()
            })
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
