//! aw never writes outside the workspace through a symbolic link (issue 9 §1), one write site at
//! a time, through the binary: a workspace beside an "outside" folder holding sentinels, a link
//! planted at the site (to the outside, and to nothing where that matters: aw must not create a
//! link's target), the command run; then the refusal's code and next action, the outside tree
//! byte for byte, and the workspace's (nothing half-written). Links that stay inside the
//! workspace are still followed, and stale temporary files beside a write are cleaned up by it.
//!
//! Commands are written as one string, split on spaces (no argument here holds one).

use crate::support::{Ws, set_mtime, tree};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

type Tree = BTreeMap<String, Option<Vec<u8>>>;

/// A conversation for the runs that bind one.
const CONV: (&str, &str) = ("AW_CONTEXT_ID", "conv-A");

/// A written-in checkpoint (no placeholder left), which aw keeps unless forced.
const WRITTEN_CHECKPOINT: &str = "# CHECKPOINT\n\n## Progress\nDone by hand, outside.\n";

/// A launch folder's `launch.json` as older releases generated it.
const GENERATED: &str = r#"{"mode":"server","_generated":{"sha256":"ab12"}}"#;

/// A workspace and, beside it (`<tmp>/outside`), a folder aw must never change, holding a
/// sentinel file, `sentinel.md`, and a sentinel folder, `folder/inner.md`.
struct Site {
    ws: Ws,
    out: PathBuf,
}

impl Site {
    fn new(ws: Ws) -> Site {
        let out = ws.root().parent().unwrap().join("outside");
        std::fs::create_dir_all(out.join("folder")).unwrap();
        std::fs::write(out.join("sentinel.md"), "keep me\n").unwrap();
        std::fs::write(out.join("folder/inner.md"), "keep me too\n").unwrap();
        Site { ws, out }
    }

    /// A workspace made by `workspace-init --source app:app`, with the pinned clock.
    fn initialised() -> Site {
        Site::new(Ws::initialised().pinned_clock())
    }

    /// A folder that is not a workspace yet, holding `app/`.
    fn bare() -> Site {
        let s = Site::new(Ws::bare().pinned_clock());
        std::fs::create_dir(s.path("app")).unwrap();
        s
    }

    /// A path of the outside folder.
    fn out(&self, rel: &str) -> PathBuf {
        self.out.join(rel)
    }

    /// A path of the workspace.
    fn path(&self, rel: &str) -> PathBuf {
        self.ws.root().join(rel)
    }

    /// A folder beside the workspace, for the sources and folders that lie outside it.
    fn ext(&self) -> String {
        let ext = self.ws.root().parent().unwrap().join("ext");
        std::fs::create_dir_all(&ext).unwrap();
        ext.to_string_lossy().into_owned()
    }

    /// Replaces whatever is at `rel` in the workspace with a symbolic link to `target`.
    fn link(&self, rel: &str, target: impl AsRef<Path>) {
        let at = self.path(rel);
        match at.symlink_metadata() {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&at).unwrap(),
            Ok(_) => std::fs::remove_file(&at).unwrap(),
            Err(_) => std::fs::create_dir_all(at.parent().unwrap()).unwrap(),
        }
        symlink(target, &at).unwrap();
    }

    /// Moves `rel` (a file or a folder) to `outside/<to>` and leaves a link to it in its place.
    fn move_out(&self, rel: &str, to: &str) {
        let dest = self.out(to);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::rename(self.path(rel), &dest).unwrap();
        symlink(&dest, self.path(rel)).unwrap();
    }

    /// Both trees: the outside folder and the workspace, byte for byte (links not followed).
    fn trees(&self) -> (Tree, Tree) {
        (tree(&self.out), self.ws.tree())
    }

    /// Runs `aw <cmd>` with `env` and asserts a refusal with `code` whose next action names the
    /// fix; returns the envelope.
    fn refused(&self, cmd: &str, env: &[(&str, &str)], code: &str) -> Value {
        let args: Vec<&str> = cmd.split(' ').collect();
        let (exit, v) = self.ws.run_env(&args, env);
        assert_eq!(exit, 1, "`{cmd}` should fail: {v:#}");
        assert_eq!(v["ok"], false, "`{cmd}`: {v:#}");
        assert_eq!(v["error"]["code"], code, "`{cmd}`: {v:#}");
        let action = v["data"]["action"].as_str().unwrap_or_default();
        let names_the_fix = match code {
            "PATH_OUTSIDE_WORKSPACE" | "WORKSPACE_INIT_FAILED" => {
                action.contains("symbolic link") || action.contains("Remove it")
            }
            "SESSION_NOT_FOUND" => action.contains("aw sessions"),
            _ => !action.is_empty(),
        };
        assert!(
            names_the_fix,
            "`{cmd}`: the action names no fix: {action:?}"
        );
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(!message.contains(".."), "`{cmd}`: one full stop: {message}");
        v
    }

    /// Runs `aw <cmd>` with `env`, asserts success and returns the JSON.
    fn ok(&self, cmd: &str, env: &[(&str, &str)]) -> Value {
        let args: Vec<&str> = cmd.split(' ').collect();
        let (exit, v) = self.ws.run_env(&args, env);
        assert_eq!(exit, 0, "`{cmd}` failed: {v:#}");
        v
    }

    /// Asserts that every command of `table` is refused with its code and changes neither tree.
    fn all_refused(&self, table: &[(&str, &str)], env: &[(&str, &str)]) {
        let before = self.trees();
        for (cmd, code) in table {
            self.refused(cmd, env, code);
            assert_eq!(self.trees(), before, "`{cmd}` wrote something");
        }
    }
}

/// The outside folder as [`Site::new`] makes it.
fn pristine() -> Tree {
    BTreeMap::from([
        ("folder".to_owned(), None),
        (
            "folder/inner.md".to_owned(),
            Some(b"keep me too\n".to_vec()),
        ),
        ("sentinel.md".to_owned(), Some(b"keep me\n".to_vec())),
    ])
}

const OUTSIDE: &str = "PATH_OUTSIDE_WORKSPACE";

// --- 1. `.workflow` itself -----------------------------------------------------------------

#[test]
fn a_state_folder_linked_out_refuses_every_writing_command() {
    let s = Site::initialised();
    // The outside folder looks like a state folder with a session, so every command finds
    // something to write there.
    std::fs::create_dir_all(s.out("state/sessions/001-x-quick")).unwrap();
    std::fs::write(s.out("state/sessions/001-x-quick/SESSION.md"), "# x\n").unwrap();
    s.link(".workflow", s.out("state"));
    let ext = s.ext();
    s.all_refused(
        &[
            (
                "session-create --type quick --name y --objective o",
                OUTSIDE,
            ),
            ("workspace-init --source app:app", OUTSIDE),
            ("checkpoint-write --code 1", OUTSIDE),
            ("session-close --code 1", OUTSIDE),
            ("history-update --code 1 --state active", OUTSIDE),
            ("flow advance --session 1 --flow quick --adopt", OUTSIDE),
            ("next-number docs/specs --claim spec-x.md", OUTSIDE),
            ("project-md-upsert --init --source b:app", OUTSIDE),
            ("set-working-branch app feat", OUTSIDE),
            (&format!("attach-multiroot --path {ext}"), OUTSIDE),
            ("remove-source app", OUTSIDE),
        ],
        &[],
    );
}

#[test]
fn a_dangling_state_folder_link_is_not_created() {
    let s = Site::bare();
    s.link(".workflow", s.out("state"));
    s.all_refused(
        &[
            ("workspace-init --source app:app", OUTSIDE),
            (
                "session-create --type quick --name y --objective o",
                OUTSIDE,
            ),
        ],
        &[],
    );
    assert_eq!(tree(&s.out), pristine());
}

// --- 2. The lock ----------------------------------------------------------------------------

#[test]
fn a_lock_that_is_not_a_regular_file_is_refused_and_its_target_untouched() {
    // A link to an outside file, a link to nothing, a folder.
    for kind in ["file", "dangling", "folder"] {
        let s = Site::initialised();
        match kind {
            "file" => s.link(".workflow/.lock", s.out("sentinel.md")),
            "dangling" => s.link(".workflow/.lock", s.out("created-by-aw")),
            _ => {
                std::fs::remove_file(s.path(".workflow/.lock")).unwrap();
                std::fs::create_dir(s.path(".workflow/.lock")).unwrap();
            }
        }
        let before = s.trees();
        for cmd in [
            "session-create --type quick --name y --objective o",
            "workspace-init --source app:app",
            "next-number docs/specs --claim spec-x.md",
            "project-md-upsert --init --source b:app",
            "history-update --code 1 --state active",
        ] {
            let v = s.refused(cmd, &[], OUTSIDE);
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.contains("not a regular file"), "{kind}: {message}");
            assert_eq!(s.trees(), before, "{kind}: `{cmd}`");
        }
        // The link's target is neither truncated nor created.
        assert_eq!(tree(&s.out), pristine(), "{kind}");
    }
}

// --- 3. The sessions folder and a session folder ---------------------------------------------

#[test]
fn a_sessions_folder_linked_out_is_never_written() {
    let s = Site::initialised();
    std::fs::create_dir_all(s.out("sessions/001-x-quick")).unwrap();
    std::fs::write(s.out("sessions/001-x-quick/SESSION.md"), "# x\n").unwrap();
    std::fs::create_dir_all(s.out("sessions/002-y-quick")).unwrap();
    std::fs::write(s.out("sessions/002-y-quick/SESSION.md"), "# y\n").unwrap();
    std::fs::write(s.out("sessions/002-y-quick/.closed"), "").unwrap();
    s.link(".workflow/sessions", s.out("sessions"));
    s.all_refused(
        &[
            (
                "session-create --type quick --name z --objective o",
                OUTSIDE,
            ),
            // What lies behind the link is not this workspace's: it holds no sessions.
            (
                "flow advance --session 1 --flow quick --adopt",
                "SESSION_NOT_FOUND",
            ),
            ("session-close --code 1", "SESSION_NOT_FOUND"),
            ("session-resume --code 2 --reopen", "SESSION_NOT_FOUND"),
            ("workspace-init --source app:app", OUTSIDE),
        ],
        &[],
    );
    let before = s.trees();
    assert_eq!(s.ok("sessions --state all", &[])["sessions"], json!([]));
    // The checkpoint hook degrades (exit 0) rather than fail the host.
    let v = s.ok("checkpoint-write --code 1", &[]);
    assert_eq!(
        (&v["skipped"], &v["continuity"]),
        (&json!(true), &json!("degraded"))
    );
    // The closing hook finds nothing to write and exits 0: the host is going away.
    let v = s.ok("auto-compact-on-close --code 1", &[]);
    assert_eq!(v["checkpoints_written"], json!([]), "{v:#}");
    assert_eq!(s.trees(), before);
}

#[test]
fn a_session_folder_linked_out_is_not_a_session() {
    let s = Site::initialised();
    std::fs::create_dir_all(s.out("x")).unwrap();
    std::fs::write(s.out("x/SESSION.md"), "# x\n").unwrap();
    std::fs::write(s.out("x/.closed"), "").unwrap();
    s.link(".workflow/sessions/001-x-quick", s.out("x"));
    let not_found = "SESSION_NOT_FOUND";
    s.all_refused(
        &[
            ("flow advance --session 1 --flow quick --adopt", not_found),
            ("session-close --code 1", not_found),
            ("session-resume --code 1 --reopen", not_found),
            ("session-resume --code 001-x-quick", not_found),
            ("history-update --code 1 --state closed", not_found),
            ("session-artifacts --code 1", not_found),
        ],
        &[CONV],
    );
    // The hooks degrade: no session, nothing written.
    let before = s.trees();
    let v = s.ok("checkpoint-write --code 1", &[CONV]);
    assert_eq!(v["skipped"], true, "{v:#}");
    assert_eq!(v["continuity"], "degraded", "{v:#}");
    let v = s.ok("auto-compact-on-close", &[]);
    assert_eq!(v["checkpoints_written"], json!([]), "{v:#}");
    assert_eq!(s.ok("sessions --all", &[])["total_count"], 0);
    assert_eq!(s.trees(), before);
}

#[test]
fn a_dangling_session_folder_link_is_never_created() {
    let s = Site::initialised();
    // `session-create --name x` makes `001-x`: the link by that name stands in the way.
    s.link(".workflow/sessions/001-x", s.out("x"));
    s.all_refused(
        &[(
            "session-create --type quick --name x --objective o",
            "INVALID_INPUT",
        )],
        &[],
    );
    assert_eq!(tree(&s.out), pristine());
}

// --- 4. HISTORY.md --------------------------------------------------------------------------

#[test]
fn a_history_linked_out_is_never_written() {
    for target in ["sentinel.md", "HISTORY.md"] {
        let s = Site::initialised();
        s.ws.create_session("quick", "x", "o");
        s.link(".workflow/HISTORY.md", s.out(target));
        s.all_refused(&[("history-update --code 1 --state active", OUTSIDE)], &[]);
        // The close stands; the row is reported as not written.
        let v = s.ok("session-close --code 1", &[]);
        assert_eq!(v["closed"], true);
        assert_eq!(v["history"], Value::Null, "{v:#}");
        let why = v["history_error"].as_str().unwrap();
        assert!(why.contains("symbolic link"), "{why}");
        assert!(s.path(".workflow/sessions/001-x/.closed").is_file());
        assert_eq!(tree(&s.out), pristine(), "{target}");
    }
}

// --- 5. CLAUDE.md and AGENTS.md -------------------------------------------------------------

#[test]
fn a_block_file_linked_out_leaves_both_files_as_they_were() {
    for file in ["CLAUDE.md", "AGENTS.md"] {
        for dangling in [false, true] {
            let s = Site::initialised();
            if dangling {
                s.link(file, s.out("BLOCK.md"));
            } else {
                s.move_out(file, file);
            }
            let outside = tree(&s.out);
            s.all_refused(
                &[
                    ("project-md-upsert --init --source b:app", OUTSIDE),
                    ("set-working-branch app feat", OUTSIDE),
                    ("set-qa-branch app qa", OUTSIDE),
                    ("remove-source app", OUTSIDE),
                    (
                        "workspace-init --source app:app --project p",
                        "WORKSPACE_INIT_FAILED",
                    ),
                ],
                &[],
            );
            let v = s.refused("workspace-init --project p", &[], "WORKSPACE_INIT_FAILED");
            assert_eq!(v["error"]["details"]["step"], "project_md", "{v:#}");
            assert_eq!(tree(&s.out), outside, "{file}, dangling: {dangling}");
        }
    }
}

#[test]
fn a_first_init_with_a_block_file_linked_out_leaves_no_trace() {
    let s = Site::bare();
    s.link("CLAUDE.md", s.out("sentinel.md"));
    // Not even the scaffold: no `.workflow/`, no `.gitignore`, no AGENTS.md.
    s.all_refused(
        &[("workspace-init --source app:app", "WORKSPACE_INIT_FAILED")],
        &[],
    );
}

// --- 6. .gitignore --------------------------------------------------------------------------

#[test]
fn a_gitignore_linked_out_is_never_written() {
    for target in ["sentinel.md", "gitignore"] {
        for s in [Site::bare(), Site::initialised()] {
            let ext = s.ext();
            s.link(".gitignore", s.out(target));
            s.all_refused(
                &[
                    (
                        &format!("workspace-init --source app:app --source e:{ext}"),
                        OUTSIDE,
                    ),
                    (&format!("attach-multiroot --path {ext}"), OUTSIDE),
                ],
                &[],
            );
            assert_eq!(tree(&s.out), pristine());
        }
    }
}

// --- 7. skills.toml and the hosts' files ----------------------------------------------------

#[test]
fn a_skills_toml_linked_out_is_never_written() {
    // Only `workspace-init` writes it, and only when there is none: a link to a file is a file
    // that exists, a link to nothing is refused.
    let s = Site::initialised();
    s.link(".workflow/skills.toml", s.out("sentinel.md"));
    assert_eq!(s.ok("workspace-init", &[])["skills_toml"], "exists");
    assert_eq!(tree(&s.out), pristine());
    s.link(".workflow/skills.toml", s.out("skills.toml"));
    s.all_refused(&[("workspace-init", OUTSIDE)], &[]);
    assert_eq!(tree(&s.out), pristine());
}

#[test]
fn the_hosts_files_linked_out_are_never_written() {
    // Each host's file, or the folder holding it, linked out to something or to nothing. The
    // outside files are valid settings, so only the link stands in the way.
    for (at, target) in [
        (".claude", "folder"),
        (".claude/settings.local.json", "settings.json"),
        (".claude/settings.local.json", "none.json"),
        (".codex", "folder"),
        (".codex/config.toml", "config.toml"),
        (".codex/config.toml", "none.toml"),
    ] {
        let s = Site::initialised();
        std::fs::write(s.out("settings.json"), "{\"permissions\": {}}\n").unwrap();
        std::fs::write(s.out("config.toml"), "model = \"m\"\n").unwrap();
        let ext = s.ext();
        s.link(at, s.out(target));
        let outside = tree(&s.out);
        s.all_refused(
            &[
                (&format!("attach-multiroot --path {ext}"), OUTSIDE),
                (
                    &format!("workspace-init --source app:app --source e:{ext}"),
                    "WORKSPACE_INIT_FAILED",
                ),
            ],
            &[],
        );
        let v = s.refused(
            &format!("workspace-init --source e:{ext}"),
            &[],
            "WORKSPACE_INIT_FAILED",
        );
        assert_eq!(v["error"]["details"]["step"], "attach_multiroot", "{v:#}");
        // With the linked host skipped, the other one is written.
        let (skip, written) = if at.starts_with(".claude") {
            ("--skip-claude", ".codex/config.toml")
        } else {
            ("--skip-codex", ".claude/settings.local.json")
        };
        s.ok(&format!("attach-multiroot --path {ext} {skip}"), &[]);
        assert!(s.path(written).is_file(), "{at}: {written}");
        assert_eq!(tree(&s.out), outside, "{at} -> {target}");
    }
}

#[test]
fn withdrawing_a_folder_from_a_hosts_file_linked_out_changes_nothing() {
    let s = Site::initialised();
    let ext = s.ext();
    s.ok(
        &format!("workspace-init --source app:app --source e:{ext}"),
        &[],
    );
    s.move_out(".claude/settings.local.json", "settings.local.json");
    // The block keeps the source too: a refusal writes none of the files.
    s.all_refused(
        &[
            ("remove-source e", OUTSIDE),
            (&format!("detach-multiroot --path {ext}"), OUTSIDE),
            ("workspace-init --source app:app", "WORKSPACE_INIT_FAILED"),
        ],
        &[],
    );
}

// --- 8. The conversation bindings -----------------------------------------------------------

#[test]
fn a_bindings_registry_linked_out_is_never_written() {
    for dangling in [false, true] {
        let s = Site::initialised();
        // 001 bound to the conversation, 002 closed (to reopen), 003 active and not bound.
        s.ws.create_session("quick", "x", "o");
        s.ok("checkpoint-write --code 1", &[CONV]);
        s.ws.create_session("quick", "y", "o");
        s.ok("session-close --code 2", &[]);
        s.ws.create_session("quick", "z", "o");
        let bindings = ".workflow/sessions/.bindings.json";
        if dangling {
            s.link(bindings, s.out("bindings.json"));
        } else {
            s.move_out(bindings, "bindings.json");
        }
        let outside = tree(&s.out);
        let mut table = vec![
            (
                "session-create --type quick --name w --objective o",
                OUTSIDE,
            ),
            ("session-resume --code 2 --reopen", OUTSIDE),
        ];
        if !dangling {
            // Closing a bound session removes its binding, which cannot be written.
            table.push(("session-close --code 1", OUTSIDE));
        }
        s.all_refused(&table, &[CONV]);
        // The hook degrades, naming the link to fix, and writes no checkpoint.
        let before = s.trees();
        let v = s.ok("checkpoint-write --code 3", &[CONV]);
        assert_eq!(v["continuity"], "degraded", "{v:#}");
        let reason = v["reason"].as_str().unwrap();
        assert!(reason.contains("symbolic link"), "{reason}");
        assert!(!reason.contains(".."), "one full stop: {reason}");
        let action = v["action"].as_str().unwrap();
        assert!(action.contains("symbolic link"), "{action}");
        assert_eq!(s.trees(), before, "dangling: {dangling}");
        assert_eq!(tree(&s.out), outside, "dangling: {dangling}");
    }
}

// --- 9. CHECKPOINT.md and the run state -----------------------------------------------------

#[test]
fn a_checkpoint_linked_out_is_never_written() {
    let s = Site::initialised();
    s.ws.create_session("quick", "x", "o");
    std::fs::write(s.out("CHECKPOINT.md"), WRITTEN_CHECKPOINT).unwrap();
    let checkpoint = ".workflow/sessions/001-x/CHECKPOINT.md";
    // A link to written-in content is kept, as any written-in checkpoint is; forcing is
    // refused, before the conversation is bound.
    s.link(checkpoint, s.out("CHECKPOINT.md"));
    let before = s.trees();
    assert_eq!(s.ok("checkpoint-write --code 1", &[])["preserved"], true);
    s.all_refused(&[("checkpoint-write --code 1 --force", OUTSIDE)], &[CONV]);
    assert_eq!(s.trees(), before);
    // A link to nothing is refused, and its target never created.
    s.link(checkpoint, s.out("NEW.md"));
    s.all_refused(&[("checkpoint-write --code 1", OUTSIDE)], &[CONV]);
    let before = s.trees();
    let v = s.ok("auto-compact-on-close --code 1", &[]);
    let error = v["checkpoints_written"][0]["error"].as_str().unwrap();
    assert!(error.starts_with(OUTSIDE), "{v:#}");
    assert_eq!(s.trees(), before);
    assert!(!s.out("NEW.md").exists());
}

#[test]
fn closing_a_session_whose_checkpoint_leads_nowhere_changes_nothing() {
    let s = Site::initialised();
    s.ok(
        "session-create --type quick --name x --objective o",
        &[CONV],
    );
    assert!(s.path(".workflow/sessions/.bindings.json").is_file());
    s.link(".workflow/sessions/001-x/CHECKPOINT.md", s.out("NEW.md"));
    // The binding stays, `.closed` is not written, no HISTORY row: the close is refused whole.
    s.all_refused(&[("session-close --code 1", OUTSIDE)], &[]);
    assert_eq!(tree(&s.out), pristine());
}

#[test]
fn a_session_document_linked_out_never_gets_a_narrative_block() {
    let s = Site::initialised();
    s.ws.create_session("quick", "x", "o");
    // A decision gives the narrative something to write.
    std::fs::write(
        s.path(".workflow/sessions/001-x/DECISION.md"),
        "# Decisions\n\n## DEC-1: keep it\nWhy.\n",
    )
    .unwrap();
    s.move_out(".workflow/sessions/001-x/SESSION.md", "SESSION.md");
    let outside = tree(&s.out);
    // The checkpoint, the close and the reopening stand; the block is refused and said so.
    for cmd in [
        "checkpoint-write --code 1",
        "session-close --code 1",
        "session-resume --code 1 --reopen",
    ] {
        let v = s.ok(cmd, &[]);
        let error = v["narrative_error"].as_str().unwrap_or_default();
        assert!(error.contains("symbolic link"), "`{cmd}`: {v:#}");
        assert_eq!(tree(&s.out), outside, "`{cmd}` wrote outside");
    }
}

#[test]
fn a_run_state_linked_out_is_never_written() {
    let s = Site::initialised();
    s.ws.create_session("quick", "x", "o");
    s.link(".workflow/sessions/001-x/.flow-run.json", s.out("run.json"));
    s.all_refused(
        &[("flow advance --session 1 --flow quick --adopt", OUTSIDE)],
        &[],
    );
    assert_eq!(tree(&s.out), pristine());
}

// --- 10. Docs folders and claims ------------------------------------------------------------

#[test]
fn a_docs_folder_linked_out_takes_no_claim() {
    // A folder named through a link out is not a folder of the workspace (INVALID_INPUT, as
    // `..` is); a link to nothing cannot be created through.
    for (at, target, code) in [
        ("docs", "folder", "INVALID_INPUT"),
        ("docs/specs", "folder", "INVALID_INPUT"),
        ("docs/specs", "none", OUTSIDE),
    ] {
        let s = Site::initialised();
        s.link(at, s.out(target));
        s.all_refused(
            &[
                ("next-number docs/specs --claim spec-x.md", code),
                ("next-number docs/specs", code),
            ],
            &[],
        );
        assert_eq!(tree(&s.out), pristine(), "{at} -> {target}");
    }
}

#[test]
fn a_reservation_reached_through_a_link_out_is_not_released() {
    let s = Site::initialised();
    s.ws.create_session("quick", "x", "o");
    s.ok("next-number docs/specs --claim spec-x.md --code 1", &[]);
    s.move_out("docs/specs", "specs");
    let outside = tree(&s.out);
    let v = s.ok("session-close --code 1", &[]);
    assert_eq!(v["reservations_released"], json!([]), "{v:#}");
    assert_eq!(tree(&s.out), outside);
}

// --- 11. Launch folders ---------------------------------------------------------------------

#[test]
fn remove_source_keeps_a_launch_folder_reached_through_a_link_out() {
    for (at, target) in [
        (".workflow/launch/app", "launch/app"),
        (".workflow/launch", "launch"),
    ] {
        let s = Site::initialised();
        std::fs::create_dir_all(s.out("launch/app")).unwrap();
        std::fs::write(s.out("launch/app/launch.json"), GENERATED).unwrap();
        s.link(at, s.out(target));
        let outside = tree(&s.out);
        let dry = s.ok("remove-source app --dry-run", &[]);
        let v = s.ok("remove-source app", &[]);
        assert_eq!(v["launch"]["action"], "kept", "{at}: {v:#}");
        assert_eq!(dry["launch"], v["launch"], "{at}: the dry run said so");
        assert_eq!(tree(&s.out), outside, "{at}");
        assert!(s.path(at).symlink_metadata().unwrap().is_symlink(), "{at}");
    }
}

#[test]
fn the_legacy_launch_migration_never_moves_out_nor_trusts_an_outside_copy() {
    // The new place linked out, empty there (a move would copy out) or holding a copy (the old
    // folder would be deleted as already moved): the old folder is kept.
    for copy_outside in [false, true] {
        let s = Site::initialised();
        s.ws.write("docs/tools/api/launch.json", GENERATED);
        s.ws.write("docs/tools/api/run.sh", "#!/bin/sh\n");
        std::fs::create_dir_all(s.out("launch")).unwrap();
        if copy_outside {
            std::fs::create_dir_all(s.out("launch/api")).unwrap();
            std::fs::write(s.out("launch/api/launch.json"), GENERATED).unwrap();
        }
        s.link(".workflow/launch", s.out("launch"));
        let outside = tree(&s.out);
        let dry = s.ok("workspace-init --dry-run", &[]);
        let v = s.ok("workspace-init", &[]);
        let kept = json!([{
            "tool": "api",
            "from": "docs/tools/api",
            "to": ".workflow/launch/api",
            "action": "kept",
        }]);
        assert_eq!(v["legacy_launch"], kept, "copy outside: {copy_outside}");
        assert_eq!(dry["legacy_launch"], kept, "copy outside: {copy_outside}");
        assert_eq!(tree(&s.out), outside, "copy outside: {copy_outside}");
        assert_eq!(s.ws.read("docs/tools/api/run.sh"), "#!/bin/sh\n");
    }
    // A generated folder of `docs/tools` that is itself a link out is not looked at.
    let s = Site::initialised();
    std::fs::create_dir_all(s.out("tool")).unwrap();
    std::fs::write(s.out("tool/launch.json"), GENERATED).unwrap();
    s.link("docs/tools/api", s.out("tool"));
    let outside = tree(&s.out);
    assert_eq!(s.ok("workspace-init", &[])["legacy_launch"], json!([]));
    assert_eq!(tree(&s.out), outside);
    assert!(!s.path(".workflow/launch").exists());
}

// --- 12. Links that stay inside the workspace -----------------------------------------------

#[test]
fn links_that_stay_inside_the_workspace_are_followed() {
    let s = Site::bare();
    s.ws.write("shared/AGENTS.md", "# Agents\n");
    s.ws.write("shared/gitignore", "target/\n");
    s.link("CLAUDE.md", "shared/AGENTS.md");
    s.link("AGENTS.md", "shared/AGENTS.md");
    s.link(".gitignore", "shared/gitignore");
    s.ok("workspace-init --source app:app", &[]);
    // The links stay links; their targets carry the block and aw's section.
    for at in ["CLAUDE.md", "AGENTS.md", ".gitignore"] {
        let meta = s.path(at).symlink_metadata().unwrap();
        assert!(meta.is_symlink(), "{at}");
    }
    let block = s.ws.read("shared/AGENTS.md");
    assert!(block.starts_with("# Agents\n"), "{block}");
    assert!(block.contains("| app | app |"), "{block}");
    assert!(s.ws.read("shared/gitignore").contains(".aw-tmp-*"));
    s.ok("set-working-branch app feat", &[]);
    assert!(s.ws.read("shared/AGENTS.md").contains("feat"));

    // A session folder kept elsewhere in the workspace is a session, written in place.
    s.ws.write("archive/x/SESSION.md", "# x\n");
    s.link(".workflow/sessions/001-x-quick", "../../archive/x");
    s.ok("checkpoint-write --code 1", &[CONV]);
    assert!(s.path("archive/x/CHECKPOINT.md").is_file());
    s.ok("flow advance --session 1 --flow quick --adopt", &[]);
    assert!(s.path("archive/x/.flow-run.json").is_file());
    s.ok("session-close --code 1", &[CONV]);
    assert!(s.path("archive/x/.closed").is_file());

    // A docs folder kept elsewhere in the workspace takes claims.
    std::fs::create_dir_all(s.path("shared/specs")).unwrap();
    s.link("docs/specs", "../shared/specs");
    s.ok("next-number docs/specs --claim spec-x.md", &[]);
    assert!(s.path("shared/specs/001-spec-x.md").is_file());
    assert_eq!(tree(&s.out), pristine());
}

/// A link that stays inside is followed for documents, but never for a deletion, for aw's own
/// state files, nor into the repository's `.git`: those would land on whatever the link points
/// to (a source repository, a README, git's config).
#[test]
fn deletions_state_files_and_git_never_go_through_a_link_inside() {
    let s = Site::bare();
    s.ws.write("README.md", "precious\n");
    // A source repository, and `.workflow/launch` linked to the workspace root: its `app`
    // entry is the source's own folder.
    s.ws.write("app/main.rs", "fn main() {}\n");
    s.ok("workspace-init --source app:app", &[]);
    s.link(".workflow/launch", "..");
    let v = s.ok("remove-source app --dry-run", &[]);
    assert_eq!(v["launch"]["action"], "kept", "{v:#}");
    let v = s.ok("remove-source app", &[]);
    assert_eq!(v["launch"]["action"], "kept", "{v:#}");
    assert_eq!(s.ws.read("app/main.rs"), "fn main() {}\n");
    std::fs::remove_file(s.path(".workflow/launch")).unwrap();

    // The legacy launch move: the new place linked to the old one keeps the old folder.
    s.ws.write("docs/tools/api/launch.json", GENERATED);
    s.ws.write("docs/tools/api/run.sh", "echo\n");
    s.link(".workflow/launch", "../docs/tools");
    let v = s.ok("workspace-init --source app:app", &[]);
    assert_eq!(v["legacy_launch"][0]["action"], "kept", "{v:#}");
    assert_eq!(s.ws.read("docs/tools/api/run.sh"), "echo\n");
    std::fs::remove_file(s.path(".workflow/launch")).unwrap();

    // Pruning a `.gitkeep` that is a link removes the link, not what it points to.
    s.ws.write("docs/specs/001-spec-a.md", "# A\n");
    s.link("docs/specs/.gitkeep", "../../README.md");
    s.ok("workspace-init --source app:app", &[]);
    assert_eq!(s.ws.read("README.md"), "precious\n");

    // A session's `.closed` linked to a document: closing replaces the link, reopening
    // removes it; the document is never truncated nor deleted.
    s.ws.create_session("quick", "x", "o");
    s.link(".workflow/sessions/001-x/.closed", "../../../README.md");
    s.ok("session-resume --code 1 --reopen", &[]);
    assert_eq!(s.ws.read("README.md"), "precious\n");
    s.link(".workflow/sessions/001-x/.closed", "../../../README.md");
    s.ok("session-close --code 1", &[]);
    assert_eq!(s.ws.read("README.md"), "precious\n");
    let closed = s.path(".workflow/sessions/001-x/.closed");
    assert!(!closed.symlink_metadata().unwrap().is_symlink());

    // Nothing is written into `.git`, even through a link that stays inside.
    s.ws.write(".git/config", "[core]\n");
    s.link("CLAUDE.md", ".git/config");
    let v = s.refused("set-working-branch app feat", &[], OUTSIDE);
    assert!(
        v["error"]["message"].as_str().unwrap().contains(".git"),
        "{v:#}"
    );
    assert_eq!(s.ws.read(".git/config"), "[core]\n");
    assert_eq!(tree(&s.out), pristine());
}

// --- Stale temporary files ------------------------------------------------------------------

#[test]
fn stale_temporary_files_beside_a_write_are_removed_and_fresh_ones_kept() {
    let s = Site::initialised();
    s.ws.create_session("quick", "x", "o");
    let now = SystemTime::now();
    // A file a killed write left, and a staging folder of a killed session-create holding a
    // link out (its removal must not follow it), both an hour old; and a temporary file dated
    // ahead, which no slowness of the run can make stale.
    s.ws.write(".workflow/.aw-tmp-killed", "half");
    s.ws.write(".workflow/.aw-tmp-live01", "in progress");
    let staging = ".workflow/sessions/.aw-tmp-session-killed";
    s.ws.write(&format!("{staging}/SESSION.md"), "half");
    symlink(s.out("folder"), s.path(staging).join("out")).unwrap();
    set_mtime(
        &s.path(".workflow/.aw-tmp-killed"),
        now - Duration::from_secs(3600),
    );
    set_mtime(&s.path(staging), now - Duration::from_secs(3600));
    set_mtime(
        &s.path(".workflow/.aw-tmp-live01"),
        now + Duration::from_secs(3600),
    );

    // history-update writes `.workflow/HISTORY.md`; session-create stages in `sessions/`.
    s.ok("history-update --code 1 --state active", &[]);
    s.ok("session-create --type quick --name y --objective o", &[]);
    assert!(!s.path(".workflow/.aw-tmp-killed").exists());
    assert!(!s.path(staging).exists());
    assert_eq!(s.ws.read(".workflow/.aw-tmp-live01"), "in progress");
    assert_eq!(
        tree(&s.out),
        pristine(),
        "the removal did not follow the link"
    );
}
