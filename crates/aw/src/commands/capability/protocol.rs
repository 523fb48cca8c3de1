//! What `aw capability prepare | continue | validate | apply` share: their flags, and the one
//! pipeline each verb runs (spec §3.3): flags, stdin, the compose route, the registered
//! capability, what the shell reads (workspace, bindings, inventory, design index, host), the
//! dispatcher, and the attempt printed. Exit 0 for every attempt, blocked ones included; exit 1
//! for a failure of the command itself.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::bindings::classify_in;
use aw_core::capability::callers::{check_compose, harness, harness_ids};
use aw_core::capability::carry::{self, Carried};
use aw_core::capability::dispatch::{
    self, ApplyGate, Attempt, Call, Flags, Publication, REGISTERED, Unpublished, registered,
};
use aw_core::capability::handler::{PublishRoot, Verb};
use aw_core::capability::request::RequestInput;
use aw_core::design::floor::DesignFloor;
use aw_core::design::output_root::OutputRoot;
use aw_core::error_code::ErrorCode;
use aw_core::flow::Flow;
use aw_workspace::capability::detected_host;
use aw_workspace::io::stdin::{AnswerLimits, read_answer};
use aw_workspace::locate::{slashed, workspace_holding};
use aw_workspace::publish::PublishTarget;
use aw_workspace::{
    capability::designs, capability::inventory, capability::skill_bindings, io::lock, io::random,
    publish,
};
use clap::Args;
use std::path::{Path, PathBuf};

// The flags every protocol verb takes (§3.1).
#[derive(Debug, Args)]
pub struct ProtocolArgs {
    /// The capability (required; only the first is used when repeated).
    #[arg(long, value_name = "NAME")]
    pub capability: Vec<String>,
    /// The operation (default: the carried request's, else the capability's default).
    #[arg(long, value_name = "OP")]
    pub operation: Option<String>,
    /// An input, `name=value` (repeatable; the value may be empty or hold `=`).
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// `context.target`: where the operation's output goes (the design floor's output root).
    #[arg(long, value_name = "PATH")]
    pub target: Option<String>,
    /// `context.base`.
    #[arg(long, value_name = "BASE")]
    pub base: Option<String>,
    /// `context.profile`.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Call from a flow (the compose route): spec-refine, plan-new, plan-refine, plan-exec, quick.
    #[arg(long, value_name = "FLOW")]
    pub flow: Option<String>,
    /// Allow the operation to read sensitive sources.
    #[arg(long)]
    pub sensitive_sources: bool,
    /// The approval digest a person approved (apply).
    #[arg(long, value_name = "DIGEST")]
    pub approval: Option<String>,
    /// The agent host calling (default: detected from the environment).
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
}

fn args_invalid(message: String, action: &str) -> Failure {
    Failure::new(ErrorCode::ArgsInvalid, message, action)
}

fn inputs(raw: &[String]) -> Result<Vec<RequestInput>, Failure> {
    raw.iter()
        .map(|s| match s.split_once('=') {
            Some((name, value)) if !name.is_empty() => Ok(RequestInput::from_flag(name, value)),
            _ => Err(args_invalid(
                format!("--input expects 'name=value', got '{s}'"),
                "write each input as --input name=value",
            )),
        })
        .collect()
}

fn flow(raw: Option<&String>) -> Result<Option<Flow>, Failure> {
    match raw {
        None => Ok(None),
        Some(f) if Flow::parse(f).is_some() => Ok(Flow::parse(f)),
        Some(f) => Err(args_invalid(
            format!("--flow does not know '{f}'; the flows are {}", Flow::list()),
            "name one of those flows, or drop --flow to call the capability directly",
        )),
    }
}

fn host(raw: Option<&String>) -> Result<String, Failure> {
    match raw {
        Some(h) if harness(h).is_some() => Ok(h.clone()),
        Some(h) => Err(args_invalid(
            format!("--host does not know '{h}'"),
            &format!("name one of: {}", harness_ids().join(", ")),
        )),
        None => Ok(detected_host().to_owned()),
    }
}

/// Runs one protocol verb.
pub fn run(verb: Verb, args: &ProtocolArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let Some(name) = args.capability.first() else {
        return Err(args_invalid(
            format!(
                "--capability is missing; registered: {}",
                REGISTERED.join(", ")
            ),
            "name the capability with --capability <name>",
        ));
    };
    let flags = Flags {
        operation: args.operation.clone(),
        inputs: inputs(&args.inputs)?,
        target: args.target.clone(),
        base: args.base.clone(),
        profile: args.profile.clone(),
        flow: None,
        sensitive_sources: args.sensitive_sources,
        approval: args.approval.clone(),
        host: args.host.clone(),
    };
    let carried = if verb.reads_stdin() {
        // Read whole before anything is locked: a slow writer must not hold the workspace.
        let example = format!(
            "aw capability {} --capability <name> < state.json",
            verb.as_str()
        );
        let text = read_answer(AnswerLimits::from_env())
            .map_err(|e| Failure::from(e.into_error_for(&example)))?;
        carry::parse(&text, verb)?
    } else {
        Carried::default()
    };
    let flow = flow(args.flow.as_ref())?;
    let flags = Flags {
        flow: flow.map(|f| f.as_str().to_owned()),
        ..flags
    };
    let host = host(args.host.as_ref())?;
    // A request carried into validate or apply keeps its caller: its flow is held to the caller
    // table as a flag would be, so a request re-sealed with a flow cannot skip the table.
    let carried_flow = match (verb, &carried.request) {
        (Verb::Validate | Verb::Apply, Some(r)) if flow.is_none() => match &r.caller.flow {
            None => None,
            Some(f) => Some(Flow::parse(f).ok_or_else(|| {
                args_invalid(
                    format!("the carried request names the flow '{f}', which aw does not know"),
                    "send the request exactly as aw printed it",
                )
            })?),
        },
        _ => None,
    };
    if let Some(f) = flow.or(carried_flow) {
        let parent_op = carried
            .parent
            .as_ref()
            .or(carried.request.as_ref())
            .map(|r| r.operation.as_str());
        check_compose(f, name, flags.operation.as_deref().or(parent_op))?;
    }
    let descriptor = registered(name)?;
    let ws = if matches!(verb, Verb::Apply) {
        cx.workspace_settled_for_apply()?
    } else {
        cx.workspace_settled()?
    };
    let home = cx.home();
    let workspace = ws.initialized.then(|| slashed(&ws.root));
    let state_folder = format!(".{}", ws.ns);
    let binding = classify_in(
        &skill_bindings::read(&ws, home.as_deref()),
        &descriptor.name,
    );
    let inventory = inventory::scan(&ws.root, home.as_deref());
    let index = if ws.initialized {
        Some(designs::read_index(&ws.root)?)
    } else {
        None
    };
    // The output root the request names, listed for numbering a new package: from the carried
    // request when the verb continues one, else from this call's flags.
    let (target, call_inputs) = match (verb, &carried.request) {
        (Verb::Validate | Verb::Apply, Some(r)) => (r.context.target.as_deref(), &r.inputs[..]),
        _ => (flags.target.as_deref(), &flags.inputs[..]),
    };
    // The clock a decision `record` writes is stamped with: "now" as the command read it.
    let mut handler = DesignFloor::new(workspace.is_some(), index).with_now(cx.now.utc_iso());
    if ws.initialized {
        let files = aw_core::design::create::file_locators(call_inputs);
        handler = handler.with_present_sources(designs::existing(&ws.root, files));
    }
    if let Some(root) = DesignFloor::listing_root(workspace.is_some(), target, call_inputs) {
        let ws_root = ws.initialized.then_some(ws.root.as_path());
        if let OutputRoot::Explicit { root } = &root
            && let Some(holder) = workspace_holding(Path::new(root), &ws.ns)
        {
            handler = handler.with_root_workspace(slashed(&holder));
        }
        handler = handler.with_listing(designs::list_root(ws_root, &root)?);
    }
    let call = Call {
        verb,
        descriptor: &descriptor,
        handler: &handler,
        flags: &flags,
        carried: &carried,
        host: &host,
        workspace: workspace.as_deref(),
        reserved: &[&state_folder, ".git"],
        binding: &binding,
        inventory: &inventory,
        fresh_id: random::invocation_id(),
    };
    let attempt = if verb == Verb::Apply {
        apply(&call, &ws)?
    } else {
        dispatch::attempt(&call)?
    };
    Ok(Outcome::shown(&attempt, &style))
}

/// `apply`: the checks that need no disk, then the base read, the lock and the publish — into
/// the workspace, or into the explicit root the handler names outside one.
fn apply(call: &Call<'_>, ws: &aw_workspace::locate::Workspace) -> Result<Attempt, Failure> {
    let ready = match dispatch::apply_gate(call)? {
        ApplyGate::Blocked(attempt) => return Ok(*attempt),
        ApplyGate::Ready(ready) => *ready,
    };
    let explicit = match &ready.root {
        PublishRoot::Workspace => None,
        PublishRoot::Explicit(root) => Some(PathBuf::from(root)),
    };
    let target = match &explicit {
        None => PublishTarget::Workspace(ws),
        Some(root) => PublishTarget::Explicit(root),
    };
    // A base aw cannot read (a path out of the workspace, a FIFO) fails the command here; it is
    // compared with the sealed one under the lock, after the publish has looked whether this
    // very plan is already in place (then a base it replaced is no refusal).
    if let Some(b) = &ready.plan.base {
        publish::read_base(target.root(), &b.path)?;
    }
    // What the gate checked the paths against as text; the publish checks it again on disk.
    let destinations = call.handler.allowed_destinations(&ready.request)?;
    // The base and the claimed numbers are checked again under the lock, where no other aw
    // writer can change them.
    let published = publish::publish_in(
        target,
        &ready.plan.artifacts,
        ready.plan.base.as_ref(),
        &destinations,
        &ready.claims,
        lock::default_wait(),
    )
    .map(|p| {
        let paths = || {
            ready
                .plan
                .artifacts
                .iter()
                .map(|a| a.path.clone())
                .collect()
        };
        if !p.changed_since.is_empty() {
            Publication::ChangedSince {
                paths: paths(),
                changed: p.changed_since,
            }
        } else if p.already_published {
            Publication::AlreadyPublished(paths())
        } else {
            Publication::Written(p.written)
        }
    })
    .map_err(|e| Unpublished {
        reconciliation: e.reconciliation(),
        error: e.error,
    });
    Ok(dispatch::apply_finish_with(call, ready, published)?)
}
