//! The flow projection `aw status` / `aw resume` show per session (§12), and the store's write
//! discipline.

use aw_core::flow::run::advance;
use aw_core::flow::submit::{Submission, submit};
use aw_core::flow::{Flow, Journey, RunState};
use aw_workspace::flow::store::{self, project_run, state_path};
use aw_workspace::io::lock::WorkspaceLock;
use aw_workspace::locate::{NamespaceSource, Workspace};
use std::time::Duration;

const F: &str = "007-tramo-quick-quick";

fn ws(root: &std::path::Path) -> Workspace {
    let w = Workspace {
        root: root.to_path_buf(),
        ns: "workflow".into(),
        ns_source: NamespaceSource::Default,
        initialized: true,
    };
    std::fs::create_dir_all(w.sessions_dir().join(F)).unwrap();
    w
}

#[test]
fn projections_follow_the_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path());
    let session = w.sessions_dir().join(F);
    assert_eq!(project_run(&w, F), None, "no state, no projection");
    let j = Journey::builtin(Flow::Quick).unwrap();
    let turn = advance(RunState::new(Flow::Quick, F), &j).unwrap();
    std::fs::write(state_path(&session), turn.state.serialize()).unwrap();
    let p = project_run(&w, F).unwrap();
    assert_eq!(p.flow, "quick");
    assert_eq!(p.boundary, "semantic");
    assert_eq!(p.transition.as_deref(), Some("quick.entry-gate-signal"));
    assert_eq!(p.command, format!("aw flow advance --session {F}"));
    assert_eq!(p.invocation, None);
    let raw =
        serde_json::json!({"input_digest": turn.directive.state_digest, "signals": []}).to_string();
    let raw = raw.replace("\"signals\":[]", "\"decisions\":{\"a\":1}");
    let next = submit(
        turn.state,
        &j,
        Submission {
            raw: &raw,
            approval: None,
            facts: &Default::default(),
        },
    )
    .unwrap();
    std::fs::write(state_path(&session), next.state.serialize()).unwrap();
    let p = project_run(&w, F).unwrap();
    assert_eq!(p.boundary, "execution");
    assert_eq!(p.transition.as_deref(), Some("quick.session-create"));
    let cmd = format!("aw session-artifacts --code {F}");
    assert_eq!(p.invocation.as_deref(), Some(cmd.as_str()));
    // An internal step: aw runs it on the next advance.
    assert_eq!(p.command, format!("aw flow advance --session {F}"));
    assert!(p.summary.contains("aw runs it itself"));
    let v = serde_json::to_value(&p).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "flow",
            "boundary",
            "transition",
            "title",
            "invocation",
            "command",
            "summary"
        ]
    );
}

#[test]
fn an_unreadable_state_projects_as_blocked_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path());
    let path = state_path(&w.sessions_dir().join(F));
    let old = "{\"version\":2,\"flow\":\"quick\"}";
    std::fs::write(&path, old).unwrap();
    let p = project_run(&w, F).unwrap();
    assert_eq!(p.flow, "?");
    assert_eq!(p.boundary, "blocked");
    assert!(p.summary.contains("FLOW_RUN_VERSION_UNSUPPORTED"));
    // Adopting again needs the flow: the one the text names, when aw knows it.
    assert_eq!(
        p.command,
        format!("aw flow advance --session {F} --flow quick --adopt")
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    std::fs::write(&path, "{").unwrap();
    let p = project_run(&w, F).unwrap();
    assert_eq!(
        p.command,
        format!("aw flow advance --session {F} --flow <flow> --adopt")
    );
    // A v22 state: the command is exactly the one its refusal names.
    std::fs::write(&path, "{\"version\":9,\"flow\":\"quick\"}").unwrap();
    let p = project_run(&w, F).unwrap();
    assert!(p.summary.contains(&format!("`{}`", p.command)), "{p:?}");
}

#[test]
fn the_store_writes_once_and_only_on_change() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path());
    let session = w.sessions_dir().join(F);
    let lock = WorkspaceLock::of(&w, Duration::from_millis(100)).unwrap();
    let j = Journey::builtin(Flow::Quick).unwrap();
    store::mutate(&session, F, &lock, false, |s| {
        assert!(s.is_none());
        advance(RunState::new(Flow::Quick, F), &j)
    })
    .unwrap();
    let first = std::fs::read_to_string(state_path(&session)).unwrap();
    use std::os::unix::fs::MetadataExt;
    let ino = std::fs::metadata(state_path(&session)).unwrap().ino();
    store::mutate(&session, F, &lock, false, |s| advance(s.unwrap(), &j)).unwrap();
    assert_eq!(std::fs::metadata(state_path(&session)).unwrap().ino(), ino);
    // A failing step writes nothing.
    let err = store::mutate(&session, F, &lock, false, |_| {
        Err(aw_core::flow::FlowError::new(
            aw_core::error_code::ErrorCode::FlowResultInvalid,
            "m",
            "a",
        ))
    })
    .unwrap_err();
    assert_eq!(err.code(), "FLOW_RESULT_INVALID");
    assert_eq!(
        std::fs::read_to_string(state_path(&session)).unwrap(),
        first
    );
    // Reading never touches SESSION.md and friends.
    assert!(!session.join("SESSION.md").exists());
}

/// An internal step is settled only on the state the invocation wrote: when the run moved in
/// between (another invocation answered it), nothing of the step is applied (`FLOW_RUN_STALE`).
#[test]
fn an_internal_step_applies_nothing_when_the_run_moved() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path());
    let session = w.sessions_dir().join(F);
    std::fs::write(
        session.join("SESSION.md"),
        "# Session — x\n\n## Success criteria\n- [ ] it works\n",
    )
    .unwrap();
    let j = Journey::builtin(Flow::Quick).unwrap();
    let turn = advance(RunState::new(Flow::Quick, F), &j).unwrap();
    let raw =
        serde_json::json!({"input_digest": turn.directive.state_digest, "decisions": {"a": 1}})
            .to_string();
    let next = submit(
        turn.state,
        &j,
        Submission {
            raw: &raw,
            approval: None,
            facts: &Default::default(),
        },
    )
    .unwrap();
    assert_eq!(
        next.directive.boundary.transition.as_deref(),
        Some("quick.session-create")
    );
    // On disk, the run as another invocation left it; in hand, the state this one wrote.
    let mut moved = next.state.clone();
    moved
        .extra
        .insert("another_writer".into(), serde_json::json!(true));
    std::fs::write(state_path(&session), moved.serialize()).unwrap();
    let before = std::fs::read_to_string(state_path(&session)).unwrap();
    let now = aw_workspace::io::clock::Now::read();
    let err = aw_workspace::flow::internal::drive(&w, F, next, &now, None).unwrap_err();
    assert_eq!(err.code(), aw_core::error_code::ErrorCode::FlowRunStale);
    assert_eq!(
        std::fs::read_to_string(state_path(&session)).unwrap(),
        before
    );
}
