//! `checkpoint-write`, `checkpoint-read`, `auto-compact-on-close` and `resume-summary`, run as
//! the hooks run them: in a temporary workspace, stdout piped, the hook JSON on stdin.

use crate::support::{Ws, git, json_of, wait_until};
use serde_json::{Value, json};
use std::process::Stdio;

fn hook(session_id: &str) -> String {
    json!({ "session_id": session_id, "hook_event_name": "PreCompact" }).to_string()
}

/// Replaces the volatile lines of a written checkpoint (time and seal).
fn stable_text(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("- Updated: ") {
                "- Updated: <TS>".to_owned()
            } else if l.starts_with("<!-- written by agent-workflow.checkpoint at ") {
                "<!-- written by agent-workflow.checkpoint at <TS> · template sha256=<HEX> -->"
                    .to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Fills every placeholder line, as an agent would.
fn fill_all(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.contains("_[AI:") {
                "Filled in by the agent.".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn seed_session(ws: &Ws, folder: &str) {
    let s = ws.session(folder, false);
    std::fs::write(
        s.join("SESSION.md"),
        "# SESSION — login-quick\n\n## Objective\nLog in\n\n## Origin\n- quick-loop, docs/specs/001-spec-login.md\n",
    )
    .unwrap();
    std::fs::write(
        s.join("TASKS.md"),
        "# Tasks\n- [x] T1 — form\n- [ ] T2 — validation (deps: T1)\n- [ ] T3 — tests\n",
    )
    .unwrap();
    std::fs::write(
        s.join("DECISION.md"),
        "# Decisions\n\n## DEC-001: Sessions in cookies\n\nSigned, http-only.\n",
    )
    .unwrap();
}

#[test]
fn write_then_read_round_trip() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let w = ws.ok(&["checkpoint-write"]);
    insta::assert_json_snapshot!("write_sole_active", ws.scrub(&w));
    let text = std::fs::read_to_string(ws.checkpoint("001-login-quick")).unwrap();
    assert_eq!(
        w["lines_written"].as_u64().unwrap() as usize,
        text.trim_end_matches('\n').lines().count()
    );
    insta::assert_snapshot!("written_checkpoint", stable_text(&text));

    let r = ws.ok(&["checkpoint-read", "--code", "1"]);
    assert_eq!(r["session"], "001-login-quick");
    let cp = &r["checkpoint"];
    let keys: Vec<&str> = cp.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "path",
            "actualizado",
            "avance",
            "ultimo",
            "proximo",
            "decisiones",
            "archivos",
            "contexto",
            "refs",
            "raw"
        ]
    );
    // Defect 6: the snapshot's own `Updated:` / `Progress:` are read back.
    assert!(
        cp["actualizado"].as_str().is_some_and(|s| s.len() == 16),
        "{cp}"
    );
    assert_eq!(cp["avance"], "33% (1 of 3 tasks done)");
    assert_eq!(
        cp["decisiones"],
        "- DEC-001: Sessions in cookies: Signed, http-only."
    );
    assert_eq!(cp["raw"], text.as_str());
    assert!(
        cp["refs"]
            .as_str()
            .unwrap()
            .starts_with("- Origin: quick-loop, docs/specs/001-spec-login.md")
    );
}

#[test]
fn checkpoint_read_without_checkpoint_and_closed_sessions() {
    let ws = Ws::new();
    ws.session("001-done-quick", true);
    let r = ws.ok(&["checkpoint-read", "--code", "001-done-quick"]);
    assert_eq!(r["checkpoint"], Value::Null);
    assert!(
        r["reason"]
            .as_str()
            .is_some_and(|s| s.contains("CHECKPOINT.md"))
    );
    let (code, v) = ws.run_with(&["checkpoint-read", "--code", "9"], None, &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("SESSION_NOT_FOUND"))
    );
    assert_eq!(v["data"]["candidates"][0]["folder"], "001-done-quick");
}

#[test]
fn filled_checkpoint_is_preserved_and_force_regenerates() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    ws.ok(&["checkpoint-write"]);
    let path = ws.checkpoint("001-login-quick");
    // A loop fills in ONE section; the rest is still template (defect 7).
    let template = std::fs::read_to_string(&path).unwrap();
    let partly = template.replacen(
        "## Last action\n\n_[AI:",
        "## Last action\n\nWrote the form.\n\n_[AI:",
        1,
    );
    assert_ne!(partly, template);
    std::fs::write(&path, &partly).unwrap();

    let kept = ws.ok(&["checkpoint-write"]);
    assert_eq!(kept["skipped"], true);
    assert_eq!(kept["preserved"], true);
    assert!(kept["reason"].as_str().unwrap().contains("--force"));
    insta::assert_json_snapshot!("write_preserved", ws.scrub(&kept));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), partly);

    // The SessionEnd hook keeps it too.
    let closing = ws.ok(&["auto-compact-on-close"]);
    assert_eq!(closing["checkpoints_written"][0]["preserved"], true);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), partly);

    let forced = ws.ok(&["checkpoint-write", "--force"]);
    assert!(forced.get("skipped").is_none(), "{forced}");
    assert!(
        !std::fs::read_to_string(&path)
            .unwrap()
            .contains("Wrote the form.")
    );

    // Our untouched template is regenerated without --force.
    let again = ws.ok(&["checkpoint-write"]);
    assert!(again.get("skipped").is_none(), "{again}");
}

#[test]
fn stub_is_regenerated_but_unsealed_files_are_kept() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let path = ws.checkpoint("001-login-quick");
    std::fs::write(&path, "# CHECKPOINT\n").unwrap();
    let w = ws.ok(&["checkpoint-write"]);
    assert!(w.get("skipped").is_none(), "{w}");
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("# Checkpoint — 001-login-quick")
    );

    // A v21 template (no seal) may hold work: keep it.
    let v21 = "# Checkpoint — 001-login-quick\n\n- Updated: 2026-01-01 10:00\n\n## Last action\n\n_[AI: …]_\n\n<!-- written by agent-workflow.checkpoint at 2026-01-01 10:00 -->\n";
    std::fs::write(&path, v21).unwrap();
    assert_eq!(ws.ok(&["checkpoint-write"])["preserved"], true);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), v21);
}

const SPANISH: &str = "# Checkpoint — session001-dev-foo\n\n\
- **Actualizado:** 2026-01-03 10:00\n\
- **Avance:** 40% (2 de 5 tareas)\n\n\
## Lo último que hice\n\nParser de tareas listo.\n\n\
## Próximo paso\n\nParser de tabla.\n\n\
## Decisiones recientes\n\n- DEC-002: ESM puro\n\n\
## Archivos tocados (post-último-commit)\n\n- src/parser.ts (+40 -2)\n\n\
## Contexto crítico para retomar\n\nNada pendiente.\n\n\
## Refs\n\n- Origen: loop\n";

#[test]
fn reference_spanish_checkpoint_is_read() {
    let ws = Ws::new();
    let s = ws.session("session001-dev-foo", false);
    std::fs::write(s.join("CHECKPOINT.md"), SPANISH.replace('\n', "\r\n")).unwrap();
    let r = ws.ok(&["checkpoint-read", "--code", "001"]);
    let mut cp = r["checkpoint"].clone();
    cp["raw"] = json!("<raw>");
    insta::assert_json_snapshot!(
        "read_spanish",
        ws.scrub(&json!({"session": r["session"], "checkpoint": cp}))
    );
    assert_eq!(cp["actualizado"], "2026-01-03 10:00");
    assert_eq!(cp["avance"], "40% (2 de 5 tareas)");

    // Δ22: the loop-owned headings are read as ultimo / proximo.
    std::fs::write(
        s.join("CHECKPOINT.md"),
        "# CHECKPOINT\n\n## Completed\n- F1 validated\n\n## Pending / Next\n- F2: wire the table\n",
    )
    .unwrap();
    let r = ws.ok(&["checkpoint-read"]);
    assert_eq!(r["checkpoint"]["ultimo"], "- F1 validated");
    assert_eq!(r["checkpoint"]["proximo"], "- F2: wire the table");
    assert_eq!(r["checkpoint"]["actualizado"], Value::Null);
}

#[test]
fn ambiguous_target_holds_a_pausable_host_and_degrades_otherwise() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    seed_session(&ws, "002-other-quick");
    let (code, v) = ws.run_with(
        &["checkpoint-write", "--can-pause"],
        Some(&hook("conv-A")),
        &[],
    );
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], "SESSION_AMBIGUOUS");
    assert_eq!(v["data"]["candidates"].as_array().unwrap().len(), 2);
    assert!(v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()));
    // Without a conversation id nothing could ever bind: the compaction is not held.
    let (code, v) = ws.run_with(&["checkpoint-write", "--can-pause"], None, &[]);
    assert_eq!(
        (code, v["continuity"].as_str()),
        (0, Some("degraded")),
        "{v}"
    );

    let (code, v) = ws.run_with(&["checkpoint-write"], None, &[]);
    assert_eq!(code, 0);
    insta::assert_json_snapshot!("write_degraded", v);
    for f in ["001-login-quick", "002-other-quick"] {
        assert!(
            !ws.checkpoint(f).exists(),
            "nothing is written when degraded"
        );
    }
    assert!(!ws.sessions().join(".bindings.json").exists());

    let v = ws.ok(&["auto-compact-on-close"]);
    assert_eq!(v["checkpoints_written"], json!([]));
    assert_eq!(v["continuity"], "degraded");
    assert_eq!(v["primary_session"], Value::Null);
}

/// Runs a hook command with the PreCompact payload of `conversation`: (exit code, stdout JSON,
/// stderr).
fn pre_compact(ws: &Ws, args: &[&str], conversation: &str) -> (i32, Value, String) {
    let out = ws.output_in(ws.root(), args, Some(&hook(conversation)), &[]);
    (
        out.status.code().unwrap_or(-1),
        json_of(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn claude_code_session_ids_bind_at_create_and_settle_precompact() {
    let ws = Ws::new();
    // Issue 20's sequence: two sessions created from two Claude Code conversations.
    for (conv, name) in [("conv-A", "one-quick"), ("conv-B", "two-quick")] {
        let (code, v) = ws.run_env(
            &[
                "session-create",
                "--type",
                "quick",
                "--name",
                name,
                "--objective",
                "x",
            ],
            &[("CLAUDE_CODE_SESSION_ID", conv)],
        );
        assert_eq!(code, 0, "{v}");
    }
    let reg: Value = serde_json::from_str(&ws.read(".workflow/sessions/.bindings.json")).unwrap();
    // Stored as the reference stores it: the SHA-256 of the id (conv-A's as observed on v22).
    assert_eq!(
        reg["bindings"]["9daa9c309f88a6a8233e4cfe6b80c7ae87c7005674dd969d8f0020eb2c47d152"],
        "001-one-quick"
    );
    for (conv, folder) in [("conv-A", "001-one-quick"), ("conv-B", "002-two-quick")] {
        let (code, v, err) = pre_compact(&ws, &["checkpoint-write", "--can-pause"], conv);
        assert_eq!(
            (code, v["session"].as_str()),
            (0, Some(folder)),
            "{v} {err}"
        );
    }
    assert!(ws.checkpoint("001-one-quick").exists());
    // AW_CONTEXT_ID wins over the host's variable.
    let (code, v) = ws.run_env(
        &["checkpoint-read"],
        &[
            ("AW_CONTEXT_ID", "conv-B"),
            ("CLAUDE_CODE_SESSION_ID", "conv-A"),
        ],
    );
    assert_eq!(
        (code, v["session"].as_str()),
        (0, Some("002-two-quick")),
        "{v}"
    );
    // A hook whose environment names another conversation than its payload: the conflict names
    // the variable it came from.
    let out = ws.output_in(
        ws.root(),
        &["checkpoint-write", "--can-pause"],
        Some(&hook("conv-A")),
        &[("CLAUDE_CODE_SESSION_ID", "conv-B")],
    );
    let v = json_of(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{v}");
    assert_eq!(v["error"]["code"], "CONTEXT_ID_CONFLICT");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("CLAUDE_CODE_SESSION_ID"),
        "{v}"
    );
}

#[test]
fn a_held_compaction_says_why_and_its_command_lifts_it() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    seed_session(&ws, "002-other-quick");
    let (code, v, err) = pre_compact(&ws, &["checkpoint-write", "--can-pause"], "conv-C");
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "SESSION_AMBIGUOUS");
    // One line on stderr: why, and the one command that lifts the hold.
    assert_eq!(err.matches('\n').count(), 1, "{err:?}");
    assert!(err.contains("not bound"), "{err}");
    let command = err
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {err:?}"));
    // aw is not on the test's PATH: the command names the program that runs, by its path, so
    // it works where the hook's own command (an absolute path) works.
    let bin = crate::support::bin();
    // The program names itself by its resolved path (the suite may reach it through a link).
    let resolved = bin.canonicalize().unwrap();
    assert!(
        command.starts_with(&format!(
            "AW_CONTEXT_ID=conv-C {} checkpoint-write --code <folder>",
            resolved.display()
        )),
        "{command}"
    );
    assert!(err.contains("001-login-quick | 002-other-quick"), "{err}");
    assert!(v["data"]["action"].as_str().unwrap().contains(command));
    // With this aw on PATH, the command says `aw`.
    let with_aw = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = ws.output_in(
        ws.root(),
        &["checkpoint-write", "--can-pause"],
        Some(&hook("conv-C")),
        &[("PATH", with_aw.as_str())],
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("`AW_CONTEXT_ID=conv-C aw checkpoint-write --code <folder>`"),
        "{said}"
    );
    // Running that command, as an agent's shell would (no hook payload, aw not on PATH), binds
    // the conversation, and the next PreCompact goes through.
    let mut sh = std::process::Command::new("sh");
    crate::support::clean_env(&mut sh, ws.home());
    let ran = sh
        .current_dir(ws.root())
        .arg("-c")
        .arg(command.replace("<folder>", "002-other-quick"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(ran.status.success(), "{ran:?}");
    std::fs::remove_file(ws.checkpoint("002-other-quick")).unwrap();
    let (code, v, err) = pre_compact(&ws, &["checkpoint-write", "--can-pause"], "conv-C");
    assert_eq!(
        (code, v["session"].as_str()),
        (0, Some("002-other-quick")),
        "{v} {err}"
    );
    assert!(ws.checkpoint("002-other-quick").exists());
}

#[test]
fn every_lifecycle_hook_blocks_only_with_words() {
    // Every unresolved situation a lifecycle hook can meet, for every hook command: a hook
    // either goes on (0), fails for a reason it prints (1), or holds (2) with the reason and the
    // remedy on stderr, and only the pausable PreCompact holds, only when a binding settles it.
    type Setup = fn(&Ws);
    let situations: [(&str, Setup, bool); 6] = [
        ("no session", |_| {}, false),
        (
            "only closed",
            |ws| drop(ws.session("001-a-quick", true)),
            false,
        ),
        (
            "two active, unbound",
            |ws| {
                ws.session("001-a-quick", false);
                ws.session("002-b-quick", false);
            },
            true,
        ),
        (
            "two active, bound to a closed one",
            |ws| {
                ws.session("001-a-quick", false);
                ws.session("002-b-quick", false);
                ws.session("003-c-quick", false);
                let (code, _) = ws.run_env(
                    &["session-resume", "--code", "3", "--reopen"],
                    &[("AW_CONTEXT_ID", "conv-H")],
                );
                assert_eq!(code, 0);
                std::fs::write(ws.sessions().join("003-c-quick/.closed"), "").unwrap();
            },
            false,
        ),
        (
            "a number two folders share",
            |ws| {
                ws.session("047-x", false);
                ws.session("session047-y", false);
                let (code, _) = ws.run_env(
                    &["session-resume", "--code", "047-x", "--reopen"],
                    &[("AW_CONTEXT_ID", "conv-H")],
                );
                assert_eq!(code, 1, "a write cannot bind a shared number");
            },
            false,
        ),
        (
            "an unreadable registry",
            |ws| {
                ws.session("001-a-quick", false);
                ws.session("002-b-quick", false);
                std::fs::write(ws.sessions().join(".bindings.json"), "{nope").unwrap();
            },
            false,
        ),
    ];
    let commands: [&[&str]; 4] = [
        &["checkpoint-write", "--can-pause"],
        &["checkpoint-write"],
        &["auto-compact-on-close"],
        &["resume-summary"],
    ];
    for (what, setup, holds) in situations {
        let ws = Ws::new();
        setup(&ws);
        for args in commands {
            for payload in [Some("conv-H"), None] {
                let out = match payload {
                    Some(c) => ws.output_in(ws.root(), args, Some(&hook(c)), &[]),
                    None => ws.output_in(ws.root(), args, None, &[]),
                };
                let code = out.status.code().unwrap_or(-1);
                let err = String::from_utf8_lossy(&out.stderr);
                let expect = if holds && payload.is_some() && args.contains(&"--can-pause") {
                    2
                } else {
                    0
                };
                assert_eq!(code, expect, "{what}: {args:?} {payload:?}: {err}");
                if code == 2 {
                    assert!(err.contains("aw checkpoint-write --code"), "{what}: {err}");
                }
                let v = json_of(&out.stdout);
                if code == 0 && v.get("continuity") == Some(&json!("degraded")) {
                    assert!(
                        v["action"].as_str().is_some_and(|a| !a.is_empty()),
                        "{what}: {args:?}: {v}"
                    );
                }
            }
        }
    }
}

#[test]
fn can_pause_only_holds_for_ambiguity() {
    let ws = Ws::new();
    // No active session: nothing to choose from, so nothing to hold.
    ws.session("001-done-quick", true);
    let (code, v) = ws.run_with(&["checkpoint-write", "--can-pause"], None, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["continuity"], "degraded");
    // An explicit code naming a closed session degrades too; nothing is written into it.
    let (code, v) = ws.run_with(
        &["checkpoint-write", "--code", "1", "--can-pause"],
        None,
        &[],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["skipped"], true);
    assert!(v["reason"].as_str().unwrap().contains("closed"));
    assert!(!ws.checkpoint("001-done-quick").exists());
}

#[test]
fn hook_stdin_session_id_binds_and_selects_the_conversation() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    seed_session(&ws, "002-other-quick");
    // The first PreCompact names the session; the conversation is bound to it.
    let (code, v) = ws.run_with(
        &["checkpoint-write", "--code", "2"],
        Some(&hook("conv-A")),
        &[],
    );
    assert_eq!(
        (code, v["session"].as_str()),
        (0, Some("002-other-quick")),
        "{v}"
    );
    let reg: Value = serde_json::from_str(
        &std::fs::read_to_string(ws.sessions().join(".bindings.json")).unwrap(),
    )
    .unwrap();
    let bound: Vec<&Value> = reg["bindings"].as_object().unwrap().values().collect();
    assert_eq!(bound, [&json!("002-other-quick")]);
    let raw = std::fs::read_to_string(ws.sessions().join(".bindings.json")).unwrap();
    assert!(
        !raw.contains("conv-A"),
        "the raw context id is never stored"
    );

    // Later hook calls carry no --code: the binding decides, despite two active sessions.
    std::fs::remove_file(ws.checkpoint("002-other-quick")).unwrap();
    let (code, v) = ws.run_with(
        &["checkpoint-write", "--can-pause"],
        Some(&hook("conv-A")),
        &[],
    );
    assert_eq!(
        (code, v["session"].as_str()),
        (0, Some("002-other-quick")),
        "{v}"
    );
    assert!(ws.checkpoint("002-other-quick").exists());
    assert!(!ws.checkpoint("001-login-quick").exists());

    let (_, s) = ws.run_with(&["resume-summary"], Some(&hook("conv-A")), &[]);
    assert_eq!(s["primary_session"], "002-other-quick");
    assert_eq!(s["continuity"], "ok");
    // The same conversation named by the environment alone.
    let (_, s) = ws.run_with(&["resume-summary"], None, &[("AW_CONTEXT_ID", "conv-A")]);
    assert_eq!(s["primary_session"], "002-other-quick");
    // Agreement between both sources is fine.
    let (code, _) = ws.run_with(
        &["resume-summary"],
        Some(&hook("conv-A")),
        &[("AW_CONTEXT_ID", "conv-A")],
    );
    assert_eq!(code, 0);
    // Another conversation is not bound: ambiguous, degraded.
    let (_, s) = ws.run_with(&["resume-summary"], Some(&hook("conv-B")), &[]);
    assert_eq!(s["continuity"], "degraded");

    // The SessionEnd hook checkpoints the bound session only.
    std::fs::remove_file(ws.checkpoint("002-other-quick")).unwrap();
    let (_, v) = ws.run_with(&["auto-compact-on-close"], Some(&hook("conv-A")), &[]);
    assert_eq!(
        v["checkpoints_written"][0]["session"], "002-other-quick",
        "{v}"
    );
    assert_eq!(v["checkpoints_written"].as_array().unwrap().len(), 1);
    assert!(!ws.checkpoint("001-login-quick").exists());
}

#[test]
fn env_and_stdin_naming_different_conversations_is_a_conflict() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    for cmd in [
        "checkpoint-write",
        "auto-compact-on-close",
        "resume-summary",
    ] {
        let out = ws.output_in(
            ws.root(),
            &[cmd],
            Some(&hook("conv-A")),
            &[("AW_CONTEXT_ID", "conv-B")],
        );
        let v = json_of(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {v}");
        assert_eq!(v["error"]["code"], "CONTEXT_ID_CONFLICT", "{cmd}");
        assert!(v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()));
        // A host shows only stderr of a failed hook: the reason and the remedy are there too.
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("AW_CONTEXT_ID") && err.contains("Next: Unset AW_CONTEXT_ID"),
            "{cmd}: {err:?}"
        );
    }
    assert!(!ws.checkpoint("001-login-quick").exists());
    assert!(!ws.sessions().join(".bindings.json").exists());
}

#[test]
fn garbage_or_silent_stdin_is_ignored() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let (code, v) = ws.run_with(&["checkpoint-write"], Some("not json at all"), &[]);
    assert_eq!((code, v["session"].as_str()), (0, Some("001-login-quick")));

    // A stdin that stays open and silent must not hold the hook: the run ends on its own,
    // with stdin still open, and answers as with no hook input (the hang guard only stops a
    // run that never would).
    let mut child = ws
        .process(&["resume-summary"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let open_stdin = child.stdin.take();
    wait_until("resume-summary ending while its stdin stays open", || {
        child.try_wait().unwrap().is_some()
    });
    let out = child.wait_with_output().unwrap();
    drop(open_stdin);
    assert!(out.status.success(), "{out:?}");
    let v = json_of(&out.stdout);
    assert_eq!(v["primary_session"], "001-login-quick", "{v}");
    assert_eq!(v["continuity"], "ok", "{v}");
}

#[test]
fn resume_summary_statuses() {
    let ws = Ws::new();
    let s = ws.session("001-login-quick", false);

    let v = ws.ok(&["resume-summary"]);
    insta::assert_json_snapshot!("summary_missing", v);

    ws.ok(&["checkpoint-write"]);
    let v = ws.ok(&["resume-summary"]);
    assert_eq!(v["checkpoint_status"], "draft");
    assert_eq!(
        v["unfilled_placeholders"],
        json!(["ultimo", "proximo", "contexto", "skills"])
    );
    assert_eq!(v["needs_ai_action"], true);
    assert!(v["checkpoint"]["avance"].is_string());

    // Filled in, and freshly updated: complete.
    let written = std::fs::read_to_string(ws.checkpoint("001-login-quick")).unwrap();
    std::fs::write(ws.checkpoint("001-login-quick"), fill_all(&written)).unwrap();
    let v = ws.ok(&["resume-summary"]);
    assert_eq!(v["checkpoint_status"], "complete", "{v}");
    assert_eq!(v["needs_ai_action"], false);
    assert!(v["checkpoint_age_seconds"].as_i64().unwrap() < 300);
    assert_eq!(
        v["checkpoint"]["proximo"],
        json!(["Filled in by the agent."])
    );

    // Filled in long ago: stale.
    std::fs::write(
        s.join("CHECKPOINT.md"),
        "- Actualizado: 2020-01-01 09:00\n\n## Próximo paso\n\nuno\ndos\n\ntres\ncuatro\n",
    )
    .unwrap();
    let v = ws.ok(&["resume-summary"]);
    insta::assert_json_snapshot!("summary_stale", {
        let mut v = ws.scrub(&v);
        v["checkpoint_age_seconds"] = json!("<AGE>");
        v
    });
    assert!(v["checkpoint_age_seconds"].as_i64().unwrap() > 300);
}

#[test]
fn resume_summary_degrades_and_lists_recent_closed() {
    let ws = Ws::new();
    ws.session("003-a-quick", false);
    ws.session("004-b-quick", false);
    let done = ws.session("001-done-quick", true);
    std::fs::write(done.join("CONCLUSIONS.md"), "# Conclusions\n").unwrap();
    let legacy = ws.session("session002-old", true);
    std::fs::write(legacy.join("analysis-file.md"), "x").unwrap();
    ws.session("005-empty-quick", true);

    let (code, v) = ws.run_with(&["resume-summary", "--include-recent-closed"], None, &[]);
    assert_eq!(code, 0);
    let mut v = v;
    for item in v["recent_closed_with_artifacts"].as_array_mut().unwrap() {
        assert!(item["closed_age_seconds"].as_u64().unwrap() < 600);
        item["closed_age_seconds"] = json!("<AGE>");
    }
    insta::assert_json_snapshot!("summary_degraded_recent", v);

    let (code, v) = ws.run_with(&["resume-summary", "--recent-days", "0"], None, &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("INVALID_INPUT"))
    );
    let (code, v) = ws.run_with(&["resume-summary", "--recent-days", "x"], None, &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("INVALID_INPUT"))
    );
}

#[test]
fn auto_compact_on_close_checkpoints_the_sole_session() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let v = ws.ok(&["auto-compact-on-close"]);
    insta::assert_json_snapshot!("auto_compact_written", ws.scrub(&v));
    assert!(ws.checkpoint("001-login-quick").exists());
    // No conversation is bound by the closing hook.
    let (_, v) = ws.run_with(&["auto-compact-on-close"], Some(&hook("conv-Z")), &[]);
    assert_eq!(v["checkpoints_written"][0]["session"], "001-login-quick");
    assert!(!ws.sessions().join(".bindings.json").exists());
}

#[test]
fn outside_a_workspace_nothing_is_created() {
    let ws = Ws::bare();
    for cmd in [
        "checkpoint-write",
        "auto-compact-on-close",
        "resume-summary",
    ] {
        let (code, v) = ws.run_with(
            &[cmd, "--can-pause"][..if cmd == "checkpoint-write" { 2 } else { 1 }],
            None,
            &[],
        );
        assert_eq!(code, 0, "{cmd}: {v}");
        assert_eq!(v["continuity"], "degraded", "{cmd}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(ws.root()).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn malformed_codes_are_refused() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    for cmd in [
        "checkpoint-write",
        "checkpoint-read",
        "auto-compact-on-close",
        "resume-summary",
    ] {
        let (code, v) = ws.run_with(&[cmd, "--code", "../001-login-quick"], None, &[]);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("INVALID_INPUT")),
            "{cmd}: {v}"
        );
    }
    assert!(!ws.checkpoint("001-login-quick").exists());
}

#[test]
fn files_touched_come_from_git() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let git = |args: &[&str]| git(ws.root(), ws.home(), args);
    git(&["init", "-q"]);
    std::fs::write(ws.root().join("app.txt"), "one\n").unwrap();
    git(&["add", "app.txt"]);
    git(&["commit", "-q", "-m", "init"]);
    std::fs::write(ws.root().join("app.txt"), "one\ntwo\nthree\n").unwrap();
    let v = ws.ok(&["checkpoint-write"]);
    assert_eq!(v["files_touched_count"], 1, "{v}");
    let text = std::fs::read_to_string(ws.checkpoint("001-login-quick")).unwrap();
    assert!(text.contains("- app.txt (+2 -0) — _[AI:"), "{text}");
}

#[test]
fn human_projections() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    let text = |args: &[&str]| {
        let out = ws
            .aw()
            .args(args)
            .arg("--format")
            .arg("human")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(text(&["checkpoint-write"]).starts_with("Checkpoint written · 001-login-quick"));
    assert!(text(&["checkpoint-read"]).starts_with("001-login-quick · checkpoint"));
    assert!(text(&["resume-summary"]).starts_with("Session 001-login-quick · checkpoint draft"));
    assert!(text(&["auto-compact-on-close"]).starts_with("Checkpoint written · 001-login-quick"));
    for cmd in [
        "checkpoint-write",
        "checkpoint-read",
        "auto-compact-on-close",
        "resume-summary",
    ] {
        let out = ws.aw().args([cmd, "--help"]).output().unwrap();
        assert!(out.status.success());
    }
}

#[test]
fn an_unwritable_binding_degrades_and_writes_nothing() {
    let ws = Ws::new();
    seed_session(&ws, "001-login-quick");
    std::fs::write(ws.sessions().join(".bindings.json"), "{not json").unwrap();
    let (code, v) = ws.run_with(
        &["checkpoint-write", "--code", "1"],
        Some(&hook("conv-A")),
        &[],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["continuity"], "degraded");
    assert!(v["reason"].as_str().unwrap().contains("registry"), "{v}");
    assert!(!ws.checkpoint("001-login-quick").exists());
    assert_eq!(
        std::fs::read_to_string(ws.sessions().join(".bindings.json")).unwrap(),
        "{not json",
        "the registry is never repaired behind the user's back"
    );
}
