//! Part one of the demo: an example agent-workflow skill family, validated.

use crate::commands::manifest::validate::model;
use crate::failure::Failure;
use crate::output::Style;
use crate::views::View;
use aw_core::error_code::ErrorCode;
use aw_core::wire::manifest_validate::ManifestValidate;
use aw_manifest::{Class, Report};
use aw_workspace::family::skill::SkillDir;
use std::fmt::Write;
use std::path::Path;

/// The example skill family, embedded in the binary: (relative path, contents).
const SKILL_FILES: &[(&str, &str)] = &[
    (
        "review-bridge/capability.json",
        include_str!("../../../demo/skills/review-bridge/capability.json"),
    ),
    (
        "review-bridge/SKILL.md",
        include_str!("../../../demo/skills/review-bridge/SKILL.md"),
    ),
    (
        "review-bridge/bin/review.sh",
        include_str!("../../../demo/skills/review-bridge/bin/review.sh"),
    ),
    (
        "notes-memory/capability.json",
        include_str!("../../../demo/skills/notes-memory/capability.json"),
    ),
    (
        "broken-bridge/capability.json",
        include_str!("../../../demo/skills/broken-bridge/capability.json"),
    ),
    (
        "broken-bridge/SKILL.md",
        include_str!("../../../demo/skills/broken-bridge/SKILL.md"),
    ),
    (
        "broken-bridge/bin/probe.sh",
        include_str!("../../../demo/skills/broken-bridge/bin/probe.sh"),
    ),
    (
        "future-skill/capability.json",
        include_str!("../../../demo/skills/future-skill/capability.json"),
    ),
];

/// The skill folders of the example, in the order they are validated.
const SKILLS: &[&str] = &[
    "review-bridge",
    "notes-memory",
    "broken-bridge",
    "future-skill",
];

/// A failure of the demo's own files, with the next action that fixes it.
pub(super) fn io_failure(e: aw_workspace::WorkspaceError) -> Failure {
    Failure::new(
        ErrorCode::IoError,
        format!("The demo could not set up its example: {e}."),
        "Check that the system temporary folder is writable (or set TMPDIR), then run `aw demo` again.",
    )
}

/// The validated family: (argument as shown, path, report) per skill.
pub(super) type Results = Vec<(String, String, Report)>;

/// Writes the family under `root/skills` and validates every skill.
pub(super) fn run(root: &Path) -> Result<Results, Failure> {
    let skills = root.join("skills");
    aw_workspace::example::write_files(&skills, SKILL_FILES).map_err(io_failure)?;
    Ok(SKILLS
        .iter()
        .map(|name| {
            let path = skills.join(name);
            let report = SkillDir::new(&path).validate();
            (
                format!("skills/{name}"),
                path.to_string_lossy().into_owned(),
                report,
            )
        })
        .collect())
}

/// The text section of the demo for the family.
pub(super) fn human(results: &Results, style: &Style) -> String {
    let count = |c: Class| results.iter().filter(|(_, _, r)| r.class == c).count();
    let mut text =
        String::from("1. A skill family of four skills, checked by `aw manifest validate`:\n\n");
    // Writing into a `String` cannot fail.
    let _ = model(results).render(&mut text, style);
    let _ = writeln!(
        text,
        "\n   {} valid, {} invalid, {} unsupported.",
        count(Class::Valid),
        count(Class::Invalid),
        count(Class::Unsupported)
    );
    text
}

/// The JSON section of the demo for the family.
pub(super) fn json(results: &Results) -> ManifestValidate<'_> {
    model(results)
}
