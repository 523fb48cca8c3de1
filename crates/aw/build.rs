//! Links the `aw` executable at a fixed address on Linux with glibc, dynamically linked
//! (docs/ARCHITECTURE.md, "Start-up"), unless `AW_BUILD_PIE=1` asks for a position-independent
//! one; a static build stays as rustc links it.
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
    // A static build (`-C target-feature=+crt-static`) is linked `-static-pie`; adding
    // `-no-pie` to it yields an executable that cannot start.
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let crt_static = features.split(',').any(|f| f == "crt-static");
    if os == "linux" && env == "gnu" && !pie && !crt_static {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
