//! The recorded wire: the digest of every output the suite reads through [`super::Ws::output_in`],
//! so that a change in how output is built (typed models instead of JSON literals, views
//! rendered through one trait) is proved byte-identical by the suite itself, not by a one-off.
//!
//! Each run of the binary inside a test is keyed by the test's name (the thread libtest runs it
//! on) and its place among that test's runs. Its stdout is normalised (the temporary folder as
//! `<TMP>`, the real date as `<TODAY>`) and hashed with SHA-256.
//!
//! - Normally, a run whose key is in `tests/wire/recorded.tsv` must hash to the recorded digest,
//!   or the test fails showing the output it got.
//! - Every JSON output is also validated against its command's schema in `docs/schemas/` (the
//!   failure envelope's, `error.json`, for an `ok: false` output), when the command has one.
//! - With `AW_WIRE_RECORD=<dir>`, each run is written to `<dir>` instead (`scripts/wire-record.sh`
//!   runs the suite several times and keeps only the runs that were the same every time; outputs
//!   that depend on timing or randomness are left out of the record).

use sha2::{Digest, Sha256};
use std::cell::Cell;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

thread_local! {
    /// How many runs this test has made so far.
    static RUNS: Cell<u32> = const { Cell::new(0) };
}

/// The recorded digests, by (test, run).
fn recorded() -> &'static HashMap<(String, u32), String> {
    static RECORDED: OnceLock<HashMap<(String, u32), String>> = OnceLock::new();
    RECORDED.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wire/recorded.tsv");
        // A missing record is a failure, not an empty record: it would check nothing.
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (scripts/wire-record.sh writes it)", path.display())
        });
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let mut cols = l.split('\t');
                let (test, run, digest) = (cols.next(), cols.next(), cols.next());
                match (test, run.and_then(|r| r.parse().ok()), digest) {
                    (Some(t), Some(r), Some(d)) => ((t.to_owned(), r), d.to_owned()),
                    _ => panic!(
                        "{}: a line that is not test<TAB>run<TAB>digest: {l}",
                        path.display()
                    ),
                }
            })
            .collect()
    })
}

/// The stdout of a run as recorded: the binary's path as `<AW>`, the checkout's as `<REPO>` (so
/// a record made in another clone or target folder still applies), the temporary folder as
/// `<TMP>`, the real date as `<TODAY>` (and a clock time after it as `<HH:MM>`), and a duration
/// in milliseconds as `<N> ms` (a lock that stayed busy for 50 ms on one run stays busy for 57
/// on a loaded machine).
fn normalised(stdout: &[u8], tmp: &Path, today: &str) -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let repo = repo.canonicalize().unwrap_or(repo);
    // The binary names itself by its resolved path; the suite may know it through a link.
    let bin = super::bin();
    let resolved = bin.canonicalize().unwrap_or_else(|_| bin.clone());
    String::from_utf8_lossy(stdout)
        .replace(resolved.to_str().unwrap(), "<AW>")
        .replace(bin.to_str().unwrap(), "<AW>")
        .replace(repo.to_str().unwrap(), "<REPO>")
        .replace(tmp.to_str().unwrap(), "<TMP>")
        .replace(today, "<TODAY>")
        .split(" ms")
        .map(|piece| piece.trim_end_matches(|c: char| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join("<N> ms")
        .split("<TODAY> ")
        .enumerate()
        .map(|(i, piece)| match piece.as_bytes() {
            // Today's clock time (`<TODAY> 14:05`) is masked too: a record made in one minute
            // must hold in the next.
            [h1, h2, b':', m1, m2, ..]
                if i > 0 && [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit()) =>
            {
                ["<HH:MM>", &piece[5..]].concat()
            }
            _ => piece.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("<TODAY> ")
}

/// The tests whose outputs depend on where a process was killed or which of several racing
/// processes won: they are neither recorded nor checked.
const RANDOM_BY_DESIGN: &[&str] = &["concurrency::", "crash::", "publish_crash::"];

/// Records or checks one run of the binary made by the current test (see the module's text).
pub fn observe(args: &[&str], stdout: &[u8], tmp: &Path) {
    let thread = std::thread::current();
    // Runs from a thread a test spawned itself, or from a test run on the main thread, have no
    // stable key.
    let Some(test) = thread.name().filter(|n| *n != "main") else {
        return;
    };
    if RANDOM_BY_DESIGN.iter().any(|m| test.starts_with(m)) {
        conforms(args, stdout);
        return;
    }
    let run = RUNS.with(|r| {
        let n = r.get();
        r.set(n + 1);
        n
    });
    if stdout.is_empty() {
        return;
    }
    conforms(args, stdout);
    let text = normalised(stdout, tmp, &super::today());
    let digest = format!("{:x}", Sha256::digest(text.as_bytes()));
    if let Some(dir) = std::env::var_os("AW_WIRE_RECORD") {
        let dir = Path::new(&dir);
        std::fs::create_dir_all(dir).unwrap();
        let file = test.replace("::", "__");
        let mut index = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(format!("{file}.tsv")))
            .unwrap();
        writeln!(index, "{test}\t{run}\t{digest}\t{args:?}").unwrap();
        std::fs::write(dir.join(format!("{file}.{run}.out")), &text).unwrap();
        return;
    }
    if let Some(expected) = recorded().get(&(test.to_owned(), run)) {
        assert!(
            *expected == digest,
            "the output of `aw {}` (run {run} of {test}) is not the recorded one: output must \
             stay byte-identical (tests/wire/recorded.tsv; scripts/wire-record.sh records it \
             again where a change is meant). It was:\n{text}",
            args.join(" ")
        );
    }
}

/// The validators of `docs/schemas/`, by file stem (`next-number`, `error`).
fn schemas() -> &'static HashMap<String, jsonschema::Validator> {
    static SCHEMAS: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
        let mut out = HashMap::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let Some(stem) = p.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let schema: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            let v = jsonschema::draft202012::new(&schema)
                .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", p.display()));
            out.insert(stem.to_owned(), v);
        }
        out
    })
}

/// Validates a JSON output against its command's schema (see the module's text): the first
/// two words of `args` that are not flags name it (`flow-advance`), else the first alone.
fn conforms(args: &[&str], stdout: &[u8]) {
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(stdout) else {
        return;
    };
    let words: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .take(2)
        .collect();
    let name =
        if json.get("ok") == Some(&serde_json::Value::Bool(false)) && json.get("error").is_some() {
            "error".to_owned()
        } else {
            match words.as_slice() {
                [] => return,
                [one] => (*one).to_owned(),
                [one, two, ..] if schemas().contains_key(&format!("{one}-{two}")) => {
                    format!("{one}-{two}")
                }
                [one, ..] => (*one).to_owned(),
            }
        };
    let Some(validator) = schemas().get(&name) else {
        return;
    };
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the JSON of `aw {}` does not match docs/schemas/{name}.json:\n{}\n{json:#}",
        args.join(" "),
        errors.join("\n")
    );
}
