//! Shared harness of the session test suites: temporary workspaces (empty or copied from the
//! golden fixture), a private HOME, no `AW_*` variables, stdout piped, and JSON normalisation
//! for snapshots (temporary paths and today's date masked).
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The golden fixture: a legacy workspace written by the reference CLI.
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sample-workspace")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// A temporary workspace with an empty HOME.
pub struct Ws {
    pub dir: tempfile::TempDir,
    pub home: tempfile::TempDir,
}

impl Ws {
    /// An empty workspace (`.workflow/sessions/` exists).
    pub fn new() -> Self {
        let ws = Ws::bare();
        std::fs::create_dir_all(ws.sessions()).unwrap();
        ws
    }

    /// A folder with nothing in it.
    pub fn bare() -> Self {
        Ws {
            dir: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    /// A fresh copy of the golden fixture.
    pub fn golden() -> Self {
        let ws = Ws::bare();
        copy_tree(&fixture(), ws.root());
        ws
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// A child `aw` process in this workspace with the harness's clean environment (for tests
    /// that run processes concurrently or kill them); the caller sets its stdio and spawns it.
    pub fn process(&self, args: &[&str]) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("aw"));
        c.current_dir(self.root())
            .env("HOME", self.home.path())
            .env_remove("AW_NAMESPACE")
            .env_remove("AW_CONTEXT_ID")
            .env_remove("AW_LOCK_WAIT_MS")
            .env_remove("AW_TEST_STALL_MS")
            .args(args);
        c
    }

    pub fn sessions(&self) -> PathBuf {
        self.root().join(".workflow/sessions")
    }

    pub fn history(&self) -> PathBuf {
        self.root().join(".workflow/HISTORY.md")
    }

    /// Creates a session folder (and a `.closed` when `closed`).
    pub fn session(&self, folder: &str, closed: bool) -> PathBuf {
        let p = self.sessions().join(folder);
        std::fs::create_dir_all(&p).unwrap();
        if closed {
            std::fs::write(p.join(".closed"), "").unwrap();
        }
        p
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap()
    }

    pub fn aw(&self) -> Command {
        let mut c = Command::cargo_bin("aw").unwrap();
        c.current_dir(self.root())
            .env("HOME", self.home.path())
            .env_remove("AW_NAMESPACE")
            .env_remove("AW_CONTEXT_ID")
            .env_remove("AW_LOCK_WAIT_MS")
            .env_remove("AW_TEST_STALL_MS");
        c
    }

    /// Runs `aw args…` with extra env and returns (exit code, JSON stdout).
    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
        let mut c = self.aw();
        c.args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout of {args:?} is not JSON ({e}):\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap_or(-1), v)
    }

    /// Runs `aw args…` and returns (exit code, JSON stdout).
    pub fn run(&self, args: &[&str]) -> (i32, Value) {
        self.run_env(args, &[])
    }

    /// Runs and asserts success.
    pub fn ok(&self, args: &[&str]) -> Value {
        let (code, v) = self.run(args);
        assert_eq!(code, 0, "{args:?} failed: {v:#}");
        v
    }

    /// Runs and asserts a failure envelope with `code`; returns the envelope.
    pub fn fails(&self, args: &[&str], code: &str) -> Value {
        let (exit, v) = self.run(args);
        assert_eq!(exit, 1, "{args:?} should fail: {v:#}");
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["code"], code, "{v:#}");
        assert!(
            v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()),
            "every failure names a next action: {v:#}"
        );
        v
    }

    /// The JSON with this workspace's path as `[WS]` and today's date as `[TODAY]`, for
    /// snapshots.
    pub fn masked(&self, v: &Value) -> Value {
        let text = serde_json::to_string(v).unwrap();
        let mut text = text;
        // The binary sees the canonical path; the temp dir may be reached through a link.
        for root in [
            self.root().canonicalize().unwrap(),
            self.root().to_path_buf(),
        ] {
            text = text.replace(root.to_string_lossy().as_ref(), "[WS]");
        }
        let text = text.replace(&today(), "[TODAY]");
        serde_json::from_str(&text).unwrap()
    }

    /// Every file under the workspace with its bytes, sorted (to prove "nothing was written").
    pub fn tree(&self) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        walk(self.root(), self.root(), &mut out);
        out.sort();
        out
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            out.push((format!("{rel}/"), Vec::new()));
            walk(root, &p, out);
        } else {
            out.push((rel, std::fs::read(&p).unwrap()));
        }
    }
}

/// Today's local date as the binary writes it (`YYYY-MM-DD`), via `date`.
pub fn today() -> String {
    let out = std::process::Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}
