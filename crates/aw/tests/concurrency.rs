//! Concurrency: 16 processes at once, 20 rounds, for `session-create` and for
//! `next-number --claim`. Every process must succeed (the lock wait is bounded but long enough),
//! every number must be unique, and no write may be lost (every conversation binding and every
//! claimed file is there at the end). The reference duplicated numbers here (§4.2).

use crate::support::Ws;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::{Child, Stdio};

const PARALLEL: usize = 16;
const ROUNDS: usize = 20;

fn spawn(ws: &Ws, args: &[String], env: &[(&str, String)]) -> Child {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut c = ws.process(&args);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().unwrap()
}

fn finish(child: Child) -> Value {
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(out.status.code(), Some(0), "a concurrent run failed: {v:#}");
    v
}

#[test]
fn concurrent_session_creates_get_unique_numbers_and_keep_every_binding() {
    let ws = Ws::new();
    let mut numbers = BTreeSet::new();
    for round in 0..ROUNDS {
        let children: Vec<Child> = (0..PARALLEL)
            .map(|i| {
                let args = [
                    "session-create",
                    "--type",
                    "quick",
                    "--name",
                    &format!("r{round}-p{i}-quick"),
                    "--objective",
                    "race",
                ]
                .map(str::to_owned);
                spawn(
                    &ws,
                    &args,
                    &[("AW_CONTEXT_ID", format!("conv-{round}-{i}"))],
                )
            })
            .collect();
        for child in children {
            let v = finish(child);
            let n = v["number"].as_str().unwrap().to_owned();
            assert!(numbers.insert(n.clone()), "number {n} was handed out twice");
        }
    }
    let total = PARALLEL * ROUNDS;
    let expected: BTreeSet<String> = (1..=total).map(|n| format!("{n:03}")).collect();
    assert_eq!(numbers, expected, "numbers are dense and unique");
    let folders = std::fs::read_dir(ws.sessions())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(folders, total);
    let reg: Value = serde_json::from_str(&ws.read(".workflow/sessions/.bindings.json")).unwrap();
    assert_eq!(
        reg["bindings"].as_object().unwrap().len(),
        total,
        "no binding write was lost"
    );
    for e in std::fs::read_dir(ws.sessions()).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            assert!(
                p.join("SESSION.md").is_file(),
                "{} has its SESSION.md",
                p.display()
            );
        }
    }
}

#[test]
fn concurrent_claims_get_unique_numbers() {
    let ws = Ws::new();
    let mut numbers = BTreeSet::new();
    for round in 0..ROUNDS {
        let children: Vec<Child> = (0..PARALLEL)
            .map(|i| {
                let args = [
                    "next-number",
                    "docs/specs",
                    "--claim",
                    &format!("spec-r{round}-p{i}.md"),
                ]
                .map(str::to_owned);
                spawn(&ws, &args, &[])
            })
            .collect();
        for child in children {
            let v = finish(child);
            let n = v["next"].as_str().unwrap().to_owned();
            assert!(numbers.insert(n.clone()), "number {n} was claimed twice");
            assert!(std::path::Path::new(v["claimed_path"].as_str().unwrap()).is_file());
        }
    }
    let total = PARALLEL * ROUNDS;
    assert_eq!(numbers.len(), total);
    let files = std::fs::read_dir(ws.root().join("docs/specs"))
        .unwrap()
        .count();
    assert_eq!(files, total, "one file per claim, no temporary leftovers");
}
