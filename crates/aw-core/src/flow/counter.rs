//! The run's sidecar attempt counter (v22's, version 2): how many attempts each boundary has
//! spent, and how many `aw flow recover` gave back, kept outside the run state's seal and
//! outside its session folder (`.<ns>/sessions/.flow-attempts/<folder>.json`).
//!
//! It only ever grows. The state carries the counter's attempts as its sealed `attempt_floor`,
//! so restoring an older `.flow-run.json` (or the whole session folder) cannot give a boundary
//! its attempts back, and losing the counter while the state says it held more is refused
//! (`FLOW_RUN_COUNTER_ROLLED_BACK`), never rebuilt from the state — the file a restore rolls
//! back. The counter is written first and the state second: a crash between them leaves the
//! counter one attempt ahead, the safe error.
//!
//! The file is `JSON.stringify({version, session, attempts, granted, digest}, null, 2) + "\n"`,
//! sealed with the semantic digest of `{version, session, attempts, granted}`: the session is in
//! the seal, so one run's counter copied to another's name does not read.

use super::error::FlowError;
use super::state::RunState;
use crate::canonical::{parse_json, semantic_digest};
use crate::error_code::ErrorCode;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The counter format this engine reads and writes.
pub const COUNTER_VERSION: u64 = 2;

/// The folder of the counters, inside the sessions folder.
pub const COUNTER_DIR: &str = ".flow-attempts";

/// Attempts spent and given back, per transition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    /// Attempts spent.
    pub attempts: BTreeMap<String, i64>,
    /// Attempts given back.
    pub granted: BTreeMap<String, i64>,
}

/// The counter file's name for a session folder.
pub fn file_name(folder: &str) -> String {
    [folder, ".json"].concat()
}

fn seal(session: &str, c: &Counters) -> String {
    semantic_digest(&json!({
        "version": COUNTER_VERSION,
        "session": session,
        "attempts": c.attempts,
        "granted": c.granted,
    }))
}

const RESTORE: &str = "restore the run's attempt counter (.flow-attempts/<session>.json under the \
     sessions folder) from where it was copied, or discard the whole run: move .flow-run.json out \
     of the session folder and adopt it again with `aw flow advance --session <session> --flow \
     <flow> --adopt`";

fn invalid(why: impl AsRef<str>) -> FlowError {
    FlowError::new(
        ErrorCode::FlowRunCounterInvalid,
        format!("The run's attempt counter {}.", why.as_ref()),
        format!(
            "Nothing was changed. An attempt count that does not read, or was edited outside aw, \
             is never guessed: {RESTORE}."
        ),
    )
}

/// The refusal of a counter path that holds something other than a regular file.
pub fn not_a_file() -> FlowError {
    invalid("is not a regular file")
}

/// A map of non-negative whole counts (`None` when it is not one); an absent map is empty.
fn count_map(v: Option<&Value>) -> Option<BTreeMap<String, i64>> {
    let Some(v) = v else {
        return Some(BTreeMap::new());
    };
    v.as_object()?
        .iter()
        .map(|(t, n)| {
            let n = n.as_i64().or_else(|| {
                let f = n.as_f64()?;
                (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
            })?;
            (n >= 0).then(|| (t.clone(), n))
        })
        .collect()
}

/// Reads a counter file of the session folder `session`.
pub fn parse(text: &str, session: &str) -> Result<Counters, FlowError> {
    let v = parse_json(text).map_err(|_| invalid("is not valid JSON"))?;
    let o = v
        .as_object()
        .ok_or_else(|| invalid("is not a JSON object"))?;
    if o.get("version").and_then(Value::as_u64) != Some(COUNTER_VERSION) {
        return Err(invalid(format!(
            "declares a version this aw does not read ({})",
            o.get("version").map_or("none".to_owned(), Value::to_string)
        )));
    }
    let (Some(attempts), Some(granted)) =
        (count_map(o.get("attempts")), count_map(o.get("granted")))
    else {
        return Err(invalid("does not hold attempt counts per transition"));
    };
    let c = Counters { attempts, granted };
    if o.get("digest").and_then(Value::as_str) != Some(seal(session, &c).as_str()) {
        return Err(invalid("does not match its own seal"));
    }
    // A recovery gives back exactly what it found spent: a file forgiving more asks for a cap
    // that never fires.
    if let Some((t, n)) = c
        .granted
        .iter()
        .find(|(t, n)| **n > c.attempts.get(*t).copied().unwrap_or(0))
    {
        return Err(invalid(format!(
            "gives back {n} attempts of '{t}' and records only {}",
            c.attempts.get(t).copied().unwrap_or(0)
        )));
    }
    Ok(c)
}

/// The counter file's text.
pub fn serialize(session: &str, c: &Counters) -> String {
    let v = json!({
        "version": COUNTER_VERSION,
        "session": session,
        "attempts": c.attempts,
        "granted": c.granted,
        "digest": seal(session, c),
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Refuses a counter that stands behind what the state sealed: its floor, or its grants.
pub fn check_not_behind(state: &RunState, c: &Counters) -> Result<(), FlowError> {
    let behind = |sealed: &BTreeMap<String, i64>, live: &BTreeMap<String, i64>| {
        sealed
            .iter()
            .find(|(t, n)| **n > live.get(*t).copied().unwrap_or(0))
            .map(|(t, n)| (t.clone(), *n))
    };
    match behind(&state.floor, &c.attempts).or_else(|| behind(&state.granted, &c.granted)) {
        None => Ok(()),
        Some((t, n)) => Err(FlowError::new(
            ErrorCode::FlowRunCounterRolledBack,
            format!(
                "The run's attempt counter is behind its sealed state: '{t}' has {n} attempts on \
                 record and the counter does not."
            ),
            format!(
                "The counter was deleted or an older copy restored; it is never rebuilt from the \
                 state, the file a restore rolls back. Nothing was changed: {RESTORE}."
            ),
        )),
    }
}

/// Reconciles a state just read with its counter: the counter is the authority, the state's
/// maps its cache.
pub fn reconcile(state: &mut RunState, c: &Counters) {
    state.floor = c.attempts.clone();
    state.granted = c.granted.clone();
}

/// The counter raised to what a state about to be written knows: per transition, the most
/// attempts spent and the most given back, by either.
pub fn raised(c: &Counters, state: &RunState) -> Counters {
    let mut next = c.clone();
    for a in &state.attempts {
        let spent = i64::try_from(state.spent_at(&a.transition)).unwrap_or(i64::MAX);
        let e = next.attempts.entry(a.transition.clone()).or_default();
        *e = (*e).max(spent);
    }
    for (t, n) in &state.granted {
        let e = next.granted.entry(t.clone()).or_default();
        *e = (*e).max(*n);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::state::Attempt;
    use crate::vocab::flow::Flow;

    fn spent(state: &mut RunState, t: &str, n: usize) {
        for i in 0..n {
            state.attempts.push(Attempt {
                invocation_id: "s".into(),
                attempt: i as i64 + 1,
                request_digest: format!("d{i}"),
                parent_request_digest: None,
                transition: t.into(),
            });
        }
    }

    #[test]
    fn a_counter_round_trips_and_is_sealed_with_its_session() {
        let mut c = Counters::default();
        c.attempts.insert("quick.entry-gate-signal".into(), 1);
        let text = serialize("001-demo-quick", &c);
        assert!(text.starts_with("{\n  \"version\": 2,\n  \"session\": \"001-demo-quick\",\n"));
        assert!(text.ends_with("}\n"));
        assert_eq!(parse(&text, "001-demo-quick").unwrap(), c);
        // Copied to another session's name, it does not read.
        let other = parse(&text, "002-other-quick").unwrap_err();
        assert_eq!(other.code, ErrorCode::FlowRunCounterInvalid);
    }

    #[test]
    fn every_malformed_counter_is_refused() {
        let good = serialize("s", &Counters::default());
        let edited = good.replace("\"attempts\": {}", "\"attempts\": {\"t\": 1}");
        // Sealed over what they hold, so only the rule under test can refuse them.
        let sealed = |attempts: Value| {
            let mut v = json!({"version": 2, "session": "s", "attempts": attempts, "granted": {}});
            v["digest"] = json!(semantic_digest(&v));
            v.to_string()
        };
        let (negative, fraction, list) = (
            sealed(json!({"t": -1})),
            sealed(json!({"t": 1.5})),
            sealed(json!([])),
        );
        for (bad, why) in [
            ("", "not valid JSON"),
            ("not json", "not valid JSON"),
            ("[]", "not a JSON object"),
            (
                r#"{"version":1,"session":"s","attempts":{},"granted":{},"digest":"x"}"#,
                "version",
            ),
            (negative.as_str(), "attempt counts"),
            (fraction.as_str(), "attempt counts"),
            (list.as_str(), "attempt counts"),
            (edited.as_str(), "seal"),
        ] {
            let e = parse(bad, "s").unwrap_err();
            assert_eq!(e.code, ErrorCode::FlowRunCounterInvalid, "{bad}");
            assert!(e.message.contains(why), "{bad}: {}", e.message);
        }
        // The same shapes with whole counts read.
        assert!(parse(&sealed(json!({"t": 1})), "s").is_ok());
        // Sealed, but forgiving more than was spent.
        let mut c = Counters::default();
        c.granted.insert("t".into(), 2);
        c.attempts.insert("t".into(), 1);
        assert!(parse(&serialize("s", &c), "s").is_err());
        // Absent maps read as empty.
        let c = Counters::default();
        let bare = format!(r#"{{"version":2,"digest":"{}"}}"#, seal("s", &c));
        assert_eq!(parse(&bare, "s").unwrap(), c);
    }

    #[test]
    fn the_floor_survives_a_restored_state_and_a_lost_counter_is_refused() {
        let mut state = RunState::new(Flow::Quick, "s");
        spent(&mut state, "t", 2);
        let counter = raised(&Counters::default(), &state);
        assert_eq!(counter.attempts.get("t"), Some(&2));
        // The state is written with the counter's floor.
        state.floor = counter.attempts.clone();
        // An older copy of the state, from before the attempts: the counter keeps the count.
        let mut restored = RunState::new(Flow::Quick, "s");
        check_not_behind(&restored, &counter).unwrap();
        reconcile(&mut restored, &counter);
        assert_eq!(restored.attempts_at("t"), 2);
        // The counter lost while the state says 2: refused, not rebuilt.
        let lost = check_not_behind(&state, &Counters::default()).unwrap_err();
        assert_eq!(lost.code, ErrorCode::FlowRunCounterRolledBack);
        // A recovery's grant is kept by the counter too.
        state.grant_attempts("t", 2);
        assert_eq!(state.attempts_at("t"), 0);
        let counter = raised(&counter, &state);
        assert_eq!(counter.granted.get("t"), Some(&2));
        let mut before_recover = RunState::new(Flow::Quick, "s");
        reconcile(&mut before_recover, &counter);
        assert_eq!(before_recover.attempts_at("t"), 0);
        assert!(check_not_behind(&state, &Counters::default()).is_err());
    }
}
