//! The shared environment of the `aw` integration suite.
//!
//! - [`process`]: the `aw` binary run in a clean environment: a private HOME, and
//!   none of the caller's `AW_*` variables (nor `GIT_*` ones, which would redirect the git that
//!   `aw` runs), so a developer's shell never changes a result. Every run of the binary in this
//!   suite goes through them.
//! - [`Ws`]: a temporary workspace, `<tmp>/proj`, beside a private home, `<tmp>/home` (both
//!   canonical paths), with runners that return the exit code and the JSON, and maskers for
//!   snapshots.
//! - [`NOW`] and [`Ws::pinned_clock`]: the pinned clock. The binary reads "now" from
//!   `AW_TEST_NOW=YYYY-MM-DD HH:MM[:SS]` (every command reads "now" from it); `TZ=UTC` fixes the zone.
//! - [`wait_until`]: a hang guard for tests that wait on another process.

pub mod wire;

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The variables the binary reads (docs/PROTOCOL.md); removed from every run so that only the
/// test sets them. Any other `AW_*` variable of the caller is removed too.
pub const AW_VARIABLES: &[&str] = &[
    "AW_NAMESPACE",
    "AW_CONTEXT_ID",
    "CLAUDE_CODE_SESSION_ID",
    "AW_LOCK_WAIT_MS",
    "AW_TEST_STALL_MS",
    "AW_TEST_NOW",
];

/// The pinned "now" of [`Ws::pinned_clock`].
pub const NOW: &str = "2026-03-10 09:15";

/// The modification time [`Ws::fixture`] gives every file: 2026-03-09 18:30:00 UTC, "yesterday
/// afternoon" seen from [`NOW`].
pub const FIXTURE_MTIME: Duration = Duration::from_secs(1_773_081_000);

/// How long [`wait_until`] waits before it fails: generous, because it only guards against a
/// hang; the property under test is never how fast something happens.
pub const HANG_GUARD: Duration = Duration::from_secs(60);

/// The `aw` binary under test: the one cargo built for this suite, or `AW_TEST_BINARY` (CI
/// runs the suite again against the release build, whose dependencies are built without the
/// features the test build's dev-dependencies turn on).
pub fn bin() -> PathBuf {
    std::env::var_os("AW_TEST_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_aw")))
}

/// Gives `c` the clean environment: HOME is `home`, and no `AW_*` or `GIT_*` variable of the
/// caller survives. For commands other than `aw` itself (a shell pipeline running it).
pub fn clean_env<'c>(c: &'c mut StdCommand, home: &Path) -> &'c mut StdCommand {
    for name in AW_VARIABLES {
        c.env_remove(name);
    }
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("AW_") || text.starts_with("GIT_") {
            c.env_remove(&name);
        }
    }
    c.env("HOME", home)
}

/// The `aw` binary in `cwd` with the clean environment and a closed stdin; the caller adds the
/// arguments, sets stdio and runs or spawns it.
pub fn process(cwd: &Path, home: &Path) -> StdCommand {
    let mut c = StdCommand::new(bin());
    clean_env(&mut c, home);
    c.current_dir(cwd).stdin(Stdio::null());
    c
}

/// Parses stdout as JSON, or fails showing it.
pub fn json_of(stdout: impl AsRef<[u8]>) -> Value {
    let bytes = stdout.as_ref();
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", String::from_utf8_lossy(bytes)))
}

/// Waits until `done` holds, failing with `what` after [`HANG_GUARD`].
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < HANG_GUARD,
            "hang guard: {what} did not happen within {HANG_GUARD:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Today's local date as the binary writes it (`YYYY-MM-DD`), via `date`, so the test does not
/// share the code under test.
pub fn today() -> String {
    let out = StdCommand::new("date").arg("+%Y-%m-%d").output().unwrap();
    assert!(out.status.success(), "date failed");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Every file under `root` with its bytes, every folder (value `None`), and every symbolic link
/// as `symlink -> <target>` (never followed): equal trees prove that nothing was written.
pub fn tree(root: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let kind = e.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(&p).unwrap();
                let text = format!("symlink -> {}", target.display());
                out.insert(rel, Some(text.into_bytes()));
            } else if kind.is_dir() {
                out.insert(rel, None);
                walk(root, &p, out);
            } else {
                out.insert(rel, Some(std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// Copies a folder recursively.
pub fn copy_tree(from: &Path, to: &Path) {
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

/// Sets the modification time of the file (or folder) at `p`.
pub fn set_mtime(p: &Path, t: SystemTime) {
    let f = if p.is_dir() {
        std::fs::File::open(p)
    } else {
        std::fs::File::options().write(true).open(p)
    };
    f.unwrap().set_modified(t).unwrap();
}

/// A folder of `tests/fixtures`.
pub fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A temporary workspace `<tmp>/proj` and a private home `<tmp>/home`.
pub struct Ws {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    /// Variables every run of this workspace gets (before the run's own).
    env: Vec<(String, String)>,
    /// Variables of the caller no run of this workspace sees.
    unset: Vec<String>,
}

impl Ws {
    /// An empty folder: not a workspace yet.
    pub fn bare() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let (root, home) = (base.join("proj"), base.join("home"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Ws {
            _tmp: tmp,
            root,
            home,
            env: Vec::new(),
            unset: Vec::new(),
        }
    }

    /// An empty workspace (`.workflow/sessions/` exists).
    pub fn new() -> Self {
        let ws = Ws::bare();
        std::fs::create_dir_all(ws.sessions()).unwrap();
        ws
    }

    /// A fresh copy of the golden fixture: a legacy workspace written by the reference CLI.
    pub fn golden() -> Self {
        let ws = Ws::bare();
        copy_tree(&fixture_path("sample-workspace"), ws.root());
        ws
    }

    /// A copy of `tests/fixtures/<name>` whose files all have the modification time
    /// [`FIXTURE_MTIME`], so dates and relative dates are stable.
    pub fn fixture(name: &str) -> Self {
        let ws = Ws::bare();
        copy_tree(&fixture_path(name), ws.root());
        let t = SystemTime::UNIX_EPOCH + FIXTURE_MTIME;
        for (rel, bytes) in tree(ws.root()) {
            if bytes.is_some() {
                set_mtime(&ws.root().join(rel), t);
            }
        }
        ws
    }

    /// A workspace made by `workspace-init` with one source, `app` (the folder `app/`).
    pub fn initialised() -> Self {
        let ws = Ws::bare();
        std::fs::create_dir(ws.root().join("app")).unwrap();
        ws.ok(&["workspace-init", "--source", "app:app"]);
        ws
    }

    /// Runs `aw session-create` and asserts success; returns the JSON (`folder`, `number`…).
    pub fn create_session(&self, kind: &str, name: &str, objective: &str) -> Value {
        self.ok(&[
            "session-create",
            "--type",
            kind,
            "--name",
            name,
            "--objective",
            objective,
        ])
    }

    /// Every run of this workspace gets `name=value`.
    pub fn with_env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// No run of this workspace sees the caller's `name` (set, even empty, it would count).
    pub fn without_env(mut self, name: &str) -> Self {
        self.unset.push(name.to_owned());
        self
    }

    /// Every run sees the pinned clock: `AW_TEST_NOW=`[`NOW`] in `TZ=UTC`.
    pub fn pinned_clock(self) -> Self {
        self.with_env("AW_TEST_NOW", NOW).with_env("TZ", "UTC")
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn sessions(&self) -> PathBuf {
        self.root.join(".workflow/sessions")
    }

    pub fn history(&self) -> PathBuf {
        self.root.join(".workflow/HISTORY.md")
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

    /// A session's `CHECKPOINT.md`.
    pub fn checkpoint(&self, folder: &str) -> PathBuf {
        self.sessions().join(folder).join("CHECKPOINT.md")
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// Writes a file under the workspace, creating its folders.
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Every file and folder of the workspace (see [`tree`]).
    pub fn tree(&self) -> BTreeMap<String, Option<Vec<u8>>> {
        tree(&self.root)
    }

    /// An `aw args…` process in `dir` with this workspace's home and variables; the caller sets
    /// its stdio and spawns it (for runs that are concurrent or killed).
    pub fn process_in(&self, dir: &Path, args: &[&str]) -> StdCommand {
        let mut c = process(dir, &self.home);
        for name in &self.unset {
            c.env_remove(name);
        }
        c.envs(self.env.iter().map(|(k, v)| (k, v))).args(args);
        c
    }

    /// [`Ws::process_in`] at the root.
    pub fn process(&self, args: &[&str]) -> StdCommand {
        self.process_in(&self.root, args)
    }

    /// `aw` in `dir`, arguments to be added (see [`Ws::process_in`]).
    pub fn aw_in(&self, dir: &Path) -> StdCommand {
        self.process_in(dir, &[])
    }

    /// [`Ws::aw_in`] at the root.
    pub fn aw(&self) -> StdCommand {
        self.aw_in(&self.root)
    }

    /// Runs `aw args…` in `dir` with `stdin` (closed when `None`) and extra variables.
    pub fn output_in(
        &self,
        dir: &Path,
        args: &[&str],
        stdin: Option<&str>,
        env: &[(&str, &str)],
    ) -> Output {
        let mut c = self.process_in(dir, args);
        c.envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // The first bytes of stdin (and, for a short text, its end) are in the pipe before the
        // command starts, as a host's JSON is: a command that waits only briefly for its first
        // byte (a hook, FIRST_BYTE_WAIT) then sees them however loaded the machine is. Written by
        // a thread after the start, they could come late and be taken for no input at all.
        let rest = stdin.and_then(|text| {
            let (reader, mut pipe) = std::io::pipe().unwrap();
            // Any pipe holds 4 KiB without a reader.
            let now = text.len().min(4096);
            pipe.write_all(&text.as_bytes()[..now]).unwrap();
            c.stdin(reader);
            (now < text.len()).then(|| (pipe, text.as_bytes()[now..].to_vec()))
        });
        let child = c.spawn().unwrap();
        // Dropping the command closes this process's copy of the pipe's reading end.
        drop(c);
        // The rest of a long text is written by its own thread while stdout and stderr are read,
        // so that no pipe fills up; the command may also exit without reading it, which is not
        // an error.
        let writer = rest.map(|(mut pipe, bytes)| {
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            })
        });
        let out = child.wait_with_output().unwrap();
        if let Some(w) = writer {
            w.join().unwrap();
        }
        wire::observe(args, &out.stdout, self.root.parent().unwrap());
        out
    }

    /// Runs `aw args…` at the root: (exit code, stdout as text).
    pub fn stdout(
        &self,
        args: &[&str],
        stdin: Option<&str>,
        env: &[(&str, &str)],
    ) -> (i32, String) {
        let out = self.output_in(&self.root, args, stdin, env);
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// Runs `aw args…` at the root: (exit code, stdout with the workspace path as `<WS>`).
    pub fn text(&self, args: &[&str]) -> (i32, String) {
        let (code, text) = self.stdout(args, None, &[]);
        (code, text.replace(self.root.to_str().unwrap(), "<WS>"))
    }

    /// Runs `aw args…` in `dir`: (exit code, JSON stdout).
    pub fn run_in(
        &self,
        dir: &Path,
        args: &[&str],
        stdin: Option<&str>,
        env: &[(&str, &str)],
    ) -> (i32, Value) {
        let out = self.output_in(dir, args, stdin, env);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout of {args:?} is not JSON ({e}):\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap_or(-1), v)
    }

    /// Runs `aw args…` at the root with `stdin` and extra variables: (exit code, JSON stdout).
    pub fn run_with(
        &self,
        args: &[&str],
        stdin: Option<&str>,
        env: &[(&str, &str)],
    ) -> (i32, Value) {
        self.run_in(&self.root, args, stdin, env)
    }

    /// Runs `aw args…` with extra variables: (exit code, JSON stdout).
    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
        self.run_with(args, None, env)
    }

    /// Runs `aw args…`: (exit code, JSON stdout).
    pub fn run(&self, args: &[&str]) -> (i32, Value) {
        self.run_with(args, None, &[])
    }

    /// Runs in `dir` and asserts success; returns the JSON.
    pub fn ok_in(&self, dir: &Path, args: &[&str]) -> Value {
        let (code, v) = self.run_in(dir, args, None, &[]);
        assert_eq!(code, 0, "{args:?} failed: {v:#}");
        v
    }

    /// Runs and asserts success; returns the JSON.
    pub fn ok(&self, args: &[&str]) -> Value {
        self.ok_in(&self.root, args)
    }

    /// Runs and asserts a failure envelope (exit 1, `ok: false`, a next action); returns it.
    pub fn failure(&self, args: &[&str]) -> Value {
        let (exit, v) = self.run(args);
        assert_eq!(exit, 1, "{args:?} should fail: {v:#}");
        assert_eq!(v["ok"], false, "{v:#}");
        assert!(
            v["data"]["action"].as_str().is_some_and(|a| !a.is_empty()),
            "every failure names a next action: {v:#}"
        );
        v
    }

    /// Runs and asserts a failure envelope with `code`; returns it.
    pub fn fails(&self, args: &[&str], code: &str) -> Value {
        let v = self.failure(args);
        assert_eq!(v["error"]["code"], code, "{args:?}: {v:#}");
        v
    }

    /// The JSON with the workspace path as `<WS>` and its parent (the temporary folder) as
    /// `<TMP>`, for snapshots.
    pub fn scrub(&self, v: &Value) -> Value {
        let text = serde_json::to_string(v)
            .unwrap()
            .replace(self.root.to_str().unwrap(), "<WS>")
            .replace(self.root.parent().unwrap().to_str().unwrap(), "<TMP>");
        serde_json::from_str(&text).unwrap()
    }

    /// The date the binary writes as "today" for this workspace: the pinned clock's date when
    /// it runs with one (no midnight can fall between the binary and the test), else the real
    /// date.
    pub fn today(&self) -> String {
        self.env
            .iter()
            .find(|(k, _)| k == "AW_TEST_NOW")
            .map(|(_, v)| v[..10].to_owned())
            .unwrap_or_else(today)
    }

    /// The JSON with the workspace path as `[WS]` and its "today" as `[TODAY]`, for snapshots.
    pub fn masked(&self, v: &Value) -> Value {
        let text = serde_json::to_string(v)
            .unwrap()
            .replace(self.root.to_str().unwrap(), "[WS]")
            .replace(&self.today(), "[TODAY]");
        serde_json::from_str(&text).unwrap()
    }
}

/// Runs `git args…` in `dir` (a required tool: the test fails, never skips, without it), with
/// the clean environment, a fixed identity, no system or user configuration and no signing.
pub fn git(dir: &Path, home: &Path, args: &[&str]) -> Output {
    let mut c = StdCommand::new("git");
    clean_env(&mut c, home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir);
    let out = c
        .output()
        .unwrap_or_else(|e| panic!("this test needs git, which could not be run: {e}"));
    assert!(
        out.status.success(),
        "git {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The answer template a flow directive's `next_action` quotes: the first JSON object starting
/// at `{"input_digest"`.
pub fn answer_template(next_action: &str) -> Value {
    let at = next_action
        .find("{\"input_digest\"")
        .unwrap_or_else(|| panic!("no answer template in: {next_action}"));
    serde_json::Deserializer::from_str(&next_action[at..])
        .into_iter::<Value>()
        .next()
        .unwrap()
        .unwrap()
}

/// The label of the recommended choice of a directive at a human boundary.
pub fn recommended_choice(directive: &Value) -> Value {
    directive["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["recommended"] == true)
        .unwrap_or_else(|| panic!("no recommended choice: {directive}"))["label"]
        .clone()
}
