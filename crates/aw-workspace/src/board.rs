//! Reading what the status board is built from: the specs, the plans and the session files.
//!
//! Every file is read once, parsed by the core right away and dropped, so memory holds facts,
//! not texts, whatever the size of the workspace. Nothing here fails on a reachable workspace:
//! a folder or file that cannot be read is left out, as the reference did.

use crate::locate::Workspace;
use crate::sessions;
use aw_core::artifacts::ArtifactKind;
use aw_core::calendar::{Moment, WallClock};
use aw_core::docs::board_input::{BoardInput, PlanInput, SessionInput, SourceDoc, SpecInput};
use aw_core::docs::names::{DocKind, DocName, parse_name};
use aw_core::docs::plan::parse_plan;
use aw_core::docs::session_view::{self, checkpoint_view, session_view};
use aw_core::docs::spec::parse_spec;
use aw_core::docs::status::WorkspaceEntry;
use aw_core::docs::status::{self, SessionEntry, StatusModel};
use aw_core::session::folder::SessionFolder;
use aw_core::session::folder::SessionState;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::time::SystemTime;
use time::{OffsetDateTime, UtcOffset};

/// Turns file times into local wall-clock moments.
///
/// Looking up the local offset costs a read of `/proc/self/stat` (the `time` crate checks the
/// process is single-threaded first), so offsets are cached per hour: a workspace's files
/// cluster in a few hours, and an hour is fine enough for daylight-saving changes.
#[derive(Debug)]
pub struct LocalTimes {
    fallback: UtcOffset,
    cache: HashMap<i64, UtcOffset>,
}

impl LocalTimes {
    /// Call before any thread starts (see [`crate::clock::Now::read`]); convert file
    /// times only while the process is single-threaded.
    pub fn new() -> Self {
        LocalTimes {
            fallback: UtcOffset::current_local_offset().unwrap_or(UtcOffset::UTC),
            cache: HashMap::new(),
        }
    }

    /// A file time on the local wall clock; `None` for a time no calendar date can show (a file
    /// stamped in the year 30000 must not bring the board down).
    pub fn moment(&mut self, t: SystemTime) -> Option<Moment> {
        let secs = match t.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_secs()).ok()?,
            Err(e) => i64::try_from(e.duration().as_secs()).ok()?.checked_neg()?,
        };
        let utc = OffsetDateTime::from_unix_timestamp(secs).ok()?;
        let hour = secs.div_euclid(3600);
        let fallback = self.fallback;
        let offset = *self
            .cache
            .entry(hour)
            .or_insert_with(|| UtcOffset::local_offset_at(utc).unwrap_or(fallback));
        let local = utc.checked_to_offset(offset)?;
        Some(Moment::precise(WallClock::from(local)))
    }
}

impl Default for LocalTimes {
    fn default() -> Self {
        Self::new()
    }
}

/// A text file read whole, with its modification time; `None` when it cannot be read.
pub fn read_with_time(path: &Path) -> Option<(String, Option<SystemTime>)> {
    // Looked at before opening: opening a FIFO that happens to carry an artifact's name would
    // wait for a writer forever.
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    read_into(file, meta.len(), &mut bytes)?;
    Some((into_text(bytes), meta.modified().ok()))
}

/// A document bigger than this is not a spec, a plan or a session note: it is left out rather
/// than read into memory.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024 * 1024;

/// Reads up to `size` bytes (what a `stat` just announced) of `file` into `buf`, replacing its
/// contents. A file that grew since is read as it was; one that shrank, whole. The standard
/// `read_to_end` on a `File` asks the size again and seeks; with thousands of documents those
/// extra calls cost more than the reading.
fn read_into(file: std::fs::File, size: u64, buf: &mut Vec<u8>) -> Option<()> {
    if size > MAX_DOCUMENT_BYTES as u64 {
        return None;
    }
    buf.clear();
    buf.reserve(usize::try_from(size).ok()?);
    // `take` stops at `size` without the extra read that confirms the end of the file.
    file.take(size).read_to_end(buf).ok()?;
    Some(())
}

/// Bytes as text; invalid UTF-8 is replaced rather than refused.
fn into_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// One document file found by a listing.
#[derive(Debug, Clone)]
struct Found {
    file: String,
    name: DocName,
    size: u64,
    modified: Option<Moment>,
}

/// The documents of one kind: every regular file directly inside the folder whose name fits
/// the grammar, in byte order of name, with its size and modification time.
fn listing(dir: &Path, kind: DocKind, times: &mut LocalTimes) -> Vec<Found> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Found> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let file = e.file_name().into_string().ok()?;
            let name = parse_name(kind, &file)?;
            let meta = match e.file_type() {
                Ok(t) if t.is_symlink() => std::fs::metadata(e.path()).ok()?,
                Ok(_) => e.metadata().ok()?,
                Err(_) => return None,
            };
            meta.is_file().then(|| Found {
                file,
                name,
                size: meta.len(),
                modified: meta.modified().ok().and_then(|t| times.moment(t)),
            })
        })
        .collect();
    out.sort_by(|a, b| a.file.as_bytes().cmp(b.file.as_bytes()));
    out
}

/// Below this many documents, threads cost more than they save.
const PARALLEL_FROM: usize = 64;

/// Reads and parses `found` (files of `dir`), on every available core when there are many.
/// The order of the result is the order of `found`; a file that cannot be read yields `None`.
fn read_all<T: Send>(dir: &Path, found: &[Found], parse: fn(&str) -> T) -> Vec<Option<T>> {
    // Each worker reuses one buffer for all its files: no allocation, no zeroing, no copy per
    // document; valid UTF-8 (the normal case) is parsed in place.
    let run = |files: &[Found]| -> Vec<Option<T>> {
        let mut buf = Vec::new();
        files
            .iter()
            .map(|f| {
                let file = std::fs::File::open(dir.join(&f.file)).ok()?;
                read_into(file, f.size, &mut buf)?;
                Some(match std::str::from_utf8(&buf) {
                    Ok(text) => parse(text),
                    Err(_) => parse(&String::from_utf8_lossy(&buf)),
                })
            })
            .collect()
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
        .min(found.len() / (PARALLEL_FROM / 2).max(1))
        .max(1);
    if threads == 1 || found.len() < PARALLEL_FROM {
        return run(found);
    }
    let chunk = found.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut chunks = found.chunks(chunk);
        let first = chunks.next().unwrap_or(&[]);
        let handles: Vec<_> = chunks.map(|c| scope.spawn(move || run(c))).collect();
        let mut out = run(first);
        for (h, c) in handles.into_iter().zip(found.chunks(chunk).skip(1)) {
            // A worker that panicked leaves its documents unread, never the board unbuilt.
            out.extend(
                h.join()
                    .unwrap_or_else(|_| c.iter().map(|_| None).collect()),
            );
        }
        out
    })
}

/// Reads and parses every spec and plan. Both folders are listed (and their file times turned
/// into local time) before any thread starts: the local offset can only be looked up while the
/// process is single-threaded.
pub fn read_documents(ws: &Workspace, times: &mut LocalTimes) -> (Vec<SpecInput>, Vec<PlanInput>) {
    let spec_dir = ws.root.join(DocKind::Spec.folder());
    let plan_dir = ws.root.join(DocKind::Plan.folder());
    let spec_files = listing(&spec_dir, DocKind::Spec, times);
    let plan_files = listing(&plan_dir, DocKind::Plan, times);
    let specs = spec_files
        .iter()
        .zip(read_all(&spec_dir, &spec_files, parse_spec))
        .filter_map(|(f, facts)| {
            Some(SpecInput {
                facts: facts?,
                file: format!("{}/{}", DocKind::Spec.folder(), f.file),
                name: f.name.clone(),
                modified: f.modified,
            })
        })
        .collect();
    let plans = plan_files
        .iter()
        .zip(read_all(&plan_dir, &plan_files, parse_plan))
        .filter_map(|(f, facts)| {
            Some(PlanInput {
                facts: facts?,
                file: format!("{}/{}", DocKind::Plan.folder(), f.file),
                name: f.name.clone(),
                modified: f.modified,
            })
        })
        .collect();
    (specs, plans)
}

/// Every session folder (an unreadable sessions folder lists none).
pub fn session_folders(ws: &Workspace) -> Vec<SessionFolder> {
    sessions::list(ws).unwrap_or_default()
}

/// Reads one session: its descriptor, checkpoint and backlog. The flow projection is left for
/// the caller (the flow engine owns it).
pub fn read_session(
    ws: &Workspace,
    folder: &SessionFolder,
    times: &mut LocalTimes,
) -> SessionInput {
    let dir = sessions::folder_path(ws, &folder.folder);
    let rel_dir = format!(".{}/sessions/{}", ws.ns, folder.folder);
    let entries = crate::artifacts::entries(&dir).unwrap_or_default();
    let descriptor = sessions::descriptor(&dir, &entries).ok().flatten();
    let modified = descriptor
        .as_ref()
        .map_or(dir.as_path(), |d| d.path.as_path())
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| times.moment(t));
    let view = session_view(folder, descriptor.as_ref().map(|d| d.text.as_str()));
    drop(descriptor);
    let mut source = |kind: ArtifactKind| {
        let name = kind.find(&entries)?;
        let (text, mtime) = read_with_time(&dir.join(name))?;
        Some((
            format!("{rel_dir}/{name}"),
            text,
            mtime.and_then(|t| times.moment(t)),
        ))
    };
    let checkpoint = source(ArtifactKind::Checkpoint).map(|(path, text, modified)| SourceDoc {
        path,
        facts: checkpoint_view(&text),
        modified,
    });
    let backlog = source(ArtifactKind::Backlog).map(|(path, text, modified)| SourceDoc {
        path,
        facts: session_view::deferred(&text),
        modified,
    });
    SessionInput {
        path: rel_dir,
        view,
        modified,
        checkpoint,
        backlog,
        flow: None,
    }
}

/// The workspace's name (the project block's description, else the folder's name), path and
/// whether it is initialised.
pub fn workspace_entry(ws: &Workspace) -> WorkspaceEntry {
    let described = crate::project::ProjectFiles::read(&ws.root)
        .ok()
        .and_then(|f| f.block(&ws.ns))
        .and_then(|b| b.project)
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty());
    let name = described.unwrap_or_else(|| {
        ws.root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| ws.root.to_string_lossy().into_owned())
    });
    WorkspaceEntry {
        name,
        path: crate::locate::slashed(&ws.root),
        initialized: ws.initialized,
    }
}

/// Reads one session as the board sees it, with the flow engine's projection of its run when
/// it is active.
///
/// This is the one place the flow engine plugs into the board: `aw status` shows the projection
/// as the session's `flow`, while `aw resume` takes `stop` (a run halted at a boundary that is
/// not final) as the session's next step and command.
fn board_session(ws: &Workspace, folder: &SessionFolder, times: &mut LocalTimes) -> SessionInput {
    let mut s = read_session(ws, folder, times);
    if folder.state == SessionState::Active {
        s.flow = crate::flow_store::project_run(ws, &folder.folder).map(Into::into);
    }
    s
}

/// Reads the whole workspace and builds the board (`aw status`). Every file is read once.
pub fn load(ws: &Workspace, now: &WallClock) -> StatusModel {
    let mut times = LocalTimes::new();
    // Sessions first: every file time is converted before the document threads start.
    let sessions = session_folders(ws)
        .iter()
        .map(|f| board_session(ws, f, &mut times))
        .collect();
    let (specs, plans) = read_documents(ws, &mut times);
    status::build(
        BoardInput {
            workspace: workspace_entry(ws),
            specs,
            plans,
            sessions,
        },
        now,
    )
}

/// Reads one session's board entry (for `aw resume --code`).
pub fn load_session(ws: &Workspace, folder: &SessionFolder, now: &WallClock) -> SessionEntry {
    let mut times = LocalTimes::new();
    status::session_entry(board_session(ws, folder, &mut times), now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ws(root: &std::path::Path) -> Workspace {
        Workspace::for_test(root)
    }

    #[test]
    fn file_times_out_of_the_calendar_are_unknown() {
        let mut times = LocalTimes::new();
        let far = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000_000);
        assert_eq!(times.moment(far), None);
        let before = SystemTime::UNIX_EPOCH - Duration::from_secs(86_400);
        assert!(times.moment(before).is_some());
        assert!(times.moment(SystemTime::now()).is_some());
    }

    #[test]
    fn documents_in_order_files_only_whole_texts() {
        let dir = tempfile::tempdir().unwrap();
        let specs = dir.path().join("docs/specs");
        let plans = dir.path().join("docs/plans");
        std::fs::create_dir_all(specs.join("003-spec-folder.md")).unwrap();
        std::fs::create_dir_all(&plans).unwrap();
        std::fs::write(specs.join("010-spec-b.md"), "---\nstatus: refining\n---\n").unwrap();
        std::fs::write(specs.join("002-spec-a.md"), "").unwrap();
        std::fs::write(specs.join("readme.md"), "x").unwrap();
        // More plans than the threshold, so the threaded path runs too.
        for n in 1..=PARALLEL_FROM + 7 {
            let body = format!("# P\n> State: open\n{}", "- [x] t\n".repeat(n));
            std::fs::write(plans.join(format!("{n:03}-plan-p.md")), body).unwrap();
        }
        let mut times = LocalTimes::new();
        let (s, p) = read_documents(&ws(dir.path()), &mut times);
        let files: Vec<&str> = s.iter().map(|s| s.file.as_str()).collect();
        assert_eq!(
            files,
            ["docs/specs/002-spec-a.md", "docs/specs/010-spec-b.md"]
        );
        assert_eq!(p.len(), PARALLEL_FROM + 7);
        for (i, plan) in p.iter().enumerate() {
            assert_eq!(plan.facts.tasks_done, i + 1, "{}", plan.file);
        }
        assert!(s[0].modified.is_some());
    }

    #[test]
    fn sessions_read_their_files_once() {
        let dir = tempfile::tempdir().unwrap();
        let w = ws(dir.path());
        let s = w.sessions_dir().join("001-a-quick");
        std::fs::create_dir_all(&s).unwrap();
        std::fs::write(
            s.join("SESSION.md"),
            "## Objective\nDo a\n## Origin\n- chat\n",
        )
        .unwrap();
        std::fs::write(s.join("checkpoint.md"), "## Excluded\n- b\n").unwrap();
        std::fs::write(s.join("BACKLOG.md"), "## Deferred\n- c\n").unwrap();
        let folders = session_folders(&w);
        let mut times = LocalTimes::new();
        let got = read_session(&w, &folders[0], &mut times);
        assert_eq!(got.view.objective.as_deref(), Some("Do a"));
        let cp = got.checkpoint.unwrap();
        assert_eq!(cp.path, ".workflow/sessions/001-a-quick/checkpoint.md");
        assert_eq!(cp.facts.excluded, ["b"]);
        assert_eq!(got.backlog.unwrap().facts, ["c"]);
        assert!(got.modified.is_some());
    }
}
