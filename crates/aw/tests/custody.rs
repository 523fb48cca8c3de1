//! Session custody (`.custody.json`, isolation-spec-v22 §2) through the CLI: what
//! `session-create` seals at birth and refuses before creating anything, and what the flow
//! appends later (an adoption, a publication), each time re-sealed; a legacy session without a
//! custody keeps working and gets nothing appended.

use crate::support::{Ws, json_of};
use aw_core::custody::{Custody, seal};
use serde_json::{Value, json};

/// The custody of `folder`, parsed, after checking its seal is the recomputed one.
fn custody(ws: &Ws, folder: &str) -> Custody {
    let text = std::fs::read_to_string(ws.sessions().join(folder).join(".custody.json")).unwrap();
    assert!(
        text.ends_with("}\n"),
        "pretty JSON with a trailing newline: {text}"
    );
    let c = Custody::parse(&text).unwrap();
    assert_eq!(
        seal(&c),
        c.digest,
        "the stored digest is the recomputed seal"
    );
    assert_eq!(c.render(), text, "written as aw renders it");
    c
}

fn create(ws: &Ws, name: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "session-create",
        "--type",
        "quick",
        "--name",
        name,
        "--objective",
        "o",
    ];
    args.extend_from_slice(extra);
    ws.ok(&args)
}

#[test]
fn birth_seals_declared_inputs_existing_absent_and_duplicated() {
    let ws = Ws::new().pinned_clock();
    ws.write("docs/specs/007-spec-auth.md", "# Spec 007 — auth\n\nñ\n");
    ws.write("docs/plans/001-plan-login.md", "# Plan\n");
    let v = create(
        &ws,
        "in-quick",
        &[
            "--input",
            " docs/specs/007-spec-auth.md ",
            "--input",
            "docs/none.md",
            "--input",
            "docs/specs/007-spec-auth.md",
            "--input",
            "docs/plans/001-plan-login.md",
        ],
    );
    assert_eq!(
        v["inputs"],
        json!([
            "docs/specs/007-spec-auth.md",
            "docs/none.md",
            "docs/plans/001-plan-login.md"
        ])
    );
    assert_eq!(v["inputs_from"], "declared");
    assert!(v.get("inputs_note").is_none());
    let path = ws.sessions().join("001-in-quick/.custody.json");
    assert_eq!(v["custody_path"], path.to_string_lossy().as_ref());

    let c = custody(&ws, "001-in-quick");
    assert_eq!(c.version, 1);
    assert_eq!(c.subject.key, "001-in-quick");
    assert_eq!(c.subject_path, v["path"].as_str().unwrap());
    assert_eq!(c.created, ws.today());
    let text = std::fs::read_to_string(&path).unwrap();
    let raw: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        raw["parents"],
        json!([{"kind": "spec", "key": "007"}, {"kind": "plan", "key": "001"}])
    );
    assert_eq!(
        raw["artifacts"][0],
        json!({"path": "docs/specs/007-spec-auth.md", "role": "input", "before": {
            "existed": true,
            "digest": aw_core::canonical::string_digest("# Spec 007 — auth\n\nñ\n"),
            "bytes": "# Spec 007 — auth\n\nñ\n".len(),
            "content": "# Spec 007 — auth\n\nñ\n"}})
    );
    assert_eq!(
        raw["artifacts"][1],
        json!({"path": "docs/none.md", "role": "input", "before": {
            "existed": false, "digest": null, "bytes": null, "content": null}})
    );
    assert_eq!(raw["sources"], json!([]));
    assert_eq!(raw["effects"], json!([]));
    // The session's date is the custody's when its document declares none.
    let doc = ws.sessions().join("001-in-quick/SESSION.md");
    let undated: String = std::fs::read_to_string(&doc)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("Start date") && !l.contains("Fecha de inicio"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&doc, undated).unwrap();
    std::fs::remove_file(ws.history()).ok();
    // Listed on another day, so "today" (the last fallback) cannot pass for the custody's date.
    let (rc, listed) = ws.run_env(&["sessions"], &[("AW_TEST_NOW", "2031-01-01 10:00")]);
    assert_eq!(rc, 0, "{listed}");
    assert_eq!(listed["sessions"][0]["date"], c.created);
}

#[test]
fn a_plan_exec_or_spec_refine_name_derives_its_document() {
    let ws = Ws::new();
    ws.write("docs/plans/001-plan-login.md", "# Plan 001 — login\n");
    ws.write("docs/specs/007-Spec-Auth.md", "s\n");
    let v = ws.ok(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "login-plan-exec",
        "--objective",
        "o",
    ]);
    assert_eq!(v["inputs"], json!(["docs/plans/001-plan-login.md"]));
    assert_eq!(v["inputs_from"], "derived");
    assert!(v.get("inputs_note").is_none());
    let c = custody(&ws, "001-login-plan-exec");
    assert_eq!(c.parents.len(), 1);
    assert_eq!(
        (c.parents[0].kind.as_str(), c.parents[0].key.as_str()),
        ("plan", "001")
    );
    // A leading number is not part of the slug; the file name matches in any case.
    let v = ws.ok(&[
        "session-create",
        "--type",
        "refine",
        "--name",
        "005-auth-spec-refine",
        "--objective",
        "o",
    ]);
    assert_eq!(v["inputs"], json!(["docs/specs/007-Spec-Auth.md"]));
    assert_eq!(v["inputs_from"], "derived");
    // Declared inputs win over the name.
    let v = ws.ok(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "login-plan-exec",
        "--objective",
        "o",
        "--input",
        "README.md",
    ]);
    assert_eq!(v["inputs"], json!(["README.md"]));
    assert_eq!(v["inputs_from"], "declared");
}

#[test]
fn no_or_several_matches_leave_a_note_and_other_names_none() {
    let ws = Ws::new();
    ws.write("docs/plans/002-plan-dup.md", "a\n");
    ws.write("docs/plans/003-PLAN-dup.md", "b\n");
    let v = ws.ok(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "x-plan-exec",
        "--objective",
        "o",
    ]);
    assert_eq!(v["inputs"], json!([]));
    assert_eq!(v["inputs_from"], "none");
    let note = v["inputs_note"].as_str().unwrap();
    assert!(note.contains("'docs/plans/NNN-plan-x.md'"), "{note}");
    let v = ws.ok(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "dup-plan-exec",
        "--objective",
        "o",
    ]);
    assert_eq!(v["inputs_from"], "none");
    let note = v["inputs_note"].as_str().unwrap();
    assert!(
        note.contains("2 documents (002-plan-dup.md, 003-PLAN-dup.md)"),
        "{note}"
    );
    assert!(note.contains("--input"), "{note}");
    assert!(custody(&ws, "002-dup-plan-exec").artifacts.is_empty());
    // A quick session expects no document: none, and no note.
    let v = create(&ws, "fix-quick", &[]);
    assert_eq!(v["inputs_from"], "none");
    assert!(v.get("inputs_note").is_none());
    // The human view says what was sealed.
    let (code, text) = ws.text(&[
        "session-create",
        "--type",
        "exec",
        "--name",
        "y-plan-exec",
        "--objective",
        "o",
        "--format",
        "human",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("Inputs   none sealed"), "{text}");
    assert!(
        text.contains("Note     the custody starts with no inputs"),
        "{text}"
    );
}

#[test]
fn each_unsafe_input_is_refused_and_nothing_is_created() {
    let ws = Ws::new();
    let before = ws.tree();
    for bad in [
        "",
        "  ",
        "a\\b",
        "/etc/passwd",
        "C:x",
        "./a",
        "a/../b",
        "a//b",
        "a/",
        "..",
    ] {
        let v = ws.fails(
            &[
                "session-create",
                "--type",
                "quick",
                "--name",
                "bad-quick",
                "--objective",
                "o",
                "--input",
                "docs/ok.md",
                "--input",
                bad,
            ],
            "INVALID_INPUT",
        );
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "--input '{bad}' must be a workspace-relative path"
            )),
            "{message}"
        );
        assert_eq!(ws.tree(), before, "{bad:?}: nothing is created");
    }
}

#[test]
fn an_input_that_cannot_be_read_refuses_before_anything_is_created() {
    let ws = Ws::new();
    ws.write("docs/plans/001-plan-x.md", "x\n");
    let before = ws.tree();
    let v = ws.fails(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "dir-quick",
            "--objective",
            "o",
            "--input",
            "docs/plans",
        ],
        "CUSTODY_BASELINE_UNREADABLE",
    );
    assert_eq!(v["data"]["code"], "CUSTODY_BASELINE_UNREADABLE");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("docs/plans"),
        "{v}"
    );
    assert_eq!(ws.tree(), before);
    // A link leading out of the workspace is not copied into it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "secret\n").unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.md"),
        ws.root().join("docs/out.md"),
    )
    .unwrap();
    let before = ws.tree();
    let v = ws.fails(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "link-quick",
            "--objective",
            "o",
            "--input",
            "docs/out.md",
        ],
        "CUSTODY_BASELINE_UNREADABLE",
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("outside the workspace"),
        "{v}"
    );
    assert_eq!(ws.tree(), before);
    // The next session still takes the first number.
    assert_eq!(create(&ws, "ok-quick", &[])["number"], "001");
}

#[test]
fn an_invalid_docs_canon_refuses_before_anything_is_created() {
    let ws = Ws::new();
    ws.write(
        ".workflow/skills.toml",
        "[docs]\nplan = \"knowledge/plans\"\n",
    );
    let before = ws.tree();
    let v = ws.fails(
        &[
            "session-create",
            "--type",
            "quick",
            "--name",
            "c-quick",
            "--objective",
            "o",
        ],
        "DOCS_CANON_INVALID",
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("[docs].plan"),
        "{v}"
    );
    assert_eq!(ws.tree(), before);
}

/// Written by the reference v22.4.2 (a quick session with three inputs, a unit taken three
/// times, a flow adopted): aw recomputes its seal and reads its date.
#[test]
fn a_reference_written_custody_verifies_and_dates_its_session() {
    let text = include_str!("../../aw-core/tests/fixtures/custody/reference-units-adopted.json");
    let c = Custody::parse(text).unwrap();
    assert_eq!(seal(&c), c.digest);
    assert_eq!(
        c.digest,
        "693d2bddd46bdacb8da6a8ea7e211cf2ee574577193cb22a2131913c69e6d0ca"
    );
    let ws = Ws::new();
    ws.session("001-ref-quick", false);
    std::fs::write(ws.sessions().join("001-ref-quick/.custody.json"), text).unwrap();
    assert_eq!(ws.ok(&["sessions"])["sessions"][0]["date"], "2026-12-06");
}

fn adopt(ws: &Ws, folder: &str, flow: &str) -> Value {
    let (rc, out) = ws.stdout(
        &[
            "flow",
            "advance",
            "--session",
            folder,
            "--flow",
            flow,
            "--adopt",
        ],
        None,
        &[],
    );
    assert_eq!(rc, 0, "{out}");
    json_of(&out)
}

#[test]
fn adoption_appends_flow_adopted_and_reseals() {
    let ws = Ws::new().pinned_clock();
    let folder = create(&ws, "a-quick", &[])["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let born = custody(&ws, &folder);
    adopt(&ws, &folder, "quick");
    let c = custody(&ws, &folder);
    assert_ne!(c.digest, born.digest);
    let raw: Value = serde_json::to_value(&c.effects).unwrap();
    assert_eq!(
        raw,
        json!([{"kind": "flow_adopted", "alias": null, "before": null, "after": null,
                "parents": [], "ref": null, "paths": ["quick"], "at": ws.today()}])
    );
    // A later advance is no adoption: nothing more is recorded.
    let (rc, _) = ws.stdout(&["flow", "advance", "--session", &folder], None, &[]);
    assert_eq!(rc, 0);
    assert_eq!(custody(&ws, &folder).effects.len(), 1);
}

#[test]
fn a_legacy_session_without_custody_is_adopted_and_gets_none() {
    let ws = Ws::new();
    let folder = create(&ws, "l-quick", &[])["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let file = ws.sessions().join(&folder).join(".custody.json");
    std::fs::remove_file(&file).unwrap();
    adopt(&ws, &folder, "quick");
    assert!(!file.exists(), "an append never creates a custody");
    // The shell's append API says so.
    let dir = ws.sessions().join(&folder);
    let appended =
        aw_workspace::sessions::custody::record_flow_adopted(&dir, "quick", "2026-01-01").unwrap();
    assert!(!appended.existed);
    let appended = aw_workspace::sessions::custody::record_artifact_published(
        &dir,
        &[("docs/a.md".to_owned(), None)],
        "2026-01-01",
    )
    .unwrap();
    assert!(!appended.existed);
    assert!(!file.exists());
}

#[test]
fn unit_appends_record_sources_and_effects_through_the_shell() {
    use aw_workspace::sessions::custody::{
        CustodyError, UnitSource, record_unit_integrated, record_unit_taken,
    };
    let ws = Ws::new();
    let folder = create(&ws, "u-quick", &[])["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = ws.sessions().join(&folder);
    let unit = UnitSource {
        alias: "app".to_owned(),
        path: ".".to_owned(),
        branch: Some("main".to_owned()),
        baseline_head: Some("a".repeat(40)),
        unit_branch: format!("aw/{folder}"),
        unit_path: "/units/app".to_owned(),
        dirty_paths: vec!["z.txt".to_owned(), "a.txt".to_owned()],
    };
    assert!(record_unit_taken(&dir, unit, "2026-01-02").unwrap().existed);
    let b = "b".repeat(40);
    let a = "a".repeat(40);
    assert!(
        record_unit_integrated(&dir, "app", Some(&a), Some(&b), "dev", "2026-01-03")
            .unwrap()
            .existed
    );
    let c = custody(&ws, &folder);
    assert_eq!(c.sources[0].dirty_paths, ["a.txt", "z.txt"]);
    let raw: Value = serde_json::to_value(&c.effects).unwrap();
    assert_eq!(raw[0]["ref"], format!("refs/heads/aw/{folder}"));
    assert_eq!(raw[0]["after"], a);
    assert_eq!(raw[1]["kind"], "unit_integrated");
    assert_eq!(raw[1]["ref"], "refs/heads/dev");
    assert_eq!(raw[1]["before"], a);
    // A custody that is not one is reported, and left as it was.
    std::fs::write(dir.join(".custody.json"), "{broken").unwrap();
    let err = aw_workspace::sessions::custody::record_flow_adopted(&dir, "quick", "2026-01-04")
        .unwrap_err();
    assert!(matches!(err, CustodyError::Unreadable { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".custody.json")).unwrap(),
        "{broken"
    );
}

#[test]
fn a_publication_appends_artifact_published_with_inputs_and_outputs() {
    let (ws, folder) = crate::flow_internal::workspace("refine", "x-spec-refine");
    // Born with the spec its name points at.
    let born = custody(&ws, &folder);
    assert_eq!(born.artifacts.len(), 1);
    assert_eq!(born.artifacts[0].path, "docs/specs/001-spec-x.md");
    let spec = "docs/specs/001-spec-x.md";
    let fresh = "docs/specs/002-spec-y.md";
    let d = adopt(&ws, &folder, "spec-refine");
    let new = "---\nstatus: ready-for-plan\n---\n# Spec 001 — x\n\nnew\n";
    let d = crate::flow_internal::walk_to(
        &ws,
        &folder,
        d,
        "spec-refine.save-confirmation",
        &json!([{"path": spec, "content": new}, {"path": fresh, "content": "# Spec 002 — y\n"}]),
    );
    let answer = json!({"input_digest": d["state_digest"], "choice": "Approve and save"});
    let d = crate::flow_internal::run(
        &ws,
        &["flow", "submit", "--session", &folder],
        &answer.to_string(),
    );
    assert_eq!(d["boundary"]["kind"], "final", "{d:#}");
    assert_eq!(ws.read(spec), new);
    let c = custody(&ws, &folder);
    // The spec sealed at birth keeps its birth baseline; the new file is an output.
    assert_eq!(c.artifacts.len(), 2);
    assert_eq!(c.artifacts[0], born.artifacts[0]);
    let raw: Value = serde_json::to_value(&c.artifacts[1]).unwrap();
    assert_eq!(
        raw,
        json!({"path": fresh, "role": "output", "before": {
            "existed": false, "digest": null, "bytes": null, "content": null}})
    );
    let kinds: Vec<Value> = serde_json::to_value(&c.effects)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!([e["kind"], e["paths"]]))
        .collect();
    assert_eq!(
        kinds,
        vec![
            json!(["flow_adopted", ["spec-refine"]]),
            json!(["artifact_published", [spec, fresh]]),
        ]
    );
}
