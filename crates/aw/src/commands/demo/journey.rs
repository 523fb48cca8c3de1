//! Part three of the demo: a `quick` flow journey on a fresh session of the example workspace,
//! driven from adoption to `final` with scripted answers; each directive's boundary and next
//! action is shown.

use super::journey_driver::{DemoStep, drive_quick, render_steps};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Format;
use aw_workspace::locate::{LocateInput, locate};
use serde_json::{Value, json};
use std::path::Path;

use super::step;

/// The session the journey runs in (the journey closes it at the end).
const SESSION: &str = "002-onboarding-copy-quick";

/// Creates the journey's session and drives it. Returns the `session-create` step and the
/// boundaries met.
pub(super) fn run(
    project: &Path,
    format: Format,
    cx: &Ctx<'_>,
) -> Result<(step::Step, Vec<DemoStep>), Failure> {
    let created = step::run(
        project,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "onboarding-copy-quick",
            "--objective",
            "Reword the onboarding screen",
        ],
        format,
        cx,
    )?;
    let ws = locate(&LocateInput {
        cwd: project.to_path_buf(),
        workspace: Some(project.to_path_buf()),
        namespace: Some("workflow".to_owned()),
        ..Default::default()
    })?;
    let steps = drive_quick(&ws, SESSION, cx)?;
    Ok((created, steps))
}

/// The boundaries as JSON.
pub(super) fn json(steps: &[DemoStep]) -> Value {
    Value::Array(
        steps
            .iter()
            .map(|s| json!({"kind": s.kind, "transition": s.transition, "next_action": s.next_action}))
            .collect(),
    )
}

/// The boundaries as text, indented under the demo's section.
pub(super) fn human(steps: &[DemoStep]) -> String {
    render_steps(steps)
        .lines()
        .map(|l| format!("   {l}\n"))
        .collect()
}
