//! Parts three and four of the demo: flow journeys on fresh sessions of the example workspace
//! (a `quick` task, then the execution of the example plan), each driven from adoption to
//! `final` with scripted answers; each directive's boundary and next action is shown.

use super::journey_driver::{DemoStep, drive, render_steps};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Format;
use aw_core::flow::Flow;
use aw_core::wire::demo::DemoBoundary;
use aw_workspace::locate::{LocateInput, locate};
use std::path::Path;

use super::skills::io_failure;
use super::step;
use aw_workspace::example::write_files;

/// One scripted journey: the session it creates and the flow it runs there.
pub(super) struct Script {
    /// The flow.
    pub flow: Flow,
    /// `session-create --type`.
    pub kind: &'static str,
    /// `session-create --name`.
    pub name: &'static str,
    /// `session-create --objective`.
    pub objective: &'static str,
    /// The folder `session-create` makes (`NNN-<name>`): the demo knows its numbers.
    pub folder: &'static str,
    /// The session's success criterion, written before the work starts (as the doctrine asks).
    pub criterion: &'static str,
    /// The plan the run executes (`plan-exec`).
    pub plan: Option<&'static str>,
}

/// The `quick` journey (the session is closed at the end).
pub(super) const QUICK: Script = Script {
    flow: Flow::Quick,
    kind: "quick",
    name: "onboarding-copy-quick",
    objective: "Reword the onboarding screen",
    folder: "002-onboarding-copy-quick",
    criterion: "the onboarding screen shows the new copy",
    plan: None,
};

/// The `plan-exec` journey over the example plan.
pub(super) const PLAN_EXEC: Script = Script {
    flow: Flow::PlanExec,
    kind: "exec",
    name: "login-redirect-plan-exec",
    objective: "Execute plan 001 (login redirect)",
    folder: "003-login-redirect-plan-exec",
    criterion: "phase F1 of plan 001 stays validated",
    plan: Some("docs/plans/001-plan-login-redirect.md"),
};

/// Creates the script's session and drives its journey. Returns the `session-create` step and
/// the boundaries met.
pub(super) fn run(
    project: &Path,
    script: &Script,
    format: Format,
    cx: &Ctx<'_>,
) -> Result<(step::Step, Vec<DemoStep>), Failure> {
    let created = step::run(
        project,
        &[
            "session-create",
            "--type",
            script.kind,
            "--name",
            script.name,
            "--objective",
            script.objective,
        ],
        format,
        cx,
    )?;
    // The agent writes the session's success criterion and its first checkpoint before the
    // work starts, as the doctrine asks (the run checks both before seeding the work).
    let session = format!(".workflow/sessions/{}/SESSION.md", script.folder);
    let text = format!(
        "# Session — {}\n\n## Objective\n{}\n\n## Success criteria\n- [ ] {}\n",
        script.name, script.objective, script.criterion
    );
    write_files(project, &[(session.as_str(), text.as_str())]).map_err(io_failure)?;
    step::run(
        project,
        &["checkpoint-write", "--code", script.folder],
        format,
        cx,
    )?;
    let ws = locate(&LocateInput {
        cwd: project.to_path_buf(),
        workspace: Some(project.to_path_buf()),
        namespace: Some("workflow".to_owned()),
        ..Default::default()
    })?;
    let steps = drive(&ws, script.folder, script.flow, script.plan, cx)?;
    Ok((created, steps))
}

/// The boundaries as JSON.
pub(super) fn json(steps: &[DemoStep]) -> Vec<DemoBoundary<'_>> {
    steps
        .iter()
        .map(|s| DemoBoundary {
            kind: &s.kind,
            transition: &s.transition,
            next_action: &s.next_action,
        })
        .collect()
}

/// The boundaries as text, indented under the demo's section.
pub(super) fn human(steps: &[DemoStep]) -> String {
    render_steps(steps)
        .lines()
        .map(|l| format!("   {l}\n"))
        .collect()
}

/// The boundaries as one line each (kind and step), for a journey whose next actions read like
/// the one shown in full before it.
pub(super) fn human_compact(steps: &[DemoStep]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let line = format!("   {:>2}. {:<13} {}", i + 1, s.kind, s.transition);
            format!("{}\n", line.trim_end())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compact_view_is_one_line_per_boundary() {
        let steps = [
            DemoStep {
                kind: "execution".into(),
                transition: "plan-exec.session".into(),
                next_action: "run it".into(),
            },
            DemoStep {
                kind: "final".into(),
                transition: String::new(),
                next_action: "done".into(),
            },
        ];
        assert_eq!(
            human_compact(&steps),
            "    1. execution     plan-exec.session\n    2. final\n"
        );
    }
}
