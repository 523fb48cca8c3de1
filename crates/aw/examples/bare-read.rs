//! The floor for the board's latency: walks the folders `aw status` reads and reads every file
//! in them once, on one thread, doing nothing with the bytes but counting them.
//!
//! ```text
//! cargo run --release -p aw --example bare-read -- <workspace> [--sessions] [--ns workflow]
//! ```
//!
//! Without `--sessions` it reads what `aw status` / `aw resume` read: the project files
//! (`CLAUDE.md`, `AGENTS.md`), every regular file directly inside `docs/specs`, `docs/plans` and
//! each session folder of `.<ns>/sessions`. With `--sessions` it reads only what `aw sessions`
//! reads: `HISTORY.md` and every session folder's files. It prints the files and bytes read, so
//! a benchmark can check the floor saw the workspace it meant to.
//!
//! No stat, no parsing, no allocation per file: a directory entry's own type says what is a
//! regular file, each file is opened, read to its end into one reused buffer, and closed. What
//! `aw` does on top of this (parse, decide, render, write the JSON) is its overhead over the
//! floor.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::path::{Path, PathBuf};

/// Files read and bytes counted.
#[derive(Default)]
struct Tally {
    files: u64,
    bytes: u64,
    buf: Vec<u8>,
}

impl Tally {
    /// Reads one file to its end (a missing or unreadable one counts nothing).
    fn read(&mut self, path: &Path) {
        let Ok(mut f) = std::fs::File::open(path) else {
            return;
        };
        self.files += 1;
        loop {
            match f.read(&mut self.buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => self.bytes += n as u64,
            }
        }
    }

    /// Reads every regular file directly inside `dir`.
    fn read_folder(&mut self, dir: &Path) {
        let Ok(list) = std::fs::read_dir(dir) else {
            return;
        };
        for e in list.flatten() {
            if e.file_type().is_ok_and(|t| t.is_file()) {
                self.read(&e.path());
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root: Option<PathBuf> = None;
    let mut sessions_only = false;
    let mut ns = "workflow".to_owned();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--sessions" => sessions_only = true,
            "--ns" => ns = args.next().expect("--ns takes a name"),
            _ => root = Some(PathBuf::from(a)),
        }
    }
    let root = root.expect("usage: bare-read <workspace> [--sessions] [--ns workflow]");
    let mut t = Tally {
        buf: vec![0; 64 * 1024],
        ..Tally::default()
    };
    let state = root.join(format!(".{ns}"));
    if sessions_only {
        t.read(&state.join("HISTORY.md"));
    } else {
        t.read(&root.join("CLAUDE.md"));
        t.read(&root.join("AGENTS.md"));
        t.read_folder(&root.join("docs/specs"));
        t.read_folder(&root.join("docs/plans"));
    }
    if let Ok(list) = std::fs::read_dir(state.join("sessions")) {
        for e in list.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                t.read_folder(&e.path());
            }
        }
    }
    println!("{} files, {} bytes", t.files, t.bytes);
}
