//! `aw demo`: aw on a built-in example, with no set-up.
//!
//! The demo writes everything into a temporary folder: a small agent-workflow skill family
//! (good and broken manifests) that it validates, then a workspace where it runs the real
//! commands an agent would run: init, a session, its tasks, a checkpoint, the session list, then
//! a spec and its plan, what to resume; then a `quick` flow journey and a `plan-exec` journey
//! driven to their end; then a design published through the `design` capability's handshake;
//! then aw installed into a Claude Code home of the example's own and what an agent reads from
//! it; and last the status board. Every step runs with the example's home, never the user's.

mod design;
mod host;
mod journey;
mod journey_driver;
mod skills;
mod step;
mod workspace;

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use aw_core::wire::demo::{Demo, DemoDesign, DemoJourney};
use aw_workspace::example::ExampleDir;
use clap::Args;
use std::fmt::Write;

// Arguments of `aw demo`.
#[derive(Debug, Args)]
#[command(
    long_about = "Run aw on a built-in example, in a temporary folder deleted at the end: a skill \
family checked by `aw manifest validate`, then a workspace where the real commands run (a \
session, its tasks, a checkpoint, a spec and its plan), a `quick` journey and a `plan-exec` \
journey driven to their end, \
a design created, validated and rendered through the `design` capability, aw installed into a \
Claude Code home of the example's own (never yours) with what an agent reads from it, and the \
status board.\n\nText by default, even when piped; `--format json` gives every step's \
output."
)]
pub struct DemoArgs {
    /// Keep the example folder instead of deleting it at the end (its path is printed).
    #[arg(long)]
    pub keep: bool,
}

/// Runs the demo.
pub fn run(args: &DemoArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    // A demo is for reading: text unless JSON is asked for.
    let style = cx.style(Format::Human)?;
    let dir = ExampleDir::create().map_err(skills::io_failure)?;
    // The example has a home of its own: nothing the user installed changes what the demo
    // shows, and the demo installs nothing into the user's hosts.
    let home = dir.subfolder("home").map_err(skills::io_failure)?;
    let cx = &Ctx {
        home: Some(&home),
        ..*cx
    };
    let family = skills::run(dir.path())?;
    let steps = workspace::run(dir.path(), style.format, cx)?;
    let project = dir.path().join("project");
    let (journey_session, journey) = journey::run(&project, &journey::QUICK, style.format, cx)?;
    let (exec_session, exec) = journey::run(&project, &journey::PLAN_EXEC, style.format, cx)?;
    let (design_steps, designs) = design::run(&project, style.format, cx)?;
    let host_steps = host::run(&project, &home, style.format, cx)?;
    // The board comes last, so it shows everything the demo did.
    let board = step::run(&project, &["status"], style.format, cx)?;
    let kept = if args.keep {
        Some(dir.keep().to_string_lossy().into_owned())
    } else {
        None
    };
    let outcome = match style.format {
        Format::Json => Outcome::json(&Demo {
            kept: kept.clone(),
            manifests: skills::json(&family),
            steps: steps.iter().map(|s| s.json()).collect(),
            journey: DemoJourney {
                session: journey_session.json(),
                boundaries: journey::json(&journey),
            },
            plan_exec: DemoJourney {
                session: exec_session.json(),
                boundaries: journey::json(&exec),
            },
            design: DemoDesign {
                steps: design_steps.iter().map(|s| s.step.json()).collect(),
                packages: designs.json(),
            },
            host: host_steps.iter().map(|s| s.json()).collect(),
            board: board.json(),
        }),
        Format::Human => {
            let mut text =
                String::from("aw demo: everything below runs in a temporary folder.\n\n");
            text.push_str(&skills::human(&family, &style));
            text.push_str("\n2. A workspace where an agent fixes a bug in a quick session:\n\n");
            for s in &steps {
                text.push_str(&s.human());
                text.push('\n');
            }
            text.push_str(
                "3. A `quick` flow journey in a new session, driven to its end: aw applies every\n   \
                 deterministic step and stops at each boundary below; the demo answers as an agent\n   \
                 (or a person) would, and runs the command each execution boundary names.\n\n",
            );
            text.push_str(&journey_session.human());
            text.push('\n');
            text.push_str(&journey::human(&journey));
            text.push_str(
                "\n4. The example plan executed: a `plan-exec` journey in its own session. The \
                 agent's\n   judgment (gaps, implementation, review) is scripted; every check is \
                 a real `aw` command\n   (the next actions read like the ones above).\n\n",
            );
            text.push_str(&exec_session.human());
            text.push('\n');
            text.push_str(&journey::human_compact(&exec));
            text.push_str(
                "\n5. A design through the `design` capability: aw asks, the agent authors one \
                 DESIGN.md,\n   aw proposes a plan, a person approves it by its digest, aw \
                 publishes the package\n   (id, folder, revision, digest and manifest are aw's), \
                 then validates and renders it.\n\n",
            );
            for s in &design_steps {
                text.push_str(&s.human());
                text.push('\n');
            }
            text.push_str(&designs.human());
            text.push_str(
                "\n6. The agent's side: aw installed into a Claude Code home (the example's own), \
                 then what\n   an agent reads for /w:quick, from that installed copy.\n\n",
            );
            for s in &host_steps {
                text.push_str(&s.human());
                text.push('\n');
            }
            text.push_str("7. The board: specs, plans, sessions and what is left, on three progress axes:\n\n");
            text.push_str(&board.human());
            text.push('\n');
            // Writing into a `String` cannot fail.
            let _ = match &kept {
                Some(path) => writeln!(
                    text,
                    "The example is kept in {path}: `cd {path}/project && aw status`."
                ),
                None => writeln!(
                    text,
                    "Run `aw demo --keep` to keep the example workspace and explore it yourself."
                ),
            };
            Outcome::text(text)
        }
    };
    let failed = steps.iter().any(|s| s.exit != 0)
        || journey_session.exit != 0
        || exec_session.exit != 0
        || design_steps.iter().any(|s| s.step.exit != 0)
        || designs.exit != 0
        || host_steps.iter().any(|s| s.exit != 0)
        || board.exit != 0;
    Ok(outcome.with_exit(if failed { 1 } else { 0 }))
}
