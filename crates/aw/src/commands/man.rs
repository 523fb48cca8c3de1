//! `aw man [<command> [<verb>]]`: the man page (roff) of aw, of a command or of a verb,
//! generated from the command tree (clap_mangen).

use crate::cli::Cli;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::error_code::ErrorCode;
use aw_core::wire::context::UnknownCommand;
use aw_core::wire::shell::ManPage;
use clap::Args;
use clap::CommandFactory;

// Arguments of `aw man`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the man page of aw (no command), of one command (`aw man sessions`) or of \
one verb (`aw man flow advance`), as roff, section 1, named aw, aw-<command>, \
aw-<command>-<verb>.\n\nText by default, even when piped; `--format json` gives {page, roff}. \
Read one with `aw man flow advance | man -l -`; install one with `aw man sessions > \
aw-sessions.1` in a man1 folder."
)]
pub struct ManArgs {
    /// The command, and its verb (none: aw's own page, which lists the commands).
    #[arg(value_name = "COMMAND")]
    pub path: Vec<String>,
}

/// Runs the command.
pub fn run(args: &ManArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    // A page is for `man` or a file: text unless JSON is asked for.
    let style = cx.style(Format::Human)?;
    let (page, roff) = page(&args.path)?;
    Ok(match style.format {
        Format::Json => Outcome::json(&ManPage { page, roff }),
        Format::Human => Outcome::text(roff),
    })
}

/// The name and roff source of the page of `path` (a command and its verbs; empty: aw).
pub fn page(path: &[String]) -> Result<(String, String), Failure> {
    let mut cmd = Cli::command();
    // Every deferred verb is built, and each command named `aw-<command>[-<verb>]`.
    cmd.build();
    let mut at = "aw".to_owned();
    for word in path {
        let Some(sub) = cmd.find_subcommand(word) else {
            let mut verbs: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_owned())
                .collect();
            verbs.sort();
            return Err(Failure::new(
                ErrorCode::UnknownCommand,
                format!("`{at}` has no command `{word}`, so there is no page for it."),
                format!("Name one of: {}.", verbs.join(", ")),
            )
            .with_details(UnknownCommand {
                command: word.clone(),
                available_commands: verbs,
            }));
        };
        at = format!("{at} {}", sub.get_name());
        cmd = sub.clone();
    }
    let man = clap_mangen::Man::new(cmd)
        .source(format!("aw {}", env!("CARGO_PKG_VERSION")))
        .manual("aw manual");
    let name = man.get_filename();
    let mut out = Vec::new();
    man.render(&mut out).map_err(|e| {
        Failure::new(
            ErrorCode::Internal,
            format!("The man page of `{at}` could not be written: {e}."),
            "This is a bug in aw; please report it with the command you ran.",
        )
    })?;
    let page = name.strip_suffix(".1").unwrap_or(&name).to_owned();
    Ok((page, String::from_utf8_lossy(&out).into_owned()))
}
