//! Reading what the status board is built from: the specs, the plans and the session files.
//!
//! Every file is read once, parsed by the core right away and dropped, so memory holds facts,
//! not texts, whatever the size of the workspace. Nothing here fails on a reachable workspace:
//! a folder or file that cannot be read is left out, as the reference did.

use crate::io::folder::{self, EntryKind, Folder};
use crate::locate::Workspace;
use crate::sessions;
use aw_core::artifacts::ArtifactKind;
use aw_core::board::board_input::{BoardInput, PlanInput, SessionInput, SourceDoc, SpecInput};
use aw_core::board::flow_view::FlowProjection;
use aw_core::board::session_view::{
    self, CheckpointView, SessionView, checkpoint_view, session_view,
};
use aw_core::board::status::WorkspaceEntry;
use aw_core::board::status::{self, SessionEntry, StatusModel};
use aw_core::calendar::{Moment, WallClock};
use aw_core::documents::names::{DocKind, DocName, parse_name};
use aw_core::documents::plan::{PlanFacts, parse_plan};
use aw_core::documents::spec::{SpecFacts, parse_spec};
use aw_core::flow::state::RUN_STATE_FILE;
use aw_core::isolation::units::Inventory;
use aw_core::session::folder::SessionFolder;
use aw_core::session::folder::SessionState;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;
use time::{OffsetDateTime, UtcOffset};

/// Turns file times into local wall-clock moments.
///
/// Looking up the local offset costs a read of `/proc/self/stat` (the `time` crate checks the
/// process is single-threaded first), so offsets are cached per hour: a workspace's files
/// cluster in a few hours, and an hour is fine enough for daylight-saving changes. The hour
/// looked up last is kept aside: files come in runs from the same hour.
#[derive(Debug)]
pub struct LocalTimes {
    fallback: UtcOffset,
    last: Option<(i64, UtcOffset)>,
    cache: BTreeMap<i64, UtcOffset>,
}

impl LocalTimes {
    /// Call before any thread starts (see [`crate::io::clock::Now::read`]); convert file
    /// times only while the process is single-threaded.
    pub fn new() -> Self {
        LocalTimes {
            fallback: UtcOffset::current_local_offset().unwrap_or(UtcOffset::UTC),
            last: None,
            cache: BTreeMap::new(),
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
        let offset = match self.last {
            Some((h, offset)) if h == hour => offset,
            _ => {
                let fallback = self.fallback;
                let offset = *self
                    .cache
                    .entry(hour)
                    .or_insert_with(|| UtcOffset::local_offset_at(utc).unwrap_or(fallback));
                self.last = Some((hour, offset));
                offset
            }
        };
        let local = utc.checked_to_offset(offset)?;
        Some(Moment::precise(WallClock::from(local)))
    }
}

impl Default for LocalTimes {
    fn default() -> Self {
        Self::new()
    }
}

/// Bytes as text; invalid UTF-8 is replaced rather than refused.
fn into_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Parses bytes as text: in place when they are valid UTF-8 (the normal case), else with the
/// invalid bytes replaced. The check is `simdutf8`'s: it gives the same answer as
/// `std::str::from_utf8` (both follow the standard's definition) several times faster, and every
/// byte of every document goes through it.
fn parse_bytes<T>(bytes: &[u8], parse: impl FnOnce(&str) -> T) -> T {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(_) => parse(&String::from_utf8_lossy(bytes)),
    }
}

/// One document file found by a listing.
#[derive(Debug, Clone)]
struct Found {
    /// The workspace-relative path (`docs/specs/001-spec-x.md`), made by the thread that lists,
    /// not by the one that gathers the board.
    path: String,
    /// Where the file name starts in `path`.
    name_at: usize,
    name: DocName,
    /// What the listing said the entry is.
    kind: EntryKind,
}

/// The documents of one kind: every entry directly inside the folder whose name fits the
/// grammar and that may be a regular file, in byte order of name. Whether it is one is settled
/// when it is read (see [`folder::read_regular_in`]).
fn listing(folder: &mut Folder, kind: DocKind) -> Vec<Found> {
    let mut out: Vec<Found> = folder
        .entries()
        .into_iter()
        .filter_map(|(file, entry)| {
            let name = parse_name(kind, &file)?;
            entry.may_be_regular().then(|| Found {
                path: doc_path(kind, &file),
                name_at: kind.folder().len() + 1,
                name,
                kind: entry,
            })
        })
        .collect();
    // Names in one folder are unique, so an unstable sort gives the one order, in place.
    out.sort_unstable_by(|a, b| a.file().as_bytes().cmp(b.file().as_bytes()));
    out
}

impl Found {
    /// The file name.
    fn file(&self) -> &str {
        &self.path[self.name_at..]
    }
}

/// A spec or plan read and parsed, with its raw file time.
struct DocRead<T> {
    facts: T,
    modified: Option<SystemTime>,
}

/// Reads and parses one document of the folder it was listed in; `None` when it cannot be read.
fn read_doc<T>(
    listed_in: &OnceLock<Option<Folder>>,
    f: &Found,
    parse: fn(&str) -> T,
    buf: &mut Vec<u8>,
) -> Option<DocRead<T>> {
    let folder = listed_in.get()?.as_ref()?;
    let modified = folder::read_regular_in(folder, f.file(), f.kind, buf)?;
    Some(DocRead {
        facts: parse_bytes(buf, parse),
        modified,
    })
}

/// How many jobs a worker claims at a time: enough to keep the shared counters cold, few enough
/// that the workers finish together.
const CLAIM: usize = 8;

/// One read of the board: a session or a document.
enum Job {
    Session(SessionFolder),
    Spec(Found),
    Plan(Found),
}

/// What a [`Job`] read.
enum Done {
    Session(Box<SessionRead>),
    Spec(Option<DocRead<SpecFacts>>),
    // Boxed: a plan's facts are several times a spec's, and every job's result is a `Done`.
    Plan(Option<Box<DocRead<PlanFacts>>>),
}

/// Claimed batches of done jobs, each with the index of its first job.
type Batches<R> = Vec<(usize, Vec<R>)>;

/// What a worker does with a job, reusing its read buffer.
type Work<'a, J, R> = &'a (dyn Fn(&J, &mut Vec<u8>) -> R + Sync);

/// Jobs listed once, by whichever thread comes to them first, then claimed in small batches.
struct Queue<'a, J> {
    list: &'a (dyn Fn() -> Vec<J> + Sync),
    jobs: OnceLock<Vec<J>>,
    next: AtomicUsize,
}

impl<'a, J> Queue<'a, J> {
    fn new(list: &'a (dyn Fn() -> Vec<J> + Sync)) -> Self {
        Queue {
            list,
            jobs: OnceLock::new(),
            next: AtomicUsize::new(0),
        }
    }

    /// The jobs, listed now if no thread has yet (a thread listing them makes the others wait).
    fn jobs(&self) -> &[J] {
        self.jobs.get_or_init(self.list)
    }

    /// Claims and runs jobs until none are left.
    fn drain<R>(&self, work: Work<'_, J, R>, buf: &mut Vec<u8>) -> Batches<R> {
        let jobs = self.jobs();
        let mut done = Vec::new();
        loop {
            let start = self.next.fetch_add(CLAIM, Ordering::Relaxed);
            match jobs.get(start..jobs.len().min(start + CLAIM)) {
                Some(batch) if !batch.is_empty() => {
                    done.push((start, batch.iter().map(|j| work(j, buf)).collect()));
                }
                _ => break done,
            }
        }
    }

    /// Every job with its result, in the order listed, from the batches the workers returned
    /// (each covers the jobs from its index on); a batch lost with a worker that panicked is done
    /// again here.
    ///
    /// Handed out one by one rather than gathered: a board's results are megabytes, and a fresh
    /// copy of them costs a page fault every four kilobytes.
    fn results<'w, R: 'w>(
        self,
        mut batches: Batches<R>,
        work: Work<'w, J, R>,
    ) -> impl ExactSizeIterator<Item = (J, R)> + 'w
    where
        J: 'w,
    {
        batches.sort_by_key(|(start, _)| *start);
        let mut batches = batches.into_iter().peekable();
        let mut current = Vec::new().into_iter();
        let mut buf = Vec::new();
        let jobs = self.jobs.into_inner().unwrap_or_default();
        jobs.into_iter().enumerate().map(move |(i, job)| {
            if let Some((_, done)) = batches.next_if(|(start, _)| *start == i) {
                current = done.into_iter();
            }
            let done = current.next().unwrap_or_else(|| work(&job, &mut buf));
            (job, done)
        })
    }
}

/// Runs two lists of jobs on every core (see [`pool_threads`]): the calling thread lists the
/// first and starts on it while another lists the second and starts on that; a thread out of work of its
/// own helps with the other list. Each worker reuses one read buffer. Returns each list's jobs
/// with their results, in the order listed.
///
/// Workers claim jobs in small batches from shared counters rather than taking fixed shares: a
/// session costs several files and a plan one, so fixed shares would leave a core idle.
fn pool<'w, J: Send + Sync + 'w, R: Send + 'w>(
    list_first: &(dyn Fn() -> Vec<J> + Sync),
    list_second: &(dyn Fn() -> Vec<J> + Sync),
    work: Work<'w, J, R>,
) -> (
    impl ExactSizeIterator<Item = (J, R)> + 'w,
    impl ExactSizeIterator<Item = (J, R)> + 'w,
) {
    let first = Queue::new(list_first);
    let second = Queue::new(list_second);
    let worker = |mine: &Queue<J>, theirs: &Queue<J>| {
        let mut buf = Vec::new();
        let a = mine.drain(work, &mut buf);
        (a, theirs.drain(work, &mut buf))
    };
    let threads = pool_threads(std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (mut first_batches, mut second_batches) = (Vec::new(), Vec::new());
    std::thread::scope(|scope| {
        // A thread the system refuses (a process limit) is simply not there: the others claim
        // its share, and the calling thread alone does the whole board if need be.
        let handles: Vec<_> = (1..threads)
            .map_while(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || worker(&second, &first))
                    .ok()
            })
            .collect();
        let (a, b) = worker(&first, &second);
        first_batches.extend(a);
        second_batches.extend(b);
        // A worker that panicked leaves its claims undone; `results` does them again.
        for (b, a) in handles.into_iter().filter_map(|h| h.join().ok()) {
            first_batches.extend(a);
            second_batches.extend(b);
        }
    });
    (
        first.results(first_batches, work),
        second.results(second_batches, work),
    )
}

/// How many threads read the board on a machine with `cores` cores: one more than the cores
/// when there are several, at most 8; one on a single core.
///
/// Measured on a 2-core VM (`aw status --json`, 999 specs, 999 plans, 200 sessions): a third
/// thread cut the median by a tenth and the slow runs (90th percentile) by a fifth; a worker
/// late to start, or held up in the kernel, no longer leaves a core idle. On one core a second
/// thread only added switching.
fn pool_threads(cores: usize) -> usize {
    if cores <= 1 { 1 } else { (cores + 1).min(8) }
}

/// Reads and parses every spec and plan.
pub fn read_documents(ws: &Workspace, times: &mut LocalTimes) -> (Vec<SpecInput>, Vec<PlanInput>) {
    let (_, specs, plans) = read_board(ws, false, times);
    (specs, plans)
}

/// Every session folder (an unreadable sessions folder lists none).
pub fn session_folders(ws: &Workspace) -> Vec<SessionFolder> {
    sessions::list(ws).unwrap_or_default()
}

/// A session file read and parsed: its workspace-relative path, what was read, its raw time.
type SessionFile<T> = (String, T, Option<SystemTime>);

/// One session's files, read and parsed, with raw file times.
struct SessionRead {
    path: String,
    view: SessionView,
    modified: Option<SystemTime>,
    checkpoint: Option<SessionFile<CheckpointView>>,
    backlog: Option<SessionFile<Vec<String>>>,
    flow: Option<FlowProjection>,
}

/// Reads one session: its descriptor, checkpoint and backlog, each file opened once, found
/// from one listing of the folder; with the flow engine's projection of its run when it is
/// active (see [`board_session`]).
fn read_session_files(ws: &Workspace, folder: &SessionFolder, buf: &mut Vec<u8>) -> SessionRead {
    let dir = sessions::folder_path(ws, &folder.folder);
    let rel_dir = format!(".{}/sessions/{}", ws.ns, folder.folder);
    // The folder is opened once: it is listed, and its files are opened by name through it.
    let mut opened = Folder::open(&dir).ok();
    let listed = opened.as_mut().map(|f| {
        let mut entries = f.entries();
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        entries
    });
    let typed = listed.as_deref().unwrap_or_default();
    let names: Vec<String> = typed.iter().map(|(n, _)| n.clone()).collect();
    // A listed name that is not a regular file (a folder, a FIFO) is read as no file at all.
    let read = |name: &str, buf: &mut Vec<u8>| {
        let (_, kind) = typed.iter().find(|(n, _)| n == name)?;
        folder::read_regular_in(opened.as_ref()?, name, *kind, buf)
    };
    let descriptor = sessions::descriptor_name(&names)
        .and_then(|(_, name)| Some((read(name, buf)?, into_text(std::mem::take(buf)))));
    let modified = match &descriptor {
        Some((modified, _)) => *modified,
        None => dir.metadata().and_then(|m| m.modified()).ok(),
    };
    let view = session_view(folder, descriptor.as_ref().map(|(_, text)| text.as_str()));
    if let Some((_, text)) = descriptor {
        // The buffer goes back to work for the next files.
        *buf = text.into_bytes();
    }
    let source = |kind: ArtifactKind, buf: &mut Vec<u8>| {
        let name = kind.find(&names)?;
        let mtime = read(name, buf)?;
        Some((format!("{rel_dir}/{name}"), mtime))
    };
    let checkpoint = source(ArtifactKind::Checkpoint, buf)
        .map(|(path, mtime)| (path, parse_bytes(buf, checkpoint_view), mtime));
    let backlog = source(ArtifactKind::Backlog, buf)
        .map(|(path, mtime)| (path, parse_bytes(buf, session_view::deferred), mtime));
    // A run shows only on an active session. A folder whose listing shows no run state has
    // none: the state file is not even opened.
    let has_run = listed.as_ref().is_none_or(|l| {
        l.iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(RUN_STATE_FILE))
    });
    let flow = (folder.state == SessionState::Active && has_run)
        .then(|| crate::flow::store::project_run(ws, &folder.folder).map(Into::into))
        .flatten();
    SessionRead {
        path: rel_dir,
        view,
        modified,
        checkpoint,
        backlog,
        flow,
    }
}

impl SessionRead {
    /// The session as the board takes it, file times turned into local time.
    fn finish(self, times: &mut LocalTimes) -> SessionInput {
        let mut moment = |t: Option<SystemTime>| t.and_then(|t| times.moment(t));
        SessionInput {
            path: self.path,
            view: self.view,
            modified: moment(self.modified),
            checkpoint: self.checkpoint.map(|(path, facts, t)| SourceDoc {
                path,
                facts,
                modified: moment(t),
            }),
            backlog: self.backlog.map(|(path, facts, t)| SourceDoc {
                path,
                facts,
                modified: moment(t),
            }),
            flow: self.flow,
        }
    }
}

/// Reads one session as the board sees it (see [`board_session`]).
pub fn read_session(
    ws: &Workspace,
    folder: &SessionFolder,
    times: &mut LocalTimes,
) -> SessionInput {
    read_session_files(ws, folder, &mut Vec::new()).finish(times)
}

/// Reads every spec and plan, and the sessions when `with_sessions`, and turns their file times
/// into local time once the workers are done.
fn read_board(
    ws: &Workspace,
    with_sessions: bool,
    times: &mut LocalTimes,
) -> (Vec<SessionInput>, Vec<SpecInput>, Vec<PlanInput>) {
    // Each folder is opened by whichever thread lists it, and kept for the threads that read
    // its files.
    let spec_folder: OnceLock<Option<Folder>> = OnceLock::new();
    let plan_folder: OnceLock<Option<Folder>> = OnceLock::new();
    let list_in = |cell: &OnceLock<Option<Folder>>, kind: DocKind| {
        let mut folder = Folder::open(&ws.root.join(kind.folder())).ok();
        let found = folder
            .as_mut()
            .map(|f| listing(f, kind))
            .unwrap_or_default();
        // Listed once: the cell is empty here.
        let _ = cell.set(folder);
        found
    };
    let list_sessions = || {
        let folders = if with_sessions {
            session_folders(ws)
        } else {
            Vec::new()
        };
        folders.into_iter().map(Job::Session).collect()
    };
    let list_documents = || {
        let specs = list_in(&spec_folder, DocKind::Spec)
            .into_iter()
            .map(Job::Spec);
        let plans = list_in(&plan_folder, DocKind::Plan)
            .into_iter()
            .map(Job::Plan);
        specs.chain(plans).collect()
    };
    let work = |job: &Job, buf: &mut Vec<u8>| match job {
        Job::Session(f) => Done::Session(Box::new(read_session_files(ws, f, buf))),
        // A document job exists only once its folder was listed, so the cell is set.
        Job::Spec(f) => Done::Spec(read_doc(&spec_folder, f, parse_spec, buf)),
        Job::Plan(f) => Done::Plan(read_doc(&plan_folder, f, parse_plan, buf).map(Box::new)),
    };
    let (session_results, document_results) = pool(&list_sessions, &list_documents, &work);
    let sessions = session_results
        .filter_map(|(_, done)| match done {
            Done::Session(s) => Some(s.finish(times)),
            _ => None,
        })
        .collect();
    // Room for every document in each: pages never written are never touched.
    let mut specs = Vec::with_capacity(document_results.len());
    let mut plans = Vec::with_capacity(document_results.len());
    for (job, done) in document_results {
        match (job, done) {
            (Job::Spec(f), Done::Spec(Some(d))) => specs.push(SpecInput {
                facts: d.facts,
                file: f.path,
                name: f.name,
                modified: d.modified.and_then(|t| times.moment(t)),
                lineage: None,
            }),
            (Job::Plan(f), Done::Plan(Some(d))) => plans.push(PlanInput {
                facts: d.facts,
                file: f.path,
                name: f.name,
                modified: d.modified.and_then(|t| times.moment(t)),
            }),
            // A document that could not be read is left out.
            _ => {}
        }
    }
    read_lineages(ws, &mut specs, &plans);
    (sessions, specs, plans)
}

/// Reads again, for their digest and criteria, the specs some plan's seal names: the only
/// second read of a board (hashing every spec in the workers cost a tenth of `aw status` on a
/// large board, and most specs are sealed on by no plan). A spec that cannot be read again keeps
/// no lineage, and a plan sealed on it reads as sealed on a spec the workspace does not have.
fn read_lineages(ws: &Workspace, specs: &mut [SpecInput], plans: &[PlanInput]) {
    let sealed = aw_core::board::lineage::sealed_numbers(plans.iter().map(|p| &p.facts.seal));
    if sealed.is_empty() {
        return;
    }
    for s in specs
        .iter_mut()
        .filter(|s| sealed.contains(s.name.number.as_str()))
    {
        if let Ok(bytes) = folder::read_regular_path(&ws.root.join(&s.file)) {
            s.lineage = Some(parse_bytes(&bytes, aw_core::board::lineage::spec_lineage));
        }
    }
}

/// A document's workspace-relative path.
fn doc_path(kind: DocKind, file: &str) -> String {
    [kind.folder(), "/", file].concat()
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
/// This is the one place the flow engine plugs into the board (the projection is taken in
/// [`read_session_files`]): `aw status` shows the projection as the session's `flow`, while
/// `aw resume` takes `stop` (a run halted at a boundary that is not final) as the session's next
/// step and command.
fn board_session(ws: &Workspace, folder: &SessionFolder, times: &mut LocalTimes) -> SessionInput {
    read_session(ws, folder, times)
}

/// The workspace's isolation units (or `only`'s), with the sessions' states as the board read
/// them. Without a home (HOME unset) or a readable block there are none to show: the board
/// never fails on them.
fn units(
    ws: &Workspace,
    home: Option<&Path>,
    only: Option<&str>,
    state: &dyn Fn(&str) -> Option<SessionState>,
) -> Inventory {
    home.and_then(|home| crate::isolation::inventory_with(ws, home, only, state, false).ok())
        .unwrap_or_default()
}

/// Reads the whole workspace and builds the board (`aw status`). Every file is read once.
/// `home` is where the isolation units are (`~/.<ns>/worktrees`).
pub fn load(ws: &Workspace, now: &WallClock, home: Option<&Path>) -> StatusModel {
    let mut times = LocalTimes::new();
    let (sessions, specs, plans) = read_board(ws, true, &mut times);
    let (terminal_events, pending_retirements) = super::retirements::read_retirements(ws);
    let state = |folder: &str| {
        sessions
            .iter()
            .find(|s| s.view.folder == folder)
            .map(|s| s.view.state)
    };
    let units = units(ws, home, None, &state);
    status::build(
        BoardInput {
            workspace: workspace_entry(ws),
            specs,
            plans,
            sessions,
            // The board never fails on a reachable folder: an unreadable index is no packages.
            designs: crate::capability::designs::read_index(&ws.root).unwrap_or_default(),
            decisions: super::decision_indexes::read_decision_indexes(ws),
            terminal_events,
            pending_retirements,
            units,
        },
        now,
    )
}

/// Reads one session's board entry (for `aw resume --code`), with its units.
pub fn load_session(
    ws: &Workspace,
    folder: &SessionFolder,
    now: &WallClock,
    home: Option<&Path>,
) -> SessionEntry {
    let mut times = LocalTimes::new();
    let state = |name: &str| (name == folder.folder).then_some(folder.state);
    let units = units(ws, home, Some(&folder.folder), &state).of_session(&folder.folder);
    status::session_entry(board_session(ws, folder, &mut times), units, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ws(root: &std::path::Path) -> Workspace {
        Workspace::for_test(root)
    }

    #[test]
    fn a_thread_more_than_the_cores_when_there_are_several() {
        assert_eq!(pool_threads(1), 1);
        assert_eq!(pool_threads(2), 3);
        assert_eq!(pool_threads(4), 5);
        assert_eq!(pool_threads(7), 8);
        assert_eq!(pool_threads(64), 8);
    }

    #[test]
    fn text_is_checked_as_the_standard_checks_it() {
        let long_ascii = "a".repeat(70);
        let mut cases: Vec<Vec<u8>> = vec![
            b"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80".to_vec(),
            b"\xed\xa0\x80".to_vec(),
            b"\xc0\xaf".to_vec(),
            b"\xf4\x90\x80\x80".to_vec(),
            b"\xe2\x82".to_vec(),
            b"\xff\xfe#\n\x80".to_vec(),
            Vec::new(),
        ];
        // An invalid byte after a long valid run, and a char cut at the end of a long text.
        cases.push([long_ascii.as_bytes(), b"\x80tail"].concat());
        cases.push([long_ascii.as_bytes(), "é".as_bytes(), b"\xc3"].concat());
        for bytes in cases {
            assert_eq!(
                parse_bytes(&bytes, str::to_owned),
                String::from_utf8_lossy(&bytes),
                "{bytes:?}"
            );
        }
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
        // Many batches of plans, so several workers share them.
        for n in 1..=8 * CLAIM + 7 {
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
        assert_eq!(p.len(), 8 * CLAIM + 7);
        for (i, plan) in p.iter().enumerate() {
            assert_eq!(plan.facts.tasks_done, i + 1, "{}", plan.file);
        }
        assert!(s[0].modified.is_some());
    }

    #[test]
    fn jobs_all_run_once_and_come_back_in_order() {
        for (a, b) in [(0, 0), (1, 0), (0, 1), (CLAIM - 1, CLAIM + 1), (200, 2000)] {
            let runs = AtomicUsize::new(0);
            let list_a = move || (0..a).collect::<Vec<usize>>();
            let list_b = move || (0..b).map(|n| n + 1_000_000).collect::<Vec<usize>>();
            let work = |j: &usize, buf: &mut Vec<u8>| {
                runs.fetch_add(1, Ordering::Relaxed);
                buf.push(0);
                j * 2
            };
            let (got_a, got_b) = pool(&list_a, &list_b, &work);
            let want = |v: Vec<usize>| v.into_iter().map(|j| (j, j * 2)).collect::<Vec<_>>();
            assert_eq!(got_a.collect::<Vec<_>>(), want(list_a()));
            assert_eq!(got_b.collect::<Vec<_>>(), want(list_b()));
            assert_eq!(runs.into_inner(), a + b);
        }
    }

    #[test]
    fn a_lost_batch_is_done_again_in_its_place() {
        let list = || (0..3 * CLAIM).collect::<Vec<usize>>();
        let q = Queue::new(&list);
        q.jobs();
        let work = |j: &usize, _: &mut Vec<u8>| j + 1;
        // The middle batch was lost with its worker.
        let batches = vec![
            (2 * CLAIM, (2 * CLAIM..3 * CLAIM).map(|j| j + 1).collect()),
            (0, (0..CLAIM).map(|j| j + 1).collect()),
        ];
        let got: Vec<_> = q.results(batches, &work).collect();
        assert_eq!(
            got,
            list().into_iter().map(|j| (j, j + 1)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn only_active_sessions_with_a_run_state_show_a_run() {
        let dir = tempfile::tempdir().unwrap();
        let w = ws(dir.path());
        for (name, state, run) in [
            ("001-run-quick", SessionState::Active, true),
            ("002-none-quick", SessionState::Active, false),
            ("003-closed-quick", SessionState::Closed, true),
        ] {
            let s = w.sessions_dir().join(name);
            std::fs::create_dir_all(&s).unwrap();
            std::fs::write(s.join("SESSION.md"), "## Objective\nx\n").unwrap();
            if run {
                // Unreadable as a run: shown as a blocked run, never skipped.
                std::fs::write(s.join(RUN_STATE_FILE), "{").unwrap();
            }
            let folder = SessionFolder {
                folder: name.to_owned(),
                state,
            };
            let got = read_session(&w, &folder, &mut LocalTimes::new());
            assert_eq!(
                got.flow.is_some(),
                run && state == SessionState::Active,
                "{name}"
            );
        }
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
