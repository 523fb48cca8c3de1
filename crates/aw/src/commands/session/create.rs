//! `aw session-create --type <t> --name <descriptor> --objective <text> [--from <origins>]`:
//! takes the next global session number and creates `.<ns>/sessions/NNN-<descriptor>/SESSION.md`
//! (the transaction is `aw_workspace::sessions::create`). The name must be a single folder name
//! (the reference let `x/../../escaped` create a folder outside the workspace).
//!
//! The session is born with its custody (`.custody.json`, isolation-spec-v22 §2.3): the inputs
//! declared with `--input`, else the one document the name points at, each sealed as it is
//! now. Everything that can refuse (the arguments, the docs canon, an input path, an input that
//! cannot be read) does so before anything is created.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::{Failure, sentence, session_write};
use crate::output::Outcome;
use aw_core::custody::{self as rules, InputsFrom};
use aw_core::error_code::ErrorCode;
use aw_core::session::document;
use aw_core::session::names::{SessionType, descriptor};
use aw_core::wire::session::SessionCreate;
use aw_workspace::capability::skill_bindings;
use aw_workspace::locate::Workspace;
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::custody;
use aw_workspace::sessions::{self, CreateRequest};
use clap::Args;

// Arguments of `aw session-create`.
#[derive(Debug, Args)]
#[command(
    long_about = "Create a session: `.<ns>/sessions/NNN-<name>/SESSION.md`.\n\nNNN is the next \
global session number. `--name` is the folder descriptor, by convention `<slug>-<flow>` (flows: \
spec-refine, plan-new, plan-refine, plan-exec, quick); a leading `NNN-` is dropped. The calling \
conversation (AW_CONTEXT_ID, else Claude Code's CLAUDE_CODE_SESSION_ID) is bound to the new \
session, so the lifecycle hooks find it.\n\nThe session's custody (`.custody.json`) seals its \
inputs as they are now: each `--input` (a workspace-relative path; a file that does not exist yet \
is sealed as absent), else the document the name points at: `<slug>-spec-refine` and \
`<slug>-plan-new` seal `docs/specs/NNN-spec-<slug>.md`, `<slug>-plan-refine` and \
`<slug>-plan-exec` seal `docs/plans/NNN-plan-<slug>.md`, when exactly one file matches."
)]
pub struct SessionCreateArgs {
    /// The kind of work: research, refine, exec or quick.
    #[arg(long = "type", value_name = "TYPE")]
    pub kind: Option<String>,
    /// The folder descriptor, e.g. `login-spec-refine`.
    #[arg(long, value_name = "DESCRIPTOR")]
    pub name: Option<String>,
    /// What the session is for.
    #[arg(long, visible_alias = "objetivo", value_name = "TEXT")]
    pub objective: Option<String>,
    /// Where it comes from: comma-separated items (parent loop, source document, trigger).
    #[arg(long, value_name = "ORIGINS")]
    pub from: Option<String>,
    /// A file the session starts from, sealed in its custody (workspace-relative; repeatable).
    #[arg(long = "input", value_name = "PATH")]
    pub inputs: Vec<String>,
}

/// A refused argument; like the reference's, it carries its reason as `data.error`.
fn invalid(message: String, action: &str) -> Failure {
    Failure::new(ErrorCode::InvalidInput, message, action).with_error_data()
}

/// The session types, as `data.expected` of a refused `--type`.
fn expected(d: &mut aw_core::wire::envelope::FailureData) {
    d.expected = Some(
        SessionType::ALL
            .iter()
            .map(|t| t.as_str().to_owned())
            .collect(),
    );
}

/// Runs the command.
pub fn run(args: &SessionCreateArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let Some(raw_type) = given(&args.kind) else {
        return Err(invalid(
            "`--type` is required: research, refine, exec or quick.".to_owned(),
            "Add `--type research|refine|exec|quick`.",
        )
        .with_data(expected));
    };
    let Some(kind) = SessionType::parse(raw_type) else {
        return Err(invalid(
            format!("`--type` must be research, refine, exec or quick, not `{raw_type}`."),
            "Pass one of the four types.",
        )
        .with_data(expected));
    };
    let Some(name) = given(&args.name) else {
        return Err(invalid(
            "`--name` is required.".to_owned(),
            "Add `--name <descriptor>`, e.g. `--name login-spec-refine`.",
        ));
    };
    let Some(objective) = given(&args.objective) else {
        return Err(invalid(
            "`--objective` (or `--objetivo`) is required.".to_owned(),
            "Add `--objective \"<what the session is for>\"`.",
        ));
    };
    let desc = descriptor(name).map_err(|e| {
        invalid(
            sentence(&e.to_string()),
            "Pass a plain folder name such as `login-spec-refine`.",
        )
    })?;
    let origin = given(&args.from);
    let origins = origin.map(document::split_origins).unwrap_or_default();
    let cid = from_env();
    let ws = cx.workspace()?;
    if let Some(why) = skill_bindings::docs_canon_refusal(&ws, cx.home().as_deref()) {
        return Err(Failure::new(
            ErrorCode::DocsCanonInvalid,
            format!("The documents layout cannot be used: {why}."),
            "Fix the [docs] table of skills.toml so it keeps the canonical layout \
             (docs/research, docs/specs, docs/plans, docs/decisions), then create the session \
             again; nothing was created.",
        )
        .with_error_data()
        .with_code_data());
    }
    let (inputs, inputs_from, inputs_note) = inputs(args, &ws, &desc)?;
    let sealed =
        custody::read_inputs(&ws, &inputs).map_err(|e| session_write(e).with_code_data())?;
    let today = cx.now.today();
    let created = sessions::create(
        &ws,
        &CreateRequest {
            kind,
            name,
            descriptor: &desc,
            objective,
            origins: &origins,
            context_id: cid.as_deref(),
            today: &today,
            inputs: &sealed,
        },
    )
    .map_err(session_write)?;

    let model = SessionCreate {
        kind: kind.as_str(),
        name,
        number: created.number.padded(),
        folder: &created.folder,
        path: created.path.to_string_lossy().into_owned(),
        session_path: created.session_path.to_string_lossy().into_owned(),
        custody_path: created.custody_path.to_string_lossy().into_owned(),
        inputs,
        inputs_from,
        inputs_note,
        origin,
        shown_path: ws.shown(&created.session_path),
    };
    Ok(Outcome::shown(&model, &style))
}

/// The inputs to seal: the declared ones (checked, duplicates collapsed), else the document the
/// descriptor points at when exactly one matches (a note when none or several do), else none.
fn inputs(
    args: &SessionCreateArgs,
    ws: &Workspace,
    descriptor: &str,
) -> Result<(Vec<String>, InputsFrom, Option<String>), Failure> {
    if !args.inputs.is_empty() {
        let declared = rules::declared_inputs(&args.inputs).map_err(|why| {
            invalid(
                sentence(&why),
                "Pass each --input as a path relative to the workspace root, such as \
                 `docs/specs/001-spec-login.md`; nothing was created.",
            )
        })?;
        return Ok((declared, InputsFrom::Declared, None));
    }
    let Some(expected) = rules::expected(descriptor) else {
        return Ok((Vec::new(), InputsFrom::None, None));
    };
    let derived = custody::derive(ws, &expected);
    Ok(match derived.input {
        Some(input) => (vec![input], InputsFrom::Derived, None),
        None => (Vec::new(), InputsFrom::None, derived.note),
    })
}
