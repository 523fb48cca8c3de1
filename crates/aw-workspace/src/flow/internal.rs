//! Internal actions (flow-spec-v22 §9): the execution rows aw runs itself, in-process, after a
//! verb has written its turn.
//!
//! Each step is three moves: mark the action begun (the first step's mark rides the verb's own
//! write, `aw_core::flow::internal::begin`; a later one is marked under the lock, only if the
//! run is still the state this invocation wrote: `FLOW_RUN_STALE` otherwise); without the lock,
//! run the operation; under the lock again, and only on the state just marked, let the core
//! judge what came back and write the result. A crash after the mark re-runs the (idempotent)
//! operation on the next `advance`. Nothing here spawns a process: every operation is a library
//! call of this crate.

use super::store::{mutate, refused};
use crate::documents::board;
use crate::error::Result;
use crate::io::clock::Now;
use crate::io::lock::{WorkspaceLock, default_wait};
use crate::isolation::verbs::UnitRequest;
use crate::locate::Workspace;
use crate::sessions;
use crate::sessions::artifacts::{artifact, entries, read_text, sql_scripts};
use aw_core::artifacts::ArtifactKind;
use aw_core::canonical::canonical_json;
use aw_core::error_code::ErrorCode;
use aw_core::flow::Journey;
use aw_core::flow::directive::Step;
use aw_core::flow::error::FlowError;
use aw_core::flow::internal::{MAX_INTERNAL_STEPS, OpOutcome, Pending, has_written_criteria};
use aw_core::flow::internal::{mark_attempted, pending, settle};
use aw_core::flow::proposal::{artifacts_of, base_digest, bases_of, destinations_of};
use aw_core::flow::run::Turn;
use aw_core::flow::source_boundary::WORKSPACE_SOURCE;
use aw_core::flow::state::RunState;
use aw_core::isolation::integration::require_source;
use aw_core::isolation::refusal::Refusal;
use aw_core::vocab::flow::EffectClass;
use serde_json::{Value, json};

/// Runs the internal actions the run stands on, one after another, starting from the turn a
/// verb just wrote; returns the last turn. Every step the invocation applied is listed in the
/// directive's `applied`, the verb's own first.
///
/// `home` is where the units root is (`~/.<ns>/worktrees`): the close step refuses while the
/// session still holds a unit.
pub fn drive(
    ws: &Workspace,
    folder: &str,
    first: Turn,
    now: &Now,
    home: Option<&std::path::Path>,
) -> Result<Turn> {
    let mut turn = first;
    let mut steps: Vec<Step> = turn.directive.applied.clone();
    for _ in 0..MAX_INTERNAL_STEPS {
        let journey = Journey::builtin(turn.state.flow).map_err(refused)?;
        let Some(op) = pending(&turn.state, &journey) else {
            break;
        };
        let marked = if turn
            .state
            .pending_action
            .as_ref()
            .is_some_and(|p| p.attempted)
        {
            turn.state.clone()
        } else {
            let held = turn.state.digest();
            under_lock(ws, folder, &held, |mut s| {
                mark_attempted(&mut s);
                Ok(s)
            })?
        };
        let outcome = run(ws, folder, &op, &marked, now, home);
        let held = marked.digest();
        let mut next = None;
        let written = under_lock(ws, folder, &held, |s| {
            let t = settle(s, &journey, &outcome)?;
            let state = t.state.clone();
            next = Some(t);
            Ok(state)
        })?;
        let Some(mut t) = next else { break };
        t.state = written;
        let failed = t.directive.error.is_some();
        steps.append(&mut t.directive.applied);
        t.directive.applied = steps.clone();
        turn = t;
        if failed {
            break;
        }
    }
    turn.directive.applied = steps;
    Ok(turn)
}

/// Takes the lock, reads the run, refuses `FLOW_RUN_STALE` unless it is still the state whose
/// seal is `held`, and writes what `step` makes of it; returns the state written.
fn under_lock(
    ws: &Workspace,
    folder: &str,
    held: &str,
    step: impl FnOnce(RunState) -> std::result::Result<RunState, FlowError>,
) -> Result<RunState> {
    let lock = WorkspaceLock::of(ws, default_wait())?;
    let dir = sessions::folder_path(ws, folder);
    let turn = mutate(&dir, folder, &lock, false, |stored| {
        let Some(live) = stored else {
            return Err(FlowError::new(
                ErrorCode::FlowRunAbsent,
                "The run state vanished while its internal action ran.",
                format!(
                    "Adopt the session again with `aw flow advance --session {folder} --flow <flow> \
                     --adopt` before going on."
                ),
            ));
        };
        if live.digest() != held {
            return Err(FlowError::new(
                ErrorCode::FlowRunStale,
                "The run moved while aw was running its internal action: another invocation \
                 answered it first. Nothing of this action was applied.",
                format!(
                    "Run `aw flow advance --session {folder}` to see where the run stands now."
                ),
            ));
        }
        let state = step(live)?;
        let journey = Journey::builtin(state.flow)?;
        let directive = aw_core::flow::run::advance(state.clone(), &journey)?.directive;
        Ok(Turn {
            state,
            directive,
            write: true,
        })
    })?;
    Ok(turn.state)
}

/// Runs one operation (never under the lock: closing a session and publishing take it
/// themselves).
fn run(
    ws: &Workspace,
    folder: &str,
    op: &Pending,
    state: &RunState,
    now: &Now,
    home: Option<&std::path::Path>,
) -> OpOutcome {
    match op.operation.as_str() {
        "workspace.board" => workspace_board(ws, now),
        "session.artifacts" => session_artifacts(ws, folder, op.dump.as_deref()),
        "session.close" => session_close(ws, folder, now, home),
        "worktree.ensure" => worktree_ensure(ws, state, home, &now.today()),
        "proposal.publish" => proposal_publish(ws, state, now),
        other => OpOutcome::refused(
            other,
            "this aw does not know the operation (the registry names one it cannot run)",
            String::new(),
        ),
    }
}

fn workspace_board(ws: &Workspace, now: &Now) -> OpOutcome {
    // The counts only: the units are not counted, so they are not listed.
    let model = board::load(ws, &now.wall, None);
    let c = &model.counts;
    // The counts only: the same workspace content gives the same output wherever it lives.
    let output = serde_json::to_value(&model.counts)
        .map(|v| canonical_json(&json!({ "counts": v })))
        .unwrap_or_default();
    OpOutcome {
        ok: true,
        summary: format!(
            "board: {} specs, {} plans, {} active sessions, {} pending",
            c.specs, c.plans, c.sessions_active, c.pending
        ),
        output,
        effects: vec![EffectClass::ReadOnly],
    }
}

const SEEDED: [EffectClass; 2] = [EffectClass::ReadOnly, EffectClass::LocalAdditive];

fn session_artifacts(ws: &Workspace, folder: &str, dump: Option<&[String]>) -> OpOutcome {
    const OP: &str = "session.artifacts";
    let dir = sessions::folder_path(ws, folder);
    let names = match entries(&dir) {
        Ok(n) => n,
        Err(e) => {
            return OpOutcome::refused(
                OP,
                format!("session '{folder}' cannot be read ({e})"),
                String::new(),
            );
        }
    };
    let descriptor = match sessions::descriptor(&dir, &names) {
        Ok(Some(d)) if d.kind == sessions::DescriptorKind::Session => d,
        _ => {
            return OpOutcome::refused(
                OP,
                format!(
                    "session '{folder}' has no SESSION.md: create the session with `aw \
                     session-create`"
                ),
                String::new(),
            );
        }
    };
    let Some(kinds) = dump else {
        return OpOutcome {
            ok: true,
            summary: format!("session {folder}: SESSION.md present"),
            output: canonical_json(&json!({"session": folder, "descriptor": "SESSION.md"})),
            effects: SEEDED.to_vec(),
        };
    };
    let mut dumped = serde_json::Map::new();
    let mut empty = Vec::new();
    for kind in kinds {
        let content: Option<Value> = match kind.as_str() {
            "objetivo" => Some(json!(descriptor.text)),
            "scripts" => {
                let scripts: Vec<String> = sql_scripts(&dir).into_iter().map(|s| s.name).collect();
                (!scripts.is_empty()).then(|| json!(scripts))
            }
            other => {
                let k = match other {
                    "decisiones" => ArtifactKind::Decisions,
                    "conclusiones" => ArtifactKind::Conclusions,
                    "tasks" => ArtifactKind::Tasks,
                    "checkpoint" => ArtifactKind::Checkpoint,
                    _ => ArtifactKind::Backlog,
                };
                artifact(&dir, &names, k)
                    .and_then(|p| read_text(&p).ok().flatten())
                    .filter(|t| !t.trim().is_empty())
                    .map(Value::String)
            }
        };
        match content {
            Some(c) if c.as_str().is_none_or(|t| !t.trim().is_empty()) => {
                dumped.insert(kind.clone(), c);
            }
            _ => empty.push(kind.as_str()),
        }
    }
    let output = canonical_json(&Value::Object(dumped));
    if !empty.is_empty() {
        return OpOutcome::refused(
            OP,
            format!("nothing written yet in: {}", empty.join(", ")),
            output,
        );
    }
    if kinds.iter().any(|k| k == "objetivo") && !has_written_criteria(&descriptor.text) {
        return OpOutcome::refused(
            OP,
            "SESSION.md declares no written success criterion (a `- [ ] <criterion>` line under \
             '## Success criteria')",
            output,
        );
    }
    OpOutcome {
        ok: true,
        summary: format!("session {folder}: {} hold content", kinds.join(", ")),
        output,
        effects: SEEDED.to_vec(),
    }
}

/// Closes the session, never while it still holds an isolation unit (its work would be left
/// outside the source's branch), nor when its units cannot be listed (not knowing is not "none").
fn session_close(
    ws: &Workspace,
    folder: &str,
    now: &Now,
    home: Option<&std::path::Path>,
) -> OpOutcome {
    const OP: &str = "session.close";
    if let Some(home) = home {
        let held = sessions::list(ws).and_then(|listing| {
            crate::isolation::inventory(ws, home, &listing, Some(folder), false)
        });
        match held {
            Ok(inv) if !inv.unreadable.is_empty() => {
                let names: Vec<&str> = inv.unreadable.iter().map(|u| u.alias.as_str()).collect();
                return OpOutcome::refused(
                    OP,
                    format!(
                        "the units of the session cannot be listed in {} (`aw worktree list` \
                         says why); it is not closed while that is unknown",
                        names.join(", ")
                    ),
                    String::new(),
                );
            }
            Ok(inv) if !inv.units.is_empty() => {
                let units: Vec<String> = inv
                    .units
                    .iter()
                    .map(|u| format!("{} → {}", u.alias, u.branch))
                    .collect();
                return OpOutcome::refused(
                    OP,
                    format!(
                        "the session still holds units ({}): integrate them with `aw worktree \
                         integrate --code {folder}` before it closes",
                        units.join(", ")
                    ),
                    String::new(),
                );
            }
            Ok(_) => {}
            Err(e) => {
                return OpOutcome::refused(
                    OP,
                    format!("the units of the session cannot be listed ({e})"),
                    String::new(),
                );
            }
        }
    }
    match sessions::close(ws, folder, None, &now.today()) {
        Ok(closed) => {
            let history = match &closed.history {
                Ok(u) => format!(" · HISTORY {}", u.as_str()),
                Err(_) => " (no HISTORY row)".to_owned(),
            };
            OpOutcome {
                ok: true,
                summary: format!("session {} closed{history}", closed.folder),
                output: canonical_json(&json!({"closed": closed.folder})),
                effects: vec![EffectClass::LocalAdditive, EffectClass::MutateOverwrite],
            }
        }
        Err(e) => OpOutcome::refused(OP, format!("the session did not close: {e}"), String::new()),
    }
}

/// Gives the session a unit of every source its scope names but the workspace itself, in the
/// scope's order, as `aw worktree ensure` does; the first refusal stops (units made before it
/// stay). A unit found made counts as made.
fn worktree_ensure(
    ws: &Workspace,
    state: &RunState,
    home: Option<&std::path::Path>,
    today: &str,
) -> OpOutcome {
    const OP: &str = "worktree.ensure";
    let Some(scope) = &state.scope else {
        return OpOutcome::refused(
            OP,
            "the run has no scope yet: answer its source-scope boundary first",
            String::new(),
        );
    };
    let aliases: Vec<&str> = scope
        .sources
        .iter()
        .map(String::as_str)
        .filter(|a| *a != WORKSPACE_SOURCE)
        .collect();
    let folder = state.session.as_str();
    let mut made: Vec<(String, String, String)> = Vec::new();
    if !aliases.is_empty() {
        let Some(home) = home else {
            return OpOutcome::refused(
                OP,
                "HOME is not set, so the units root (`~/.<ns>/worktrees`) cannot be found",
                String::new(),
            );
        };
        let block = match crate::project::ProjectFiles::read(&ws.root) {
            Ok(files) => files.block(&ws.ns).unwrap_or_default(),
            Err(e) => {
                return OpOutcome::refused(
                    OP,
                    format!("the project block cannot be read: {e}"),
                    String::new(),
                );
            }
        };
        for alias in &aliases {
            let source = match require_source(&block.sources, Some(alias)) {
                Ok(s) => s,
                Err(r) => return OpOutcome::refused(OP, unit_refusal(alias, &r), String::new()),
            };
            let req = UnitRequest {
                ws,
                home,
                block: &block,
                source,
                folder,
                today,
            };
            match crate::isolation::verbs::ensure(&req) {
                Ok(Ok(unit)) => made.push((unit.alias, unit.branch, unit.path)),
                Ok(Err(r)) => {
                    return OpOutcome::refused(OP, unit_refusal(alias, &r), String::new());
                }
                Err(e) => {
                    return OpOutcome::refused(
                        OP,
                        format!("the unit of {alias} was not made: {e}"),
                        String::new(),
                    );
                }
            }
        }
    }
    let listed: Vec<String> = made.iter().map(|(a, b, _)| format!("{a} → {b}")).collect();
    let summary = if listed.is_empty() {
        format!("units of {folder}: the workspace needs none")
    } else {
        format!("units of {folder}: {}", listed.join(", "))
    };
    let units: Vec<Value> = made
        .iter()
        .map(|(alias, branch, path)| json!({"alias": alias, "branch": branch, "path": path}))
        .collect();
    OpOutcome {
        ok: true,
        summary,
        output: canonical_json(&json!({ "units": units })),
        effects: vec![EffectClass::LocalAdditive],
    }
}

/// A unit refusal as the step's failure: which source, what happened, what to do.
fn unit_refusal(alias: &str, r: &Refusal) -> String {
    let message = r.message.trim_end_matches('.');
    match &r.hint {
        Some(hint) => format!("the unit of {alias} was not made: {message}. {hint}"),
        None => format!("the unit of {alias} was not made: {message}"),
    }
}

fn proposal_publish(ws: &Workspace, state: &RunState, now: &Now) -> OpOutcome {
    const OP: &str = "proposal.publish";
    let Some(p) = &state.proposal else {
        return OpOutcome::refused(
            OP,
            "no proposal is seated: nothing to publish",
            String::new(),
        );
    };
    // Each file as sealed: one that did not exist when the person saw the preview may be
    // created, never replaced (someone wrote it since).
    let artifacts: Vec<aw_core::capability::plan::Artifact> = artifacts_of(p)
        .into_iter()
        .map(
            |(path, content, overwrite)| aw_core::capability::plan::Artifact {
                path,
                content,
                overwrite: Some(overwrite),
            },
        )
        .collect();
    let destinations = destinations_of(p);
    let lock = match crate::publish::lock_for_publish(ws, default_wait()) {
        Ok(l) => l,
        Err(e) => return OpOutcome::refused(OP, e.error.message, String::new()),
    };
    match crate::publish::published_already(ws, &lock, &artifacts, &destinations) {
        Ok(true) => {
            return OpOutcome {
                ok: true,
                summary: format!("published: {} (already applied)", destinations.join(", ")),
                output: canonical_json(&json!({"written": [], "already_published": true})),
                effects: written_classes(state, p),
            };
        }
        Ok(false) => {}
        Err(e) => return OpOutcome::refused(OP, e.error.message, String::new()),
    }
    for (path, digest) in bases_of(p) {
        match super::observe::text_at(&ws.root, &path) {
            super::observe::FileAt::Text(text) if base_digest(&text) == digest => {}
            super::observe::FileAt::Text(_) => {
                return OpOutcome::refused(
                    OP,
                    format!(
                        "{}: {path} changed after the proposal was prepared; prepare it again",
                        ErrorCode::ProposalBaseStale.as_str()
                    ),
                    String::new(),
                );
            }
            super::observe::FileAt::Absent => {
                return OpOutcome::refused(
                    OP,
                    format!(
                        "{}: {path} is gone since the proposal was prepared; prepare it again",
                        ErrorCode::ProposalBaseGone.as_str()
                    ),
                    String::new(),
                );
            }
            super::observe::FileAt::Unreadable => {
                return OpOutcome::refused(
                    OP,
                    format!(
                        "{}: {path} can no longer be read as the file the proposal was prepared \
                         against (a link, a folder, or bytes that are not text); nothing was \
                         written",
                        ErrorCode::ProposalBaseStale.as_str()
                    ),
                    String::new(),
                );
            }
        }
    }
    // What each destination held before, for the session's custody (read while the lock
    // keeps anybody else from writing them).
    // A file that is there but not UTF-8 is recorded with its bytes read loosely, never as
    // absent (a retirement would then delete it instead of restoring it); one that cannot be
    // read at all is left out of the record.
    let previous: Vec<(String, Option<String>)> = destinations
        .iter()
        .filter_map(|path| match super::observe::text_at(&ws.root, path) {
            super::observe::FileAt::Absent => Some((path.clone(), None)),
            super::observe::FileAt::Text(t) => Some((path.clone(), Some(t))),
            super::observe::FileAt::Unreadable => {
                super::observe::lossy_text_at(&ws.root, path).map(|t| (path.clone(), Some(t)))
            }
        })
        .collect();
    match crate::publish::publish_held(ws, &lock, &artifacts, None, &destinations) {
        Ok(done) => {
            // The custody is an audit record appended after the publication: a session without
            // one (legacy) is a no-op, and a custody that cannot be read leaves the
            // publication standing (retirement reports such a record as incomplete).
            let _ = crate::sessions::custody::record_artifact_published(
                &crate::sessions::folder_path(ws, &state.session),
                &previous,
                &now.today(),
            );
            OpOutcome {
                ok: true,
                summary: format!("published: {}", done.written.join(", ")),
                output: canonical_json(&json!({"written": done.written})),
                effects: written_classes(state, p),
            }
        }
        Err(e) => OpOutcome::refused(OP, e.error.message, String::new()),
    }
}

/// The classes a publication exercised: the proposal's, each self-authorized or granted over
/// its seal.
fn written_classes(state: &RunState, p: &Value) -> Vec<EffectClass> {
    let digest = p.get("digest").and_then(Value::as_str).unwrap_or_default();
    p.get("effects")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().and_then(EffectClass::parse))
        .filter(|c| {
            c.self_authorizable()
                || state
                    .authorizations
                    .iter()
                    .any(|g| g.digest == digest && g.classes.contains(c))
        })
        .collect()
}
