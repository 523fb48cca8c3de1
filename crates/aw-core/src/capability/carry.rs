//! The state a capability call carries on stdin (spec §3.2): the previous attempt's request as
//! `parent` or `request`, the durable `plan`, the selection `pin`, and the agent's `answer`.
//! Each key is optional; unknown keys are ignored, as the reference ignores them.

use super::error::{CapabilityError, CapabilityResult};
use super::handler::Verb;
use super::plan::DurablePlan;
use super::request::CapabilityRequest;
use super::resolution::SelectionPin;
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What stdin carried.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Carried {
    /// The attempt `continue` builds on.
    pub parent: Option<CapabilityRequest>,
    /// The attempt `validate` answers and `apply` publishes for.
    pub request: Option<CapabilityRequest>,
    /// The plan `apply` publishes.
    pub plan: Option<DurablePlan>,
    /// The selection fixed when the invocation started.
    pub pin: Option<SelectionPin>,
    /// The agent's answer, as it came.
    pub answer: Option<Value>,
}

fn args(message: impl Into<String>, action: impl Into<String>) -> CapabilityError {
    CapabilityError::new(ErrorCode::ArgsInvalid, message, action)
}

fn key<T: DeserializeOwned>(
    map: &Map<String, Value>,
    name: &str,
    what: &str,
) -> CapabilityResult<Option<T>> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => T::deserialize(v).map(Some).map_err(|e| {
            args(
                format!("stdin's \"{name}\" is not {what}: {e}"),
                format!("send \"{name}\" exactly as aw printed it"),
            )
        }),
    }
}

/// Parses the text `verb` read on stdin. Blank text and anything but one JSON object are
/// refused with `ARGS_INVALID`, naming what the verb expects.
pub fn parse(text: &str, verb: Verb) -> CapabilityResult<Carried> {
    let expects = match verb {
        Verb::Continue => "{\"parent\": <request>}",
        Verb::Validate => "{\"request\": <request>, \"answer\": <answer>}",
        Verb::Apply => "{\"request\": <request>, \"plan\": <plan>}",
        Verb::Prepare => "nothing",
    };
    if js_trim(text).is_empty() {
        return Err(args(
            format!(
                "'{}' reads the previous attempt's state on stdin, and stdin is empty",
                verb.as_str()
            ),
            format!("pipe {expects} to it"),
        ));
    }
    let value: Value = aw_json::parse_bounded(text).map_err(|e| {
        args(
            format!("stdin is not one JSON object: {e}"),
            format!("pipe {expects} to it"),
        )
    })?;
    let Value::Object(map) = value else {
        return Err(args(
            "stdin is not one JSON object",
            format!("pipe {expects} to it"),
        ));
    };
    Ok(Carried {
        parent: key(&map, "parent", "a capability request")?,
        request: key(&map, "request", "a capability request")?,
        plan: key(&map, "plan", "a durable plan")?,
        pin: key(&map, "pin", "a selection pin")?,
        answer: match map.get("answer") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.clone()),
        },
    })
}
