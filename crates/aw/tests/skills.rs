//! `aw skills [--detail] [--host <id>]`: the role bindings, the advisory installed check and
//! each capability's readiness.

use crate::support::Ws;
use serde_json::json;

#[test]
fn the_json_model_has_every_role_the_sources_checks_warnings_and_capabilities() {
    let ws = Ws::new();
    let v = ws.ok(&["skills", "--json"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "skills",
            "sources",
            "bindingChecks",
            "warnings",
            "capabilities"
        ]
    );
    let roles: Vec<&str> = v["skills"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        roles,
        ["design", "sql", "git", "research", "diagrams", "overview"]
    );
    assert_eq!(
        v["skills"]["overview"],
        json!({"role": "overview", "skill": "w", "source": "default", "enabled": true})
    );
    assert_eq!(v["sources"], json!({"global": false, "workspace": false}));
    assert_eq!(v["bindingChecks"], json!([]));
    assert_eq!(v["capabilities"][0]["capability"], "design");
    assert_eq!(v["capabilities"][0]["state"], "ready");
}

#[test]
fn bindings_cascade_and_are_checked_against_the_installed_skills() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.home().join(".workflow")).unwrap();
    std::fs::write(
        ws.home().join(".workflow/skills.toml"),
        "[skills]\ngit = \"acme/git-plus\"\nsql = \"global-sql\"\n",
    )
    .unwrap();
    ws.write(
        ".workflow/skills.toml",
        "[skills]\nsql = \"ws-sql\"\nresearch = \"off\"\nfrobnicate = \"x\"\n",
    );
    ws.write(
        ".claude/skills/git-plus/SKILL.md",
        "---\nname: git-plus\n---\n# Git\n",
    );
    let v = ws.ok(&["skills", "--json"]);
    assert_eq!(v["sources"], json!({"global": true, "workspace": true}));
    assert_eq!(v["skills"]["sql"]["skill"], "ws-sql");
    assert_eq!(v["skills"]["sql"]["source"], "workspace");
    assert_eq!(v["skills"]["git"]["source"], "global");
    assert_eq!(v["skills"]["research"]["enabled"], false);
    let checks = v["bindingChecks"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "{checks:?}");
    assert_eq!(
        checks[0],
        json!({"role": "sql", "skill": "ws-sql", "source": "workspace", "installed": false})
    );
    assert_eq!(checks[1]["installed"], true, "matched by the last segment");
    let warnings: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(warnings.iter().any(|w| w.contains("frobnicate")));
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("'sql'") && w.contains("ws-sql"))
    );
    assert!(!warnings.iter().any(|w| w.contains("git-plus")));
}

#[test]
fn the_human_view_is_a_table_and_detail_adds_the_readiness() {
    let ws = Ws::new();
    ws.write(".workflow/skills.toml", "[skills]\nresearch = \"off\"\n");
    let (code, text) = ws.stdout(&["skills", "--format", "human"], None, &[]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("ROLE") && lines[0].contains("INSTALLED"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("research") && l.contains("off") && l.contains("workspace"))
    );
    assert!(!text.contains("design v1"));
    let (code, text) = ws.stdout(&["skills", "--detail"], None, &[]);
    assert_eq!(code, 0);
    assert!(text.contains("design v1 — ready"), "{text}");
    assert!(text.contains("· validate"));
}

#[test]
fn detail_with_json_and_an_unknown_host_are_refused() {
    let ws = Ws::new();
    ws.fails(&["skills", "--detail", "--json"], "ARGS_INVALID");
    ws.fails(&["skills", "--host", "vim", "--json"], "INVALID_INPUT");
}

#[test]
fn off_disables_the_capability_but_validate_stays_ready() {
    let ws = Ws::new();
    ws.write(".workflow/skills.toml", "[skills]\ndesign = \"off\"\n");
    let v = ws.ok(&["skills", "--json"]);
    let cap = &v["capabilities"][0];
    assert_eq!(cap["state"], "disabled");
    let ops = cap["operations"].as_array().unwrap();
    let state = |name: &str| ops.iter().find(|o| o["operation"] == name).unwrap()["state"].clone();
    assert_eq!(state("validate"), "ready");
    assert_eq!(state("create"), "disabled");
}

#[test]
fn the_direct_wrapper_is_found_where_the_host_keeps_skills() {
    let ws = Ws::new();
    let v = ws.ok(&["skills", "--host", "claude-code", "--json"]);
    let cap = &v["capabilities"][0];
    assert_eq!(cap["invocation"]["form"], "design");
    assert_eq!(
        cap["exposures"]["direct"]["state"], "unavailable",
        "{cap:#}"
    );
    let dir = ws.home().join(".claude/skills/design");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: design\n---\nsomeone else's\n",
    )
    .unwrap();
    let v = ws.ok(&["skills", "--host", "claude-code", "--json"]);
    assert_eq!(
        v["capabilities"][0]["exposures"]["direct"]["state"],
        "misconfigured"
    );
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: design\n---\n> Capability skill wrapper (installed by `aw self install-skill`). Run it.\n",
    )
    .unwrap();
    let v = ws.ok(&["skills", "--host", "claude-code", "--json"]);
    assert_eq!(
        v["capabilities"][0]["exposures"]["direct"]["state"],
        "ready"
    );
}
