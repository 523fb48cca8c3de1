//! Attempt identity, the attempt ledger replay, and resend detection (§10.5).
//!
//! Every submit that reaches answer validation is recorded as an attempt keyed by the seal the
//! payload claims (`invocation_id`) and numbered within it. The reference numbered a new attempt
//! as "entries so far + 1" and appended a duplicate entry when a refused payload was resent
//! verbatim, so a later different payload skipped a number and the ledger refused it
//! (`CAPABILITY_ATTEMPT_OUT_OF_SEQUENCE`), stranding the boundary. Here a new attempt is always
//! the highest number so far + 1, linked to it, and no entry is ever duplicated: a verbatim
//! resend of a refused payload is simply the next attempt.

use super::error::{FlowError, FlowResult};
use super::state::{Attempt, RunState};
use crate::canonical::{parse_json, semantic_digest};
use crate::error_code::ErrorCode;
use serde_json::json;
use std::collections::HashMap;

/// The digest of one exact payload (the stdin text, byte for byte) and approval.
pub fn request_digest(raw: &str, approval: Option<&str>) -> String {
    semantic_digest(&json!({ "payload": raw, "approval": approval }))
}

/// The seal a payload claims to answer: its `input_digest`, when it is a JSON object with a
/// string there.
pub fn claimed_seal(raw: &str) -> Option<String> {
    let v = parse_json(raw).ok()?;
    v.as_object()?
        .get("input_digest")?
        .as_str()
        .map(str::to_owned)
}

const LEDGER_ACTION: &str = "The attempt history of this run is inconsistent. Nothing was changed; move \
     .flow-run.json out of the session folder and adopt the session again with `aw flow advance \
     --session <session> --flow <flow> --adopt`.";

/// Replays the recorded attempts through the ledger rules: per invocation id, a number already
/// seen must repeat its digest (a retry), a new number must be the next one and link to the
/// previous attempt's digest.
pub fn replay(attempts: &[Attempt]) -> FlowResult<()> {
    let mut ledgers: HashMap<&str, Vec<&str>> = HashMap::new();
    for a in attempts {
        let seen = ledgers.entry(a.invocation_id.as_str()).or_default();
        let highest = seen.len() as i64;
        if a.attempt >= 1 && a.attempt <= highest {
            let earlier = seen[(a.attempt - 1) as usize];
            if earlier != a.request_digest {
                return Err(FlowError::new(
                    ErrorCode::CapabilityAttemptDiverged,
                    format!(
                        "Attempt {} of invocation {} was recorded twice with different payloads.",
                        a.attempt, a.invocation_id
                    ),
                    LEDGER_ACTION,
                ));
            }
            continue;
        }
        if a.attempt != highest + 1 {
            return Err(FlowError::new(
                ErrorCode::CapabilityAttemptOutOfSequence,
                format!(
                    "Attempt {} of invocation {} arrived after attempt {highest}.",
                    a.attempt, a.invocation_id
                ),
                LEDGER_ACTION,
            ));
        }
        let parent = seen.last().copied();
        if parent.is_some() && a.parent_request_digest.as_deref() != parent {
            return Err(FlowError::new(
                ErrorCode::CapabilityParentNotImmediate,
                format!(
                    "Attempt {} of invocation {} does not link to attempt {highest}.",
                    a.attempt, a.invocation_id
                ),
                LEDGER_ACTION,
            ));
        }
        seen.push(&a.request_digest);
    }
    Ok(())
}

/// Who a submit is, as an attempt.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The attempt to record if the submit spends one.
    pub attempt: Attempt,
    /// An earlier attempt with the same invocation id and payload, if any.
    pub twin: Option<Attempt>,
}

/// The identity of a submit at transition `transition` whose seal in force is `seal`.
pub fn identity(
    state: &RunState,
    raw: &str,
    approval: Option<&str>,
    seal: &str,
    transition: &str,
) -> Identity {
    let request_digest = request_digest(raw, approval);
    let invocation_id = claimed_seal(raw).unwrap_or_else(|| seal.to_owned());
    let same_invocation = || {
        state
            .attempts
            .iter()
            .filter(|a| a.invocation_id == invocation_id)
    };
    let twin = same_invocation()
        .find(|a| a.request_digest == request_digest)
        .cloned();
    let last = same_invocation().max_by_key(|a| a.attempt);
    let attempt = Attempt {
        attempt: last.map_or(1, |a| a.attempt.saturating_add(1)),
        parent_request_digest: last.map(|a| a.request_digest.clone()),
        invocation_id,
        request_digest,
        transition: transition.to_owned(),
    };
    Identity { attempt, twin }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(inv: &str, n: i64, d: &str, parent: Option<&str>) -> Attempt {
        Attempt {
            invocation_id: inv.into(),
            attempt: n,
            request_digest: d.into(),
            parent_request_digest: parent.map(str::to_owned),
            transition: "t".into(),
        }
    }

    #[test]
    fn ledger_rules() {
        assert!(
            replay(&[
                a("i", 1, "x", None),
                a("i", 1, "x", None),
                a("i", 2, "y", Some("x"))
            ])
            .is_ok()
        );
        let code = |v: &[Attempt]| replay(v).unwrap_err().code;
        assert_eq!(
            code(&[a("i", 1, "x", None), a("i", 1, "z", None)]),
            "CAPABILITY_ATTEMPT_DIVERGED"
        );
        assert_eq!(
            code(&[a("i", 1, "x", None), a("i", 3, "z", None)]),
            "CAPABILITY_ATTEMPT_OUT_OF_SEQUENCE"
        );
        assert_eq!(
            code(&[a("i", 1, "x", None), a("i", 2, "z", Some("q"))]),
            "CAPABILITY_PARENT_NOT_IMMEDIATE"
        );
        assert!(replay(&[a("i", 1, "x", None), a("j", 1, "x", None)]).is_ok());
    }

    #[test]
    fn resending_a_refused_payload_takes_the_next_number() {
        let mut s = RunState::new(crate::flow::Flow::Quick, "001-x");
        let first = identity(&s, "{}", None, "seal", "t").attempt;
        assert_eq!(
            (first.attempt, first.parent_request_digest.as_deref()),
            (1, None)
        );
        s.attempts.push(first.clone());
        let again = identity(&s, "{}", None, "seal", "t");
        assert_eq!(again.twin.as_ref(), Some(&first));
        assert_eq!(again.attempt.attempt, 2);
        s.attempts.push(again.attempt.clone());
        let other = identity(&s, "{\"x\":1}", None, "seal", "t").attempt;
        assert_eq!(other.attempt, 3);
        s.attempts.push(other);
        assert!(replay(&s.attempts).is_ok());
    }
}
