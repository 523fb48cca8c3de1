//! `aw flow` through the binary: arguments, exit codes and envelopes, fail-closed reads and
//! tamper refusals, write discipline, closed sessions, conversations, and parallel submits.

use crate::support::{Ws, answer_template, json_of};
use serde_json::{Value, json};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A workspace with one quick session, driven through `aw flow`.
struct FlowWs {
    ws: Ws,
    folder: String,
}

impl FlowWs {
    fn new(name: &str) -> FlowWs {
        let ws = Ws::initialised();
        let folder = ws.create_session("quick", name, "x")["folder"]
            .as_str()
            .unwrap()
            .to_owned();
        FlowWs { ws, folder }
    }

    fn root(&self) -> &Path {
        self.ws.root()
    }

    /// Runs `aw args…` with `stdin` and extra variables: (exit code, stdout).
    fn text(&self, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String) {
        self.ws.stdout(args, Some(stdin), env)
    }

    fn state_path(&self) -> PathBuf {
        self.root()
            .join(".workflow/sessions")
            .join(&self.folder)
            .join(".flow-run.json")
    }

    fn state(&self) -> Value {
        json_of(std::fs::read_to_string(self.state_path()).unwrap())
    }

    /// Runs `aw args…` with `stdin`: (exit code, JSON stdout).
    fn run(&self, args: &[&str], stdin: &str) -> (i32, Value) {
        self.ws.run_with(args, Some(stdin), &[])
    }

    fn adopt(&self) -> Value {
        let (rc, d) = self.run(
            &[
                "flow",
                "advance",
                "--session",
                &self.folder,
                "--flow",
                "quick",
                "--adopt",
            ],
            "",
        );
        assert_eq!(rc, 0, "{d}");
        d
    }

    fn submit(&self, payload: &Value) -> (i32, Value) {
        self.run(
            &["flow", "submit", "--session", &self.folder],
            &payload.to_string(),
        )
    }
}

/// The state minus attempts and seal: what a refusal never changes.
fn decided(mut v: Value) -> Value {
    let m = v.as_object_mut().unwrap();
    // The attempt bookkeeping (the ledger and the counter's floor) and the seal.
    m.remove("attempts");
    m.remove("attempt_floor");
    m.remove("digest");
    v
}

fn failure(rc: i32, v: &Value, code: &str) {
    assert_eq!(rc, 1, "{v}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(v["data"]["action"].as_str().is_some_and(|m| !m.is_empty()));
}

#[test]
fn arguments_are_checked_first() {
    let ws = FlowWs::new("args-quick");
    let (rc, v) = ws.run(&["flow", "advance", "--flow", "spec-new", "--adopt"], "");
    failure(rc, &v, "ARGS_INVALID");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("spec-refine, plan-new, plan-refine, plan-exec, quick")
    );
    let (rc, v) = ws.run(&["flow", "submit", "--flow", "nope"], "");
    failure(rc, &v, "ARGS_INVALID");
    let (rc, v) = ws.run(&["flow", "advance", "--session", "1", "--code", "2"], "");
    failure(rc, &v, "ARGS_INVALID");
    // A bare `aw flow` is refused, as in the reference, naming the verbs; an unknown verb fails.
    let (rc, v) = ws.run(&["flow"], "");
    failure(rc, &v, "ARGS_INVALID");
    assert_eq!(
        v["error"]["details"]["available_commands"],
        json!(["advance", "proof", "recover", "submit"])
    );
    let (rc, v) = ws.run(&["flow", "frobnicate"], "");
    failure(rc, &v, "UNKNOWN_COMMAND");
    let (rc, v) = ws.run(&["flow", "advance", "--adopt"], "");
    failure(rc, &v, "FLOW_ADOPTION_FLOW_MISSING");
    let (rc, v) = ws.run(&["flow", "advance"], "");
    failure(rc, &v, "FLOW_RUN_ABSENT");
    assert!(v["data"]["action"].as_str().unwrap().contains("--adopt"));
    let (rc, v) = ws.run(&["flow", "advance", "--session", "999"], "");
    failure(rc, &v, "SESSION_NOT_FOUND");
    assert!(v["data"]["candidates"].is_array());
    // The session flag may come before the verb, and `--code` is its alias.
    let (rc, d) = ws.run(
        &[
            "flow",
            "--session",
            "1",
            "advance",
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    assert_eq!(rc, 0, "{d}");
    let (rc, d2) = ws.run(&["flow", "advance", "--code", &ws.folder], "");
    assert_eq!(rc, 0);
    assert_eq!(d2["state_digest"], d["state_digest"]);
    let help = ws.text(&["flow", "--help"], "", &[]);
    assert_eq!(help.0, 0);
    assert!(help.1.contains("aw flow advance"));
}

/// Issue 20 (point 5): the reference's installed wrappers call `aw flow --host <id> …`. The
/// host is checked against the catalog, in any position, and changes nothing else.
#[test]
fn the_host_the_wrappers_pass_is_checked_and_changes_nothing() {
    let ws = FlowWs::new("host-quick");
    let adopt = [
        "advance",
        "--session",
        ws.folder.as_str(),
        "--flow",
        "quick",
        "--adopt",
    ];
    let with_host: Vec<&str> = ["flow", "--host", "claude-code"]
        .into_iter()
        .chain(adopt)
        .collect();
    let (rc, hosted) = ws.run(&with_host, "");
    assert_eq!(rc, 0, "{hosted}");
    let (rc, plain) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0, "{plain}");
    assert_eq!(hosted["state_digest"], plain["state_digest"]);
    assert_eq!(hosted["next_action"], plain["next_action"]);
    let (rc, after) = ws.run(
        &[
            "flow",
            "advance",
            "--session",
            &ws.folder,
            "--host",
            "codex",
        ],
        "",
    );
    assert_eq!(
        (rc, &after),
        (0, &plain),
        "the host changes nothing in the directive"
    );
    let template = answer_template(plain["next_action"].as_str().unwrap());
    let (rc, _) = ws.run(
        &[
            "flow",
            "--host",
            "gemini",
            "submit",
            "--session",
            &ws.folder,
        ],
        &template.to_string(),
    );
    assert_eq!(rc, 0);
    let (rc, v) = ws.run(&["flow", "--host", "vim", "advance"], "");
    failure(rc, &v, "ARGS_INVALID");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("claude-code") && message.contains("kimi"),
        "{message}"
    );
}

#[test]
fn business_rejections_exit_zero_and_invocation_failures_exit_one() {
    let ws = FlowWs::new("exits-quick");
    let (rc, v) = ws.submit(&json!({}));
    failure(rc, &v, "FLOW_RUN_ABSENT");
    let d = ws.adopt();
    let (rc, r) = ws.run(&["flow", "submit", "--session", &ws.folder], "");
    assert_eq!(rc, 0);
    assert_eq!(r["error"]["code"], "FLOW_ANSWER_MISSING");
    assert_eq!(r["boundary"]["transition"], "quick.entry-gate-signal");
    assert!(r["next_action"].as_str().unwrap().contains(" — "));
    // A BOM is dropped from stdin before parsing.
    let answer = format!(
        "\u{feff}{}",
        json!({"input_digest": d["state_digest"], "signals": ["quick.needs-architecture"]})
    );
    let (rc, r) = ws.run(&["flow", "submit", "--session", &ws.folder], &answer);
    assert_eq!(rc, 0);
    assert_eq!(r["error"], Value::Null, "{r}");
    // The session step ran in aw itself: the run stands on the criteria.
    assert_eq!(
        r["boundary"]["transition"],
        "quick.success-criteria-authoring"
    );
    assert_eq!(
        r["applied"].as_array().unwrap().last().unwrap()["transition"],
        "quick.session-create"
    );
    let (rc, v) = ws.run(&["flow", "recover", "--session", &ws.folder], "");
    failure(rc, &v, "FLOW_RECOVERY_NOT_NEEDED");
    let answer = json!({"input_digest": r["state_digest"], "decisions": {"answer": "a test"}});
    let (rc, r) = ws.run(
        &["flow", "submit", "--session", &ws.folder],
        &answer.to_string(),
    );
    assert_eq!(rc, 0);
    // Nothing was seeded yet: the internal seed is refused and says what to write.
    assert_eq!(r["error"]["code"], "FLOW_EVIDENCE_MISSING", "{r}");
    assert_eq!(r["boundary"]["transition"], "quick.artifact-seed-order");
    let (rc, text) = ws.text(
        &[
            "flow",
            "advance",
            "--session",
            &ws.folder,
            "--format",
            "human",
        ],
        "",
        &[],
    );
    assert_eq!(rc, 0);
    assert!(
        text.starts_with("quick (quick) — execution boundary:"),
        "{text}"
    );
    assert!(text.contains("run: aw session-artifacts --code"));
    assert!(text.contains("\nnext: "));
}

#[test]
fn a_silent_or_oversized_stdin_is_refused_without_holding_the_lock() {
    use std::io::Write;
    use std::process::Stdio;
    let ws = FlowWs::new("stdin-quick");
    let d = ws.adopt();
    let before = std::fs::read(ws.state_path()).unwrap();
    let submit = ["flow", "submit", "--session", ws.folder.as_str()];

    // Stdin left open and silent: given up on after the idle limit, nothing written.
    let mut child = ws
        .ws
        .process(&submit)
        .env("AW_ANSWER_IDLE_MS", "300")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut held_open = child.stdin.take().unwrap();
    held_open.write_all(b"{\"input_digest\"").unwrap();
    let out = child.wait_with_output().unwrap();
    drop(held_open);
    let v = json_of(&out.stdout);
    failure(out.status.code().unwrap(), &v, "FLOW_ANSWER_TIMEOUT");
    assert!(v["error"]["message"].as_str().unwrap().contains("300 ms"));
    assert_eq!(std::fs::read(ws.state_path()).unwrap(), before);

    // While a submit waits for its answer, the workspace stays free for other writers.
    let mut child = ws
        .ws
        .process(&submit)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let (rc, other) = ws.ws.run_with(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "meanwhile",
            "--objective",
            "x",
        ],
        None,
        &[("AW_LOCK_WAIT_MS", "200")],
    );
    assert_eq!(rc, 0, "{other}");
    let answer =
        json!({"input_digest": d["state_digest"], "signals": ["quick.needs-architecture"]});
    pipe.write_all(answer.to_string().as_bytes()).unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_of(&out.stdout)["error"], Value::Null);

    // An answer past the cap is refused before it is parsed; the run is untouched.
    let d = ws.run(&["flow", "advance", "--session", &ws.folder], "").1;
    let before = std::fs::read(ws.state_path()).unwrap();
    let big = json!({"input_digest": d["state_digest"], "decisions": {"pad": "x".repeat(300)}});
    let (rc, v) = ws.ws.run_with(
        &submit,
        Some(&big.to_string()),
        &[("AW_ANSWER_MAX_BYTES", "256")],
    );
    failure(rc, &v, "FLOW_ANSWER_TOO_LARGE");
    assert_eq!(std::fs::read(ws.state_path()).unwrap(), before);
}

#[test]
fn tampered_or_foreign_states_are_refused_and_left_alone() {
    let ws = FlowWs::new("tamper-quick");
    ws.adopt();
    let path = ws.state_path();
    let good = std::fs::read_to_string(&path).unwrap();
    // A hand edit.
    let edited = good.replace("\"skipped\":[]", "\"skipped\":[\"chassis.docs-boundary\"]");
    std::fs::write(&path, &edited).unwrap();
    for args in [&["flow", "advance"][..], &["flow", "submit"]] {
        let mut a = args.to_vec();
        a.extend(["--session", ws.folder.as_str()]);
        let (rc, v) = ws.run(&a, "{}");
        failure(rc, &v, "FLOW_RUN_TAMPERED");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            edited,
            "nothing written"
        );
    }
    // An out-of-journey cursor, properly re-sealed.
    let mut v = json_of(&good);
    v["applied"] = json!(["chassis.docs-boundary", "quick.review-findings"]);
    v["boundary"] = Value::Null;
    let text = reseal(v);
    std::fs::write(&path, &text).unwrap();
    let (rc, out) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &out, "FLOW_RUN_AHEAD_OF_JOURNEY");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // A version the engine does not read.
    let mut v = json_of(&good);
    v["version"] = json!(2);
    let text = reseal(v);
    std::fs::write(&path, &text).unwrap();
    let (rc, out) = ws.run(
        &[
            "flow",
            "advance",
            "--session",
            &ws.folder,
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    failure(rc, &out, "FLOW_RUN_VERSION_UNSUPPORTED");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "--adopt never overrides"
    );
    // A state copied from another session.
    let mut v = json_of(&good);
    v["session"] = json!("099-elsewhere-quick");
    std::fs::write(&path, reseal(v)).unwrap();
    let (rc, out) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &out, "FLOW_RUN_SESSION_MISMATCH");
    // Garbage.
    std::fs::write(&path, "{").unwrap();
    let (rc, out) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &out, "FLOW_RUN_INVALID");
}

/// A run the reference v22.4.2 started (state version 9 and its attempt counter, recorded from
/// the reference in `tests/fixtures/v22-run/`: one unknown signal, then the entry gate answered;
/// its session step ran in-process) is read and continued by aw, which writes it back as 9.
#[test]
fn a_run_the_reference_v22_wrote_is_continued_and_written_back_as_version_9() {
    let ws = FlowWs::new("v22-quick");
    assert_eq!(ws.folder, "001-v22-quick");
    let fixture = crate::support::fixture_path("v22-run");
    std::fs::copy(fixture.join("flow-run.json"), ws.state_path()).unwrap();
    let counter = ws
        .root()
        .join(".workflow/sessions/.flow-attempts/001-v22-quick.json");
    std::fs::create_dir_all(counter.parent().unwrap()).unwrap();
    std::fs::copy(fixture.join("flow-attempts.json"), &counter).unwrap();
    let (rc, d) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0, "{d}");
    assert_eq!(
        d["boundary"]["transition"],
        "quick.success-criteria-authoring"
    );
    // The reference's own directive carries this seal at this point: the same boundary, the
    // same answer accepted by either tool.
    assert_eq!(
        d["state_digest"],
        "f943b281136e2f01dc529d5b33cc6d82fcb7362bb0eaeb54fb1b979abce4f543"
    );
    // Its trace and counter are kept.
    let state = ws.state();
    assert_eq!(state["version"], 9);
    assert_eq!(state["events"][0]["operation"], "session.artifacts");
    assert_eq!(state["attempt_floor"]["quick.entry-gate-signal"], 2);
    let answer = json!({"input_digest": d["state_digest"], "decisions": {"answer": "a test"}});
    let (rc, r) = ws.submit(&answer);
    assert_eq!(rc, 0, "{r}");
    assert_eq!(ws.state()["version"], 9);
    assert!(
        ws.state()["applied"]
            .as_array()
            .unwrap()
            .contains(&json!("quick.success-criteria-authoring"))
    );
    // A counter lost behind the sealed floor is refused, never rebuilt.
    std::fs::remove_file(&counter).unwrap();
    let (rc, v) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &v, "FLOW_RUN_COUNTER_ROLLED_BACK");
}

/// A run aw wrote before v22 (state version 4) is upgraded and continued where the v22 journey
/// has the same steps; one that went past where the journey changed is refused with the exact
/// command that starts it over, which replaces it — never set aside into a file nobody reads.
#[test]
fn a_version_4_run_is_continued_or_refused_with_the_command_that_starts_it_over() {
    let v4 = |folder: &str, flow: &str, applied: &[&str]| {
        reseal(json!({
            "version": 4, "flow": flow, "session": folder, "applied": applied,
            "skipped": [], "boundary": null, "pending_action": null, "observations": [],
            "authorizations": ["execute"],
            "effects": {"planned": ["read_only", "execute"], "approved": ["execute"], "applied": ["read_only"]},
            "attempts": [],
        }))
    };
    let ws = FlowWs::new("old-quick");
    let prefix = ["chassis.docs-boundary", "chassis.research-exhaustion"];
    std::fs::write(ws.state_path(), v4(&ws.folder, "quick", &prefix)).unwrap();
    let (rc, d) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0, "{d}");
    assert_eq!(d["boundary"]["transition"], "quick.entry-gate-signal");
    assert_eq!(ws.state()["version"], 9);
    assert_eq!(ws.state()["authorizations"], json!([]));

    let ws = FlowWs::new("old-spec-refine");
    let past = [
        "chassis.docs-boundary",
        "chassis.research-exhaustion",
        "spec-refine.session",
        "spec-refine.baseline-scope",
    ];
    let text = v4(&ws.folder, "spec-refine", &past);
    std::fs::write(ws.state_path(), &text).unwrap();
    let dir = ws.state_path().parent().unwrap().to_owned();
    for args in [
        &["flow", "advance", "--session", ws.folder.as_str()][..],
        &["flow", "submit", "--session", ws.folder.as_str()],
        &["flow", "recover", "--session", ws.folder.as_str()],
    ] {
        let (rc, out) = ws.run(args, "{}");
        failure(rc, &out, "FLOW_RUN_VERSION_UNSUPPORTED");
        let action = out["data"]["action"].as_str().unwrap();
        assert!(
            action.contains(&format!(
                "`aw flow advance --session {} --flow spec-refine --adopt`",
                ws.folder
            )),
            "{args:?}: {out}"
        );
        assert_eq!(std::fs::read_to_string(ws.state_path()).unwrap(), text);
    }
    let (rc, d) = ws.run(
        &[
            "flow",
            "advance",
            "--session",
            &ws.folder,
            "--flow",
            "spec-refine",
            "--adopt",
        ],
        "",
    );
    assert_eq!(rc, 0, "{d}");
    assert_eq!(ws.state()["version"], 9);
    assert!(
        ws.state()["applied"]
            .as_array()
            .unwrap()
            .contains(&json!("spec-refine.session"))
    );
    // Nothing is left beside it.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".flow-run"))
        .collect();
    assert_eq!(names, [".flow-run.json"]);
}

/// Runs `aw args…` at the root of `ws` with the whole workspace read-only, by the first means
/// this machine offers: as an ordinary user, folders and files without write permission; as
/// root (whom permissions do not stop), a read-only bind mount in a private mount namespace,
/// else the permission route as the `nobody` user. Fails loudly when none is available.
fn run_read_only(ws: &FlowWs, args: &[&str]) -> (i32, Value) {
    use std::process::Command;
    let root = ws.root().to_str().unwrap().to_owned();
    let uid = Command::new("id").arg("-u").output().unwrap();
    let is_root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    let bin = crate::support::bin();
    let with_env = |mut c: Command| {
        crate::support::clean_env(&mut c, ws.ws.home());
        c.current_dir(ws.root()).stdin(std::process::Stdio::null());
        c.output().unwrap()
    };
    let chmod = |mode: &str| {
        let ok = Command::new("chmod")
            .args(["-R", mode, &root])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    let mounted = is_root
        && Command::new("unshare")
            .args(["-m", "true"])
            .status()
            .is_ok_and(|s| s.success());
    let out = if mounted {
        let mut c = Command::new("unshare");
        c.args(["-m", "sh", "-c"])
            .arg(r#"mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@""#)
            .arg(&root)
            .arg(&bin)
            .args(args);
        with_env(c)
    } else {
        chmod("a-w");
        let out = if is_root {
            // The temporary folders above the workspace must let `nobody` through.
            let mut dir = ws.root().to_path_buf();
            while let Some(parent) = dir.parent() {
                let _ = Command::new("chmod")
                    .args(["o+x", parent.to_str().unwrap()])
                    .status();
                dir = parent.to_path_buf();
            }
            chmod("a+rX");
            chmod("a-w");
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&bin)
                .args(args);
            with_env(c)
        } else {
            let mut c = Command::new(&bin);
            c.args(args);
            with_env(c)
        };
        chmod("u+w");
        out
    };
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no way to run aw on a read-only workspace here, or its output is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

#[test]
fn a_pure_reread_works_on_a_read_only_checkout() {
    let ws = FlowWs::new("ro-quick");
    let d = ws.adopt();
    let again = ["flow", "advance", "--session", ws.folder.as_str()];
    let before = ws.ws.tree();
    // As a fresh clone has it: no lock file (it is ignored by git), and with it.
    std::fs::remove_file(ws.root().join(".workflow/.lock")).unwrap();
    let (rc, v) = run_read_only(&ws, &again);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        (&v["state_digest"], &v["boundary"], &v["next_action"]),
        (&d["state_digest"], &d["boundary"], &d["next_action"]),
        "the same boundary, read without writing"
    );
    std::fs::write(ws.root().join(".workflow/.lock"), "").unwrap();
    let (rc, v) = run_read_only(&ws, &again);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["state_digest"], d["state_digest"]);
    let (rc, v) = run_read_only(&ws, &["status", "--json"]);
    assert_eq!(rc, 0, "{v}");
    // A command that must write says why it cannot, and nothing changes.
    let (rc, v) = run_read_only(
        &ws,
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "nope",
            "--objective",
            "x",
        ],
    );
    failure(rc, &v, "IO_ERROR");
    let mut after = ws.ws.tree();
    after.remove(".workflow/.lock");
    let mut before = before;
    before.remove(".workflow/.lock");
    assert_eq!(after, before);
}

fn reseal(mut v: Value) -> String {
    v.as_object_mut().unwrap().remove("digest");
    let d = aw_core::canonical::semantic_digest(&v);
    v["digest"] = json!(d);
    aw_core::canonical::canonical_json(&v) + "\n"
}

#[test]
fn stale_and_replayed_answers_change_nothing_decided() {
    let ws = FlowWs::new("stale-quick");
    let d = ws.adopt();
    let before = decided(ws.state());
    let (rc, r) = ws.submit(&json!({"input_digest": "f".repeat(64), "signals": []}));
    assert_eq!(rc, 0);
    assert_eq!(r["error"]["code"], "FLOW_ANSWER_STALE");
    assert_eq!(decided(ws.state()), before);
    assert_eq!(
        ws.state()["attempts"],
        json!([]),
        "a stale answer spends nothing"
    );
    // An applied answer sent again is a resend: nothing moves, nothing is spent.
    let answer =
        json!({"input_digest": d["state_digest"], "signals": ["quick.needs-architecture"]});
    let (rc, r) = ws.submit(&answer);
    assert_eq!(rc, 0);
    assert_eq!(r["error"], Value::Null, "{r}");
    let before = decided(ws.state());
    let attempts = ws.state()["attempts"].clone();
    let (rc, r) = ws.submit(&answer);
    assert_eq!(rc, 0);
    assert_eq!(r["error"]["code"], "FLOW_ANSWER_RESENT");
    assert_eq!(decided(ws.state()), before);
    assert_eq!(ws.state()["attempts"], attempts);
}

#[test]
fn nothing_is_written_when_nothing_changes() {
    let ws = FlowWs::new("quiet-quick");
    let d = ws.adopt();
    let ino = std::fs::metadata(ws.state_path()).unwrap().ino();
    let (rc, again) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0);
    assert_eq!(again["applied"], json!([]));
    assert_eq!(again["state_digest"], d["state_digest"]);
    assert_eq!(
        std::fs::metadata(ws.state_path()).unwrap().ino(),
        ino,
        "advance rewrote an unchanged state"
    );
    // Walk to a human boundary (the board reading runs in aw itself) and pause there: no
    // attempt, no write.
    let (_, d) = ws.submit(&json!({"input_digest": d["state_digest"], "signals": ["quick.needs-architecture", "quick.two-or-more-sources"]}));
    assert_eq!(d["boundary"]["kind"], "human", "{d}");
    let ino = std::fs::metadata(ws.state_path()).unwrap().ino();
    let (rc, r) = ws.submit(&json!({"input_digest": d["state_digest"], "choice": "Compact"}));
    assert_eq!(rc, 0);
    assert_eq!(r["error"]["code"], "FLOW_BOUNDARY_PAUSED");
    assert_eq!(std::fs::metadata(ws.state_path()).unwrap().ino(), ino);
}

#[test]
fn a_closed_session_is_driven_only_to_its_close() {
    let ws = FlowWs::new("closed-quick");
    ws.adopt();
    let (rc, _) = ws.text(&["session-close", "--code", &ws.folder], "", &[]);
    assert_eq!(rc, 0);
    let (rc, v) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &v, "SESSION_CLOSED");
    // A closed session without a run cannot be adopted either.
    let other = FlowWs::new("closed2-quick");
    other.text(&["session-close", "--code", &other.folder], "", &[]);
    let (rc, v) = other.run(
        &[
            "flow",
            "advance",
            "--session",
            &other.folder,
            "--flow",
            "quick",
            "--adopt",
        ],
        "",
    );
    failure(rc, &v, "SESSION_CLOSED");
}

#[test]
fn the_conversation_is_bound_but_never_stored_in_the_run() {
    let ws = FlowWs::new("conv-quick");
    let (rc, out) = ws.text(
        &["flow", "advance", "--flow", "quick", "--adopt"],
        "",
        &[("AW_CONTEXT_ID", "conversation-4242")],
    );
    assert_eq!(rc, 0, "{out}");
    let state = std::fs::read_to_string(ws.state_path()).unwrap();
    assert!(!state.contains("conversation-4242"));
    // Another conversation, with no binding and no --session, resolves the sole active session
    // and sees the same boundary and seal.
    let (_, again) = ws.text(
        &["flow", "advance"],
        "",
        &[("AW_CONTEXT_ID", "other-conversation")],
    );
    assert_eq!(
        json_of(&again)["state_digest"],
        json_of(&out)["state_digest"]
    );
}

#[test]
fn two_workspaces_with_the_same_session_get_identical_directives() {
    let a = FlowWs::new("same-quick");
    let b = FlowWs::new("same-quick");
    assert_eq!(a.folder, b.folder);
    let (da, db) = (a.adopt(), b.adopt());
    assert_eq!(da, db);
    let answer =
        json!({"input_digest": da["state_digest"], "signals": ["quick.needs-architecture"]});
    assert_eq!(a.submit(&answer).1, b.submit(&answer).1);
}

#[test]
fn parallel_submits_never_corrupt_the_run() {
    let ws = FlowWs::new("race-quick");
    let d = ws.adopt();
    let same = json!({"input_digest": d["state_digest"], "signals": ["quick.needs-architecture"]})
        .to_string();
    let outcomes = race(&ws, (0..8).map(|_| same.clone()).collect());
    let winners = outcomes
        .iter()
        .filter(|(rc, v)| *rc == 0 && v["error"].is_null())
        .count();
    assert_eq!(winners, 1, "{outcomes:?}");
    for (_, v) in &outcomes {
        if v["error"].is_null() {
            continue;
        }
        let code = v["error"]["code"].as_str();
        assert!(
            matches!(code, Some("FLOW_ANSWER_RESENT" | "FLOW_RUN_LOCKED")),
            "{v}"
        );
    }
    let state = ws.state();
    let applied = state["applied"].as_array().unwrap();
    assert_eq!(
        applied
            .iter()
            .filter(|t| *t == "quick.entry-gate-signal")
            .count(),
        1
    );
    // Different answers to the same boundary: one wins, the others are stale.
    let (_, d) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(d["boundary"]["kind"], "semantic");
    let payloads: Vec<String> = (0..6)
        .map(|i| {
            json!({"input_digest": d["state_digest"], "decisions": {"answer": format!("run {i}")}})
                .to_string()
        })
        .collect();
    let outcomes = race(&ws, payloads);
    // The winner's answer applied; the seed aw then ran itself has nothing to seed yet, so its
    // directive carries that refusal. The others are stale.
    let lost = |v: &Value| {
        matches!(
            v["error"]["code"].as_str(),
            Some("FLOW_ANSWER_STALE" | "FLOW_RUN_LOCKED")
        )
    };
    let winners = outcomes
        .iter()
        .filter(|(rc, v)| *rc == 0 && !lost(v))
        .count();
    assert_eq!(winners, 1, "{outcomes:?}");
    for (_, v) in outcomes.iter().filter(|(_, v)| lost(v)) {
        assert!(
            matches!(
                v["error"]["code"].as_str(),
                Some("FLOW_ANSWER_STALE" | "FLOW_RUN_LOCKED")
            ),
            "{v}"
        );
    }
    let (rc, after) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0, "the state still reads: {after}");
    // The advance ran the seed again: still nothing to seed.
    assert_eq!(after["error"]["code"], "FLOW_EVIDENCE_MISSING", "{after}");
}

/// Submits every payload at once, one process each; returns their (exit code, JSON).
fn race(ws: &FlowWs, payloads: Vec<String>) -> Vec<(i32, Value)> {
    let barrier = std::sync::Barrier::new(payloads.len());
    let submit = ["flow", "submit", "--session", ws.folder.as_str()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = payloads
            .iter()
            .map(|p| {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    ws.ws
                        .run_with(&submit, Some(p), &[("AW_LOCK_WAIT_MS", "20000")])
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn a_busy_workspace_is_flow_run_locked() {
    let ws = FlowWs::new("locked-quick");
    ws.adopt();
    let held = aw_workspace::io::lock::WorkspaceLock::acquire(
        ws.root(),
        &ws.root().join(".workflow/.lock"),
        std::time::Duration::from_millis(100),
    )
    .unwrap();
    let before = std::fs::read_to_string(ws.state_path()).unwrap();
    let (rc, out) = ws.text(
        &["flow", "advance", "--session", &ws.folder],
        "",
        &[("AW_LOCK_WAIT_MS", "50")],
    );
    let v = json_of(&out);
    failure(rc, &v, "FLOW_RUN_LOCKED");
    assert!(v["error"]["details"]["pid"].is_string());
    drop(held);
    assert_eq!(std::fs::read_to_string(ws.state_path()).unwrap(), before);
}

#[test]
fn a_restored_state_keeps_the_attempts_its_counter_recorded() {
    let ws = FlowWs::new("counter-quick");
    let d = ws.adopt();
    assert_eq!(d["boundary"]["transition"], "quick.entry-gate-signal");
    let fresh = std::fs::read(ws.state_path()).unwrap();
    let counter = ws
        .root()
        .join(".workflow/sessions/.flow-attempts")
        .join(format!("{}.json", ws.folder));
    assert!(!counter.exists(), "no attempt spent, no counter");
    // Three refused answers spend the boundary's three attempts.
    for n in 1..=3 {
        let d = ws.run(&["flow", "advance", "--session", &ws.folder], "").1;
        let (rc, r) = ws
            .submit(&json!({"input_digest": d["state_digest"], "signals": ["quick.not-a-signal"]}));
        assert_eq!(rc, 0, "{r}");
        let code = if n < 3 {
            "FLOW_SIGNAL_UNKNOWN"
        } else {
            "FLOW_BOUNDARY_EXHAUSTED"
        };
        assert_eq!(r["error"]["code"], code, "{r}");
    }
    let on_disk: Value = json_of(std::fs::read(&counter).unwrap());
    assert_eq!(on_disk["attempts"], json!({"quick.entry-gate-signal": 3}));
    assert_eq!(
        ws.state()["attempt_floor"],
        json!({"quick.entry-gate-signal": 3})
    );
    // Restoring the state from before the attempts gives none of them back: the next advance
    // passes the exhausted step over (degraded) instead of asking it again.
    std::fs::write(ws.state_path(), &fresh).unwrap();
    let d = ws.run(&["flow", "advance", "--session", &ws.folder], "").1;
    assert_eq!(
        d["applied"][0]["transition"], "quick.entry-gate-signal",
        "{d}"
    );
    assert_eq!(d["applied"][0]["outcome"], "skipped", "{d}");
    assert_eq!(
        d["degradations"][0]["cause"], "FLOW_BOUNDARY_EXHAUSTED",
        "{d}"
    );
    assert_eq!(
        ws.state()["attempt_floor"],
        json!({"quick.entry-gate-signal": 3})
    );
    // The counter folder is not a session.
    assert_eq!(
        ws.ws.ok(&["sessions", "--json"])["sessions"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    // Deleting the counter while the state records the floor is refused, not rebuilt.
    let kept = std::fs::read(&counter).unwrap();
    std::fs::remove_file(&counter).unwrap();
    let before = std::fs::read(ws.state_path()).unwrap();
    let (rc, v) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &v, "FLOW_RUN_COUNTER_ROLLED_BACK");
    assert_eq!(std::fs::read(ws.state_path()).unwrap(), before);
    assert!(!counter.exists());
    // An edited counter does not read.
    let edited = String::from_utf8(kept.clone()).unwrap().replace(
        "\"quick.entry-gate-signal\": 3",
        "\"quick.entry-gate-signal\": 0",
    );
    std::fs::write(&counter, edited).unwrap();
    let (rc, v) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    failure(rc, &v, "FLOW_RUN_COUNTER_INVALID");
    // The board shows what the next verb will meet, not a healthy run.
    let status = ws.ws.ok(&["status", "--json"]);
    let flow = &status["sessions"]["active"][0]["flow"];
    assert_eq!(flow["boundary"], "blocked", "{flow}");
    assert!(
        flow.to_string().contains("FLOW_RUN_COUNTER_INVALID"),
        "{flow}"
    );
    // Put back, the run goes on.
    std::fs::write(&counter, &kept).unwrap();
    let (rc, r) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!((rc, &r["error"]), (0, &Value::Null), "{r}");
    // Adopting afresh (the run moved out) starts the counter over.
    std::fs::remove_file(ws.state_path()).unwrap();
    ws.adopt();
    assert!(!counter.exists());
}

/// A `[docs]` table that moves a core documents folder stops every verb before the run is read
/// (`DOCS_CANON_INVALID`, exit 1), and nothing is written.
#[test]
fn a_moved_plan_folder_stops_every_verb_before_anything_is_read() {
    let ws = FlowWs::new("canon-quick");
    let d = ws.adopt();
    let skills = ws.root().join(".workflow/skills.toml");
    let kept = std::fs::read_to_string(&skills).unwrap_or_default();
    std::fs::write(
        &skills,
        format!("{kept}\n[docs]\nplan = \"knowledge/plans\"\n"),
    )
    .unwrap();
    let before = std::fs::read_to_string(ws.state_path()).unwrap();
    let answer = json!({"input_digest": d["state_digest"], "signals": []}).to_string();
    for args in [
        &["flow", "advance", "--session", ws.folder.as_str()][..],
        &["flow", "submit", "--session", ws.folder.as_str()],
        &["flow", "recover", "--session", ws.folder.as_str()],
    ] {
        let (rc, v) = ws.run(args, &answer);
        failure(rc, &v, "DOCS_CANON_INVALID");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("[docs].plan"),
            "{v}"
        );
    }
    assert_eq!(std::fs::read_to_string(ws.state_path()).unwrap(), before);
    // Keeping the canonical folder is fine.
    std::fs::write(&skills, format!("{kept}\n[docs]\nplan = \"docs/plans\"\n")).unwrap();
    let (rc, _) = ws.run(&["flow", "advance", "--session", &ws.folder], "");
    assert_eq!(rc, 0);
}
