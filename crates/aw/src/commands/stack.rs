//! `aw stack [--project-dir <dir>]`: the language, framework, database and build tool a folder's
//! marker files imply (`pom.xml`, `build.gradle[.kts]`, `angular.json`, `package.json`), by the
//! same rules `workspace-init` fills the project block's stack with.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean;
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
    let st = &detected.stack;
    Ok(match style.format {
        Format::Json => Outcome::json(&aw_core::wire::stack::Stack::of(st, detected.wrapper)),
        Format::Human => {
            let mut out = format!("stack · {}\n", clean(&dir.to_string_lossy()));
            for (label, v) in [
                ("Language", &st.language),
                ("Framework", &st.framework),
                ("Database", &st.db),
                ("Build", &st.build),
            ] {
                out.push_str(&format!(
                    "  {label:<10} {}\n",
                    clean(v.as_deref().unwrap_or("unknown"))
                ));
            }
            out.push_str(&format!(
                "  {:<10} {}\n",
                "Command",
                detected.wrapper.unwrap_or("unknown")
            ));
            Outcome::text(out)
        }
    })
}
