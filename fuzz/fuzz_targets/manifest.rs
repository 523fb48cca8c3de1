//! Fuzzes the manifest validator with arbitrary bytes as `capability.json`: it must never panic,
//! and its class must agree with its errors.
#![no_main]
#![forbid(unsafe_code)]

use aw_manifest::{Class, memory::MemoryFiles, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files = MemoryFiles::new()
        .with("bin/run.sh", "x")
        .with("SKILL.md", "---\nmetadata:\n  version: '1.0.0'\n---\n");
    let report = validate(Some(data), "/fuzz", &files);
    assert_eq!(report.class == Class::Valid, report.errors.is_empty());
});
