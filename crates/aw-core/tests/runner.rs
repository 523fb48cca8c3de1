//! The integration suite of `aw-core`, built as one test binary: every file of `tests/` is a
//! module here; `common` holds the fixture rows and the pure runs the flow suites share.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod docs_board;
mod docs_props;
mod flow_directive;
mod flow_engine;
mod flow_registry;
mod flow_robustness;
mod flow_runs;
mod flow_state;
mod flow_vectors;

/// With `autotests = false`, cargo compiles only this file: a test file in `tests/` that is not
/// declared above would silently never run. Fail loudly instead.
#[test]
fn every_test_file_is_a_module_of_the_runner() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let runner = include_str!("runner.rs");
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let module = if path.is_dir() {
            path.join("mod.rs")
                .is_file()
                .then(|| path.file_name().unwrap().to_owned())
        } else if path.extension().is_some_and(|e| e == "rs") {
            Some(path.file_stem().unwrap().to_owned())
        } else {
            None
        };
        let Some(module) = module else { continue };
        let module = module.to_str().unwrap();
        if module != "runner" {
            assert!(
                runner.contains(&format!("\nmod {module};\n")),
                "{} is not declared in tests/runner.rs, so it never runs",
                path.display()
            );
        }
    }
}
