//! `aw manifest validate [--strict] <skill-dir>...`
//!
//! A drop-in for the family's `validate.mjs`: the same text layout, result classes, error counts
//! and exit codes, so scripts that call it keep working. Unlike the other commands its default
//! output is the text report even when piped (that is what those scripts read); `--format json`
//! gives the JSON model.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome, emit_err};
use aw_core::wire::manifest_validate::{Finding, ManifestClass, ManifestResult, ManifestValidate};
use aw_manifest::{Class, Report};
use aw_workspace::family::skill::{SkillDir, resolve_arg};
use aw_workspace::locate::current_dir;
use clap::Args;

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
    Ok(Outcome::shown(&model(&results), &style).with_exit(exit))
}

/// The model: one result per argument, in order.
pub fn model(results: &[(String, String, Report)]) -> ManifestValidate<'_> {
    ManifestValidate {
        results: results
            .iter()
            .map(|(arg, path, r)| ManifestResult {
                path,
                arg,
                name: r.name.as_ref(),
                kind: r.kind.as_ref(),
                available: r.available,
                class: match r.class {
                    Class::Valid => ManifestClass::Valid,
                    Class::Invalid => ManifestClass::Invalid,
                    Class::Unsupported => ManifestClass::Unsupported,
                },
                errors: r
                    .errors
                    .iter()
                    .map(|e| Finding {
                        path: &e.path,
                        rule: e.rule,
                        message: &e.message,
                    })
                    .collect(),
                name_label: r.name_label(),
            })
            .collect(),
    }
}
