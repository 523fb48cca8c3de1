//! The integration suite of the `aw` binary, built as one test binary (as jj and ripgrep do):
//! one link of the binary's dependencies instead of one per file. Every file of `tests/` is a
//! module here; `support` is the shared environment (temporary workspaces, the clean-environment
//! process builder, the pinned clock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod checkpoint;
mod cli_contract;
mod concurrency;
mod crash;
mod demo;
mod flow_cli;
mod flow_journeys;
mod flow_status;
mod golden;
mod manifest_validate;
mod next_number;
mod project_block;
mod sessions;
mod status;
mod subfolder;
mod support;
mod workspace_init;

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
