//! All or nothing across a kill: `aw capability apply` of a design plan and `aw persist apply`
//! killed at any instant leave nothing or everything as every reader sees it (`aw designs`,
//! `aw status`, `next-number`), and the same plan applied again afterwards completes. The random
//! kills land anywhere in a run (its length is measured first, so they spread over it whatever
//! the machine's speed; what is asserted holds at every instant). `AW_TEST_STALL_AT` parks an
//! apply between two of its files, or half-way through undoing them, for the kills that must land
//! exactly there; `AW_TEST_STALL_RELEASE` lets it go on once the test has acted.

use crate::design_capability as dc;
use crate::persist as ps;
use crate::support::{Ws, wait_until};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// How many kills each random loop makes.
const KILLS: u64 = 36;

pub(crate) const JOURNAL: &str = ".workflow/publish-journal.json";

/// `aw args…` started with `stdin` written and closed, output discarded.
pub(crate) fn spawn(ws: &Ws, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Child {
    let mut c = ws.process(args);
    c.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    child
}

pub(crate) fn kill(mut child: Child) {
    let _ = child.kill();
    child.wait().unwrap();
}

/// The `i`-th kill's delay: spread over 0–130% of a whole run (`run`), in a fixed scattered
/// order, so that kills land before, during and after the writes.
fn delay(i: u64, run: Duration) -> Duration {
    let permille = (i * 7919) % 1000;
    run.mul_f64(1.3 * permille as f64 / 1000.0)
}

/// Every file under `dir` by relative path (`None`: no folder there).
fn files(dir: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    if !dir.exists() {
        return None;
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    Some(out)
}

/// The names in `dir` that are not aw's temporary files (a killed write may leave one, hidden,
/// which every reader looks past and the next write there removes).
fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|list| {
            list.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with(".aw-tmp-"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

pub(crate) fn completed(v: &Value) -> bool {
    v["receipt"]["outcome"] == "completed" || v["outcome"] == "completed"
}

/// A create prepared and validated: its apply arguments and stdin.
fn create_plan(ws: &Ws) -> (Vec<String>, String) {
    ws.write("docs/req.md", "# Requirements\n");
    let a1 = dc::prepare(ws, &dc::create_args("title=Checkout", &[]));
    let dest = format!("{}/DESIGN.md", dc::PKG);
    let planned = dc::validate(ws, &a1, &dc::answer(&a1, &[(&dest, dc::DOC)]));
    apply_of(&planned)
}

fn apply_of(planned: &Value) -> (Vec<String>, String) {
    let approval = planned["plan"]["approval_digest"].as_str().unwrap();
    let args = dc::cap("apply", &["--approval", approval])
        .into_iter()
        .map(str::to_owned)
        .collect();
    let stdin = json!({"request": planned["request"], "plan": planned["plan"]}).to_string();
    (args, stdin)
}

pub(crate) fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_design_create_killed_at_any_instant_leaves_no_package_or_the_whole_package() {
    let ws = Ws::new();
    let (args, stdin) = create_plan(&ws);
    let args = strs(&args);
    let pkg = ws.root().join(dc::PKG);
    let designs = ws.root().join("docs/designs");
    let start = Instant::now();
    let (_, first) = ws.run_with(&args, Some(&stdin), &[]);
    let run = start.elapsed();
    assert!(completed(&first), "{first:#}");
    let whole = files(&pkg).unwrap();
    // The first kills find no docs/designs at all (the root appears with the package), the
    // later ones an empty one.
    std::fs::remove_dir_all(&designs).unwrap();
    for i in 0..KILLS {
        let child = spawn(&ws, &args, &stdin, &[]);
        std::thread::sleep(delay(i, run));
        kill(child);
        // One rename makes the package appear: on disk, before any other command runs, there
        // is no package or the whole package.
        let now = files(&pkg);
        assert!(
            now.is_none() || now.as_ref() == Some(&whole),
            "half a package after kill {i}: {now:?}"
        );
        let there = now.is_some();
        let want: Vec<String> = if there {
            vec!["001-design-checkout".to_owned()]
        } else {
            Vec::new()
        };
        assert_eq!(names(&designs), want, "kill {i}");
        // Every reader agrees.
        let listed = ws.ok(&["designs", "--json"]);
        let packages = listed["packages"].as_array().unwrap();
        assert_eq!(packages.len(), usize::from(there), "kill {i}: {listed:#}");
        if there {
            assert_eq!(packages[0]["id"], "DES-001", "{listed:#}");
            assert_eq!(packages[0]["ok"], true, "{listed:#}");
        }
        let next = ws.ok(&["next-number", "docs/designs", "--dry-run"]);
        assert_eq!(next["next"], if there { "002" } else { "001" }, "kill {i}");
        // The same plan applied again reaches the whole package, whatever the kill left.
        let (code, again) = ws.run_with(&args, Some(&stdin), &[]);
        assert_eq!(code, 0, "{again:#}");
        assert!(completed(&again), "kill {i}: {again:#}");
        assert_eq!(files(&pkg).as_ref(), Some(&whole), "kill {i}");
        if i % 2 == 0 {
            std::fs::remove_dir_all(&designs).unwrap();
        } else {
            std::fs::remove_dir_all(&pkg).unwrap();
        }
    }
}

/// A persist plan of a spec and a plan, in folders that exist (two parts: a journal).
pub(crate) fn persist_plan(ws: &Ws, items: Value) -> (Vec<String>, String) {
    let planned = ps::planned(ws, items);
    let args = [
        "persist",
        "apply",
        "--json",
        "--approval",
        &ps::digest(&planned),
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    (args, json!({"plan": planned["plan"]}).to_string())
}

pub(crate) const SPEC: &str = "docs/specs/004-spec-otp.md";
pub(crate) const PLAN: &str = "docs/plans/008-plan-otp.md";

#[test]
fn a_persist_killed_at_any_instant_leaves_no_document_or_both() {
    let ws = ps::workspace();
    let (args, stdin) = persist_plan(
        &ws,
        json!([
            ps::item("spec", "otp", "OTP"),
            ps::item("plan", "otp", "Plan OTP")
        ]),
    );
    let args = strs(&args);
    let start = Instant::now();
    let (_, first) = ws.run_with(&args, Some(&stdin), &[]);
    let run = start.elapsed();
    assert!(completed(&first), "{first:#}");
    let spec = ws.read(SPEC);
    let plan = ws.read(PLAN);
    let reset = || {
        std::fs::remove_file(ws.root().join(SPEC)).unwrap();
        std::fs::remove_file(ws.root().join(PLAN)).unwrap();
    };
    reset();
    for i in 0..KILLS {
        let child = spawn(&ws, &args, &stdin, &[]);
        std::thread::sleep(delay(i, run));
        kill(child);
        // Readers first: a kill between the two documents is settled before they read.
        let next_plan = ws.ok(&["next-number", "docs/plans", "--dry-run"])["next"].clone();
        let there = ws.root().join(SPEC).exists();
        assert_eq!(
            ws.root().join(PLAN).exists(),
            there,
            "kill {i}: one document without the other"
        );
        assert!(!ws.root().join(JOURNAL).exists(), "kill {i}: settled");
        if there {
            assert_eq!(ws.read(SPEC), spec);
            assert_eq!(ws.read(PLAN), plan);
        }
        assert_eq!(next_plan, if there { "009" } else { "008" }, "kill {i}");
        let status = ws.ok(&["status", "--json"]);
        let listed = status["specs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["file"] == SPEC);
        assert_eq!(listed, there, "kill {i}");
        // The same plan applied again completes it: written, or already applied.
        let (code, again) = ws.run_with(&args, Some(&stdin), &[]);
        assert_eq!(code, 0, "{again:#}");
        assert!(completed(&again), "kill {i}: {again:#}");
        assert_eq!(ws.read(SPEC), spec);
        assert_eq!(ws.read(PLAN), plan);
        reset();
    }
}

#[test]
fn a_persist_killed_between_its_documents_is_finished_before_anything_reads_them() {
    let ws = ps::workspace();
    let (args, stdin) = persist_plan(
        &ws,
        json!([
            ps::item("spec", "otp", "OTP"),
            ps::item("plan", "otp", "Plan OTP")
        ]),
    );
    let args = strs(&args);
    let child = spawn(
        &ws,
        &args,
        &stdin,
        &[
            ("AW_TEST_STALL_AT", "publish-unit"),
            ("AW_TEST_STALL_MS", "20000"),
        ],
    );
    wait_until("the spec", || ws.root().join(SPEC).exists());
    kill(child);
    // The half state exists on disk, with the journal that decides it...
    assert!(!ws.root().join(PLAN).exists());
    assert!(ws.root().join(JOURNAL).exists());
    // ...and no reader ever sees it: the first command finishes the apply.
    let status = ws.ok(&["status", "--json"]);
    let plans: Vec<&Value> = status["plans"].as_array().unwrap().iter().collect();
    assert!(plans.iter().any(|p| p["file"] == PLAN), "{status:#}");
    assert!(ws.read(PLAN).starts_with("# Plan OTP\n"));
    assert!(!ws.root().join(JOURNAL).exists());
    // The agent retries after the lost answer: complete, nothing written.
    let before = ws.tree();
    let (_, again) = ws.run_with(&args, Some(&stdin), &[]);
    assert!(completed(&again), "{again:#}");
    assert!(
        again["next_action"]
            .as_str()
            .unwrap()
            .contains("already applied")
    );
    assert_eq!(ws.tree(), before);
}

#[test]
fn a_design_update_killed_half_way_is_finished_before_aw_designs_lists_it() {
    let ws = Ws::new();
    let (args, stdin) = create_plan(&ws);
    let (_, created) = ws.run_with(&strs(&args), Some(&stdin), &[]);
    assert!(completed(&created), "{created:#}");
    let dest = format!("{}/DESIGN.md", dc::PKG);
    let u1 = dc::update_attempt(&ws, "DES-001@r1");
    let u2 = dc::validate(&ws, &u1, &dc::answer(&u1, &[(&dest, dc::DOC_2)]));
    let (args, stdin) = apply_of(&u2);
    let args = strs(&args);
    let release = ws.home().join("aw-stall-release");
    let release_str = release.to_str().unwrap().to_owned();
    let child = spawn(
        &ws,
        &args,
        &stdin,
        &[
            ("AW_TEST_STALL_AT", "publish-unit"),
            ("AW_TEST_STALL_MS", "20000"),
            ("AW_TEST_STALL_RELEASE", &release_str),
        ],
    );
    // Three parts: the archived revision, DESIGN.md, the manifest. Let it past the first stall,
    // and kill it with DESIGN.md replaced and the manifest not.
    let archived = ws.root().join(dc::PKG).join("revisions/DESIGN-r001.md");
    wait_until("the archived revision", || archived.exists());
    std::fs::write(&release, "").unwrap();
    wait_until("the new DESIGN.md", || {
        std::fs::read_to_string(ws.root().join(&dest)).is_ok_and(|t| t == dc::DOC_2)
    });
    kill(child);
    let manifest = ws.read(&format!("{}/design-manifest.json", dc::PKG));
    assert!(
        manifest.contains("\"revision\": 1"),
        "the manifest is still r1: {manifest}"
    );
    // aw designs settles it first: the package is whole, at revision 2.
    let listed = ws.ok(&["designs", "--json"]);
    assert_eq!(listed["packages"][0]["ok"], true, "{listed:#}");
    let v = dc::prepare(
        &ws,
        &["--operation", "validate", "--input", "package=DES-001"],
    );
    assert_eq!(v["output"]["reference"]["revision"], 2, "{v:#}");
    assert!(!ws.root().join(JOURNAL).exists());
    let (_, again) = ws.run_with(&args, Some(&stdin), &[]);
    assert!(completed(&again), "{again:#}");
    assert_eq!(again["output"]["value"]["written"], json!([]));
}

#[test]
fn a_persist_killed_while_undoing_is_undone_not_finished_by_the_next_command() {
    let ws = ps::workspace();
    let (args, stdin) = persist_plan(
        &ws,
        json!([
            ps::item("research", "otp", "OTP research"),
            ps::item("spec", "otp", "OTP"),
            ps::item("plan", "otp", "Plan OTP")
        ]),
    );
    let args = strs(&args);
    let before = ws.tree();
    let research = "docs/research/001-research-otp.md";
    let release = ws.home().join("aw-stall-release");
    let release_str = release.to_str().unwrap().to_owned();
    let child = spawn(
        &ws,
        &args,
        &stdin,
        &[
            ("AW_TEST_STALL_AT", "publish-unit,publish-undo"),
            ("AW_TEST_STALL_MS", "20000"),
            ("AW_TEST_STALL_RELEASE", &release_str),
        ],
    );
    wait_until("the research", || ws.root().join(research).exists());
    std::fs::write(&release, "").unwrap();
    wait_until("the spec", || ws.root().join(SPEC).exists());
    // Something that is not aw takes the plan's name: the third part fails, and the apply
    // undoes the other two, newest first; it is killed after undoing the spec.
    ws.write(PLAN, "someone else's\n");
    std::fs::write(&release, "").unwrap();
    wait_until("the spec undone", || !ws.root().join(SPEC).exists());
    kill(child);
    assert!(ws.root().join(research).exists(), "not undone yet");
    let journal = ws.read(JOURNAL);
    assert!(journal.contains("\"direction\": \"back\""), "{journal}");
    // The person moves their file aside. Every document is now either as the plan wants it or
    // as it was, so a journal going forward would finish the apply; this one says back.
    std::fs::remove_file(ws.root().join(PLAN)).unwrap();
    let next = ws.ok(&["next-number", "docs/research", "--dry-run"]);
    assert_eq!(next["next"], "001", "the research is undone: {next:#}");
    let mut after = ws.tree();
    after.retain(|k, _| !k.starts_with(".workflow"));
    let mut want = before;
    want.retain(|k, _| !k.starts_with(".workflow"));
    assert_eq!(after, want, "as it was before the apply");
    assert!(!ws.root().join(JOURNAL).exists());
    // Applied again, the plan is written whole.
    let (_, again) = ws.run_with(&args, Some(&stdin), &[]);
    assert!(completed(&again), "{again:#}");
    assert!(ws.root().join(PLAN).exists() && ws.root().join(research).exists());
}
