//! `aw workspace-migrate`: the worked example of the v22 workspace spec (§4.4) end to end — a
//! preview that writes nothing, an apply that renames block markers byte for byte, cuts the
//! empty duplicate block, seeds the missing `.closed` and HISTORY row, leaves each conflict
//! untouched — and a second preview with nothing pending.

use crate::support::Ws;
use serde_json::{Value, json};

const BLOCK: &str = "## Proyecto\n\nDemo hub\n\n## Fuentes\n\n| Alias | Path | Rama principal |\n\
    |---|---|---|\n| app | . | main |\n\n## Stack\n\n_Stack sin detectar._\n\n## Status\n\n\
    - Última actividad: 2025-02-01\n- Histórico: `.workflow/HISTORY.md`\n";

fn example() -> Ws {
    let ws = Ws::bare();
    let root = ws.root();
    let old = format!(
        "<!-- AGENT-WORKFLOW-PROJECT-START -->\n{BLOCK}<!-- AGENT-WORKFLOW-PROJECT-END -->\n"
    );
    std::fs::write(root.join("CLAUDE.md"), format!("# Hub\n\n{old}")).unwrap();
    let shell = "<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\n_Describe el proyecto aquí._\n\n\
        ## Fuentes\n\n| Alias | Path | Rama principal |\n|---|---|---|\n\n## Status\n\n\
        - Última actividad: 2026-01-01\n<!-- WORKFLOW-PROJECT-END -->\n";
    std::fs::write(
        root.join("AGENTS.md"),
        format!("# Agents\n\n{old}\n{shell}"),
    )
    .unwrap();
    let sessions = root.join(".workflow/sessions");
    for (folder, day) in [
        ("session001-alpha", "1"),
        ("session002-beta", "2"),
        ("session003-gamma", "3"),
        ("session004-delta", "4"),
        ("004-new-quick", "4"),
        ("005-current-quick", "5"),
    ] {
        std::fs::create_dir_all(sessions.join(folder)).unwrap();
        std::fs::write(
            sessions.join(folder).join("SESSION.md"),
            format!("# SESSION\n\nFecha de inicio: 2025-02-0{day}\n"),
        )
        .unwrap();
    }
    std::fs::write(sessions.join("session003-gamma/.closed"), "").unwrap();
    std::fs::write(
        root.join(".workflow/HISTORY.md"),
        "# HISTORY\n\n| Sesión | Fecha | Estado | Refs |\n|---|---|---|---|\n\
         | 001-alpha | 2025-02-01 | closed | — |\n| 003-gamma | 2025-02-03 | active | — |\n",
    )
    .unwrap();
    ws
}

fn reasons(v: &Value) -> Vec<(String, String)> {
    v["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["subject"].as_str().unwrap().to_owned(),
                c["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn snapshot(ws: &Ws) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for f in ["CLAUDE.md", "AGENTS.md", ".workflow/HISTORY.md"] {
        out.push((f.to_owned(), std::fs::read(ws.root().join(f)).unwrap()));
    }
    out
}

#[test]
fn the_preview_of_the_worked_example_writes_nothing() {
    let ws = example();
    let before = snapshot(&ws);
    let v = ws.ok(&["workspace-migrate", "--json"]);
    assert_eq!(v["action"], "preview");
    assert_eq!(
        v["markers"],
        json!([
            {"file": "CLAUDE.md", "from": "AGENT-WORKFLOW", "to": "WORKFLOW", "drops_duplicate": false},
            {"file": "AGENTS.md", "from": "AGENT-WORKFLOW", "to": "WORKFLOW", "drops_duplicate": true}
        ])
    );
    assert_eq!(
        v["sentinels"],
        json!([{"folder": "session001-alpha", "date": "2025-02-01"}])
    );
    assert_eq!(
        v["rows"],
        json!([{"folder": "session002-beta", "state": "active", "date": "2025-02-02"}])
    );
    assert_eq!(
        reasons(&v),
        [
            (
                "session003-gamma".to_owned(),
                "estado_divergente".to_owned()
            ),
            (
                "session004-delta".to_owned(),
                "numero_compartido".to_owned()
            )
        ]
    );
    assert_eq!(v["legacy"].as_array().unwrap().len(), 4);
    assert_eq!(v["next_correlative"], "006");
    assert_eq!(v["pending"], 4);
    assert_eq!(v["next"], "aw workspace-migrate --apply");
    assert_eq!(snapshot(&ws), before, "a preview writes nothing");
    assert!(!ws.sessions().join("session001-alpha/.closed").exists());
}

#[test]
fn apply_migrates_byte_for_byte_and_a_second_preview_has_nothing_pending() {
    let ws = example();
    let v = ws.ok(&["workspace-migrate", "--apply", "--json"]);
    assert_eq!(v["action"], "apply");
    assert_eq!(v["sentinels_seeded"], json!(["session001-alpha"]));
    assert_eq!(v["rows_seeded"], json!(["session002-beta"]));
    assert_eq!(v["rows_without_date"], json!([]));
    assert_eq!(v["markers_renamed"].as_array().unwrap().len(), 2);
    assert_eq!(v["duplicates_dropped"].as_array().unwrap().len(), 1);
    let claude = std::fs::read_to_string(ws.root().join("CLAUDE.md")).unwrap();
    assert_eq!(
        claude,
        format!("# Hub\n\n<!-- WORKFLOW-PROJECT-START -->\n{BLOCK}<!-- WORKFLOW-PROJECT-END -->\n")
    );
    let agents = std::fs::read_to_string(ws.root().join("AGENTS.md")).unwrap();
    assert_eq!(
        agents,
        format!(
            "# Agents\n\n<!-- WORKFLOW-PROJECT-START -->\n{BLOCK}<!-- WORKFLOW-PROJECT-END -->\n"
        )
    );
    let history = std::fs::read_to_string(ws.root().join(".workflow/HISTORY.md")).unwrap();
    assert!(
        history.contains("| 002-beta | 2025-02-02 | active | — |"),
        "{history}"
    );
    assert!(
        history.contains("| 003-gamma | 2025-02-03 | active | — |"),
        "untouched: {history}"
    );
    assert_eq!(
        std::fs::read(ws.sessions().join("session001-alpha/.closed")).unwrap(),
        b""
    );
    // The board reads the block under the new markers.
    assert_eq!(ws.ok(&["sources", "--json"])["sources"][0]["alias"], "app");
    let again = ws.ok(&["workspace-migrate", "--json"]);
    assert_eq!(again["pending"], 0, "{again:#}");
    assert_eq!(reasons(&again).len(), 2, "the conflicts stay, untouched");
    let (code, human) = ws.text(&["workspace-migrate", "--format", "human"]);
    assert_eq!(code, 0);
    assert!(human.contains("Nothing to migrate."), "{human}");
}

#[test]
fn an_empty_block_that_declares_more_is_a_conflict_and_nothing_is_written() {
    let ws = example();
    let agents = ws.root().join("AGENTS.md");
    let text = std::fs::read_to_string(&agents).unwrap();
    std::fs::write(
        &agents,
        text.replace(
            "|---|---|---|\n\n## Status",
            "|---|---|---|\n| web | ../web | main |\n\n## Status",
        ),
    )
    .unwrap();
    let before = std::fs::read(&agents).unwrap();
    let v = ws.ok(&["workspace-migrate", "--apply", "--json"]);
    let conflicts = reasons(&v);
    assert!(
        conflicts
            .iter()
            .any(|(s, r)| s.ends_with("/AGENTS.md") && r == "duplicado_con_contenido"),
        "{conflicts:?}"
    );
    assert_eq!(std::fs::read(&agents).unwrap(), before);
}

#[test]
fn run_from_a_subfolder_it_migrates_the_workspace_it_is_in() {
    let ws = example();
    let sub = ws.root().join("docs/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let v = ws.ok_in(&sub, &["workspace-migrate", "--json"]);
    assert_eq!(v["pending"], 4, "{v:#}");
    assert_eq!(v["legacy"].as_array().unwrap().len(), 4);
}
