//! Part two of the demo: a workspace, a session, its tasks and a checkpoint, made by running
//! the real commands.

use super::skills::io_failure;
use super::step::{self, Step};
use crate::failure::Failure;
use crate::output::Format;
use std::path::Path;

/// The tasks an agent would write into the session while it works.
const TASKS: &str = "# Tasks\n\n- [x] Reproduce the redirect loop after login\n- [x] Find the cause: the return URL is encoded twice\n- [ ] Decode the return URL once (deps: T2)\n- [ ] Add a regression test\n";

/// Creates the example workspace under `root/project` and runs the workspace commands on it.
pub(super) fn run(root: &Path, format: Format) -> Result<Vec<Step>, Failure> {
    let project = root.join("project");
    std::fs::create_dir_all(&project).map_err(|e| io_failure("create the project folder", e))?;
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
    )?);
    // The agent records its tasks in the session folder as it works.
    let session = project.join(".workflow/sessions/001-login-redirect-quick");
    std::fs::write(session.join("TASKS.md"), TASKS)
        .map_err(|e| io_failure("write the example tasks", e))?;
    steps.push(step::run(
        &project,
        &["checkpoint-write", "--code", "001"],
        format,
    )?);
    steps.push(step::run(&project, &["sessions"], format)?);
    Ok(steps)
}
