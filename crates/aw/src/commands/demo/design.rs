//! Part of the demo: the `design` capability's handshake in the example workspace. aw prepares
//! the request, the demo answers as an agent would (one DESIGN.md), aw turns the answer into a
//! plan, the demo approves it as a person would, and aw publishes the package; then aw validates
//! the package, renders it as a portable HTML page, and lists the packages.
//!
//! Every step is a real `aw capability` command run in-process with its stdin piped, in JSON (the
//! demo reads each attempt to build the next step's stdin); the human view summarises each one.

use super::step::{self, Step};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Body, Format};
use aw_core::error_code::ErrorCode;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

/// The design an agent would author from the login spec.
const DESIGN_MD: &str = "# Login redirect\n\n## Objective\n\nAfter signing in, people land on \
the page they asked for, on the web and on mobile.\n\n## Proposed design\n\nThe sign-in page \
keeps the requested address in one `return` parameter, decoded once. After a successful sign-in \
the app redirects there; an address outside the app falls back to the home page.\n\n## \
Validation\n\n- Signing in from a deep link lands on that page.\n- A foreign `return` address \
lands on the home page.\n\n## Decisions\n\n- The return address is checked against the app's own \
routes, never against a list of hosts.\n";

/// One capability step: the command, and what the demo read from its JSON.
pub(super) struct DesignStep {
    /// The command as run.
    pub step: Step,
    /// Its JSON output.
    pub attempt: Value,
}

impl DesignStep {
    /// The step as text: the command, then a few lines on its outcome.
    pub fn human(&self) -> String {
        let mut out = format!("   $ {}\n", self.step.shown);
        for line in summary(&self.attempt) {
            // Writing into a `String` cannot fail.
            let _ = writeln!(out, "     {line}");
        }
        out
    }
}

/// A file the agent authored, as the answer lists it.
#[derive(Debug, Serialize)]
struct Artifact<'a> {
    /// Where it goes.
    path: &'a str,
    /// Its text.
    content: &'a str,
}

/// `capability validate`'s stdin: the request aw prepared and the agent's answer.
#[derive(Debug, Serialize)]
struct Answered<'a> {
    /// The request, as `prepare` printed it.
    request: &'a Value,
    /// The answer.
    answer: &'a Value,
}

/// `capability apply`'s stdin: the request and the plan a person approved.
#[derive(Debug, Serialize)]
struct Approved<'a> {
    /// The request, as aw printed it.
    request: &'a Value,
    /// The plan, as aw printed it.
    plan: &'a Value,
}

/// A value as JSON (`null` if it cannot be serialised, which these cannot fail to).
fn to_value(v: impl Serialize) -> Value {
    serde_json::to_value(v).unwrap_or_default()
}

fn json_of(step: &Step) -> Value {
    match &step.body {
        Body::JsonText(t) | Body::Text(t) => serde_json::from_str(t).unwrap_or(Value::Null),
        Body::JsonModel(_) => Value::Null,
    }
}

fn capability(
    project: &Path,
    args: &[&str],
    stdin: Option<Value>,
    cx: &Ctx<'_>,
) -> Result<DesignStep, Failure> {
    let step = match stdin {
        Some(v) => {
            let keys: Vec<String> = v
                .as_object()
                .map(|m| m.keys().map(|k| format!("\"{k}\"")).collect())
                .unwrap_or_default();
            let mut step = step::run_piped(project, args, v.to_string(), Format::Json, cx)?;
            step.shown = format!("{}   # stdin: {{{}}}", step.shown, keys.join(", "));
            step
        }
        None => step::run(project, args, Format::Json, cx)?,
    };
    let attempt = json_of(&step);
    Ok(DesignStep { step, attempt })
}

fn broke(what: &str, attempt: &Value) -> Failure {
    Failure::new(
        ErrorCode::Internal,
        format!("The demo's design step '{what}' did not go as scripted: {attempt}"),
        "This is a bug in aw's demo; please report it.",
    )
}

/// Runs the design handshake in the example workspace `project`; the last step lists the
/// packages in `format`.
pub(super) fn run(
    project: &Path,
    format: Format,
    cx: &Ctx<'_>,
) -> Result<(Vec<DesignStep>, Step), Failure> {
    let mut steps = Vec::new();
    let prepared = capability(
        project,
        &[
            "capability",
            "prepare",
            "--capability",
            "design",
            "--operation",
            "create",
            "--input",
            "title=Login redirect",
            "--input",
            "sources=docs/specs/001-spec-login-redirect.md",
            "--input",
            "target=docs/designs",
        ],
        None,
        cx,
    )?;
    let semantic = &prepared.attempt["semantic"];
    let Some(path) = semantic["allowed_destinations"][0].as_str() else {
        return Err(broke("prepare", &prepared.attempt));
    };
    // The agent's answer: the skeleton aw printed, filled in.
    let mut answer = semantic["answer_skeleton"].clone();
    answer["artifacts"] = to_value([Artifact {
        path,
        content: DESIGN_MD,
    }]);
    let stdin = to_value(Answered {
        request: &prepared.attempt["request"],
        answer: &answer,
    });
    steps.push(prepared);
    let validated = capability(
        project,
        &["capability", "validate", "--capability", "design"],
        Some(stdin),
        cx,
    )?;
    let Some(digest) = validated.attempt["plan"]["approval_digest"]
        .as_str()
        .map(str::to_owned)
    else {
        return Err(broke("validate", &validated.attempt));
    };
    let stdin = to_value(Approved {
        request: &validated.attempt["request"],
        plan: &validated.attempt["plan"],
    });
    steps.push(validated);
    // A person read the plan's preview and approved it: the digest is the approval.
    let applied = capability(
        project,
        &[
            "capability",
            "apply",
            "--capability",
            "design",
            "--approval",
            &digest,
        ],
        Some(stdin),
        cx,
    )?;
    steps.push(applied);
    steps.push(capability(
        project,
        &[
            "capability",
            "prepare",
            "--capability",
            "design",
            "--operation",
            "validate",
            "--input",
            "package=DES-001",
        ],
        None,
        cx,
    )?);
    // A person reviews the design in a browser: aw renders it as one self-contained page.
    let render = capability(
        project,
        &[
            "capability",
            "prepare",
            "--capability",
            "design",
            "--operation",
            "render",
            "--input",
            "package=DES-001",
            "--input",
            "profile=portable-html",
        ],
        None,
        cx,
    )?;
    let Some(digest) = render.attempt["plan"]["approval_digest"]
        .as_str()
        .map(str::to_owned)
    else {
        return Err(broke("render", &render.attempt));
    };
    let stdin = to_value(Approved {
        request: &render.attempt["request"],
        plan: &render.attempt["plan"],
    });
    steps.push(render);
    steps.push(capability(
        project,
        &[
            "capability",
            "apply",
            "--capability",
            "design",
            "--approval",
            &digest,
        ],
        Some(stdin),
        cx,
    )?);
    let list = step::run(project, &["designs"], format, cx)?;
    Ok((steps, list))
}

/// The lines the human view shows of one attempt (or failure envelope).
fn summary(v: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    if v["ok"].as_bool() == Some(false) {
        lines.push(format!(
            "failed: {} — {}",
            v["error"]["code"].as_str().unwrap_or_default(),
            v["error"]["message"].as_str().unwrap_or_default()
        ));
        return lines;
    }
    let r = &v["receipt"];
    lines.push(format!(
        "{}.{} — {}",
        r["capability"].as_str().unwrap_or_default(),
        r["operation"].as_str().unwrap_or_default(),
        r["outcome"].as_str().unwrap_or_default()
    ));
    if let Some(s) = v["semantic"].as_object() {
        lines.push(format!(
            "asks the agent to author {} (answer quoting input_digest {})",
            s.get("allowed_destinations")
                .and_then(|d| d.get(0))
                .and_then(Value::as_str)
                .unwrap_or_default(),
            s.get("input_digest")
                .and_then(Value::as_str)
                .unwrap_or_default()
        ));
    }
    if let Some(preview) = v["plan"]["preview"].as_array() {
        lines.push(format!(
            "plan to approve (approval_digest {}):",
            v["plan"]["approval_digest"].as_str().unwrap_or_default()
        ));
        for p in preview {
            lines.push(format!(
                "  + {} ({} bytes)",
                p["path"].as_str().unwrap_or_default(),
                p["bytes"]
            ));
        }
    }
    if let Some(written) = v["output"]["value"]["written"].as_array() {
        for w in written {
            lines.push(format!("wrote {}", w.as_str().unwrap_or_default()));
        }
    }
    for check in r["validations"].as_array().into_iter().flatten() {
        lines.push(format!(
            "check {}: {}",
            check["id"].as_str().unwrap_or_default(),
            if check["passed"].as_bool() == Some(true) {
                "ok"
            } else {
                "failed"
            }
        ));
    }
    if let Some(m) = v["output"]["value"]["design"]["maturity"]["attained"].as_str() {
        lines.push(format!("maturity: {m}"));
    }
    if let Some(e) = r["error"].as_object() {
        lines.push(format!(
            "error {}: {}",
            e.get("code").and_then(Value::as_str).unwrap_or_default(),
            e.get("message").and_then(Value::as_str).unwrap_or_default()
        ));
    }
    lines
}
