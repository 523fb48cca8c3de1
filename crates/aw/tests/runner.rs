//! The integration suite of the `aw` binary, built as one test binary (as jj and ripgrep do):
//! one link of the binary's dependencies instead of one per file. Every file of `tests/` is a
//! module here; `support` is the shared environment (temporary workspaces, the clean-environment
//! process builder, the pinned clock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod board_v22;
mod bundle;
mod capability_descriptor;
mod capability_protocol;
mod checkpoint;
mod cli_contract;
mod concurrency;
mod context;
mod crash;
mod custody;
mod demo;
mod design_capability;
mod designs;
mod error_data;
mod family_links;
mod family_modes;
mod family_posture;
mod family_sandbox;
mod family_settings;
mod family_status;
mod flow_cli;
mod flow_internal;
mod flow_journeys;
mod flow_status;
mod golden;
mod help_map;
mod hook;
mod hook_guards;
mod house_rules;
mod manifest_validate;
mod multiroot;
mod next_number;
mod persist;
mod project_block;
mod protocol_differences;
mod publish_crash;
mod publish_journal;
mod remove_source;
mod schemas;
mod self_install;
mod self_install_reference;
mod sessions;
mod skills;
mod stack;
mod status;
mod subfolder;
mod support;
mod symlinks;
mod unit_check;
mod workspace_init;
mod workspace_migrate;
mod worktree;

/// With `autotests = false`, cargo compiles only `tests/runner.rs` of each crate: a test file
/// that its runner does not declare would silently never run. This fails loudly instead, for
/// every crate of the workspace that has a runner.
#[test]
fn every_test_file_is_a_module_of_its_runner() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let mut runners = 0;
    for krate in std::fs::read_dir(crates).unwrap() {
        let tests = krate.unwrap().path().join("tests");
        let Ok(runner) = std::fs::read_to_string(tests.join("runner.rs")) else {
            continue;
        };
        runners += 1;
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
            assert!(
                module == "runner" || runner.contains(&format!("\nmod {module};\n")),
                "{} is not declared in its tests/runner.rs, so it never runs",
                path.display()
            );
        }
    }
    assert!(
        runners >= 4,
        "aw, aw-core, aw-manifest and aw-workspace each have a runner; found {runners}"
    );
}
