//! `aw demo`: aw on a built-in example, with no set-up.
//!
//! Today the demo writes a small agent-workflow skill family (good and broken manifests) into a
//! temporary folder and validates it. It grows with aw: a workspace, sessions and a flow journey
//! come next.

use crate::cli::Global;
use crate::commands::manifest::validate::{render_json, render_text};
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::manifest::Class;
use aw_workspace::skill::SkillDir;
use clap::Args;
use serde_json::json;
use std::path::Path;

/// Arguments of `aw demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Keep the example folder instead of deleting it at the end (its path is printed).
    #[arg(long)]
    pub keep: bool,
}

/// The example skill family, embedded in the binary: (relative path, contents).
const SKILL_FILES: &[(&str, &str)] = &[
    (
        "review-bridge/capability.json",
        include_str!("../../demo/skills/review-bridge/capability.json"),
    ),
    (
        "review-bridge/SKILL.md",
        include_str!("../../demo/skills/review-bridge/SKILL.md"),
    ),
    (
        "review-bridge/bin/review.sh",
        include_str!("../../demo/skills/review-bridge/bin/review.sh"),
    ),
    (
        "notes-memory/capability.json",
        include_str!("../../demo/skills/notes-memory/capability.json"),
    ),
    (
        "broken-bridge/capability.json",
        include_str!("../../demo/skills/broken-bridge/capability.json"),
    ),
    (
        "broken-bridge/SKILL.md",
        include_str!("../../demo/skills/broken-bridge/SKILL.md"),
    ),
    (
        "broken-bridge/bin/probe.sh",
        include_str!("../../demo/skills/broken-bridge/bin/probe.sh"),
    ),
    (
        "future-skill/capability.json",
        include_str!("../../demo/skills/future-skill/capability.json"),
    ),
];

/// The skill folders of the example, in the order they are validated.
const SKILLS: &[&str] = &[
    "review-bridge",
    "notes-memory",
    "broken-bridge",
    "future-skill",
];

fn io_failure(what: &str, e: std::io::Error) -> Failure {
    Failure::new(
        "IO_ERROR",
        format!("The demo could not {what}: {e}."),
        "Check that the system temporary folder is writable (or set TMPDIR), then run `aw demo` again.",
    )
}

fn write_family(root: &Path) -> Result<(), Failure> {
    for (rel, contents) in SKILL_FILES {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_failure("create a folder", e))?;
        }
        std::fs::write(&path, contents).map_err(|e| io_failure("write an example file", e))?;
    }
    Ok(())
}

/// Runs the demo.
pub fn run(args: &DemoArgs, global: &Global) -> Result<Outcome, Failure> {
    // A demo is for reading: text unless JSON is asked for.
    let style = global.flags().resolve(Format::Human)?;
    let dir = tempfile::Builder::new()
        .prefix("aw-demo-")
        .tempdir()
        .map_err(|e| io_failure("create a temporary folder", e))?;
    let root = dir.path().join("skills");
    write_family(&root)?;
    let results: Vec<_> = SKILLS
        .iter()
        .map(|name| {
            let path = root.join(name);
            let report = SkillDir::new(&path).validate();
            (
                format!("skills/{name}"),
                path.to_string_lossy().into_owned(),
                report,
            )
        })
        .collect();
    let kept = if args.keep {
        Some(dir.keep().to_string_lossy().into_owned())
    } else {
        None
    };
    let count = |c: Class| results.iter().filter(|(_, _, r)| r.class == c).count();
    let outcome = match style.format {
        Format::Json => Outcome::json(json!({
            "kept": kept,
            "manifests": render_json(&results),
        })),
        Format::Human => {
            let mut text = String::from(
                "aw demo: an example skill family of four skills, checked by `aw manifest validate`.\n\n",
            );
            text.push_str(&render_text(&results, style.color));
            text.push_str(&format!(
                "\n{} valid, {} invalid, {} unsupported.\n",
                count(Class::Valid),
                count(Class::Invalid),
                count(Class::Unsupported)
            ));
            if let Some(path) = &kept {
                text.push_str(&format!(
                    "The example is kept in {path}: try `aw manifest validate {path}/skills/*`.\n"
                ));
            }
            text.push_str(
                "\nNext in this demo, as aw grows: a workspace with numbered specs and plans, sessions\n\
                 and checkpoints, the three-axis status board, and a flow journey driven end to end.\n",
            );
            Outcome::text(text)
        }
    };
    Ok(outcome)
}
