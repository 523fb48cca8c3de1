//! The output contract every command follows: formats, envelopes, help, unknown input, and
//! whole output through pipes.

use crate::support::{Ws, json_of};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

/// Runs `aw args…` in an empty folder and checks the failure envelope, keys in order.
fn failure(args: &[&str]) -> Value {
    let v = Ws::bare().failure(args);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["ok", "error", "data"]);
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    v
}

#[test]
fn version_and_help() {
    let ws = Ws::bare();
    let out = ws.aw().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("aw {}\n", env!("CARGO_PKG_VERSION"))
    );
    for args in [
        &["--help"][..],
        &["manifest", "--help"],
        &["manifest", "validate", "--help"],
        &["demo", "--help"],
    ] {
        let out = ws.aw().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage:"), "{args:?}: {text}");
    }
    let top = String::from_utf8(ws.aw().arg("--help").output().unwrap().stdout).unwrap();
    assert!(top.contains("manifest") && top.contains("demo"));
}

/// The command names a `--help` page lists: under "Commands:", or under the headings of the
/// top-level map.
fn listed_commands(help: &str) -> Vec<String> {
    crate::help_map::command_sections(help)
        .into_iter()
        .flat_map(|(_, entries)| entries.into_iter().map(|(name, _)| name))
        .collect()
}

#[test]
fn every_command_and_verb_has_long_help() {
    let ws = Ws::bare();
    let help = |args: &[&str]| {
        let out = ws.aw().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // The prose above "Usage:": the long help must say more there than the one-line summary.
    let about = |text: String| text.split("\nUsage:").next().unwrap().trim().to_owned();
    let mut paths: Vec<Vec<String>> = Vec::new();
    for c in listed_commands(&help(&["--help"])) {
        for v in listed_commands(&help(&[&c, "--help"])) {
            paths.push(vec![c.clone(), v]);
        }
        paths.push(vec![c]);
    }
    assert!(paths.iter().any(|p| p == &["flow", "submit"]), "{paths:?}");
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let long = about(help(&args));
        *args.last_mut().unwrap() = "-h";
        let short = about(help(&args));
        assert_ne!(long, short, "`aw {}` has no long help", path.join(" "));
    }
}

#[test]
fn unknown_command_lists_the_valid_ones() {
    let v = failure(&["frobnicate"]);
    assert_eq!(v["error"]["code"], "UNKNOWN_COMMAND");
    assert_eq!(v["error"]["details"]["command"], "frobnicate");
    let avail = v["error"]["details"]["available_commands"]
        .as_array()
        .unwrap();
    assert!(avail.iter().any(|c| c == "manifest"));
    let mut sorted = avail.clone();
    sorted.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    assert_eq!(&sorted, avail);

    let v = failure(&["manifest", "lint"]);
    assert_eq!(v["error"]["code"], "UNKNOWN_COMMAND");
    assert_eq!(
        v["error"]["details"]["available_commands"],
        serde_json::json!(["validate"])
    );
}

#[test]
fn unknown_flags_are_refused_with_the_valid_ones() {
    let v = failure(&["manifest", "validate", "--stritc", "x"]);
    assert_eq!(v["error"]["code"], "UNKNOWN_FLAG");
    assert_eq!(v["data"]["unknown_flags"], serde_json::json!(["--stritc"]));
    // A stray word is not a flag.
    let stray = failure(&["sessions", "foo"]);
    assert_eq!(stray["error"]["code"], "ARGS_INVALID");
    assert_eq!(stray["error"]["details"]["argument"], "foo");
    assert!(stray["data"].get("unknown_flags").is_none());
    assert_eq!(v["error"]["details"]["argument"], "--stritc");
    let flags = v["error"]["details"]["valid_flags"].as_array().unwrap();
    assert!(flags.iter().any(|f| f == "--strict"));
    assert!(flags.iter().any(|f| f == "--format"));
    // A flag's value before the verb is not taken for a verb: the refusal names the verb.
    for args in [
        &["flow", "--session", "001", "advance", "--bogus"][..],
        &["--workspace", "somewhere", "flow", "advance", "--bogus"],
    ] {
        let v = failure(args);
        assert_eq!(v["error"]["code"], "UNKNOWN_FLAG", "{args:?}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("`aw flow advance`"), "{args:?}: {message}");
        let flags = v["error"]["details"]["valid_flags"].as_array().unwrap();
        assert!(flags.iter().any(|f| f == "--adopt"), "{args:?}");
    }
}

#[test]
fn contradictory_or_bad_output_flags() {
    for args in [
        &["manifest", "validate", "--json", "--format", "human", "x"][..],
        &["manifest", "validate", "--json", "--detail", "x"],
        &["manifest", "validate", "--format", "json", "--detail", "x"],
        &["manifest", "validate", "--format", "xml", "x"],
        &["manifest", "validate", "x", "--format"],
    ] {
        let v = failure(args);
        assert_eq!(v["error"]["code"], "ARGS_INVALID", "{args:?}");
    }
}

#[test]
fn human_failure_names_the_code_and_next_action() {
    let out = Ws::bare()
        .aw()
        .args(["--format", "human", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("✗ UNKNOWN_COMMAND\n"), "{text}");
    assert!(text.contains("\nNext: "), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no colour when not a terminal: {text}"
    );
}

#[test]
fn multi_megabyte_output_arrives_whole_through_a_pipe() {
    // 40k missing folders: one header and one error line each, several megabytes of text.
    let ws = Ws::bare();
    let args: Vec<String> = (0..40_000).map(|i| format!("missing-{i}")).collect();
    let out = ws
        .aw()
        .args(["manifest", "validate"])
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.len() > 4_000_000, "{} bytes", out.stdout.len());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("[INVALID] ")).count(),
        40_000
    );
    assert!(text.ends_with('\n'));
    assert!(text.lines().last().unwrap().starts_with("    - "));

    let out = ws
        .aw()
        .args(["manifest", "validate", "--format", "json"])
        .args(&args)
        .output()
        .unwrap();
    let v = json_of(&out.stdout);
    assert_eq!(v["results"].as_array().unwrap().len(), 40_000);
}

#[test]
fn an_early_closing_reader_ends_the_process_quietly() {
    let ws = Ws::bare();
    let args: Vec<String> = (0..40_000).map(|i| format!("missing-{i}")).collect();
    let mut child = ws
        .process(&["manifest", "validate"])
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the rest of the write hits a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert!(first.starts_with("[INVALID] missing-0"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
    assert!(
        out.status.code().is_some(),
        "killed by a signal: {:?}",
        out.status
    );
}

#[test]
fn a_missing_required_argument_is_named() {
    let v = failure(&["self", "install"]);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    assert_eq!(
        v["error"]["message"],
        "`aw self install` needs `--target <TARGET>`."
    );
    assert_eq!(
        v["error"]["details"]["missing"],
        json!(["--target <TARGET>"])
    );
}

/// A group called without its verb is refused with the reference's code (`INVALID_INPUT` for
/// `hook` and `visibility`, `ARGS_INVALID` for the others) and the verbs it has; `aw` and `aw
/// self` alone print their help with exit 0, as the reference does.
#[test]
fn a_group_without_its_verb_is_refused_with_the_verbs_it_has() {
    for (args, code, verbs) in [
        (
            &["hook"][..],
            "INVALID_INPUT",
            json!(["branch-check", "git-commit-advisor", "sql-mutation-guard"]),
        ),
        (&["visibility"], "INVALID_INPUT", json!(["doctor"])),
        (
            &["flow"],
            "ARGS_INVALID",
            json!(["advance", "proof", "recover", "submit"]),
        ),
        (
            &["persist"],
            "ARGS_INVALID",
            json!(["apply", "prepare", "validate"]),
        ),
        (
            &["capability", "descriptor"],
            "ARGS_INVALID",
            json!(["validate"]),
        ),
    ] {
        let v = failure(args);
        assert_eq!(v["error"]["code"], code, "{args:?}");
        assert_eq!(
            v["error"]["details"]["available_commands"], verbs,
            "{args:?}"
        );
        assert!(
            v["data"]["action"].as_str().unwrap().contains("--help"),
            "{args:?}"
        );
    }
    let ws = Ws::bare();
    for args in [&[][..], &["self"]] {
        let out = ws.aw().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8(out.stdout).unwrap().contains("Usage:"));
    }
}

#[test]
fn what_v22_adds_and_aw_does_not_yet_is_absent_as_documented() {
    // PROTOCOL's "What v22.4.2 prints that aw does not yet" lists these; when one lands, this
    // test fails until the table says so.
    let ws = Ws::new();
    let created = ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "v22-quick",
        "--objective",
        "x",
    ]);
    // Custody has landed: session-create seals one and says where (tests in custody.rs).
    let custody = ws.sessions().join("001-v22-quick/.custody.json");
    assert_eq!(created["custody_path"], custody.to_string_lossy().as_ref());
    assert!(custody.is_file());
    assert_eq!(created["inputs"], serde_json::json!([]));
    assert_eq!(created["inputs_from"], "none");
    let status = ws.ok(&["status", "--json"]);
    // The v22 board has landed, isolation units included.
    for key in [
        "terminal_events",
        "pending_retirements",
        "loose_sessions",
        "orphan_units",
    ] {
        assert!(status[key].is_array(), "status {key}: {status}");
    }
    assert!(status["counts"]["terminal_events"].is_number());
    let session = &status["sessions"]["active"][0];
    assert!(session["phase"].is_string() && session["units"] == json!([]));
    // A session with a checkpoint and no document is loose: not a pipeline item, so resume has
    // nothing to propose.
    ws.ok(&["checkpoint-write", "--code", "001"]);
    let status = ws.ok(&["status", "--json"]);
    assert_eq!(
        status["loose_sessions"],
        json!(["001-v22-quick"]),
        "{status}"
    );
    let resume = ws.ok(&["resume", "--json"]);
    assert_eq!(resume["status"].as_str(), Some("idle"), "{resume}");
    let directive = ws.ok(&[
        "flow",
        "advance",
        "--session",
        "001",
        "--flow",
        "quick",
        "--adopt",
    ]);
    // The v22 engine has landed: the directive carries its `proposal` key (null off an
    // authoring boundary).
    assert!(directive["proposal"].is_null(), "{directive}");
    // The design capability's render is v21.3.0's: no mutate_overwrite among its effects.
    let skills = ws.ok(&["skills", "--json"]);
    let render = skills["capabilities"][0]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["operation"] == "render")
        .cloned()
        .unwrap_or_else(|| panic!("no render operation: {skills}"));
    assert!(
        !render["effects"]
            .as_array()
            .unwrap()
            .contains(&json!("mutate_overwrite")),
        "{render}"
    );
}

/// The 55 commands the reference v22.4.2 registers (`agent-workflow --help`, without its
/// dev-only group `harness`, `profiles`, `logs` and the `aw` alias).
const REFERENCE_COMMANDS: &[&str] = &[
    "attach-multiroot",
    "auto-compact-on-close",
    "capability",
    "check-branch",
    "checkpoint-read",
    "checkpoint-write",
    "code-scan",
    "context-budget",
    "context-plan",
    "designs",
    "detach-multiroot",
    "discard",
    "export-diagrams",
    "export-manuals",
    "export-reports",
    "export-scripts",
    "fix-git",
    "flow",
    "generate-launch",
    "git-flow",
    "history-update",
    "hook",
    "host-doctor",
    "mcp",
    "merge-state",
    "next-number",
    "persist",
    "plugin-cache",
    "plugin-doctor",
    "project-md-upsert",
    "release-data",
    "remove-source",
    "reset",
    "resume",
    "resume-summary",
    "self",
    "session-artifacts",
    "session-close",
    "session-create",
    "session-resume",
    "sessions",
    "set-qa-branch",
    "set-working-branch",
    "skill-index",
    "skills",
    "sources",
    "stack",
    "status",
    "visibility",
    "workspace-init",
    "workspace-migrate",
    "worktree",
];

#[test]
fn the_reference_commands_aw_lacks_are_listed_and_refused_as_documented() {
    // PROTOCOL's "Reference commands aw does not have" names exactly the reference's commands
    // aw's `--help` does not list, each refused as UNKNOWN_COMMAND, each row with an
    // alternative whose `aw …` commands exist.
    let protocol = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md"),
    )
    .unwrap();
    let section = protocol
        .split("## Reference commands aw does not have")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let ws = Ws::bare();
    let help = String::from_utf8(ws.aw().arg("--help").output().unwrap().stdout).unwrap();
    let ours = listed_commands(&help);
    let mut absent: Vec<&str> = REFERENCE_COMMANDS
        .iter()
        .copied()
        .filter(|c| !ours.iter().any(|o| o == c))
        .collect();
    absent.sort_unstable();
    let mut listed = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').collect();
        for name in cells[1].split('`').skip(1).step_by(2) {
            listed.push(name.to_owned());
        }
        let instead = cells[2].trim();
        assert!(!instead.is_empty(), "no alternative named: {row}");
        // Each `aw <command> [<verb>]` named as the way instead exists.
        for quoted in instead.split('`').skip(1).step_by(2) {
            let Some(rest) = quoted.strip_prefix("aw ") else {
                continue;
            };
            let words: Vec<&str> = rest
                .split_whitespace()
                .take_while(|w| !w.starts_with(['-', '<']))
                .take(2)
                .collect();
            let out = ws.aw().args(&words).arg("--help").output().unwrap();
            assert!(out.status.success(), "`{quoted}` in {row}");
        }
    }
    listed.sort_unstable();
    assert_eq!(listed, absent, "PROTOCOL's table against `aw --help`");
    assert!(section.contains(&format!("These {} are absent", absent.len())));
    for name in &listed {
        let v = failure(&[name.as_str()]);
        assert_eq!(v["error"]["code"], "UNKNOWN_COMMAND", "{name}: {v}");
    }
}

#[test]
fn each_verbs_summary_is_the_line_its_parent_lists() {
    // A verb's `-h` summary and its entry in the parent's command list are one sentence: a doc
    // comment on a deferred verb's argument struct would replace the first and not the second.
    let ws = Ws::bare();
    let text = |args: &[&str]| {
        let out = ws.aw().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // The parent's list as (name, summary), wrapped lines joined: its "Commands:", or the
    // headings of the top-level map.
    let entries = |help: &str| -> Vec<(String, String)> {
        crate::help_map::command_sections(help)
            .into_iter()
            .flat_map(|(_, entries)| entries)
            .collect()
    };
    let summary = |help: String| {
        help.split("\nUsage:")
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut checked = 0;
    let mut parents: Vec<Vec<String>> = vec![vec![]];
    while let Some(parent) = parents.pop() {
        let mut args: Vec<&str> = parent.iter().map(String::as_str).collect();
        args.push("--help");
        for (name, listed) in entries(&text(&args)) {
            let mut path = parent.clone();
            path.push(name);
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("-h");
            let own = summary(text(&args));
            let listed = listed.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(own, listed, "`aw {}`", path.join(" "));
            checked += 1;
            parents.push(path);
        }
    }
    assert!(checked > 60, "{checked}");
}
