//! `aw stack [--project-dir <dir>]`: the language, framework, database and build tool a folder's
//! marker files imply (`pom.xml`, `build.gradle[.kts]`, `angular.json`, `package.json`), by the
//! same rules `workspace-init` fills the project block's stack with.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::wire::stack::Stack;
use aw_workspace::project::folder_stack;
use clap::Args;
use std::path::PathBuf;

// Arguments of `aw stack`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the stack a folder's marker files imply: `pom.xml` (Java, Spring Boot, \
Maven), `build.gradle` or `build.gradle.kts` (Java, Spring Boot, Gradle), `angular.json` \
(TypeScript, Angular, npm), else `package.json` (React or Vue from its dependencies, else Node; \
TypeScript when a dependency's name contains `typescript`; npm). The first marker found wins; \
an unknown key is null. `wrapper` is the command that runs the build: the project's own \
`./mvnw` or `./gradlew` (or their Windows forms) when it has one, else `mvn`, `gradle`, `ng` or \
`npm`.\n\nThe folder is `--project-dir` (relative to the current folder), else \
the workspace root. These are the rules `workspace-init` fills the project block's stack with."
)]
pub struct StackArgs {
    /// The folder to look at (default: the workspace root).
    #[arg(long = "project-dir", value_name = "DIR")]
    pub project_dir: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &StackArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let dir = match &args.project_dir {
        Some(d) => d.clone(),
        None => cx.workspace()?.root,
    };
    let detected = folder_stack(&dir)?;
    let model = Stack::of(
        &detected.stack,
        detected.wrapper,
        dir.to_string_lossy().into_owned(),
    );
    Ok(Outcome::shown(&model, &style))
}
