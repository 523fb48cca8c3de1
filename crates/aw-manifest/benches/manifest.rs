//! In-process cost of validating one large manifest (the size of the family's bridge manifests,
//! ~20 KB: roles with contracts, settings, sandbox declarations and a mode catalog).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use aw_manifest::{FileRead, SkillFiles, memory::MemoryFiles};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;
use std::path::PathBuf;

fn large_manifest() -> Vec<u8> {
    let invocations: Vec<String> = (0..24)
        .map(|i| format!("bridge review --mode m{i} --file <path> [--focus <area>]"))
        .collect();
    let mut catalog: Vec<Value> = (0..24)
        .map(|i| {
            json!({
                "key": format!("m{i}"),
                "kind": "primary",
                "purpose": "Review a change set with a focused lens and report findings.",
                "whenToUse": ["A plan or a diff needs an outside review.", "Before a merge."],
                "whenNotTo": ["Trivial edits."],
                "role": "review",
                "submode": "code",
                "invocationRefs": [{ "contractField": "invocations", "index": i }],
                "operands": [
                    { "slot": "<path>", "required": true, "description": "The file to review." },
                    { "slot": "[--focus <area>]", "required": false, "description": "An optional focus." }
                ],
                "guardrails": [{ "value": "Read-only", "enforcement": "enforced", "source": "sandbox" }]
            })
        })
        .collect();
    catalog.push(json!({
        "key": "BRIDGE_RAW", "kind": "env-hook", "purpose": "Raw output.",
        "whenToUse": ["Debugging."], "parents": [], "descriptor": "BRIDGE_RAW=1"
    }));
    catalog.pop();
    let settings: Vec<Value> = (0..12)
        .map(|i| {
            json!({
                "key": format!("BRIDGE_SETTING_{i}"), "effect": "Tunes the bridge.",
                "appliesTo": ["bridge"], "kind": "duration", "default": "5m"
            })
        })
        .collect();
    let m = json!({
        "family": "agent-workflow", "schema": 1, "name": "bench-bridge",
        "kind": "execution-backend", "version": "1.0.0", "provides": ["review"],
        "roles": { "review": {
            "cmd": "bridge", "source": "bin/run.sh", "modes": ["plan", "code"],
            "contract": { "invocations": invocations, "continue": ["bridge continue <id>"] }
        }},
        "settings": settings,
        "networkHosts": ["api.example.com", "*.cdn.example.net"],
        "writableDirs": [{ "env": "BRIDGE_CACHE", "default": "~/.cache/bridge" }],
        "modeCatalog": catalog
    });
    serde_json::to_vec_pretty(&m).unwrap()
}

fn bench(c: &mut Criterion) {
    let bytes = large_manifest();
    let files = MemoryFiles::new().with("bin/run.sh", "#!/bin/sh\n").with(
        "SKILL.md",
        "---\nname: bench-bridge\nmetadata:\n  version: '1.0.0'\n---\n",
    );
    let report = aw_manifest::validate(Some(&bytes), "/bench", &files);
    assert!(
        report.errors.is_empty(),
        "bench manifest must be valid: {:?}",
        report.errors
    );
    eprintln!("manifest size: {} bytes", bytes.len());
    c.bench_function("parse only (serde_json Value)", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).unwrap())
    });
    c.bench_function("validate large manifest", |b| {
        b.iter(|| aw_manifest::validate(Some(black_box(&bytes)), "/bench", &files))
    });
}

/// A skill folder on disk, for `AW_BENCH_SKILL=<dir>` (a real family member, say).
struct Disk(PathBuf);

impl SkillFiles for Disk {
    fn exists(&self, rel: &str) -> bool {
        self.0.join(rel).exists()
    }
    fn read(&self, rel: &str) -> FileRead {
        match std::fs::read(self.0.join(rel)) {
            Ok(b) => FileRead::Bytes(b),
            Err(_) => FileRead::Absent,
        }
    }
}

fn bench_real(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("AW_BENCH_SKILL").map(PathBuf::from) else {
        return;
    };
    let bytes =
        std::fs::read(dir.join("capability.json")).expect("AW_BENCH_SKILL has a capability.json");
    let files = Disk(dir.clone());
    eprintln!("{}: {} bytes", dir.display(), bytes.len());
    c.bench_function("validate AW_BENCH_SKILL", |b| {
        b.iter(|| aw_manifest::validate(Some(black_box(&bytes)), "/bench", &files))
    });
}

criterion_group!(benches, bench, bench_real);
criterion_main!(benches);
