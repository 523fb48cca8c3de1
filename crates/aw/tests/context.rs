//! `aw context-plan`, `aw context-budget` and `aw skill-index`. The bundle's documents change
//! as they are written, so nothing here depends on their text or sizes: expectations are
//! computed from `aw_bundle` (its files and read-sets) or from fixture trees written on disk.

use crate::support::Ws;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Writes the built-in bundle under `dir`, as an installer would.
fn write_bundle(dir: &Path) {
    for f in aw_bundle::FILES {
        let p = dir.join(f.path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, f.text).unwrap();
    }
}

fn size(path: &str) -> u64 {
    aw_bundle::file(path).unwrap().text.len() as u64
}

fn paths(plan: &Value) -> Vec<String> {
    plan["read_set"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_owned())
        .collect()
}

/// A workspace-free folder with the built-in bundle copied to `<tmp>/bundle`.
fn with_bundle() -> (Ws, PathBuf) {
    let ws = Ws::bare();
    let root = ws.root().join("bundle");
    write_bundle(&root);
    (ws, root)
}

#[test]
fn every_command_plans_its_core_in_order_with_the_packaged_sizes() {
    let ws = Ws::bare();
    for set in aw_bundle::READ_SETS {
        let v = ws.ok(&["context-plan", "--command", set.command]);
        assert_eq!(v["command"], set.command);
        assert_eq!(v["profile"], "compact");
        assert_eq!(paths(&v), set.core, "{}", set.command);
        let bytes: u64 = set.core.iter().map(|p| size(p)).sum();
        assert_eq!(v["bytes"], bytes);
        for e in v["read_set"].as_array().unwrap() {
            assert_eq!(e["kind"], "core");
            assert_eq!(e["missing"], false);
            assert_eq!(e["bytes"], size(e["path"].as_str().unwrap()));
            assert!(e["absolute"].is_null(), "the built-in bundle is not a file");
        }
        assert_eq!(v["receipt"]["root_origin"], "packaged");
        assert_eq!(v["receipt"]["reference_hops"], 0);
        assert_eq!(v["receipt"]["telemetry"], "local-only");
        assert_eq!(v["degraded"], false);
        let available: Vec<&str> = v["available_signals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["signal"].as_str().unwrap())
            .collect();
        let declared: Vec<&str> = set.modules.iter().map(|m| m.signal).collect();
        assert_eq!(available, declared);
    }
}

#[test]
fn a_signal_pulls_its_modules_in_after_the_core_and_signals_are_sorted_once() {
    let ws = Ws::bare();
    for set in aw_bundle::READ_SETS
        .iter()
        .filter(|s| !s.modules.is_empty())
    {
        let signal = set.modules[0].signal;
        let v = ws.ok(&[
            "context-plan",
            "--command",
            set.command,
            "--signal",
            signal,
            "--signal",
            signal,
        ]);
        assert_eq!(v["signals"], serde_json::json!([signal]));
        let mut want: Vec<&str> = set.core.to_vec();
        for m in set.modules.iter().filter(|m| m.signal == signal) {
            if !want.contains(&m.path) {
                want.push(m.path);
            }
        }
        assert_eq!(paths(&v), want, "{}", set.command);
        assert_eq!(v["profile"], "compact");
    }
}

/// The receipt keeps the reference's shape and types: `loaded` is the list of the paths read
/// (not a count), `fallback` is `{used, reasons}` (not a word), beside the command, profile,
/// signals, capabilities and bytes it describes.
#[test]
fn the_receipt_has_the_reference_keys_and_types() {
    let ws = Ws::bare();
    let set = &aw_bundle::READ_SETS[0];
    let v = ws.ok(&[
        "context-plan",
        "--command",
        set.command,
        "--capability",
        "web",
    ]);
    let receipt = &v["receipt"];
    let keys: Vec<&str> = receipt
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "command",
            "profile",
            "signals",
            "capabilities",
            "loaded",
            "reference_hops",
            "bytes",
            "tokens",
            "fallback",
            "root",
            "root_origin",
            "telemetry"
        ]
    );
    assert_eq!(receipt["command"], set.command);
    assert_eq!(receipt["profile"], "compact");
    assert_eq!(receipt["signals"], serde_json::json!([]));
    assert_eq!(receipt["capabilities"], serde_json::json!(["web"]));
    assert_eq!(receipt["loaded"], serde_json::json!(paths(&v)));
    assert_eq!(receipt["bytes"], v["bytes"]);
    assert_eq!(
        receipt["fallback"],
        serde_json::json!({"used": false, "reasons": []})
    );
}

#[test]
fn an_undeclared_signal_reads_the_core_and_every_module() {
    let ws = Ws::bare();
    let set = &aw_bundle::READ_SETS[0];
    let v = ws.ok(&[
        "context-plan",
        "--command",
        set.command,
        "--signal",
        "no-such-signal",
    ]);
    assert_eq!(v["profile"], "safe");
    assert_eq!(
        v["receipt"]["fallback"],
        serde_json::json!({"used": true, "reasons": ["undeclared signals: no-such-signal"]})
    );
    assert_eq!(v["degraded"], true);
    assert_eq!(v["unknown_signals"], serde_json::json!(["no-such-signal"]));
    assert!(v["notice"].as_str().unwrap().contains("no-such-signal"));
    let mut want: Vec<&str> = set.core.to_vec();
    for m in set.modules {
        if !want.contains(&m.path) {
            want.push(m.path);
        }
    }
    assert_eq!(paths(&v), want);
}

#[test]
fn a_root_on_disk_gives_absolute_paths_in_reading_order() {
    let (ws, root) = with_bundle();
    let real = root.canonicalize().unwrap();
    let set = &aw_bundle::READ_SETS[0];
    let v = ws.ok(&[
        "context-plan",
        "--command",
        set.command,
        "--root",
        root.to_str().unwrap(),
    ]);
    assert_eq!(v["receipt"]["root_origin"], "explicit");
    assert_eq!(v["receipt"]["root"], real.to_str().unwrap());
    let first = &v["read_set"][0];
    assert_eq!(first["absolute"], real.join(set.core[0]).to_str().unwrap());
    let (code, text) = ws.stdout(
        &[
            "context-plan",
            "--command",
            set.command,
            "--root",
            root.to_str().unwrap(),
            "--format",
            "human",
        ],
        None,
        &[],
    );
    assert_eq!(code, 0);
    let want: Vec<String> = set
        .core
        .iter()
        .map(|p| real.join(p).display().to_string())
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}

#[test]
fn a_missing_file_is_listed_missing_and_a_missing_module_turns_the_plan_safe() {
    let (ws, root) = with_bundle();
    let r = root.to_str().unwrap();
    // A missing core document: still listed, marked missing, the plan degraded.
    let set = &aw_bundle::READ_SETS[0];
    std::fs::remove_file(root.join(set.core[0])).unwrap();
    let v = ws.ok(&["context-plan", "--command", set.command, "--root", r]);
    assert_eq!(v["read_set"][0]["missing"], true);
    assert_eq!(v["read_set"][0]["bytes"], 0);
    assert_eq!(v["degraded"], true);
    assert!(v["notice"].as_str().unwrap().contains(set.core[0]));
    write_bundle(&root);
    // A missing module its signal needs: safe profile.
    for set in aw_bundle::READ_SETS
        .iter()
        .filter(|s| !s.modules.is_empty())
    {
        let m = &set.modules[0];
        std::fs::remove_file(root.join(m.path)).unwrap();
        let v = ws.ok(&[
            "context-plan",
            "--command",
            set.command,
            "--signal",
            m.signal,
            "--root",
            r,
        ]);
        assert_eq!(v["profile"], "safe", "{}", set.command);
        assert_eq!(v["receipt"]["fallback"]["used"], true);
        assert_eq!(
            v["receipt"]["fallback"]["reasons"],
            serde_json::json!([format!("the bundle lacks: {}", m.path)])
        );
        assert_eq!(v["degraded"], true);
        write_bundle(&root);
    }
}

#[test]
fn a_command_document_added_to_a_root_reads_only_itself() {
    let (ws, root) = with_bundle();
    std::fs::write(
        root.join("commands/extra.md"),
        "---\ndescription: x\n---\nbody\n",
    )
    .unwrap();
    let v = ws.ok(&[
        "context-plan",
        "--command",
        "extra",
        "--root",
        root.to_str().unwrap(),
    ]);
    assert_eq!(paths(&v), ["commands/extra.md"]);
}

#[test]
fn plan_refusals() {
    let (ws, root) = with_bundle();
    ws.fails(&["context-plan"], "CONTEXT_PLAN_NO_COMMAND");
    let v = ws.fails(
        &["context-plan", "--command", "no-such"],
        "CONTEXT_PLAN_UNKNOWN_COMMAND",
    );
    let names: Vec<&str> = aw_bundle::commands().map(|(n, _)| n).collect();
    assert_eq!(
        v["error"]["details"]["available_commands"],
        serde_json::json!(names)
    );
    for name in &names {
        assert!(v["data"]["action"].as_str().unwrap().contains(name));
    }
    let missing = ws.root().join("nowhere");
    ws.fails(
        &[
            "context-plan",
            "--command",
            "quick",
            "--root",
            missing.to_str().unwrap(),
        ],
        "CONTEXT_ROOT_NOT_FOUND",
    );
    std::fs::remove_dir_all(root.join("commands")).unwrap();
    ws.fails(
        &[
            "context-plan",
            "--command",
            "quick",
            "--root",
            root.to_str().unwrap(),
        ],
        "CONTEXT_ROOT_NOT_A_BUNDLE",
    );
    ws.fails(
        &["context-budget", "--root", root.to_str().unwrap()],
        "CONTEXT_ROOT_NOT_A_BUNDLE",
    );
}

#[test]
fn the_budget_measures_what_the_bundle_holds() {
    let ws = Ws::bare();
    let v = ws.ok(&["context-budget"]);
    assert_eq!(v["verdict"], "measured");
    let total: u64 = aw_bundle::FILES.iter().map(|f| f.text.len() as u64).sum();
    assert_eq!(v["bundle"]["files"], aw_bundle::FILES.len());
    assert_eq!(v["bundle"]["bytes"], total);
    assert_eq!(v["bundle"]["tokens"], total.div_ceil(4));
    assert_eq!(v["revision"]["files"], aw_bundle::FILES.len());
    assert_eq!(v["revision"]["digest"].as_str().unwrap().len(), 16);
    let rows = v["guaranteed"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), aw_bundle::READ_SETS.len());
    for (row, set) in rows.iter().zip(aw_bundle::READ_SETS) {
        assert_eq!(row["command"], set.command);
        let bytes: u64 = set.core.iter().map(|p| size(p)).sum();
        assert_eq!(row["bytes"], bytes);
        assert_eq!(row["files"], set.core.len());
    }
    for row in v["activation"]["rows"].as_array().unwrap() {
        assert_eq!(row["bytes"], size(row["path"].as_str().unwrap()));
    }
    // The same tree on disk measures the same, revision included.
    let (ws, root) = with_bundle();
    let on_disk = ws.ok(&["context-budget", "--root", root.to_str().unwrap()]);
    assert_eq!(on_disk["revision"]["digest"], v["revision"]["digest"]);
    assert_eq!(on_disk["guaranteed"], v["guaranteed"]);
}

#[test]
fn the_budget_passes_its_own_baseline_and_fails_when_a_read_set_grows_past_it() {
    let (ws, root) = with_bundle();
    let r = root.to_str().unwrap();
    let frozen = ws.ok(&["context-budget", "--root", r]);
    let baseline = ws.root().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_string(&frozen).unwrap()).unwrap();
    let b = baseline.to_str().unwrap();

    let v = ws.ok(&["context-budget", "--root", r, "--baseline", b]);
    assert_eq!(v["verdict"], "ok");
    assert_eq!(v["baseline"]["same_revision"], true);
    assert!(v["offenders"].as_array().unwrap().is_empty());

    // A command document grows by a fifth: its activation and its read-set pass the ceiling.
    let set = &aw_bundle::READ_SETS[0];
    let doc = root.join(set.core[0]);
    let mut text = std::fs::read_to_string(&doc).unwrap();
    let core: u64 = set.core.iter().map(|p| size(p)).sum();
    text.push_str(&"x".repeat((core / 5 + 10) as usize));
    std::fs::write(&doc, text).unwrap();
    let (code, v) = ws.run(&["context-budget", "--root", r, "--baseline", b]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["verdict"], "over-budget");
    assert_eq!(v["baseline"]["same_revision"], false);
    let offenders: Vec<(String, String)> = v["offenders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            assert!(o["actual"].as_u64() > o["ceiling"].as_u64());
            (
                o["measure"].as_str().unwrap().to_owned(),
                o["key"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        offenders.contains(&("guaranteed".to_owned(), set.command.to_owned())),
        "{offenders:?}"
    );
    assert!(offenders.contains(&("activation".to_owned(), set.command.to_owned())));
    assert!(
        offenders
            .iter()
            .all(|(m, k)| k == set.command || m != "guaranteed"),
        "only that command's read-set is over: {offenders:?}"
    );
    let (code, text) = ws.stdout(
        &[
            "context-budget",
            "--root",
            r,
            "--baseline",
            b,
            "--format",
            "human",
        ],
        None,
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        text.contains("over-budget") && text.contains(set.command),
        "{text}"
    );
}

#[test]
fn a_command_new_since_the_freeze_is_reported_not_judged() {
    let (ws, root) = with_bundle();
    let r = root.to_str().unwrap();
    let baseline = ws.root().join("baseline.json");
    let frozen = ws.ok(&["context-budget", "--root", r]);
    std::fs::write(&baseline, serde_json::to_string(&frozen).unwrap()).unwrap();
    std::fs::write(root.join("commands/extra.md"), "x\n").unwrap();
    let v = ws.ok(&[
        "context-budget",
        "--root",
        r,
        "--baseline",
        baseline.to_str().unwrap(),
    ]);
    assert_eq!(v["verdict"], "ok");
    let new: Vec<&str> = v["new_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(new, ["extra", "extra"]);
    assert!(v["new_rows"][0]["ceiling"].is_null());
}

#[test]
fn a_baseline_that_is_not_a_budget_report_is_refused() {
    let ws = Ws::bare();
    ws.write("not-json.json", "{");
    ws.write("other.json", "{\"discovery\": {}}");
    // A real report with its per-command rows emptied would judge nothing: refused too.
    let mut hollow = ws.ok(&["context-budget"]);
    hollow["activation"]["rows"] = Value::Array(Vec::new());
    hollow["guaranteed"]["rows"] = Value::Array(Vec::new());
    ws.write("hollow.json", &hollow.to_string());
    for f in ["not-json.json", "other.json", "absent.json", "hollow.json"] {
        ws.fails(
            &[
                "context-budget",
                "--baseline",
                ws.root().join(f).to_str().unwrap(),
            ],
            "CONTEXT_BASELINE_INVALID",
        );
    }
}

#[test]
fn skill_index_lists_the_installed_skills_from_their_frontmatter() {
    let ws = Ws::bare();
    let put = |dir: &Path, text: &str| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    };
    let home = ws.home();
    put(
        &home.join(".claude/skills/w"),
        "---\nname: w\ndescription: Orientation.\nmetadata:\n  version: 1.4.0\n---\nbody\n",
    );
    put(
        &home.join(".gemini/skills/w-quick"),
        "---\ndescription: Quick.\n---\n",
    );
    put(&home.join(".codex/skills/broken"), "no frontmatter\n");
    std::fs::create_dir_all(home.join(".opencode/skills/empty")).unwrap();
    let extra = ws.root().join("plugin/skills");
    put(&extra.join("tool"), "---\nname: tool\nversion: 2\n---\n");

    let v = ws.ok(&["skill-index", "--root", extra.to_str().unwrap()]);
    let skills = v["skills"].as_array().unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["w", "w-quick", "tool"]);
    assert_eq!(v["count"], 3);
    assert_eq!(skills[0]["version"], "1.4.0");
    assert_eq!(skills[0]["description"], "Orientation.");
    assert_eq!(
        skills[0]["path"],
        home.join(".claude/skills/w").to_str().unwrap()
    );
    assert!(skills[1]["version"].is_null());
    assert_eq!(skills[2]["version"], "2");
    assert_eq!(skills[2]["root"], extra.to_str().unwrap());
    let roots: Vec<&str> = v["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    for host in [".claude", ".codex", ".gemini", ".opencode", ".agents"] {
        let want = home.join(host).join("skills");
        assert!(
            roots.contains(&want.to_str().unwrap()),
            "{want:?} in {roots:?}"
        );
    }
    let (code, text) = ws.stdout(&["skill-index", "--format", "human"], None, &[]);
    assert_eq!(code, 0);
    assert!(text.contains("w-quick") && text.contains("1.4.0"), "{text}");
}

/// The CI check: the bundle built into aw stays within the baseline frozen beside it
/// (`crates/aw-bundle/context-baseline.json`). Growing a command's read-set past it on purpose
/// means freezing a new baseline in the same change: `aw context-budget --json > …`.
#[test]
fn the_packaged_bundle_stays_within_its_frozen_baseline() {
    let ws = Ws::bare();
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("../aw-bundle/context-baseline.json");
    let (code, v) = ws.run(&["context-budget", "--baseline", baseline.to_str().unwrap()]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["verdict"], "ok", "{v:#}");
}
