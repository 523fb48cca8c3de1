//! `aw capability descriptor validate <file|skill-dir>`: checks a capability descriptor against
//! the contract (every rule of the validator, then the JSON Schema), from a descriptor file or
//! from a skill folder whose SKILL.md seals one.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::descriptor::Descriptor;
use aw_core::wire::capability_descriptor::{DescriptorSummary, DescriptorValid};
use aw_workspace::capability::check_descriptor;
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::locate::current_dir;
use clap::{Args, Subcommand};

/// The `capability descriptor` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum DescriptorCommand {
    // `about` rather than a doc comment, which would reset the verb's long help.
    #[command(about = "Check a descriptor file, or the descriptor a skill folder seals.")]
    Validate(ValidateArgs),
}

// Arguments of `aw capability descriptor validate`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check a capability descriptor (workline.capability-descriptor/v1).\n\n\
The argument is either a descriptor JSON file or a skill folder. A skill folder's SKILL.md names \
its descriptor in the frontmatter, `metadata.workline-capability-descriptor: \
\"<relative path>.json#sha256=<digest>\"`: the locator is checked first, then the descriptor's \
bytes against the sealed digest, then the JSON, then the contract.\n\n\
Every rule is checked and every failure reported, each with its code, file, JSON path, message \
and next action; only a descriptor that is not an object or has an unknown contract_version stops \
at once. Exit status: 0 when the descriptor is valid, 1 otherwise."
)]
pub struct ValidateArgs {
    /// A descriptor JSON file, or a skill folder whose SKILL.md locates one.
    #[arg(value_name = "FILE|SKILL_DIR")]
    pub path: String,
}

/// Runs a `capability descriptor` verb.
pub fn dispatch(cmd: &DescriptorCommand, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    match cmd {
        DescriptorCommand::Validate(args) => run(args, cx),
    }
}

/// Runs `validate`.
pub fn run(args: &ValidateArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let path = resolve_arg(&current_dir()?, &args.path);
    match check_descriptor(&path, &args.path)? {
        Ok(d) => {
            let model = DescriptorValid {
                ok: true,
                descriptor: summary(&d),
                shown: &args.path,
            };
            Ok(Outcome::shown(&model, &style))
        }
        Err(failures) => Err(refusal(&args.path, &failures)),
    }
}

fn summary(d: &Descriptor) -> DescriptorSummary<'_> {
    DescriptorSummary {
        name: &d.name,
        operations: d.operations.iter().map(|o| o.name.as_str()).collect(),
    }
}

/// The failure envelope: the first failure's code, every failure under `data.failures`.
fn refusal(shown: &str, failures: &[aw_core::capability::validate::Failure]) -> Failure {
    let Some(first) = failures.first() else {
        return Failure::new(
            aw_core::error_code::ErrorCode::Internal,
            format!("{shown} was refused without a reason"),
            "report this as a bug in aw",
        );
    };
    let n = failures.len();
    let message = if n == 1 {
        format!(
            "{shown} is not a valid capability descriptor: {}",
            first.message
        )
    } else {
        format!(
            "{shown} is not a valid capability descriptor: {n} problems, the first: {}",
            first.message
        )
    };
    let action = if n == 1 {
        first.action.clone()
    } else {
        "fix every problem listed under failures, then validate again".to_owned()
    };
    Failure::new(first.code, message, action).with_data(|d| d.failures = Some(failures.to_vec()))
}
