//! Rules every command keeps: typed refusals of flag values, one date grammar, one clock, one
//! count of a session's scripts, output that is whole or a failure, and human text that no
//! document can use to take over a terminal.

use crate::support::Ws;

/// `aw args…` in the workspace, asserting success; stdout as text.
fn text(ws: &Ws, args: &[&str]) -> String {
    let (code, out) = ws.stdout(args, None, &[]);
    assert_eq!(code, 0, "{args:?}: {out}");
    out
}

#[test]
fn refused_flag_values_keep_the_codes_scripts_rely_on() {
    let ws = Ws::new();
    for (args, code, flag) in [
        (
            &["resume-summary", "--recent-days", "0"][..],
            "INVALID_INPUT",
            "--recent-days",
        ),
        (
            &["resume-summary", "--recent-days", "x"][..],
            "INVALID_INPUT",
            "--recent-days",
        ),
        (
            &["sessions", "--state", "open"][..],
            "INVALID_INPUT",
            "--state",
        ),
        (
            &["history-update", "--code", "001", "--state", "gone"][..],
            "INVALID_INPUT",
            "--state",
        ),
        (
            &["status", "--format", "xml"][..],
            "ARGS_INVALID",
            "--format",
        ),
        (
            &["flow", "advance", "--flow", "bogus"][..],
            "ARGS_INVALID",
            "--flow",
        ),
    ] {
        let v = ws.fails(args, code);
        assert_eq!(v["error"]["details"]["argument"], flag, "{v:#}");
    }
}

#[test]
fn impossible_dates_are_refused_and_real_ones_recorded() {
    let ws = Ws::new();
    for bad in ["2026-02-31", "2100-02-29", "2026-13-01", "26-01-01"] {
        let v = ws.fails(
            &[
                "history-update",
                "--code",
                "001",
                "--state",
                "active",
                "--date",
                bad,
            ],
            "INVALID_INPUT",
        );
        assert_eq!(v["error"]["details"]["argument"], "--date", "{v:#}");
    }
    assert!(!ws.history().exists(), "a refused date writes nothing");
    ws.session("001-dates-quick", false);
    ws.ok(&[
        "history-update",
        "--code",
        "001",
        "--state",
        "active",
        "--date",
        "2024-02-29",
    ]);
    assert!(ws.read(".workflow/HISTORY.md").contains("2024-02-29"));
}

#[test]
fn the_test_clock_dates_everything_a_command_writes() {
    let ws = Ws::new().with_env("TZ", "UTC");
    let pinned = [("AW_TEST_NOW", "2031-07-08 09:10")];
    let (code, v) = ws.run_env(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "clock-quick",
            "--objective",
            "Check the clock",
        ],
        &pinned,
    );
    assert_eq!(code, 0, "{v:#}");
    let doc = ws.read(".workflow/sessions/001-clock-quick/SESSION.md");
    assert!(doc.contains("2031-07-08"), "{doc}");
    let (_, v) = ws.run_env(&["sessions"], &pinned);
    assert_eq!(v["sessions"][0]["date"], "2031-07-08");
    let (code, _) = ws.run_env(&["checkpoint-write", "--code", "001"], &pinned);
    assert_eq!(code, 0);
    let cp = ws.read(".workflow/sessions/001-clock-quick/CHECKPOINT.md");
    assert!(cp.contains("- Updated: 2031-07-08 09:10"), "{cp}");
    // Five minutes later by the same clock, the untouched checkpoint is a draft, aged 300 s.
    let (_, v) = ws.run_env(
        &["resume-summary", "--code", "001"],
        &[("AW_TEST_NOW", "2031-07-08 09:15")],
    );
    assert_eq!(v["checkpoint_age_seconds"], 300, "{v:#}");
}

#[test]
fn a_pinned_summer_time_is_read_at_its_own_offset() {
    // 11:10 in Madrid on 8 July is 09:10 UTC (summer time, +02:00), whatever today's offset is.
    let ws = Ws::new().with_env("TZ", "Europe/Madrid");
    let s = ws.session("001-done-quick", true);
    std::fs::write(s.join("CONCLUSIONS.md"), "done").unwrap();
    let closed_at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_783_498_200); // 08:10Z
    crate::support::set_mtime(&s.join(".closed"), closed_at);
    let (code, v) = ws.run_env(
        &["resume-summary", "--include-recent-closed"],
        &[("AW_TEST_NOW", "2026-07-08 11:10")],
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        v["recent_closed_with_artifacts"][0]["closed_age_seconds"], 3600,
        "{v:#}"
    );
}

#[test]
fn checkpoint_and_artifacts_count_the_same_scripts() {
    let ws = Ws::new();
    let s = ws.session("001-db-quick", false);
    let deep = s
        .join("scripts")
        .join("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(s.join("scripts/001-up.SQL"), "select 1;").unwrap();
    std::fs::write(s.join("scripts/001-up.rollback.sql"), "select 1;").unwrap();
    std::fs::write(deep.join("002-deep.sql"), "select 1;").unwrap();
    std::fs::write(s.join("scripts/notes.md"), "not a script").unwrap();
    let v = ws.ok(&["session-artifacts", "--code", "001"]);
    assert_eq!(v["artifacts"]["scripts"]["total"], 3, "{v:#}");
    assert_eq!(v["artifacts"]["scripts"]["rollback"], 1);
    ws.ok(&["checkpoint-write", "--code", "001"]);
    let cp = ws.read(".workflow/sessions/001-db-quick/CHECKPOINT.md");
    assert!(cp.contains("scripts(3)"), "{cp}");
}

#[test]
fn human_text_carries_no_control_characters_from_documents() {
    let ws = Ws::new();
    let hostile = "Fix \u{1b}]0;pwned\u{7}the \u{1b}[2Jlogin\r\u{9b}31m loop";
    ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "hostile-quick",
        "--objective",
        hostile,
    ]);
    let s = ws.sessions().join("001-hostile-quick");
    std::fs::write(
        s.join("CHECKPOINT.md"),
        format!("## Completed\n- {hostile}\n## Pending / Next\n- {hostile}\n"),
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("docs/specs")).unwrap();
    std::fs::write(
        ws.root().join("docs/specs/001-spec-login.md"),
        format!("# Spec\n\n## Open questions\n- {hostile}\n"),
    )
    .unwrap();
    for args in [
        &["session-resume", "--code", "001", "--format", "human"][..],
        &["checkpoint-read", "--code", "001", "--format", "human"][..],
        &["status", "--format", "human", "--detail"][..],
        &["resume", "--code", "001", "--format", "human"][..],
    ] {
        let out = text(&ws, args);
        let bad: Vec<char> = out
            .chars()
            .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
            .collect();
        assert!(bad.is_empty(), "{args:?} printed {bad:?}:\n{out}");
        assert!(
            out.contains("loop"),
            "{args:?} still shows the text:\n{out}"
        );
    }
    // The JSON model carries the exact text.
    let v = ws.ok(&["session-resume", "--code", "001"]);
    assert!(v["objetivo"].as_str().unwrap().contains(hostile));
}

/// The escape sequences aw's own colours use.
const OURS: &[&str] = &[
    "\u{1b}[0m",
    "\u{1b}[1m",
    "\u{1b}[2m",
    "\u{1b}[31m",
    "\u{1b}[32m",
    "\u{1b}[33m",
];

/// The control characters of `out` that are not newlines, tabs or the start of one of aw's own
/// colour sequences.
fn foreign_controls(out: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, c) in out.char_indices() {
        let ours = c == '\u{1b}' && OURS.iter().any(|s| out[i..].starts_with(s));
        if c.is_control() && c != '\n' && c != '\t' && !ours {
            bad.push(out[i..].chars().take(6).collect());
        }
    }
    bad
}

#[test]
fn coloured_human_text_keeps_only_our_own_sequences() {
    // CLICOLOR_FORCE turns colour on without a terminal: the text is terminal-bound.
    let ws = Ws::new()
        .with_env("CLICOLOR_FORCE", "1")
        .with_env("TERM", "xterm");
    // A document's text that imitates one of our own colour sequences must still lose it.
    let mimic = "Fix X\u{1b}[33mY the loop";
    ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "paint-quick",
        "--objective",
        mimic,
        "--format",
        "json",
    ]);
    let sneaky = "002-a\u{1b}[33mhidden\u{1b}[8m\u{1b}]0;title\u{7}";
    ws.session(sneaky, true);
    ws.session("003-b\u{1b}[33mshown-quick", false);
    let skill = ws.root().join("skill\u{1b}[8mx");
    std::fs::create_dir_all(&skill).unwrap();
    for (args, expect) in [
        (&["status", "--detail"][..], Some("X[33mY")),
        (&["sessions", "--all"][..], None),
        (&["session-resume", "--code", "001"][..], Some("X[33mY")),
        (&["resume", "--code", "001"][..], Some("X[33mY")),
        (&["flow", "advance", "--code", "002"][..], Some("hidden")),
        (
            &[
                "flow", "advance", "--code", "003", "--flow", "quick", "--adopt",
            ][..],
            Some("shown"),
        ),
        (&["session-close", "--code", "002-a"][..], None),
        (
            &["manifest", "validate", skill.to_str().unwrap()][..],
            Some("skill[8mx"),
        ),
    ] {
        let args = [args, &["--format", "human"]].concat();
        let (_, out) = ws.stdout(&args, None, &[]);
        if args[0] == "status" {
            assert!(out.contains("\u{1b}[1m"), "colour is on:\n{out}");
        }
        let bad = foreign_controls(&out);
        assert!(bad.is_empty(), "{args:?} printed {bad:?}:\n{out}");
        for kept in ["X\u{1b}[33mY", "a\u{1b}[33mhidden", "b\u{1b}[33mshown"] {
            assert!(
                !out.contains(kept),
                "{args:?} kept a sequence from a document:\n{out}"
            );
        }
        if let Some(text) = expect {
            assert!(out.contains(text), "{args:?} lost {text:?}:\n{out}");
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_a_failure_not_a_success() {
    let ws = Ws::new();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    let out = ws
        .process(&["sessions", "--json"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not be written"), "{err}");
}

/// On Linux with glibc the `aw` executable is linked statically at a fixed address (ELF type
/// `EXEC`, no interpreter, no dynamic section), so no loader runs and no table is patched at
/// start-up (see ARCHITECTURE.md, "Start-up"). `AW_BUILD_DYNAMIC=1` links it dynamically at a
/// fixed address, `AW_BUILD_PIE=1` keeps a position-independent executable (type `DYN`) for
/// packagers whose policy requires one; only a C toolchain without static glibc, as the build
/// script reports (`AW_LINK`), makes the default dynamic.
#[test]
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_endian = "little",
    target_pointer_width = "64",
    not(target_feature = "crt-static")
))]
fn the_binary_is_linked_statically_at_a_fixed_address_unless_asked_otherwise() {
    // The binary this test build made (AW_LINK says how build.rs linked it), even when the
    // suite runs against another one.
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_aw")).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    // e_type at 16: 2 is EXEC, 3 is DYN. The program headers: e_phoff at 32, e_phentsize at
    // 54, e_phnum at 56; each header's p_type first: 2 is DYNAMIC, 3 is INTERP.
    let e_type = u16_at(16);
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54), u16_at(56));
    let types: Vec<u32> = (0..usize::from(phnum))
        .map(|i| u32_at(phoff + i * usize::from(phentsize)))
        .collect();
    let dynamic = types.contains(&2) || types.contains(&3);
    let link = env!("AW_LINK");
    let asked = |v: &str| {
        option_env!("AW_BUILD_PIE").is_some_and(|x| x == "1") && v == "pie"
            || option_env!("AW_BUILD_DYNAMIC").is_some_and(|x| x == "1") && v == "dynamic"
    };
    match link {
        "static" => {
            assert_eq!(e_type, 2, "a fixed address");
            assert!(!dynamic, "no interpreter, no dynamic section: {types:?}");
        }
        "pie" => {
            assert!(asked("pie"), "a PIE nobody asked for");
            assert_eq!(e_type, 3);
        }
        "dynamic" => {
            assert!(asked("dynamic"), "a dynamic link nobody asked for");
            assert_eq!(e_type, 2);
            assert!(dynamic);
        }
        // The C toolchain has no static glibc: the build said so, and the address stays fixed.
        "dynamic-no-static-glibc" => assert_eq!(e_type, 2),
        other => panic!("build.rs linked aw as `{other}`"),
    }
}

/// Every `json!` literal under `crates/aw/src/commands/`, as `file: count`, the files sorted.
fn json_literals_in_commands() -> (usize, Vec<String>) {
    occurrences_under("src/commands", "json!")
}

/// Every occurrence of `pattern` in the Rust files under `folder` (of this crate), as
/// `file: count`, the files sorted.
fn occurrences_under(folder: &str, pattern: &str) -> (usize, Vec<String>) {
    fn walk(
        dir: &std::path::Path,
        root: &std::path::Path,
        pattern: &str,
        out: &mut Vec<(String, usize)>,
    ) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, root, pattern, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let n = std::fs::read_to_string(&p)
                    .unwrap()
                    .matches(pattern)
                    .count();
                if n > 0 {
                    let rel = p.strip_prefix(root).unwrap().display().to_string();
                    out.push((rel, n));
                }
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files = Vec::new();
    walk(&root, &root, pattern, &mut files);
    files.sort();
    let total = files.iter().map(|(_, n)| n).sum();
    (
        total,
        files
            .into_iter()
            .map(|(f, n)| format!("{f}: {n}"))
            .collect(),
    )
}

/// The wire is typed (issue 21): a command's JSON output is a `Serialize` model with a schema,
/// never a `json!` literal built in its file.
#[test]
fn commands_build_output_from_typed_models_not_json_literals() {
    let (total, files) = json_literals_in_commands();
    assert!(
        total == 0,
        "{total} `json!` literals under crates/aw/src/commands: build the output as a typed model \
         in aw_core::wire instead.\n{}",
        files.join("\n")
    );
}

/// Human text is written with `write!` into one buffer (issue 21): `push_str(&format!(…))` makes
/// a string only to copy it.
#[test]
fn human_text_is_written_into_one_buffer_not_pushed_as_formatted_strings() {
    let (total, files) = occurrences_under("src", "push_str(&format!");
    assert!(
        total == 0,
        "{total} `push_str(&format!(…))` under crates/aw/src: write the view with `write!` into \
         its buffer (see `views::View`).\n{}",
        files.join("\n")
    );
}
