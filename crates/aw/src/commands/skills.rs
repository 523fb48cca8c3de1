//! `aw skills [--detail] [--host <id>]`: what each role is bound to (the `skills.toml`
//! cascade), whether the bound skills are installed, and how ready each registered capability
//! is (spec §7.5, §7.6).

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::binding_check::{BindingCheck, check_installed};
use aw_core::capability::bindings::{Cascade, classify_in};
use aw_core::capability::callers::{harness, harness_ids};
use aw_core::capability::dispatch::{REGISTERED, registered};
use aw_core::capability::readiness::{ReadinessReport, WrapperState, readiness};
use aw_core::capability::resolution::resolve;
use aw_core::error_code::ErrorCode;
use aw_core::wire::skills::{RoleMap, Skills};
use aw_workspace::capability::inventory::survey;
use aw_workspace::capability::skill_bindings;
use aw_workspace::capability::{detected_host, wrapper_state};
use clap::Args;

// Arguments of `aw skills`.
#[derive(Debug, Args)]
#[command(
    long_about = "Show what each role (design, sql, git, research, diagrams, overview) is bound \
to, and how ready each capability is.\n\nBindings cascade: the built-in default, then \
~/.<ns>/skills.toml, then the workspace's .<ns>/skills.toml, role by role ([skills] table; \
`off` turns a role off; retired names are ignored with a warning). A role bound to a skill that \
is not installed under the standard skill roots gets a warning: the binding is advisory.\n\n\
JSON (when piped): {skills, sources, bindingChecks, warnings, capabilities}; `capabilities` \
holds each capability's readiness report (state, invocation form for the host, routes, \
operations, eligible improvements). On a terminal: a table of the roles; `--detail` adds each \
capability's readiness."
)]
pub struct SkillsArgs {
    /// The agent host the readiness is computed for (default: detected from the environment).
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
}

/// Runs `aw skills`.
pub fn run(args: &SkillsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let host = match &args.host {
        Some(h) if harness(h).is_some() => h.clone(),
        Some(h) => {
            return Err(Failure::new(
                ErrorCode::InvalidInput,
                format!("--host does not know '{h}'"),
                format!("name one of: {}", harness_ids().join(", ")),
            ));
        }
        None => detected_host().to_owned(),
    };
    let ws = cx.workspace()?;
    let home = cx.home();
    let cascade = skill_bindings::read(&ws, home.as_deref());
    let found = survey(&ws.root, home.as_deref());
    let (checks, check_warnings) = check_installed(&cascade, &found.names, &found.roots);
    let mut reports = Vec::new();
    for name in REGISTERED {
        let descriptor = registered(name)?;
        let binding = classify_in(&cascade, &descriptor.name);
        let resolution = resolve(&descriptor, &binding, &found.instances, None, None);
        let wrapper = match harness(&host) {
            Some(h) => wrapper_state(home.as_deref(), h.skills_dir, &descriptor.name),
            None => WrapperState::Absent {
                root: String::new(),
            },
        };
        reports.push(readiness(
            &descriptor,
            &resolution,
            &found.instances,
            &host,
            wrapper,
        ));
    }
    let warnings: Vec<String> = cascade
        .warnings
        .iter()
        .cloned()
        .chain(check_warnings)
        .collect();
    Ok(Outcome::shown(
        &model(&cascade, &checks, &warnings, &reports),
        &style,
    ))
}

fn model<'a>(
    cascade: &'a Cascade,
    checks: &'a [BindingCheck],
    warnings: &'a [String],
    reports: &'a [ReadinessReport],
) -> Skills<'a> {
    Skills {
        skills: RoleMap(&cascade.skills),
        sources: &cascade.sources,
        binding_checks: checks,
        warnings,
        capabilities: reports,
    }
}
