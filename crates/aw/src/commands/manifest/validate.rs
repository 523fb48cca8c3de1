//! `aw manifest validate [--strict] <skill-dir>...`
//!
//! A drop-in for the family's `validate.mjs`: the same text layout, result classes, error counts
//! and exit codes, so scripts that call it keep working. Unlike the other commands its default
//! output is the text report even when piped (that is what those scripts read); `--format json`
//! gives the JSON model.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome, emit_err};
use crate::style::{Paint, clean};
use anstyle::AnsiColor;
use aw_manifest::{Class, Report};
use aw_workspace::family::skill::{SkillDir, resolve_arg};
use aw_workspace::locate::current_dir;
use clap::Args;
use serde_json::{Value, json};

// Arguments of `aw manifest validate`.
#[derive(Debug, Args)]
#[command(
    long_about = "Validate the `capability.json` manifest of each skill folder, in the order given.\n\n\
Each folder gets a header `[VALID|INVALID|UNSUPPORTED] <folder> (<name>)` followed by one line per \
failed check. Exit status: 0, or with --strict 1 when any folder is not VALID; 2 when no folder is given."
)]
pub struct ValidateArgs {
    /// Exit 1 unless every folder is VALID (the report itself is the same).
    #[arg(long)]
    pub strict: bool,
    /// Skill folders: each must hold `capability.json` (a file path counts as not found).
    #[arg(value_name = "SKILL_DIR")]
    pub dirs: Vec<String>,
}

/// The usage line printed (to stderr, exit 2) when no folder is given, as the reference does.
const USAGE: &str = "usage: aw manifest validate [--strict] <skill-dir>...\n";

/// Runs the command.
pub fn run(args: &ValidateArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    // Text unless JSON is asked for explicitly: scripts that pipe the reference read text.
    let style = cx.style(Format::Human)?;
    if args.dirs.is_empty() {
        emit_err(USAGE);
        return Ok(Outcome::text(String::new()).with_exit(2));
    }
    let cwd = current_dir()?;
    let results: Vec<(String, String, Report)> = args
        .dirs
        .iter()
        .map(|arg| {
            let dir = resolve_arg(&cwd, arg);
            let report = SkillDir::new(&dir).validate();
            (arg.clone(), dir.to_string_lossy().into_owned(), report)
        })
        .collect();
    let all_valid = results.iter().all(|(_, _, r)| r.class == Class::Valid);
    let exit = if args.strict && !all_valid { 1 } else { 0 };
    let outcome = match style.format {
        Format::Human => Outcome::text(render_text(&results, Paint::new(style.color))),
        Format::Json => Outcome::json(&render_json(&results)),
    };
    Ok(outcome.with_exit(exit))
}

/// The reference's text layout: a header per folder, then one indented line per error. The
/// folder as typed, the skill's name and the messages (which quote paths) lose their control and
/// bidirectional-text characters, piped or not: a name cannot add a line, and a terminal reading
/// a piped report (`| less -R`, a log shown later) gets no escape sequence from it. On a terminal
/// the class label is coloured.
pub fn render_text(results: &[(String, String, Report)], p: Paint) -> String {
    let shown = |s: &str| clean(s).into_owned();
    let mut out = String::new();
    for (arg, _, report) in results {
        let color = match report.class {
            Class::Valid => AnsiColor::Green,
            Class::Invalid => AnsiColor::Red,
            Class::Unsupported => AnsiColor::Yellow,
        };
        let label = p.bold_in(color, report.class.label());
        out.push_str(&format!("[{label}] {}", shown(arg)));
        if let Some(name) = report.name_label() {
            out.push_str(&format!(" ({})", shown(&name)));
        }
        out.push('\n');
        for e in &report.errors {
            out.push_str(&format!("    - {}\n", shown(&e.message)));
        }
    }
    out
}

/// The JSON model: one result per argument, in order.
pub fn render_json(results: &[(String, String, Report)]) -> Value {
    let items: Vec<Value> = results
        .iter()
        .map(|(arg, path, r)| {
            json!({
                "path": path,
                "arg": arg,
                "name": r.name,
                "kind": r.kind,
                "available": r.available,
                "class": r.class,
                "errors": r.errors,
            })
        })
        .collect();
    json!({ "results": items })
}
