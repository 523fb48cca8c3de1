//! Part two of the demo: a workspace, a session, its tasks and a checkpoint, made by running
//! the real commands; then a spec and its plan, what to resume, and the board.

use super::skills::io_failure;
use super::step::{self, Step};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Format;
use aw_workspace::example::write_files;
use std::path::Path;

/// The tasks an agent would write into the session while it works.
const TASKS: &str = "# Tasks\n\n- [x] Reproduce the redirect loop after login\n- [x] Find the cause: the return URL is encoded twice\n- [ ] Decode the return URL once (deps: T2)\n- [ ] Add a regression test\n";

/// A refined spec, the plan derived from it (one phase validated, one blocked) and a draft spec,
/// as the spec and plan loops would have written them.
const DOCS: &[(&str, &str)] = &[
    (
        "docs/specs/001-spec-login-redirect.md",
        "---\nstatus: ready-for-plan\n---\n# Spec 001 — login-redirect\n\n## Requirement\nAfter login, \
         users land on the page they asked for.\n\n## Open questions\nNone.\n",
    ),
    (
        "docs/plans/001-plan-login-redirect.md",
        "# Plan 001 — login-redirect\n\n> Derived from docs/specs/001-spec-login-redirect.md\n> State: open\n\
         > Execution surface: checkout\n\n\
         ## Tasks\n\n### F1 — The return URL survives login\n> State: validated\n> Sources: workspace\n\n\
         - [x] T1.1 — decode once _(sources: workspace)_\n\
         - [x] T1.2 — regression test _(sources: workspace)_\n\n### F2 — Deep links work on mobile\n\
         > State: blocked\n> Blocker: waiting for the mobile team's URL scheme\n> Sources: workspace\n\n\
         - [ ] T2.1 — map the scheme _(sources: workspace)_\n\n\
         ## Execution batches\n- B1 · continuous · F1\n- B2 · isolated · F2\n",
    ),
    (
        "docs/specs/002-spec-remember-me.md",
        "---\nstatus: draft\n---\n# Spec 002 — remember-me\n\n## Requirement\nStay signed in for 30 days.\n\n\
         ## Open questions\n- Which devices count as trusted?\n",
    ),
];

/// Creates the example workspace under `root/project` and runs the workspace commands on it.
pub(super) fn run(root: &Path, format: Format, cx: &Ctx<'_>) -> Result<Vec<Step>, Failure> {
    let project = root.join("project");
    aw_workspace::io::atomic::create_dir_all(root, &project).map_err(io_failure)?;
    let mut steps = vec![step::run(
        &project,
        &[
            "workspace-init",
            "--source",
            "app:.",
            "--project",
            "An example web app",
        ],
        format,
        cx,
    )?];
    steps.push(step::run(
        &project,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "login-redirect-quick",
            "--objective",
            "Fix the redirect loop after login",
        ],
        format,
        cx,
    )?);
    // The agent records its tasks in the session folder as it works.
    write_files(
        &project,
        &[(
            ".workflow/sessions/001-login-redirect-quick/TASKS.md",
            TASKS,
        )],
    )
    .map_err(io_failure)?;
    steps.push(step::run(
        &project,
        &["checkpoint-write", "--code", "001"],
        format,
        cx,
    )?);
    steps.push(step::run(&project, &["sessions"], format, cx)?);
    // Later the spec and plan loops write their documents; the board reads them back.
    write_files(&project, DOCS).map_err(io_failure)?;
    steps.push(step::run(&project, &["resume"], format, cx)?);
    Ok(steps)
}
