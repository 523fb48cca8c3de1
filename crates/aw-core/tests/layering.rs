//! One direction inside the core: a module of aw-core may import (`crate::<module>`) only the
//! modules below it in [`ORDER`]. The order is written down here and nowhere else; a new module
//! takes its place in it, and an import that would point up fails this test with the file and
//! line.

use std::path::{Path, PathBuf};

/// aw-core's top-level modules, from the bottom up. Each may import only those before it.
const ORDER: &[&str] = &[
    // Leaves: no import of another module of the crate, or only of a leaf before them.
    "error_code",
    "calendar",
    "canonical",
    "decimal",
    "markdown",
    "names",
    "context_id",
    "bundle",
    "family",
    // The words several areas share: the flow vocabulary, correlatives, folded titles.
    "vocab",
    // A session folder's files, the session, its checkpoint.
    "artifacts",
    "session",
    "checkpoint",
    // Spec and plan documents.
    "documents",
    // Capabilities, the built-in design capability, persist, and the journal of a publish that
    // names both.
    "capability",
    "design",
    "persist",
    "journal",
    // The project's files and hosts, and installing aw into a host.
    "project",
    "install",
    // Isolation units: a source's worktrees owned by sessions.
    "isolation",
    // The flow engine, then the board that shows everything.
    "flow",
    // Session custody: sealed inputs, units and effects (reads the docs canon's layout).
    "custody",
    "board",
    // The typed output of every command, built from all of the above.
    "wire",
];

/// The top-level module a source file under `src/` belongs to (`flow/walk.rs` → `flow`,
/// `journal_tests.rs` → `journal`); `None` for `lib.rs`.
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    if name == "lib" {
        return None;
    }
    Some(name.strip_suffix("_tests").unwrap_or(name).to_owned())
}

/// The modules a line of source imports through `crate::`: `crate::x::…` and each head of
/// `crate::{x::…, y}`. Comments are not imports.
fn imports(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let code = code.split("//").next().unwrap_or(code);
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        // `aw_core::crate::` cannot occur; `$crate::` (macros) is the same crate.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            out.extend(
                inner
                    .split(',')
                    .map(|i| ident(i.trim()))
                    .filter(|i| !i.is_empty()),
            );
        } else {
            out.push(ident(rest));
        }
    }
    out
}

/// Every `(file, line number, importer, imported)` where `importer` imports a module at or above
/// its own place in `order` (itself excepted), and every module missing from `order`.
fn violations(order: &[&str], files: &[(PathBuf, String)]) -> Vec<String> {
    let rank = |m: &str| order.iter().position(|o| *o == m);
    let mut out = Vec::new();
    for (rel, text) in files {
        let Some(module) = module_of(rel) else {
            continue;
        };
        let Some(own) = rank(&module) else {
            out.push(format!(
                "{}: module `{module}` has no place in ORDER",
                rel.display()
            ));
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for imported in imports(line) {
                if imported == module || imported == "self" || imported == "super" {
                    continue;
                }
                match rank(&imported) {
                    Some(r) if r < own => {}
                    Some(_) => out.push(format!(
                        "{}:{}: `{module}` imports `{imported}`, which stands above it",
                        rel.display(),
                        n + 1
                    )),
                    None => out.push(format!(
                        "{}:{}: `{imported}` has no place in ORDER",
                        rel.display(),
                        n + 1
                    )),
                }
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`, with its path relative to `root` and its text.
fn sources(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

#[test]
fn no_module_of_the_core_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(
        files.len() > 100,
        "the sources were not found under {}",
        src.display()
    );
    let found = violations(ORDER, &files);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_order_names_every_module_of_the_crate_once() {
    let lib = include_str!("../src/lib.rs");
    let mut declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    declared.sort_unstable();
    let mut ordered = ORDER.to_vec();
    ordered.sort_unstable();
    assert_eq!(declared, ordered);
}

#[test]
fn an_upward_import_is_found() {
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_owned());
    let files = [
        file(
            "vocab/flow.rs",
            "use crate::markdown::fold;\n// crate::board::x\n",
        ),
        file("artifacts.rs", "use crate::{vocab::titles, session};\n"),
        file(
            "design/gate_tests.rs",
            "fn f() { crate::board::status::build(); }\n",
        ),
        file("flow/mod.rs", "use crate::{board::x, session::y};\n"),
        file("newcomer.rs", "\n"),
    ];
    let found = violations(ORDER, &files);
    assert_eq!(
        found,
        [
            "artifacts.rs:1: `artifacts` imports `session`, which stands above it",
            "design/gate_tests.rs:1: `design` imports `board`, which stands above it",
            "flow/mod.rs:1: `flow` imports `board`, which stands above it",
            "newcomer.rs: module `newcomer` has no place in ORDER",
        ]
    );
}
