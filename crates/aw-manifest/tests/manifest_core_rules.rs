//! One case per non-catalog manifest check (T1–T10, D1–D12, P1–P5 on each path field, R1–R3,
//! S1–S13, N1–N3, W1–W9, PO1–PO5, V1–V2): each case edits one thing in a small valid skill and
//! asserts the result class and the exact, ordered list of rule ids, so a rule that stops firing
//! (or fires once too often) fails here.

use aw_manifest::memory::MemoryFiles;
use aw_manifest::{Class, Report, setting_value_valid, validate};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const SKILL_MD: &str = "---\nname: base\nmetadata:\n  version: '1.0.0'\n---\n\n# base\n";

/// A skill folder under construction: the manifest (or raw manifest text) and its files.
struct Skill {
    manifest: Value,
    raw: Option<String>,
    files: BTreeMap<String, Vec<u8>>,
}

impl Skill {
    fn base() -> Self {
        let manifest = json!({
            "family": "agent-workflow",
            "schema": 1,
            "name": "base",
            "kind": "execution-backend",
            "version": "1.0.0",
            "provides": ["review", "execute"],
            "roles": {
                "review": { "cmd": "base-review", "source": "bin/run.sh", "modes": ["code"] },
                "execute": { "cmd": "base-exec", "source": "bin/run.sh" }
            },
            "detect": {
                "installed": { "env": "BASE_DIR", "default": "~/.claude/skills/base", "file": "SKILL.md" },
                "deployed": { "file": "docs/ai/.base-version" }
            },
            "settings": [
                { "key": "BASE_FLAG", "kind": "boolean", "default": "0",
                  "appliesTo": ["base-review"], "effect": "turns the base flag on" }
            ],
            "networkHosts": ["api.example.com"],
            "writableDirs": [{ "env": "BASE_HOME", "default": "~/.base" }],
            "posture": { "model": "some-model", "effort": "high", "tier": null },
            "cost": "subscription",
            "quota": { "kind": "subscription", "finite": true }
        });
        let mut files = BTreeMap::new();
        files.insert("SKILL.md".to_owned(), SKILL_MD.as_bytes().to_vec());
        files.insert("bin/run.sh".to_owned(), b"#!/bin/sh\n".to_vec());
        Skill {
            manifest,
            raw: None,
            files,
        }
    }

    /// Sets the value at a JSON pointer, creating the last key (or replacing the array item).
    fn set(&mut self, pointer: &str, v: Value) {
        let (parent, last) = pointer.rsplit_once('/').expect("pointer");
        let slot = self.manifest.pointer_mut(parent).expect("parent exists");
        match slot {
            Value::Object(map) => {
                map.insert(last.to_owned(), v);
            }
            Value::Array(items) => items[last.parse::<usize>().expect("index")] = v,
            _ => panic!("{parent} is no container"),
        }
    }

    /// Removes the key at a JSON pointer.
    fn del(&mut self, pointer: &str) {
        let (parent, last) = pointer.rsplit_once('/').expect("pointer");
        let slot = self.manifest.pointer_mut(parent).expect("parent exists");
        slot.as_object_mut().expect("object").shift_remove(last);
    }

    fn file(&mut self, path: &str, contents: &str) {
        self.files
            .insert(path.to_owned(), contents.as_bytes().to_vec());
    }

    fn rm(&mut self, path: &str) {
        self.files.remove(path);
    }

    fn run(&self) -> Report {
        let files = self
            .files
            .iter()
            .fold(MemoryFiles::new(), |f, (p, c)| f.with(p, c.clone()));
        let text = match &self.raw {
            Some(raw) => raw.clone(),
            None => serde_json::to_string_pretty(&self.manifest).expect("serialises"),
        };
        validate(Some(text.as_bytes()), "/skills/base", &files)
    }
}

type Edit = fn(&mut Skill);

struct Case {
    name: &'static str,
    edit: Edit,
    class: Class,
    rules: &'static [&'static str],
}

/// A case whose class follows from its rules: valid when none fire, invalid otherwise.
fn case(name: &'static str, edit: Edit, rules: &'static [&'static str]) -> Case {
    let class = if rules.is_empty() {
        Class::Valid
    } else {
        Class::Invalid
    };
    Case {
        name,
        edit,
        class,
        rules,
    }
}

fn check_all(cases: Vec<Case>) {
    let mut failures = Vec::new();
    for c in &cases {
        let mut skill = Skill::base();
        (c.edit)(&mut skill);
        let report = skill.run();
        let rules: Vec<&str> = report.errors.iter().map(|f| f.rule).collect();
        if report.class != c.class || rules != c.rules {
            failures.push(format!(
                "{}: expected {:?} {:?}, got {:?} {:?}\n{}",
                c.name,
                c.class,
                c.rules,
                report.class,
                rules,
                report
                    .errors
                    .iter()
                    .map(|f| format!("    {}", f.message))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn paths_of(skill: &Skill) -> Vec<(String, &'static str)> {
    skill
        .run()
        .errors
        .into_iter()
        .map(|f| (f.path, f.rule))
        .collect()
}

#[test]
fn base_skill_is_valid() {
    let r = Skill::base().run();
    assert_eq!(r.class, Class::Valid, "{:?}", r.errors);
    assert_eq!(r.available, Some(true));
}

#[test]
fn top_level_rules() {
    check_all(vec![
        case(
            "T1 missing name",
            |s| s.del("/name"),
            &["top.required-string"],
        ),
        case(
            "T1 numeric version: no V2",
            |s| s.set("/version", json!(1)),
            &["top.required-string"],
        ),
        case(
            "T1 empty version also mismatches",
            |s| s.set("/version", json!("")),
            &["top.required-string", "version.mismatch"],
        ),
        case(
            "T1 all four missing, in order, plus T2",
            |s| {
                for k in ["/family", "/name", "/kind", "/version"] {
                    s.del(k);
                }
            },
            &[
                "top.required-string",
                "top.required-string",
                "top.required-string",
                "top.required-string",
                "top.family",
            ],
        ),
        case(
            "T2 wrong family",
            |s| s.set("/family", json!("agent-flow")),
            &["top.family"],
        ),
        case(
            "T3 unknown kind",
            |s| s.set("/kind", json!("backend")),
            &["top.kind-unknown"],
        ),
        case(
            "T3 empty kind gives two errors",
            |s| s.set("/kind", json!("")),
            &["top.required-string", "top.kind-unknown"],
        ),
        case(
            "T3 non-string kind is T1 only",
            |s| s.set("/kind", json!(["memory-substrate"])),
            &["top.required-string"],
        ),
        case(
            "T4 string available",
            |s| s.set("/available", json!("false")),
            &["top.available-type"],
        ),
        case(
            "T4 null available is tolerated",
            |s| s.set("/available", json!(null)),
            &[],
        ),
        case(
            "T4 true available",
            |s| s.set("/available", json!(true)),
            &[],
        ),
        case(
            "T5 provides not an array: roles are then unprovided",
            |s| s.set("/provides", json!("review")),
            &[
                "top.provides-type",
                "top.role-not-provided",
                "top.role-not-provided",
            ],
        ),
        case(
            "T6 roles an array: settings then know no cmd",
            |s| s.set("/roles", json!([])),
            &["top.roles-type", "settings.applies-to-unknown-cmd"],
        ),
        case(
            "T6 roles missing",
            |s| {
                s.del("/roles");
                s.set("/settings", json!([]));
            },
            &["top.roles-type"],
        ),
        case(
            "T7 unknown provides entries, strictly compared",
            |s| {
                s.set(
                    "/provides",
                    json!(["review", "execute", "deploy", 5, "Review"]),
                )
            },
            &[
                "top.provides-unknown-role",
                "top.provides-unknown-role",
                "top.provides-unknown-role",
            ],
        ),
        case(
            "T7 duplicates pass",
            |s| s.set("/provides", json!(["review", "review", "execute", "plan"])),
            &[],
        ),
        case(
            "T8 then T9 for a role outside the vocabulary",
            |s| s.set("/roles/deploy", json!({"cmd": "d", "source": "bin/run.sh"})),
            &["top.role-unknown", "top.role-not-provided"],
        ),
        case(
            "T9 role missing from provides",
            |s| s.set("/provides", json!(["review"])),
            &["top.role-not-provided"],
        ),
        case(
            "T10 placeholders in any string value",
            |s| {
                s.set("/quota/kind", json!("{{quota}}"));
                s.set("/roles/review/output", json!("done}}"));
                s.set("/cost", json!("${COST}"));
            },
            &["top.placeholder", "top.placeholder", "top.placeholder"],
        ),
        case(
            "T10 keys are exempt",
            |s| s.set("/provenance", json!({"{{k}}": "v", "${x}": ["ok"]})),
            &[],
        ),
        case(
            "schema 1.0 is schema 1",
            |s| s.set("/schema", json!(1.0)),
            &[],
        ),
        case(
            "schema 1e0 is schema 1",
            |s| {
                let text = serde_json::to_string(&s.manifest).unwrap();
                s.raw = Some(text.replacen("\"schema\":1", "\"schema\":1e0", 1));
            },
            &[],
        ),
        case(
            "duplicate JSON keys: the last value wins",
            |s| {
                let text = serde_json::to_string(&s.manifest).unwrap();
                s.raw = Some(text.replacen('{', "{\"kind\":\"nope\",\"version\":\"9\",", 1));
            },
            &[],
        ),
    ]);
}

#[test]
fn placeholder_paths_and_walk_order() {
    let mut s = Skill::base();
    s.set("/roles/review/cmd", json!("x{{y}}"));
    s.set("/settings/0/appliesTo", json!(["x{{y}}"]));
    s.set("/quota/kind", json!("${k}"));
    s.set(
        "/modeCatalog",
        json!([{"key": "a", "kind": "primary", "purpose": "p", "whenToUse": ["w"], "role": "review",
                "submode": "code", "descriptor": "d"},
               {"key": "b", "kind": "primary", "purpose": "p", "whenToUse": ["w"], "role": "review",
                "submode": "code", "descriptor": "d2"},
               {"key": "c", "kind": "primary", "purpose": "}}", "whenToUse": ["w"], "role": "review",
                "submode": "code", "descriptor": "d3"}]),
    );
    let found = paths_of(&s);
    let placeholders: Vec<&str> = found
        .iter()
        .filter(|(_, r)| *r == "top.placeholder")
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(
        placeholders,
        [
            "roles.review.cmd",
            "settings[0].appliesTo[0]",
            "quota.kind",
            "modeCatalog[2].purpose"
        ]
    );
}

#[test]
fn role_key_order_is_js_order() {
    let mut s = Skill::base();
    s.set(
        "/roles",
        json!({"review": {"cmd": "base-review", "source": "bin/run.sh"}, "zeta": 1, "10": 1, "2": 1}),
    );
    s.set("/provides", json!(["review"]));
    let unknown: Vec<String> = paths_of(&s)
        .into_iter()
        .filter(|(_, r)| *r == "role.not-object")
        .map(|(p, _)| p)
        .collect();
    assert_eq!(unknown, ["roles[\"2\"]", "roles[\"10\"]", "roles.zeta"]);
}

#[test]
fn detect_rules() {
    check_all(vec![
        case(
            "D1 string",
            |s| s.set("/detect", json!("x")),
            &["detect.not-object"],
        ),
        case(
            "D1 array stops the block",
            |s| s.set("/detect", json!([{"installed": 5}])),
            &["detect.not-object"],
        ),
        case("D1 null is absent", |s| s.set("/detect", json!(null)), &[]),
        case(
            "D2 installed array",
            |s| s.set("/detect/installed", json!(["x"])),
            &["detect.installed-not-object"],
        ),
        case(
            "D3 env not a string",
            |s| s.set("/detect/installed/env", json!(5)),
            &["detect.env-type"],
        ),
        case(
            "D3 env format is not checked",
            |s| s.set("/detect/installed/env", json!("lower-case env!")),
            &[],
        ),
        case(
            "D4 default not a string",
            |s| s.set("/detect/installed/default", json!(true)),
            &["detect.default-type"],
        ),
        case(
            "D5 default absolute",
            |s| s.set("/detect/installed/default", json!("C:\\skills\\base")),
            &["detect.default-absolute"],
        ),
        case(
            "D6 default traversal",
            |s| s.set("/detect/installed/default", json!("skills\\..\\x")),
            &["detect.default-traversal"],
        ),
        case(
            "D5 and D6 together",
            |s| s.set("/detect/installed/default", json!("/../x")),
            &["detect.default-absolute", "detect.default-traversal"],
        ),
        case(
            "D4-D6 accept ~user and empty",
            |s| {
                s.set("/detect/installed/default", json!("~user"));
                s.set("/detect/deployed/file", json!(""));
            },
            &[],
        ),
        case(
            "D7 installed.file runs the path checks",
            |s| s.set("/detect/installed/file", json!("MISSING.md")),
            &["path.missing"],
        ),
        case(
            "D7 null installed.file is absent",
            |s| s.set("/detect/installed/file", json!(null)),
            &[],
        ),
        case(
            "D8 deployed number",
            |s| s.set("/detect/deployed", json!(3)),
            &["detect.deployed-not-object"],
        ),
        case(
            "D9 deployed.file not a string",
            |s| s.set("/detect/deployed/file", json!({})),
            &["detect.deployed-file-type"],
        ),
        case(
            "D10 deployed.file absolute (UNC)",
            |s| s.set("/detect/deployed/file", json!("\\\\host\\share\\x")),
            &["detect.deployed-file-absolute"],
        ),
        case(
            "D11 deployed.file home-relative",
            |s| s.set("/detect/deployed/file", json!("~/x")),
            &["detect.deployed-file-home"],
        ),
        case(
            "D12 deployed.file traversal",
            |s| s.set("/detect/deployed/file", json!("docs/../../x")),
            &["detect.deployed-file-traversal"],
        ),
        case(
            "D10-D12 are independent",
            |s| s.set("/detect/deployed/file", json!("~/../x")),
            &[
                "detect.deployed-file-home",
                "detect.deployed-file-traversal",
            ],
        ),
    ]);
}

#[test]
fn in_skill_path_rules_on_each_field() {
    // (value, stub, expected rules)
    let values: [(Value, bool, &[&str]); 12] = [
        (json!(7), false, &["path.not-string"]),
        (json!(""), false, &["path.not-string"]),
        (json!("/opt/run.sh"), false, &["path.absolute"]),
        (json!("C:\\evil\\run.sh"), false, &["path.absolute"]),
        (json!("~/run.sh"), false, &["path.home-relative"]),
        (json!("bin/../../run.sh"), false, &["path.traversal"]),
        (
            json!("/../x.sh"),
            false,
            &["path.absolute", "path.traversal"],
        ),
        (json!("bin/missing.sh"), false, &["path.missing"]),
        (json!("C:run.sh"), false, &["path.missing"]),
        (json!("bin\\run.sh"), false, &["path.missing"]),
        (json!("bin"), false, &[]),
        (json!("bin/missing.sh"), true, &[]),
    ];
    let fields = [
        "/roles/review/source",
        "/roles/review/template",
        "/detect/installed/file",
    ];
    let mut failures = Vec::new();
    for field in fields {
        for (value, stub, want) in &values {
            let mut s = Skill::base();
            s.set(field, value.clone());
            if *stub {
                s.set("/available", json!(false));
            }
            let report = s.run();
            let got: Vec<&str> = report.errors.iter().map(|f| f.rule).collect();
            let want_class = if want.is_empty() {
                Class::Valid
            } else {
                Class::Invalid
            };
            let path = field.trim_start_matches('/').replace('/', ".");
            let paths_ok = report.errors.iter().all(|f| f.path == path);
            if got != *want || report.class != want_class || !paths_ok {
                failures.push(format!(
                    "{field} = {value}: want {want:?}, got {:?}",
                    report.errors
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn role_rules() {
    check_all(vec![
        case(
            "R1 string role",
            |s| s.set("/roles/execute", json!("bin/run.sh")),
            &["role.not-object"],
        ),
        case(
            "R1 null role",
            |s| s.set("/roles/execute", json!(null)),
            &["role.not-object"],
        ),
        case(
            "R2 empty cmd",
            |s| s.set("/roles/execute/cmd", json!("")),
            &["role.cmd"],
        ),
        case(
            "R2 cmd charset is not checked",
            |s| s.set("/roles/execute/cmd", json!("any thing/at all")),
            &[],
        ),
        case(
            "R3 missing source",
            |s| s.del("/roles/execute/source"),
            &["role.source-required"],
        ),
        case(
            "R3 null source",
            |s| s.set("/roles/execute/source", json!(null)),
            &["role.source-required"],
        ),
        case(
            "R2 and R3, then the template",
            |s| {
                s.set("/roles/execute/cmd", json!(5));
                s.del("/roles/execute/source");
                s.set("/roles/execute/template", json!(""));
            },
            &["role.cmd", "role.source-required", "path.not-string"],
        ),
        case(
            "source checked before template",
            |s| {
                s.set("/roles/execute/source", json!("/x"));
                s.set("/roles/execute/template", json!("../t"));
            },
            &["path.absolute", "path.traversal"],
        ),
        case(
            "null template is absent",
            |s| s.set("/roles/execute/template", json!(null)),
            &[],
        ),
        case(
            "roles in key order",
            |s| {
                s.set("/roles/review/cmd", json!(""));
                s.set("/roles/execute", json!([]));
                s.set("/settings", json!([]));
            },
            &["role.cmd", "role.not-object"],
        ),
    ]);
}

#[test]
fn settings_rules() {
    check_all(vec![
        case(
            "S1 object",
            |s| s.set("/settings", json!({})),
            &["settings.not-array"],
        ),
        case(
            "S1 empty array is valid",
            |s| s.set("/settings", json!([])),
            &[],
        ),
        case(
            "S1 null is absent",
            |s| s.set("/settings", json!(null)),
            &[],
        ),
        case(
            "S2 entry not an object stops the entry",
            |s| s.set("/settings/0", json!("BASE_FLAG")),
            &["settings.entry-not-object"],
        ),
        case(
            "S3 lower-case key",
            |s| s.set("/settings/0/key", json!("base_flag")),
            &["settings.key-format"],
        ),
        case(
            "S3 missing key",
            |s| s.del("/settings/0/key"),
            &["settings.key-format"],
        ),
        case(
            "S4 duplicate key",
            |s| {
                let entry = s.manifest["settings"][0].clone();
                s.manifest["settings"].as_array_mut().unwrap().push(entry);
            },
            &["settings.key-duplicate"],
        ),
        case(
            "S5 empty effect",
            |s| s.set("/settings/0/effect", json!("")),
            &["settings.effect"],
        ),
        case(
            "S6 retired too short",
            |s| s.set("/settings/0/retired", json!("  nineteen chars.....  ")),
            &["settings.retired-reason"],
        ),
        case(
            "S6 retired exactly 20 after trim passes",
            |s| {
                s.set(
                    "/settings/0/retired",
                    json!("\u{feff} twenty characters... \n"),
                )
            },
            &[],
        ),
        case(
            "S6 retired counts UTF-16 units",
            |s| s.set("/settings/0/retired", json!("😀".repeat(10))),
            &[],
        ),
        case(
            "S6 retired null fails",
            |s| s.set("/settings/0/retired", json!(null)),
            &["settings.retired-reason"],
        ),
        case(
            "S6 retired true fails",
            |s| s.set("/settings/0/retired", json!(true)),
            &["settings.retired-reason"],
        ),
        case(
            "S7 empty appliesTo",
            |s| s.set("/settings/0/appliesTo", json!([])),
            &["settings.applies-to"],
        ),
        case(
            "S7 appliesTo with an empty name",
            |s| s.set("/settings/0/appliesTo", json!(["base-review", ""])),
            &["settings.applies-to"],
        ),
        case(
            "S7 appliesTo a string",
            |s| s.set("/settings/0/appliesTo", json!("base-review")),
            &["settings.applies-to"],
        ),
        case(
            "S8 each unknown cmd, repeats included",
            |s| {
                s.set(
                    "/settings/0/appliesTo",
                    json!(["nope", "base-exec", "nope"]),
                )
            },
            &[
                "settings.applies-to-unknown-cmd",
                "settings.applies-to-unknown-cmd",
            ],
        ),
        case(
            "S8 a non-object role contributes no cmd",
            |s| {
                s.set("/roles/execute", json!("base-exec"));
                s.set("/settings/0/appliesTo", json!(["base-exec"]));
            },
            &["role.not-object", "settings.applies-to-unknown-cmd"],
        ),
        case(
            "S9 unknown kind stops the entry (no default-missing)",
            |s| {
                s.set("/settings/0/kind", json!("text"));
                s.del("/settings/0/default");
            },
            &["settings.kind"],
        ),
        case(
            "S10 duplicate enum values",
            |s| {
                s.set("/settings/0/kind", json!("enum"));
                s.set("/settings/0/values", json!(["a", "a"]));
                s.set("/settings/0/default", json!("a"));
            },
            &["settings.enum-values"],
        ),
        case(
            "S10 missing enum values also fail the default",
            |s| s.set("/settings/0/kind", json!("enum")),
            &["settings.enum-values", "settings.default-invalid"],
        ),
        case(
            "S11 min above max",
            |s| {
                s.set("/settings/0/kind", json!("integer"));
                s.set("/settings/0/min", json!(5));
                s.set("/settings/0/max", json!(1));
                s.set("/settings/0/default", json!(null));
            },
            &["settings.integer-range"],
        ),
        case(
            "S11 unsafe max",
            |s| {
                s.set("/settings/0/kind", json!("integer"));
                s.set("/settings/0/min", json!(0));
                s.set("/settings/0/max", json!(9007199254740992u64));
                s.set("/settings/0/default", json!(null));
            },
            &["settings.integer-range"],
        ),
        case(
            "S11 1.0 is an integer; leading zeros pass",
            |s| {
                s.set("/settings/0/kind", json!("integer"));
                s.set("/settings/0/min", json!(1.0));
                s.set("/settings/0/max", json!(10));
                s.set("/settings/0/default", json!("05"));
            },
            &[],
        ),
        case(
            "S12 missing default",
            |s| s.del("/settings/0/default"),
            &["settings.default-missing"],
        ),
        case(
            "S12 null default passes",
            |s| s.set("/settings/0/default", json!(null)),
            &[],
        ),
        case(
            "S13 boolean default outside 0/1",
            |s| s.set("/settings/0/default", json!("true")),
            &["settings.default-invalid"],
        ),
        case(
            "S13 non-string default",
            |s| s.set("/settings/0/default", json!(1)),
            &["settings.default-invalid"],
        ),
        case(
            "S13 zero duration",
            |s| {
                s.set("/settings/0/kind", json!("duration"));
                s.set("/settings/0/default", json!("00.0m"));
            },
            &["settings.duration-zero"],
        ),
        case(
            "S13 duration with a trailing newline",
            |s| {
                s.set("/settings/0/kind", json!("duration"));
                s.set("/settings/0/default", json!("10s\n"));
            },
            &["settings.default-invalid"],
        ),
        case(
            "S13 valid duration",
            |s| {
                s.set("/settings/0/kind", json!("duration"));
                s.set("/settings/0/default", json!("0.5m"));
            },
            &[],
        ),
        case(
            "S13 negative integer default is never valid",
            |s| {
                s.set("/settings/0/kind", json!("integer"));
                s.set("/settings/0/min", json!(-5));
                s.set("/settings/0/max", json!(5));
                s.set("/settings/0/default", json!("-1"));
            },
            &["settings.default-invalid"],
        ),
        case(
            "S13 integer without bounds rejects every default",
            |s| {
                s.set("/settings/0/kind", json!("integer"));
                s.set("/settings/0/default", json!("1"));
            },
            &["settings.integer-range", "settings.default-invalid"],
        ),
        case(
            "S13 enum is case-sensitive",
            |s| {
                s.set("/settings/0/kind", json!("enum"));
                s.set("/settings/0/values", json!(["fast"]));
                s.set("/settings/0/default", json!("FAST"));
            },
            &["settings.default-invalid"],
        ),
        case(
            "extra keys are tolerated",
            |s| s.set("/settings/0/values", json!(["x"])),
            &[],
        ),
    ]);
}

#[test]
fn setting_value_valid_is_exported() {
    let e = json!({"kind": "duration"});
    let e = e.as_object().unwrap();
    assert!(setting_value_valid(e, "90s"));
    assert!(!setting_value_valid(e, "0s"));
}

#[test]
fn network_rules() {
    check_all(vec![
        case(
            "N1 empty",
            |s| s.set("/networkHosts", json!([])),
            &["network.not-array"],
        ),
        case(
            "N1 string",
            |s| s.set("/networkHosts", json!("example.com")),
            &["network.not-array"],
        ),
        case(
            "N1 null is absent",
            |s| s.set("/networkHosts", json!(null)),
            &[],
        ),
        case(
            "N2 localhost",
            |s| s.set("/networkHosts", json!(["localhost"])),
            &["network.host-format"],
        ),
        case(
            "N2 bad entries",
            |s| {
                s.set(
                    "/networkHosts",
                    json!(["*.com", 5, "a.com:443", "ſ.com", "a.com."]),
                )
            },
            &[
                "network.host-format",
                "network.host-format",
                "network.host-format",
                "network.host-format",
                "network.host-format",
            ],
        ),
        case(
            "N2 good entries",
            |s| {
                s.set(
                    "/networkHosts",
                    json!(["*.example.com", "1.2.3.4", "A-1.B"]),
                )
            },
            &[],
        ),
        case(
            "N3 duplicate",
            |s| s.set("/networkHosts", json!(["a.com", "b.com", "a.com"])),
            &["network.duplicate"],
        ),
        case(
            "N3 case-sensitive",
            |s| s.set("/networkHosts", json!(["EXAMPLE.com", "example.com"])),
            &[],
        ),
        case(
            "N3 malformed entries are not counted as duplicates",
            |s| s.set("/networkHosts", json!(["bad", "bad"])),
            &["network.host-format", "network.host-format"],
        ),
    ]);
}

#[test]
fn writable_rules() {
    check_all(vec![
        case(
            "W1 empty",
            |s| s.set("/writableDirs", json!([])),
            &["writable.not-array"],
        ),
        case(
            "W1 object",
            |s| s.set("/writableDirs", json!({"env": null, "default": "~/x"})),
            &["writable.not-array"],
        ),
        case(
            "W1 null is absent",
            |s| s.set("/writableDirs", json!(null)),
            &[],
        ),
        case(
            "W2 entry not an object",
            |s| s.set("/writableDirs/0", json!("~/.base")),
            &["writable.entry-not-object"],
        ),
        case(
            "W3 missing env",
            |s| s.del("/writableDirs/0/env"),
            &["writable.env"],
        ),
        case(
            "W3 empty env",
            |s| s.set("/writableDirs/0/env", json!("")),
            &["writable.env"],
        ),
        case(
            "W3 null env passes",
            |s| s.set("/writableDirs/0/env", json!(null)),
            &[],
        ),
        case(
            "W4 relative default stops the entry",
            |s| {
                s.set("/writableDirs/0/env", json!("lower"));
                s.set("/writableDirs/0/default", json!("rel/*"));
            },
            &["writable.env", "writable.default-anchor"],
        ),
        case(
            "W4 ~user and bare ~",
            |s| {
                s.set(
                    "/writableDirs",
                    json!([{"env": null, "default": "~user/x"}, {"env": null, "default": "~"}]),
                )
            },
            &["writable.default-anchor", "writable.default-anchor"],
        ),
        case(
            "W4 missing default",
            |s| s.del("/writableDirs/0/default"),
            &["writable.default-anchor"],
        ),
        case(
            "W5 glob",
            |s| s.set("/writableDirs/0/default", json!("~/a[1]")),
            &["writable.default-glob"],
        ),
        case(
            "W6 control (DEL)",
            |s| s.set("/writableDirs/0/default", json!("~/a\u{7f}")),
            &["writable.default-control"],
        ),
        case(
            "W6 C1 is allowed",
            |s| s.set("/writableDirs/0/default", json!("~/a\u{85}")),
            &[],
        ),
        case(
            "W7 trailing slash, ~/ included",
            |s| s.set("/writableDirs/0/default", json!("~/")),
            &["writable.default-trailing-slash"],
        ),
        case(
            "W8 backslash traversal",
            |s| s.set("/writableDirs/0/default", json!("/a\\..\\b")),
            &["writable.default-traversal"],
        ),
        case(
            "W9 duplicate, checked even after W5",
            |s| {
                s.set(
                    "/writableDirs",
                    json!([{"env": null, "default": "~/a?"}, {"env": null, "default": "~/a?"}]),
                )
            },
            &[
                "writable.default-glob",
                "writable.default-glob",
                "writable.duplicate",
            ],
        ),
        case(
            "W9 unanchored defaults are not tracked",
            |s| {
                s.set(
                    "/writableDirs",
                    json!([{"env": null, "default": "x"}, {"env": null, "default": "x"}]),
                )
            },
            &["writable.default-anchor", "writable.default-anchor"],
        ),
        case(
            "W5-W8 do not reject //, /./, spaces or backslashes",
            |s| s.set("/writableDirs/0/default", json!("//a/./b c\\d")),
            &[],
        ),
    ]);
}

#[test]
fn posture_rules() {
    check_all(vec![
        case("absent posture", |s| s.del("/posture"), &[]),
        case(
            "PO1 null is present and malformed",
            |s| s.set("/posture", json!(null)),
            &["posture.not-object"],
        ),
        case(
            "PO1 array",
            |s| s.set("/posture", json!([])),
            &["posture.not-object"],
        ),
        case(
            "PO2 missing model",
            |s| s.set("/posture", json!({})),
            &["posture.model"],
        ),
        case(
            "PO3 null effort",
            |s| s.set("/posture/effort", json!(null)),
            &["posture.effort"],
        ),
        case(
            "PO3 absent effort passes",
            |s| s.del("/posture/effort"),
            &[],
        ),
        case(
            "PO4 empty tier",
            |s| s.set("/posture/tier", json!("")),
            &["posture.tier"],
        ),
        case(
            "PO4 string tier passes",
            |s| s.set("/posture/tier", json!("pro")),
            &[],
        ),
        case(
            "PO5 unknown keys are one finding",
            |s| {
                s.set("/posture/temperature", json!(1));
                s.set("/posture/seed", json!(2));
            },
            &["posture.unknown-key"],
        ),
        case(
            "PO2-PO5 together",
            |s| {
                s.set(
                    "/posture",
                    json!({"model": 1, "effort": 2, "tier": 3, "x": 4}),
                )
            },
            &[
                "posture.model",
                "posture.effort",
                "posture.tier",
                "posture.unknown-key",
            ],
        ),
    ]);
}

#[test]
fn version_rules() {
    check_all(vec![
        case(
            "V1 no metadata.version",
            |s| s.file("SKILL.md", "---\nname: base\nversion: '1.0.0'\n---\n"),
            &["version.unresolved"],
        ),
        case(
            "V1 CRLF SKILL.md never matches",
            |s| {
                s.file(
                    "SKILL.md",
                    "---\r\nname: base\r\nmetadata:\r\n  version: '1.0.0'\r\n---\r\n",
                )
            },
            &["version.unresolved"],
        ),
        case(
            "V1 neither package.json nor SKILL.md",
            |s| {
                s.rm("SKILL.md");
                s.del("/detect/installed/file");
            },
            &["version.unresolved"],
        ),
        case(
            "V1 unreadable SKILL.md is a finding, not a crash",
            |s| {
                s.rm("SKILL.md");
                s.file("SKILL.md/inner", "x");
            },
            &["version.unresolved"],
        ),
        case(
            "V1 unparseable package.json",
            |s| s.file("package.json", "{\"version\": "),
            &["version.unresolved"],
        ),
        case(
            "V1 package.json null root",
            |s| s.file("package.json", "null"),
            &["version.unresolved"],
        ),
        case(
            "V1 package.json without version wins over SKILL.md",
            |s| s.file("package.json", "{\"name\": \"base\"}"),
            &["version.unresolved"],
        ),
        case(
            "V1 package.json is a folder",
            |s| s.file("package.json/x", "{}"),
            &["version.unresolved"],
        ),
        case(
            "V2 mismatch against SKILL.md",
            |s| s.set("/version", json!("2.0.0")),
            &["version.mismatch"],
        ),
        case(
            "V2 package.json wins over SKILL.md",
            |s| {
                s.file("package.json", "{\"version\": \"3.1.4-rc.1\"}");
                s.set("/version", json!("3.1.4-rc.1"));
            },
            &[],
        ),
        case(
            "V2 package.json disagrees",
            |s| s.file("package.json", "{\"version\": \"1.0.1\"}"),
            &["version.mismatch"],
        ),
        case(
            "V2 compares by type: number 1 vs \"1\"",
            |s| {
                s.file("package.json", "{\"version\": 1}");
                s.set("/version", json!("1"));
            },
            &["version.mismatch"],
        ),
        case(
            "nested decoy is ignored",
            |s| {
                s.file(
                    "SKILL.md",
                    "---\nmetadata:\n  nested:\n    version: '9.9.9'\n  version: \"1.0.0'\n---\n",
                )
            },
            &[],
        ),
        case(
            "stub skips existence and version",
            |s| {
                s.set("/available", json!(false));
                s.rm("SKILL.md");
                s.set("/version", json!("7.7.7"));
                s.set("/roles/review/source", json!("bin/missing.sh"));
            },
            &[],
        ),
        case(
            "stub still checks path shape",
            |s| {
                s.set("/available", json!(false));
                s.set("/roles/review/source", json!("/abs.sh"));
            },
            &["path.absolute"],
        ),
        case(
            "\"false\" is no stub",
            |s| {
                s.set("/available", json!("false"));
                s.set("/roles/review/source", json!("bin/missing.sh"));
                s.set("/version", json!("7.7.7"));
            },
            &["top.available-type", "path.missing", "version.mismatch"],
        ),
    ]);
}

#[test]
fn stub_report_says_unavailable() {
    let mut s = Skill::base();
    s.set("/available", json!(false));
    let r = s.run();
    assert_eq!(r.class, Class::Valid);
    assert_eq!(r.available, Some(false));
}

#[test]
fn messages_name_the_field_and_stay_on_one_line() {
    let mut s = Skill::base();
    s.set("/roles/review/source", json!("bin/\nmissing.sh"));
    s.set("/quota/kind", json!("a\n{{b}}"));
    s.set("/writableDirs/0/default", json!("/a\nb/"));
    s.file("SKILL.md/x", "");
    s.rm("SKILL.md");
    s.del("/detect/installed/file");
    let r = s.run();
    assert_eq!(r.errors.len(), 5, "{:?}", r.errors);
    for f in &r.errors {
        assert!(!f.message.contains('\n'), "{}", f.message);
        assert!(
            f.message.starts_with(&format!("`{}` ", f.path)),
            "{}",
            f.message
        );
    }
    let unreadable = r.errors.last().unwrap();
    assert_eq!(unreadable.rule, "version.unresolved");
    assert!(unreadable.message.contains("SKILL.md could not be read"));
}
