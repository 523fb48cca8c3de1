//! The v22 board on the worked examples of board-spec-v22 §9: baseline seals (aligned, unsealed,
//! divergent, malformed, unresolved), a decision note's effective contract and the
//! reconciliation it leaves owing, `inconsistent`, loose sessions, retirements, the whole
//! pipeline as `resume` candidates, and `uninitialized`.

use crate::support::Ws;
use aw_core::documents::baseline::spec_digest;
use aw_core::documents::decisions::read_content;
use serde_json::{Value, json};

const SPEC: &str = "---\nstatus: ready-for-plan\n---\n# Spec 001 — login\n\n## Acceptance criteria\n\n- [ ] **S001/AC-01 — login works.** a user logs in\n- [ ] **S001/AC-02 — logout works.** a user logs out\n";
const SPEC_DIGEST: &str = "sha256:873db332f60bc84aa718beee8c5d26fc2d8bccb0cd78fa575dccf57eb56dc4be";
const INDEX: &str = "docs/decisions/001-decisions-login.json";

/// A plan of §9: F1 validated with its task done, F2 pending; `state`, `marks` and `boxes`
/// vary for the closed variant.
fn plan(number: &str, baseline: Option<&str>, state: &str, f2: &str, t2: &str) -> String {
    let seal = baseline.map_or(String::new(), |b| format!("> Baseline: {b}\n"));
    format!(
        "# Plan {number} — login\n\n> Derived from: docs/specs/001-spec-login.md\n> Estado: {state}\n{seal}\n## Tasks\n\n### F1 — one\n> Estado: validada\n\n- [x] T1.1 — a\n\n### F2 — two\n> Estado: {f2}\n\n- [{t2}] T2.1 — b\n"
    )
}

fn note() -> Value {
    let mut v = json!({
        "schema": "workline.decision-note/v1", "id": "DEC-001",
        "lineage": {
            "spec": {"path": "docs/specs/001-spec-login.md", "number": "001", "digest": SPEC_DIGEST},
            "plan": {"path": "docs/plans/001-plan-login.md", "number": "001",
                     "digest": format!("sha256:{}", "1".repeat(64))},
            "execution": {"session": "001-x", "phase": "F1"}
        },
        "decision": "use SSO", "reason": "policy", "supersedes_assertions": ["S001/AC-01"],
        "supersedes_note": null, "scope": "functional", "consumers": [],
        "evidence_preserved": ["F1/T1.1 as history"], "evidence_invalidated": ["F1/T1.1 as proof"],
        "obligations": ["revalidate F1 against SSO"], "resume_point": "F1/T1.1", "date": "2026-08-16"
    });
    let digest = read_content(&v).unwrap().computed_digest();
    v["digest"] = json!(digest);
    v
}

fn board() -> Ws {
    let ws = Ws::initialised();
    ws.write("docs/specs/001-spec-login.md", SPEC);
    let sealed = format!("docs/specs/001-spec-login.md@{SPEC_DIGEST}");
    let zeros = format!("docs/specs/001-spec-login.md@sha256:{}", "0".repeat(64));
    let gone = format!("docs/specs/009-spec-gone.md@{SPEC_DIGEST}");
    let baselines = [
        Some(sealed.as_str()),
        None,
        Some(zeros.as_str()),
        Some("docs/specs/001-spec-login.md@sha256:abc"),
        Some(gone.as_str()),
    ];
    for (i, b) in baselines.into_iter().enumerate() {
        let n = format!("{:03}", i + 1);
        ws.write(
            &format!("docs/plans/{n}-plan-login.md"),
            &plan(&n, b, "open", "pendiente", " "),
        );
    }
    let index = json!({"schema": "workline.decision-index/v1",
        "spec": {"path": "docs/specs/001-spec-login.md", "number": "001"}, "notes": [note()]});
    ws.write(INDEX, &serde_json::to_string_pretty(&index).unwrap());
    ws
}

fn plan_of<'a>(status: &'a Value, number: &str) -> &'a Value {
    status["plans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == number)
        .unwrap()
}

fn item_of<'a>(status: &'a Value, number: &str) -> &'a Value {
    status["pipeline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == number && p["kind"] == "plan-open")
        .unwrap()
}

#[test]
fn a_seal_names_its_spec_number_as_written() {
    let ws = board();
    // `0001` is not `001`: the seal is on a spec the workspace does not have.
    ws.write(
        "docs/plans/002-plan-login.md",
        &plan(
            "002",
            Some(&format!("docs/specs/0001-spec-login.md@{SPEC_DIGEST}")),
            "open",
            "pendiente",
            " ",
        ),
    );
    let status = ws.ok(&["status", "--json"]);
    let p2 = plan_of(&status, "002");
    assert_eq!(
        p2["baseline"],
        json!({"status": "unresolved", "reason": "spec-not-found",
               "path": "docs/specs/0001-spec-login.md"})
    );
    assert!(p2["reconciliation"].is_null() && p2["contract"].is_null());
}

#[test]
fn the_spec_digests_as_the_reference_digests_it() {
    assert_eq!(spec_digest(SPEC), SPEC_DIGEST);
}

#[test]
fn each_seal_is_judged_and_the_aligned_plan_owes_its_obligation() {
    let ws = board();
    let status = ws.ok(&["status", "--json"]);
    let baseline = |n: &str| plan_of(&status, n)["baseline"].clone();
    assert_eq!(
        baseline("001"),
        json!({"status": "aligned", "digest": SPEC_DIGEST})
    );
    assert_eq!(baseline("002"), json!({"status": "unsealed"}));
    assert_eq!(
        baseline("003"),
        json!({"status": "divergent", "sealed_digest": format!("sha256:{}", "0".repeat(64)),
               "current_digest": SPEC_DIGEST})
    );
    assert_eq!(baseline("004")["status"], "malformed");
    assert!(baseline("004")["why"].as_str().unwrap().contains("64 hex"));
    assert_eq!(
        baseline("005"),
        json!({"status": "unresolved", "reason": "spec-not-found",
               "path": "docs/specs/009-spec-gone.md"})
    );
    let p1 = plan_of(&status, "001");
    assert_eq!(
        p1["reconciliation"],
        json!({"pending": [{"text": "revalidate F1 against SSO", "by": "DEC-001",
                            "resume_point": "F1/T1.1"}],
               "resume_point": "F1/T1.1", "closable": false})
    );
    assert_eq!(
        p1["contract"],
        json!({"spec": {"path": "docs/specs/001-spec-login.md", "number": "001", "digest": SPEC_DIGEST},
               "assertions": [{"id": "S001/AC-01", "state": "amended", "by": "DEC-001"},
                              {"id": "S001/AC-02", "state": "baseline", "by": null}],
               "obligations": [{"text": "revalidate F1 against SSO", "by": "DEC-001"}],
               "evidence_preserved": ["F1/T1.1 as history"],
               "evidence_invalidated": ["F1/T1.1 as proof"],
               "applied": ["DEC-001"]})
    );
    // The keys come after `spec`, in the reference's order.
    let keys: Vec<&str> = p1.as_object().unwrap().keys().map(String::as_str).collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert_eq!(
        (at("baseline"), at("reconciliation"), at("contract")),
        (at("spec") + 1, at("spec") + 2, at("spec") + 3)
    );
    for n in ["002", "003", "004", "005"] {
        let p = plan_of(&status, n);
        assert!(
            p["reconciliation"].is_null() && p["contract"].is_null(),
            "{n}"
        );
    }
    // Every item owes an obligation, and says where it stands the same way.
    for n in ["001", "002", "003", "004", "005"] {
        let item = item_of(&status, n);
        let d = &item["detail"];
        assert_eq!(d["obligation"], true, "{n}: {item}");
        assert_eq!(d["progress"], "1/2 tasks (50%) · phases 1/2", "{n}");
        assert_eq!(d["objective"], format!("plan {n} — login"));
        assert_eq!(item["started"], true);
        assert_eq!(plan_of(&status, n)["plan_state"], "open");
        let keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "kind", "priority", "file", "number", "slug", "summary", "command", "detail",
                "started"
            ]
        );
    }
    let next = |n: &str| {
        item_of(&status, n)["detail"]["next"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        next("001").starts_with(
            "RECONCILIATION PENDING by DEC-001 — revalidate F1 against SSO: resume at F1/T1.1"
        ),
        "{}",
        next("001")
    );
    assert!(next("002").starts_with("NO BASELINE SEAL — "));
    assert!(next("003").starts_with("BASELINE DIVERGENT — "));
    assert!(next("003").contains(SPEC_DIGEST));
    assert!(next("004").starts_with("BASELINE UNREADABLE — "));
    assert!(next("005").starts_with("BASELINE WITHOUT SPEC — docs/specs/009-spec-gone.md"));

    // resume: all five tie at the head, and every pending item is a candidate.
    let resume = ws.ok(&["resume", "--json"]);
    assert_eq!(resume["status"], "candidates");
    assert_eq!(resume["candidates"].as_array().unwrap().len(), 5);
    assert!(
        resume["action"]
            .as_str()
            .unwrap()
            .starts_with("5 items tie at the head of 5 pending")
    );
    // A proposal takes its objective, progress and next step from the item's detail.
    let first = &resume["candidates"][0];
    assert_eq!(first["next"], item_of(&status, "001")["detail"]["next"]);

    // The human board titles nothing new, but says the obligation under the plan.
    let (_, human) = ws.text(&["status", "--format", "human"]);
    assert!(
        human.contains("! RECONCILIATION PENDING by DEC-001"),
        "{human}"
    );
}

#[test]
fn a_done_plan_that_still_owes_is_inconsistent_and_an_unreadable_index_holds_it_open() {
    let ws = board();
    let sealed = format!("docs/specs/001-spec-login.md@{SPEC_DIGEST}");
    ws.write(
        "docs/plans/001-plan-login.md",
        &plan("001", Some(&sealed), "done", "validada", "x"),
    );
    let status = ws.ok(&["status", "--json"]);
    let p1 = plan_of(&status, "001");
    assert_eq!(p1["plan_state"], "inconsistent");
    assert_eq!(p1["final_validation_pending"], false);
    assert!(
        item_of(&status, "001")["detail"]["next"]
            .as_str()
            .unwrap()
            .starts_with("RECONCILIATION PENDING by DEC-001")
    );
    // The reference reads an index that is not JSON as no notes and calls this plan done; aw
    // keeps it open until the index is repaired (PROTOCOL.md).
    ws.write(INDEX, "{bad");
    let status = ws.ok(&["status", "--json"]);
    let p1 = plan_of(&status, "001");
    assert_eq!(p1["plan_state"], "inconsistent");
    assert!(p1["contract"].is_null());
    let pending = &p1["reconciliation"]["pending"][0];
    assert_eq!(pending["by"], "composición");
    assert!(
        pending["text"]
            .as_str()
            .unwrap()
            .starts_with("NOTE_INDEX_UNREADABLE: "),
        "{pending}"
    );
    // A valid index with no notes: nothing owed, the plan is done and leaves the pipeline.
    ws.write(
        INDEX,
        r#"{"schema":"workline.decision-index/v1","spec":{"path":"docs/specs/001-spec-login.md","number":"001"},"notes":[]}"#,
    );
    let status = ws.ok(&["status", "--json"]);
    let p1 = plan_of(&status, "001");
    assert_eq!(p1["plan_state"], "done");
    assert_eq!(
        p1["reconciliation"],
        json!({"pending": [], "resume_point": null, "closable": true})
    );
    assert_eq!(p1["contract"]["applied"], json!([]));
    assert!(
        !status["pipeline"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["number"] == "001" && i["kind"] == "plan-open")
    );
}

#[test]
fn loose_sessions_retirements_and_counts() {
    let ws = board();
    let created = ws.ok(&[
        "session-create",
        "--type",
        "quick",
        "--name",
        "loose",
        "--objective",
        "x",
    ]);
    let folder = created["folder"].as_str().unwrap().to_owned();
    ws.write(
        &format!(".workflow/sessions/{folder}/CHECKPOINT.md"),
        "# Checkpoint\n\n## Completed\n- wrote the parser\n\n## Pending / Next\n- test it\n",
    );
    ws.write(
        ".workflow/HISTORY.md",
        "# History\n\n## Retiros\n\n| Operación | Fecha | Comando | Objetivo | Resultado |\n|---|---|---|---|---|\n| 0123456789ab | 2026-08-20 | discard | plan:009 | retirado plan 009 · sin efectos git |\n",
    );
    let digest = "a".repeat(64);
    ws.write(
        ".workflow/.retirement/aaaa.json",
        &format!(
            r#"{{"version":1,"digest":"{digest}","phase":"prepared","opened":"2026-08-20T10:00:00.000Z","quarantine":"q","private_refs":[],"proposal":{{"event":{{"command":"discard","key":"plan:002"}}}}}}"#
        ),
    );
    let status = ws.ok(&["status", "--json"]);
    assert_eq!(status["loose_sessions"], json!([folder]));
    let session = &status["sessions"]["active"][0];
    assert_eq!(session["phase"], "reanudada");
    assert!(session["flow"].is_null());
    assert_eq!(
        status["terminal_events"],
        json!([{"operation": "0123456789ab", "date": "2026-08-20", "command": "discard",
                "target": "plan:009", "result": "retirado plan 009 · sin efectos git"}])
    );
    assert_eq!(
        status["pending_retirements"],
        json!([{"digest": digest, "command": "discard", "target": "plan:002", "phase": "prepared",
                "opened": "2026-08-20T10:00:00.000Z",
                "next": format!("aw discard apply plan:002 --approval {digest}")}])
    );
    assert_eq!(status["counts"]["terminal_events"], 1);
    // The loose session is not pending work: five plans are.
    assert_eq!(status["counts"]["pending"], 5);
    let keys: Vec<&str> = status
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "workspace",
            "specs",
            "plans",
            "sessions",
            "discarded",
            "terminal_events",
            "pending_retirements",
            "pipeline",
            "loose_sessions",
            "designs",
            "orphan_units",
            "counts"
        ]
    );
    let (_, human) = ws.text(&["status", "--format", "human"]);
    assert!(
        human.contains("1 session with work and no spec or plan"),
        "{human}"
    );
    assert!(
        human.contains(&format!("aw discard apply plan:002 --approval {digest}")),
        "{human}"
    );
}

#[test]
fn resume_outside_a_workspace_is_uninitialized_though_status_lists_the_documents() {
    let ws = Ws::bare();
    ws.write(
        "docs/specs/001-spec-draft.md",
        "---\nstatus: draft\n---\n# Spec\n",
    );
    ws.write(
        "docs/plans/001-plan-draft.md",
        &plan("001", None, "open", "pendiente", " "),
    );
    let resume = ws.ok(&["resume", "--json"]);
    assert_eq!(resume["status"], "uninitialized", "{resume}");
    assert!(
        resume["action"]
            .as_str()
            .unwrap()
            .contains("workspace-init")
    );
    let status = ws.ok(&["status", "--json"]);
    assert_eq!(status["specs"].as_array().unwrap().len(), 1);
    assert_eq!(status["plans"].as_array().unwrap().len(), 1);
    // A single head is a proposal that carries the whole pipeline as candidates.
    let ws = Ws::initialised();
    ws.write(
        "docs/specs/001-spec-draft.md",
        "---\nstatus: draft\n---\n# Spec\n",
    );
    let resume = ws.ok(&["resume", "--json"]);
    assert_eq!(
        (resume["status"].as_str(), resume["via"].as_str()),
        (Some("proposal"), Some("pipeline")),
        "{resume}"
    );
    assert_eq!(resume["candidates"].as_array().unwrap().len(), 1);
}
