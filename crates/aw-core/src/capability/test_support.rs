//! Builders the capability unit tests share: the direct caller and an invocation from
//! `name=value` pairs, as `--input` flags give them.

use super::descriptor::Route;
use super::request::{Caller, Invocation, Policy, RequestContext, RequestInput};

/// An invocation id in the shape aw issues.
pub const ID: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

/// A person calling the capability directly, from no known host.
pub fn direct() -> Caller {
    Caller {
        route: Route::Direct,
        host: "unknown".to_owned(),
        flow: None,
    }
}

/// `operation` called by `caller` with `inputs` given as flags, default context and policy.
pub fn invocation(operation: &str, caller: Caller, inputs: &[(&str, &str)]) -> Invocation {
    Invocation {
        operation: operation.to_owned(),
        caller,
        context: RequestContext::default(),
        inputs: inputs
            .iter()
            .map(|(n, v)| RequestInput::from_flag(n, v))
            .collect(),
        policy: Policy::default(),
    }
}
