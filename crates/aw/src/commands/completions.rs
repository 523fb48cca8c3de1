//! `aw completions <shell>`: the shell's completion script for aw, generated from the command
//! tree (clap_complete), so it completes every command, verb and flag this aw has.

use crate::cli::Cli;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::wire::shell::Completions;
use clap::Args;
use clap::CommandFactory;
use clap_complete::Shell;

// Arguments of `aw completions`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the completion script of a shell for aw: every command, verb and flag, \
and the values a flag takes.\n\nText by default, even when piped (it is meant for a file or \
`source`); `--format json` gives {shell, script}. Load it once per shell:\n\n  bash:        \
source <(aw completions bash)   (or save it as ~/.local/share/bash-completion/completions/aw)\n  \
zsh:         aw completions zsh > \"${fpath[1]}/_aw\"\n  fish:        aw completions fish > \
~/.config/fish/completions/aw.fish\n  powershell:  aw completions powershell | Out-String | \
Invoke-Expression\n  elvish:      eval (aw completions elvish | slurp)"
)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// Runs the command.
pub fn run(args: &CompletionsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    // A script is for a file or a shell: text unless JSON is asked for.
    let style = cx.style(Format::Human)?;
    let script = script(args.shell);
    Ok(match style.format {
        Format::Json => Outcome::json(&Completions {
            shell: args.shell.to_string(),
            script,
        }),
        Format::Human => Outcome::text(script),
    })
}

/// The completion script of `shell`, for the whole tree (every deferred verb is built).
pub fn script(shell: Shell) -> String {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "aw", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
