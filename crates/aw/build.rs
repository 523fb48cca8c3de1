//! Links the `aw` executable at a fixed address on Linux with glibc (docs/ARCHITECTURE.md,
//! "Start-up"), unless `AW_BUILD_PIE=1` asks for a position-independent one.
//!
//! In a position-independent executable the dynamic loader patches every pointer of aw's
//! read-only tables at each start (some 18,000 relocations over about 80 pages), which costs
//! more than the work a small listing does. Linked at a fixed address, those pages are only
//! mapped, and only the ones a command reads are touched.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=AW_BUILD_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let pie = std::env::var("AW_BUILD_PIE").is_ok_and(|v| v == "1");
    if os == "linux" && env == "gnu" && !pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
