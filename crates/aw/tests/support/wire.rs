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
        let text = std::fs::read_to_string(&path).unwrap_or_default();
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

/// The stdout of a run as recorded: the temporary folder as `<TMP>`, the real date as `<TODAY>`.
fn normalised(stdout: &[u8], tmp: &Path, today: &str) -> String {
    String::from_utf8_lossy(stdout)
        .replace(tmp.to_str().unwrap(), "<TMP>")
        .replace(today, "<TODAY>")
}

/// Records or checks one run of the binary made by the current test (see the module's text).
pub fn observe(args: &[&str], stdout: &[u8], tmp: &Path) {
    let thread = std::thread::current();
    // Runs from a thread a test spawned itself, or from a test run on the main thread, have no
    // stable key.
    let Some(test) = thread.name().filter(|n| *n != "main") else {
        return;
    };
    let run = RUNS.with(|r| {
        let n = r.get();
        r.set(n + 1);
        n
    });
    if stdout.is_empty() {
        return;
    }
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
