//! Links the `aw` executable statically, at a fixed address, on Linux with glibc
//! (docs/ARCHITECTURE.md, "Start-up"): no dynamic loader runs at start, no shared library is
//! mapped, and no pointer is patched. `AW_BUILD_DYNAMIC=1` links it dynamically (still at a
//! fixed address), `AW_BUILD_PIE=1` as a position-independent executable; a build whose C
//! toolchain has no static glibc (`libc.a`, Debian's libc6-dev, Fedora's glibc-static) falls
//! back to the dynamic link and says so; a `crt-static` build stays as rustc links it.
//!
//! rustc links a glibc program with `-Bdynamic -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc`, and
//! `-C target-feature=+crt-static` (which would link it statically) cannot be set for the
//! binary alone: given to the whole build, it also reaches the proc-macro crates, which cannot
//! be linked statically. So the binary's link gets `-static`, and a folder of linker scripts
//! searched before the system's: `libc.so` there names `libc.a` (with libgcc's unwinder,
//! `libgcc_eh.a`, and `libgcc.a`), `libgcc_s.so` names `libgcc_eh.a`, and each of the others its
//! own archive. This is the link rustc makes for `crt-static`, reached from the bins' link
//! arguments only: tests, examples and proc-macros are linked as before.
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in ["AW_BUILD_PIE", "AW_BUILD_DYNAMIC", "RUSTC_LINKER"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let asked = |name: &str| var(name) == "1";
    // A static build (`-C target-feature=+crt-static`) is linked `-static-pie`; adding
    // `-no-pie` to it yields an executable that cannot start.
    let crt_static = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // What the tests expect of the executable (tests/house_rules.rs).
    let link = if !linux_gnu || crt_static {
        "rustc"
    } else if asked("AW_BUILD_PIE") {
        "pie"
    } else {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        if asked("AW_BUILD_DYNAMIC") {
            "dynamic"
        } else if var("TARGET") != var("HOST") {
            // The archives found would be the build machine's, not the target's.
            "dynamic-cross"
        } else {
            match static_glibc() {
                Ok(dir) => {
                    println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
                    println!("cargo:rustc-link-arg-bins=-static");
                    "static"
                }
                Err(missing) => {
                    println!(
                        "cargo:warning=aw is linked dynamically: the C toolchain has no {missing} \
                         (static glibc; on Debian it is in libc6-dev, on Fedora in glibc-static)"
                    );
                    "dynamic-no-static-glibc"
                }
            }
        }
    };
    println!("cargo:rustc-env=AW_LINK={link}");
}

/// Writes the linker scripts that turn rustc's dynamic library list into static archives, in
/// a folder of `OUT_DIR`; `Err` names the first archive the C toolchain does not have.
fn static_glibc() -> Result<PathBuf, String> {
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let archive = |name: &str| -> Result<PathBuf, String> {
        let out = Command::new(&linker)
            .arg(format!("-print-file-name={name}"))
            .output()
            .map_err(|_| name.to_owned())?;
        let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        // A compiler that does not find the file prints its bare name back.
        if path.is_absolute() && path.is_file() {
            Ok(path)
        } else {
            Err(name.to_owned())
        }
    };
    let (libc, gcc_eh, gcc) = (
        archive("libc.a")?,
        archive("libgcc_eh.a")?,
        archive("libgcc.a")?,
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|_| "OUT_DIR".to_owned())?);
    let dir = out.join("static-glibc");
    let write = |name: &str, script: String| -> Result<(), String> {
        std::fs::write(dir.join(name), script).map_err(|e| format!("{name} ({e})"))
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{} ({e})", dir.display()))?;
    let shown = |p: &Path| p.display().to_string();
    write(
        "libc.so",
        format!(
            "GROUP({} {} {})\n",
            shown(&libc),
            shown(&gcc_eh),
            shown(&gcc)
        ),
    )?;
    write("libgcc_s.so", format!("INPUT({})\n", shown(&gcc_eh)))?;
    for lib in ["util", "rt", "pthread", "m", "dl"] {
        let a = archive(&format!("lib{lib}.a"))?;
        write(&format!("lib{lib}.so"), format!("INPUT({})\n", shown(&a)))?;
    }
    Ok(dir)
}
