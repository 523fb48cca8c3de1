//! `aw family settings`: the bridges' host settings file, typed by the real members' `settings`
//! blocks (tests/fixtures/family/members), under a temporary HOME and XDG_CONFIG_HOME.

use crate::support::{Ws, copy_tree, fixture_path};
use serde_json::Value;
use std::path::PathBuf;

/// The known keys in the kit's order: the roster's bridges, codex first.
const KEYS: [&str; 6] = [
    "CODEX_SERVICE_TIER",
    "CODEX_HARD_TIMEOUT",
    "CODEX_REVIEW_MAX_TOTAL_BYTES",
    "AGY_HARD_TIMEOUT",
    "AGY_REVIEW_ALLOW_ADDDIR",
    "AGY_REVIEW_MAX_TOTAL_BYTES",
];

/// A bare folder whose HOME has the five real members installed under `.claude/skills`, and an
/// XDG_CONFIG_HOME of its own; no setting variable leaks in from the caller.
fn family() -> Ws {
    let ws = Ws::bare();
    copy_tree(
        &fixture_path("family/members"),
        &ws.home().join(".claude/skills"),
    );
    let xdg = ws.home().join("xdg");
    let mut ws = ws.with_env("XDG_CONFIG_HOME", xdg.to_str().unwrap());
    for k in KEYS {
        ws = ws.without_env(k);
    }
    ws
}

fn conf(ws: &Ws) -> PathBuf {
    ws.home().join("xdg/agent-workflow/bridge-settings.conf")
}

fn write_conf(ws: &Ws, text: &str) {
    let p = conf(ws);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn read_conf(ws: &Ws) -> String {
    std::fs::read_to_string(conf(ws)).unwrap()
}

fn setting<'v>(list: &'v Value, key: &str) -> &'v Value {
    list["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("{key} missing: {list:#}"))
}

/// A refusal: exit 2 (the kit's), the code, and the JSON error.
fn refused(ws: &Ws, args: &[&str], code: &str) -> Value {
    let (exit, v) = ws.run(args);
    assert_eq!(exit, 2, "{args:?}: {v:#}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], code, "{v:#}");
    assert!(v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()));
    v
}

#[test]
fn family_settings_list_shows_every_key_of_the_installed_members_with_defaults() {
    let ws = family();
    let v = ws.ok(&["family", "settings", "list"]);
    let keys: Vec<&str> = v["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, KEYS);
    assert_eq!(v["exists"], false);
    assert!(
        v["file"]
            .as_str()
            .unwrap()
            .ends_with("xdg/agent-workflow/bridge-settings.conf")
    );
    let max = setting(&v, "CODEX_REVIEW_MAX_TOTAL_BYTES");
    assert_eq!(max["value"], "1500000");
    assert_eq!(max["source"], "default");
    assert_eq!(max["allowed"], "integer 1..100000000");
    assert_eq!(max["member"], "codex-cli-bridge");
    let tier = setting(&v, "CODEX_SERVICE_TIER");
    assert_eq!(
        tier["value"],
        Value::Null,
        "a null default: the wrapper's built-in applies"
    );
    assert_eq!(tier["allowed"], "\"priority\"");
    assert!(setting(&v, "AGY_REVIEW_ALLOW_ADDDIR")["retired"].is_string());
    let members: Vec<(&str, &str)> = v["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), m["class"].as_str().unwrap()))
        .collect();
    assert_eq!(
        members,
        [
            ("codex-cli-bridge", "valid"),
            ("antigravity-cli-bridge", "valid")
        ],
        "the bridges only, as the kit's registry reads them"
    );
    // No verb is `list`; nothing was written.
    assert_eq!(ws.ok(&["family", "settings"])["settings"], v["settings"]);
    assert!(!conf(&ws).exists());
}

#[test]
fn family_settings_get_resolves_env_over_file_over_default_with_the_source() {
    let ws = family();
    let get = |env: &[(&str, &str)]| {
        let (code, v) = ws.run_env(&["family", "settings", "get", "AGY_HARD_TIMEOUT"], env);
        assert_eq!(code, 0, "{v:#}");
        v["setting"].clone()
    };
    let s = get(&[]);
    assert_eq!(
        (s["value"].clone(), s["source"].clone()),
        (Value::Null, "default".into())
    );
    write_conf(&ws, "AGY_HARD_TIMEOUT=5m\n");
    let s = get(&[]);
    assert_eq!(
        (s["value"].as_str(), s["source"].as_str()),
        (Some("5m"), Some("file"))
    );
    let s = get(&[("AGY_HARD_TIMEOUT", "90s")]);
    assert_eq!(
        (s["value"].as_str(), s["source"].as_str()),
        (Some("90s"), Some("env"))
    );
    assert_eq!(s["file"], "5m");
    // An env value the kind refuses is reported, and the built-in value applies: with the
    // variable set, the wrappers never read the file's line.
    let s = get(&[("AGY_HARD_TIMEOUT", "0s")]);
    assert_eq!(
        (s["value"].clone(), s["source"].as_str()),
        (Value::Null, Some("default"))
    );
    assert_eq!(s["ignored"][0]["source"], "env");
    assert_eq!(s["ignored"][0]["value"], "0s");
    // A file value the kind refuses falls back to the default.
    write_conf(&ws, "CODEX_REVIEW_MAX_TOTAL_BYTES=-5\n");
    let (_, v) = ws.run(&["family", "settings", "get", "CODEX_REVIEW_MAX_TOTAL_BYTES"]);
    assert_eq!(v["setting"]["value"], "1500000");
    assert_eq!(v["setting"]["source"], "default");
    assert_eq!(v["setting"]["ignored"][0]["source"], "file");
}

#[test]
fn family_settings_set_accepts_each_kind_in_its_form() {
    let ws = family();
    for (k, val) in [
        ("CODEX_SERVICE_TIER", "priority"),
        ("CODEX_HARD_TIMEOUT", "86400"),
        ("AGY_HARD_TIMEOUT", "0.5m"),
        ("AGY_REVIEW_MAX_TOTAL_BYTES", "1"),
    ] {
        let v = ws.ok(&["family", "settings", "set", k, val]);
        assert_eq!(v["changed"], true);
        assert_eq!(v["setting"]["value"], val);
        assert_eq!(v["setting"]["source"], "file");
    }
    assert_eq!(
        read_conf(&ws),
        "CODEX_SERVICE_TIER=priority\nCODEX_HARD_TIMEOUT=86400\nAGY_HARD_TIMEOUT=0.5m\nAGY_REVIEW_MAX_TOTAL_BYTES=1\n"
    );
    let again = ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "86400"]);
    assert_eq!(again["changed"], false);
    assert_eq!(again["previous"], "86400");
}

#[test]
fn family_settings_set_refuses_a_value_its_kind_refuses_and_shows_the_allowed_form() {
    let ws = family();
    for (k, val, allowed) in [
        ("AGY_HARD_TIMEOUT", "0s", "duration"),
        ("AGY_HARD_TIMEOUT", "00.0m", "duration"),
        ("AGY_HARD_TIMEOUT", "5", "duration"),
        ("AGY_HARD_TIMEOUT", "5ms", "duration"),
        ("CODEX_HARD_TIMEOUT", "0", "integer 1..86400"),
        ("CODEX_HARD_TIMEOUT", "86401", "integer 1..86400"),
        ("CODEX_HARD_TIMEOUT", "-1", "integer 1..86400"),
        ("CODEX_SERVICE_TIER", "Priority", "\"priority\""),
        ("CODEX_SERVICE_TIER", "", "\"priority\""),
    ] {
        let v = refused(
            &ws,
            &["family", "settings", "set", k, val],
            "FAMILY_SETTINGS_INVALID_VALUE",
        );
        assert!(
            v["error"]["details"]["allowed"]
                .as_str()
                .unwrap()
                .starts_with(allowed),
            "{k}={val}: {v:#}"
        );
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("allowed: ")
        );
    }
    // The only boolean is retired, so a boolean is checked through --from on a member that
    // declares a live one.
    let dir = ws.root().join("bool-bridge");
    copy_tree(&fixture_path("family/members/antigravity-cli-bridge"), &dir);
    let m = dir.join("capability.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let mut json: Value = serde_json::from_str(&text).unwrap();
    for s in json["settings"].as_array_mut().unwrap() {
        if let Some(o) = s.as_object_mut() {
            o.remove("retired");
        }
    }
    std::fs::write(&m, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let from = dir.to_str().unwrap();
    for bad in ["true", "2", "01", " 1"] {
        let v = refused(
            &ws,
            &[
                "family",
                "settings",
                "--from",
                from,
                "set",
                "AGY_REVIEW_ALLOW_ADDDIR",
                bad,
            ],
            "FAMILY_SETTINGS_INVALID_VALUE",
        );
        assert_eq!(v["error"]["details"]["allowed"], "\"0\" | \"1\"");
    }
    ws.ok(&[
        "family",
        "settings",
        "--from",
        from,
        "set",
        "AGY_REVIEW_ALLOW_ADDDIR",
        "1",
    ]);
    assert_eq!(
        read_conf(&ws),
        "AGY_REVIEW_ALLOW_ADDDIR=1\n",
        "nothing refused was written"
    );
}

#[test]
fn family_settings_retired_key_is_refused_on_set_and_allowed_on_unset() {
    let ws = family();
    let v = refused(
        &ws,
        &["family", "settings", "set", "AGY_REVIEW_ALLOW_ADDDIR", "1"],
        "FAMILY_SETTINGS_RETIRED",
    );
    let why = v["error"]["details"]["retired"].as_str().unwrap();
    assert!(why.contains("--add-dir offload is retired"));
    assert!(v["error"]["message"].as_str().unwrap().contains(why));
    assert!(!conf(&ws).exists());
    write_conf(&ws, "# keep\nAGY_REVIEW_ALLOW_ADDDIR=1\n");
    let v = ws.ok(&["family", "settings", "unset", "AGY_REVIEW_ALLOW_ADDDIR"]);
    assert_eq!(v["removed"], 1);
    assert_eq!(read_conf(&ws), "# keep\n");
}

#[test]
fn family_settings_unknown_key_is_refused_with_the_known_list() {
    let ws = family();
    for args in [
        &["family", "settings", "set", "CODEX_TIMEOUT", "5"][..],
        &["family", "settings", "get", "CODEX_TIMEOUT"],
        &["family", "settings", "unset", "CODEX_TIMEOUT"],
    ] {
        let v = refused(&ws, args, "FAMILY_SETTINGS_UNKNOWN_KEY");
        assert_eq!(v["error"]["details"]["known"], serde_json::json!(KEYS));
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("CODEX_HARD_TIMEOUT")
        );
    }
    assert!(!conf(&ws).exists());
    // A key no member declares can still be removed once it is in the file.
    write_conf(&ws, "CODEX_TIMEOUT=5\nCODEX_HARD_TIMEOUT=9\n");
    ws.ok(&["family", "settings", "unset", "CODEX_TIMEOUT"]);
    assert_eq!(read_conf(&ws), "CODEX_HARD_TIMEOUT=9\n");
}

#[test]
fn family_settings_set_and_unset_keep_the_users_comments_and_order() {
    let ws = family();
    let text = "# my host knobs\n\nCODEX_HARD_TIMEOUT=60   \n  # tier below\nCODEX_SERVICE_TIER=priority\n# trailing note\n";
    write_conf(&ws, text);
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "120"]);
    assert_eq!(
        read_conf(&ws),
        text.replace("CODEX_HARD_TIMEOUT=60   ", "CODEX_HARD_TIMEOUT=120")
    );
    ws.ok(&["family", "settings", "set", "AGY_HARD_TIMEOUT", "30m"]);
    ws.ok(&["family", "settings", "unset", "CODEX_SERVICE_TIER"]);
    assert_eq!(
        read_conf(&ws),
        "# my host knobs\n\nCODEX_HARD_TIMEOUT=120\n  # tier below\n# trailing note\nAGY_HARD_TIMEOUT=30m\n"
    );
    // A duplicate is folded into the first line when the key is set.
    write_conf(
        &ws,
        "A_NOTE=x\nCODEX_HARD_TIMEOUT=1\n# mid\nCODEX_HARD_TIMEOUT=2\n",
    );
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "3"]);
    assert_eq!(read_conf(&ws), "A_NOTE=x\nCODEX_HARD_TIMEOUT=3\n# mid\n");
}

#[test]
fn family_settings_reconcile_classifies_unknown_retired_duplicate_and_current() {
    let ws = family();
    let v = ws.ok(&["family", "settings", "reconcile"]);
    assert_eq!(v["allCurrent"], true, "no file: nothing to flag");
    write_conf(
        &ws,
        "# c\nCODEX_HARD_TIMEOUT=60\nAGY_REVIEW_ALLOW_ADDDIR=1\nCODEX_HARD_TIMEOUT=70\nOLD_KNOB=1\nAGY_HARD_TIMEOUT=5\n",
    );
    let v = ws.ok(&["family", "settings", "reconcile"]);
    let classes: Vec<(&str, &str, u64)> = v["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["key"].as_str().unwrap(),
                k["class"].as_str().unwrap(),
                k["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        classes,
        [
            ("CODEX_HARD_TIMEOUT", "current", 2),
            ("AGY_REVIEW_ALLOW_ADDDIR", "retired", 3),
            ("CODEX_HARD_TIMEOUT", "duplicate", 4),
            ("OLD_KNOB", "unknown", 5),
            ("AGY_HARD_TIMEOUT", "current", 6),
        ]
    );
    assert_eq!(
        v["keys"][4]["valid"], false,
        "a current key whose value is refused says so"
    );
    assert_eq!(v["allCurrent"], false);
    assert_eq!(v["counts"]["duplicate"], 1);
    let before = read_conf(&ws);
    let (code, text) = ws.stdout(
        &["family", "settings", "reconcile", "--format", "human"],
        None,
        &[],
    );
    assert_eq!(code, 0);
    assert!(text.contains("line 5: OLD_KNOB unknown"), "{text}");
    assert_eq!(read_conf(&ws), before, "reconcile only reads");
}

#[test]
fn family_settings_from_reads_only_the_named_members_and_refuses_an_invalid_one() {
    let ws = family();
    let codex = fixture_path("family/members/codex-cli-bridge");
    let v = ws.ok(&["family", "settings", "--from", codex.to_str().unwrap()]);
    assert_eq!(v["settings"].as_array().unwrap().len(), 3);
    let bad = ws.root().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("capability.json"), "{").unwrap();
    let (code, v) = ws.run(&["family", "settings", "--from", "bad", "list"]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "FAMILY_SETTINGS_MANIFEST_INVALID");
    // An installed bridge whose manifest breaks adds no keys and is listed as skipped.
    let agy = ws
        .home()
        .join(".claude/skills/antigravity-cli-bridge/capability.json");
    std::fs::write(&agy, "{").unwrap();
    let v = ws.ok(&["family", "settings", "list"]);
    assert_eq!(v["settings"].as_array().unwrap().len(), 3);
    let last = v["members"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["class"], "invalid");
    assert!(
        last["dir"]
            .as_str()
            .unwrap()
            .ends_with("antigravity-cli-bridge")
    );
}

#[test]
fn a_projects_own_copy_of_a_bridge_never_defines_the_keys() {
    let ws = family();
    // A cloned project ships a bridge copy that would allow another tier.
    let own = ws.root().join(".claude/skills/codex-cli-bridge");
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &own);
    let m = own.join("capability.json");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&m).unwrap()).unwrap();
    for s in json["settings"].as_array_mut().unwrap() {
        if s["key"] == "CODEX_SERVICE_TIER" {
            s["values"] = serde_json::json!(["priority", "flex"]);
        }
    }
    std::fs::write(&m, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    refused(
        &ws,
        &["family", "settings", "set", "CODEX_SERVICE_TIER", "flex"],
        "FAMILY_SETTINGS_INVALID_VALUE",
    );
    assert!(!conf(&ws).exists());
}

#[test]
fn family_settings_file_falls_back_to_home_config_and_the_human_view_names_sources() {
    let ws = family();
    let (code, v) = ws.run_env(
        &["family", "settings", "set", "CODEX_HARD_TIMEOUT", "30"],
        &[("XDG_CONFIG_HOME", "")],
    );
    assert_eq!(code, 0, "{v:#}");
    let home_conf = ws
        .home()
        .join(".config/agent-workflow/bridge-settings.conf");
    assert_eq!(
        std::fs::read_to_string(&home_conf).unwrap(),
        "CODEX_HARD_TIMEOUT=30\n"
    );
    let (code, text) = ws.stdout(
        &["family", "settings", "list", "--format", "human"],
        None,
        &[("XDG_CONFIG_HOME", ""), ("CODEX_SERVICE_TIER", "priority")],
    );
    assert_eq!(code, 0);
    assert!(text.contains("CODEX_HARD_TIMEOUT = 30 [file]"), "{text}");
    assert!(
        text.contains("CODEX_SERVICE_TIER = priority [env]"),
        "{text}"
    );
    assert!(
        text.contains("CODEX_REVIEW_MAX_TOTAL_BYTES = 1500000 [default]"),
        "{text}"
    );
    assert!(text.contains("RETIRED"), "{text}");
}

#[cfg(unix)]
#[test]
fn family_settings_a_new_file_follows_the_umask_and_an_existing_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let ws = family();
    write_conf(&ws, "CODEX_HARD_TIMEOUT=1\n");
    std::fs::set_permissions(conf(&ws), std::fs::Permissions::from_mode(0o600)).unwrap();
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "2"]);
    let mode = std::fs::metadata(conf(&ws)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn family_settings_concurrent_sets_all_land() {
    let ws = family();
    write_conf(&ws, "# shared\n");
    let keys = [
        ("CODEX_HARD_TIMEOUT", "10"),
        ("CODEX_SERVICE_TIER", "priority"),
        ("CODEX_REVIEW_MAX_TOTAL_BYTES", "20"),
        ("AGY_HARD_TIMEOUT", "3m"),
        ("AGY_REVIEW_MAX_TOTAL_BYTES", "30"),
    ];
    let children: Vec<_> = keys
        .iter()
        .map(|(k, v)| {
            ws.process(&["family", "settings", "set", k, v])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let text = read_conf(&ws);
    assert!(text.starts_with("# shared\n"), "{text}");
    for (k, v) in keys {
        assert!(text.contains(&format!("{k}={v}\n")), "{k} lost: {text}");
    }
}

#[cfg(unix)]
#[test]
fn a_settings_file_linked_from_dotfiles_is_written_where_it_lives_and_stays_a_link() {
    let ws = family();
    let dotfiles = ws.root().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    let real = dotfiles.join("bridge.conf");
    std::fs::write(&real, "# pinned\nKEEP=1\n").unwrap();
    let p = conf(&ws);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &p).unwrap();
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "5"]);
    assert!(p.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "# pinned\nKEEP=1\nCODEX_HARD_TIMEOUT=5\n"
    );
    let names: Vec<_> = std::fs::read_dir(&dotfiles)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names.len(),
        1,
        "no temporary file left beside the target: {names:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_linked_config_folder_is_followed_for_writes_as_for_reads() {
    let ws = family();
    let real = ws.root().join("dotfiles/agent-workflow");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::create_dir_all(ws.home().join("xdg")).unwrap();
    std::os::unix::fs::symlink(&real, ws.home().join("xdg/agent-workflow")).unwrap();
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "7"]);
    assert_eq!(
        std::fs::read_to_string(real.join("bridge-settings.conf")).unwrap(),
        "CODEX_HARD_TIMEOUT=7\n"
    );
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["setting"]["value"], "7", "{v:#}");
}

#[cfg(unix)]
#[test]
fn a_settings_link_to_nothing_is_refused_and_left_as_it_is() {
    let ws = family();
    let p = conf(&ws);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let gone = ws.root().join("gone.conf");
    std::os::unix::fs::symlink(&gone, &p).unwrap();
    let (code, v) = ws.run(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "5"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "FAMILY_SETTINGS_FILE_UNREADABLE");
    assert!(p.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(!gone.exists());
}

#[cfg(unix)]
#[test]
fn a_read_only_settings_file_is_refused_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let ws = family();
    write_conf(&ws, "CODEX_HARD_TIMEOUT=1\n");
    std::fs::set_permissions(conf(&ws), std::fs::Permissions::from_mode(0o444)).unwrap();
    for args in [
        &["family", "settings", "set", "CODEX_HARD_TIMEOUT", "2"][..],
        &["family", "settings", "unset", "CODEX_HARD_TIMEOUT"],
    ] {
        let (code, v) = ws.run(args);
        assert_eq!(code, 1, "{v:#}");
        assert_eq!(v["error"]["code"], "FAMILY_SETTINGS_READ_ONLY", "{v:#}");
        assert!(v["data"]["action"].as_str().unwrap().contains("chmod"));
    }
    assert_eq!(read_conf(&ws), "CODEX_HARD_TIMEOUT=1\n");
    // Nothing to change is not a write, so it is not refused.
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "1"]);
}

#[test]
fn lines_the_wrappers_do_not_parse_are_malformed_and_left_as_written() {
    let ws = family();
    let text =
        "export CODEX_HARD_TIMEOUT=600\n  AGY_HARD_TIMEOUT=5m\nCODEX_SERVICE_TIER = priority\n";
    write_conf(&ws, text);
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["setting"]["source"], "default", "{v:#}");
    assert_eq!(v["malformed"], serde_json::json!([1, 2, 3]));
    let (_, human) = ws.text(&["family", "settings", "--format", "human"]);
    assert!(human.contains("malformed lines"), "{human}");
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "700"]);
    assert_eq!(read_conf(&ws), format!("{text}CODEX_HARD_TIMEOUT=700\n"));
}

#[test]
fn a_crlf_line_sets_nothing_and_set_rewrites_it_clean() {
    let ws = family();
    write_conf(
        &ws,
        "# mine\r\nCODEX_HARD_TIMEOUT=600\r\nAGY_HARD_TIMEOUT=5m",
    );
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(
        v["setting"]["source"], "default",
        "as the kit reads it: {v:#}"
    );
    assert_eq!(v["malformed"], serde_json::json!([2]));
    ws.ok(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "600"]);
    ws.ok(&[
        "family",
        "settings",
        "set",
        "CODEX_SERVICE_TIER",
        "priority",
    ]);
    assert_eq!(
        read_conf(&ws),
        "# mine\r\nCODEX_HARD_TIMEOUT=600\nAGY_HARD_TIMEOUT=5m\nCODEX_SERVICE_TIER=priority\n"
    );
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["setting"]["source"], "file", "{v:#}");
}

#[test]
fn an_environment_variable_set_decides_alone_as_in_the_wrappers() {
    let ws = family();
    write_conf(
        &ws,
        "CODEX_HARD_TIMEOUT=600\nCODEX_REVIEW_MAX_TOTAL_BYTES=20\n",
    );
    let get = |key: &str, value: &str| {
        let (code, v) = ws.run_env(&["family", "settings", "get", key], &[(key, value)]);
        assert_eq!(code, 0, "{v:#}");
        v["setting"].clone()
    };
    // Empty: the file's line is skipped; the built-in value applies.
    let s = get("CODEX_HARD_TIMEOUT", "");
    assert_eq!(
        (s["source"].as_str(), &s["value"]),
        (Some("default"), &Value::Null)
    );
    assert_eq!(s["ignored"][0]["reason"], "empty");
    // A timeout the kind refuses: the built-in value, not the file's.
    let s = get("CODEX_HARD_TIMEOUT", "2h");
    assert_eq!(s["source"], "default", "{s:#}");
    assert_eq!(s["ignored"][0]["reason"], "refused");
    // A byte cap the wrappers pass on unjudged is shown as it is.
    let s = get("CODEX_REVIEW_MAX_TOTAL_BYTES", "weird");
    assert_eq!(
        (s["source"].as_str(), s["value"].as_str()),
        (Some("env"), Some("weird"))
    );
    // The agy byte cap: leading zeros dropped, and a refused value stops the run.
    let s = get("AGY_REVIEW_MAX_TOTAL_BYTES", "008000");
    assert_eq!(
        (s["source"].as_str(), s["value"].as_str()),
        (Some("env"), Some("8000"))
    );
    let s = get("AGY_REVIEW_MAX_TOTAL_BYTES", "lots");
    assert_eq!(s["ignored"][0]["reason"], "refusesRun");
    let (_, human) = ws.stdout(
        &[
            "family",
            "settings",
            "get",
            "AGY_REVIEW_MAX_TOTAL_BYTES",
            "--format",
            "human",
        ],
        None,
        &[("AGY_REVIEW_MAX_TOTAL_BYTES", "lots")],
    );
    assert!(human.contains("refuse to run"), "{human}");
}

#[test]
fn a_file_that_is_not_utf8_is_read_but_never_rewritten() {
    let ws = family();
    let p = conf(&ws);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, b"CODEX_HARD_TIMEOUT=1\n# caf\xe9\n").unwrap();
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["setting"]["source"], "file", "{v:#}");
    assert!(v["warning"].is_string());
    let (code, v) = ws.run(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "2"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "FAMILY_SETTINGS_FILE_UNREADABLE");
    assert_eq!(
        std::fs::read(&p).unwrap(),
        b"CODEX_HARD_TIMEOUT=1\n# caf\xe9\n"
    );
}

#[test]
fn a_settings_path_that_is_a_folder_is_ignored_for_reads_and_refused_for_writes() {
    let ws = family();
    std::fs::create_dir_all(conf(&ws)).unwrap();
    let v = ws.ok(&["family", "settings", "list"]);
    assert_eq!(v["fileState"], "unusable", "{v:#}");
    assert_eq!(setting(&v, "CODEX_HARD_TIMEOUT")["source"], "default");
    let v = ws.ok(&["family", "settings", "reconcile"]);
    assert_eq!(v["outcome"], "unusable");
    let (code, v) = ws.run(&["family", "settings", "set", "CODEX_HARD_TIMEOUT", "2"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["error"]["code"], "FAMILY_SETTINGS_FILE_UNREADABLE");
}

#[test]
fn a_value_that_would_not_read_back_as_one_line_is_never_written() {
    let ws = family();
    // A manifest may allow such a value (its validator accepts any non-empty enum string).
    let dir = ws.root().join("odd-bridge");
    copy_tree(&fixture_path("family/members/codex-cli-bridge"), &dir);
    let m = dir.join("capability.json");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&m).unwrap()).unwrap();
    for s in json["settings"].as_array_mut().unwrap() {
        if s["key"] == "CODEX_SERVICE_TIER" {
            s["values"] = serde_json::json!(["priority\nCODEX_HARD_TIMEOUT=1", " spaced "]);
        }
    }
    std::fs::write(&m, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let from = dir.to_str().unwrap();
    write_conf(&ws, "# mine\n");
    for bad in ["priority\nCODEX_HARD_TIMEOUT=1", " spaced "] {
        refused(
            &ws,
            &[
                "family",
                "settings",
                "--from",
                from,
                "set",
                "CODEX_SERVICE_TIER",
                bad,
            ],
            "FAMILY_SETTINGS_INVALID_VALUE",
        );
    }
    assert_eq!(read_conf(&ws), "# mine\n", "nothing written");
}

#[test]
fn a_byte_order_mark_makes_the_first_line_malformed_as_for_the_wrappers() {
    let ws = family();
    write_conf(&ws, "\u{feff}CODEX_HARD_TIMEOUT=600\n");
    let v = ws.ok(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["setting"]["source"], "default", "{v:#}");
    assert_eq!(v["malformed"], serde_json::json!([1]));
}

#[test]
fn unset_without_a_settings_file_creates_nothing() {
    let ws = family();
    let v = ws.ok(&["family", "settings", "unset", "CODEX_HARD_TIMEOUT"]);
    assert_eq!(v["removed"], 0, "{v:#}");
    assert!(
        !ws.home().join("xdg/agent-workflow").exists(),
        "no folder, lock or file made just to remove nothing"
    );
}

#[test]
fn a_refused_value_is_shown_with_its_control_bytes_escaped() {
    let ws = family();
    let (_, text) = ws.stdout(
        &[
            "family",
            "settings",
            "get",
            "CODEX_HARD_TIMEOUT",
            "--format",
            "human",
        ],
        None,
        &[("CODEX_HARD_TIMEOUT", "5\u{1}")],
    );
    assert!(text.contains("'5\\u{1}'"), "{text}");
}

#[cfg(unix)]
#[test]
fn an_env_value_that_is_not_unicode_is_still_set() {
    use std::os::unix::ffi::OsStrExt;
    let ws = family();
    write_conf(&ws, "CODEX_HARD_TIMEOUT=600\n");
    let out = ws
        .process(&["family", "settings", "get", "CODEX_HARD_TIMEOUT"])
        .env("CODEX_HARD_TIMEOUT", std::ffi::OsStr::from_bytes(b"\xff"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["setting"]["source"], "default",
        "the file is skipped: {v:#}"
    );
}
