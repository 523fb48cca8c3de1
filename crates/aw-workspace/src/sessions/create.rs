//! Creating a session: one transaction under the workspace lock.
//!
//! The number is derived from the numbered folders of both layouts and the HISTORY rows, the
//! folder is assembled under a hidden temporary name with its `SESSION.md`, and renamed into
//! place in one step, so no reader ever sees a session folder without its descriptor and two
//! concurrent creates never share a number. The folder is born with its custody
//! (`.custody.json`), sealing the inputs the caller read before the lock.

use super::{list, next_number};
use crate::error::{Result, WorkspaceError};
use crate::io::atomic::{self, TEMP_PREFIX};
use crate::io::containment::write_target;
use crate::locate::Workspace;
use crate::{io::test_hook, sessions::bindings, sessions::history};
use aw_core::custody::{self, Custody};
use aw_core::error_code::ErrorCode;
use aw_core::session::document::{self, NewSession};
use aw_core::session::names::SessionType;
use aw_core::vocab::correlative::Correlative;
use std::path::PathBuf;
use std::time::SystemTime;

/// What to create (values already checked by the caller).
#[derive(Debug, Clone, Copy)]
pub struct CreateRequest<'a> {
    /// The declared type.
    pub kind: SessionType,
    /// The name as typed (the document's title).
    pub name: &'a str,
    /// The folder descriptor (the name without a leading `NNN-`).
    pub descriptor: &'a str,
    /// What the session is for.
    pub objective: &'a str,
    /// Where it comes from.
    pub origins: &'a [String],
    /// The conversation to bind to the new session, if any.
    pub context_id: Option<&'a str>,
    /// Today's local date, `YYYY-MM-DD` (the document's start date and the custody's birth).
    pub today: &'a str,
    /// The inputs to seal in the custody, read before the lock
    /// ([`super::custody::read_inputs`]): each path with its text, `None` when absent.
    pub inputs: &'a [(String, Option<String>)],
}

/// A created session.
#[derive(Debug, Clone)]
pub struct Created {
    /// Its number.
    pub number: Correlative,
    /// Its folder name, `NNN-<descriptor>`.
    pub folder: String,
    /// The folder's path.
    pub path: PathBuf,
    /// The path of its `SESSION.md`.
    pub session_path: PathBuf,
    /// The path of its `.custody.json`.
    pub custody_path: PathBuf,
}

/// Creates the session. Everything that can refuse (a broken bindings registry, an existing
/// folder, a registry that is a link out of the workspace) is checked before the first write.
pub fn create(ws: &Workspace, req: &CreateRequest<'_>) -> Result<Created> {
    let lock = crate::io::lock::WorkspaceLock::of(ws, crate::io::lock::default_wait())?;
    let mut registry = match req.context_id {
        Some(_) => Some(bindings::load(ws)?),
        None => None,
    };
    let listing = list(ws)?;
    let history_text = history::read(ws)?;
    let number = next_number(&listing, history_text.as_deref());
    let folder = format!("{}-{}", number.padded(), req.descriptor);
    let sessions_dir = ws.sessions_dir();
    let path = sessions_dir.join(&folder);
    // A link by that name (even one leading nowhere) is something that exists, too.
    if path.symlink_metadata().is_ok() {
        return Err(WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!("{} already exists.", path.display()),
            action: "Pick another name, or look at the existing session with `aw sessions --all`."
                .to_owned(),
        });
    }
    let text = document::render(&NewSession {
        name: req.name,
        objective: req.objective,
        origins: req.origins,
        declared: req.kind,
        start_date: req.today,
    });

    if registry.is_some() {
        crate::io::containment::check_writes(&ws.root, [bindings::path(ws).as_path()])?;
    }
    atomic::create_dir_all(&ws.root, &sessions_dir)?;
    // The real folders (a link inside the workspace is followed; one out of it is refused).
    let real_dir = write_target(&ws.root, &sessions_dir)?;
    let real_path = real_dir.join(&folder);
    atomic::remove_stale_temps(&real_dir, SystemTime::now());
    let staging = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}session-"))
        .tempdir_in(&real_dir)
        .map_err(|e| WorkspaceError::io("could not create a folder in", &real_dir, e))?;
    atomic::write(
        &ws.root,
        &staging.path().join("SESSION.md"),
        text.as_bytes(),
    )?;
    // The custody is born with the folder: it names the folder's final path, and no reader
    // ever sees a session without it.
    let custody = Custody::born(&folder, &path.to_string_lossy(), req.today, req.inputs);
    atomic::write(
        &ws.root,
        &staging.path().join(custody::FILE),
        custody.render().as_bytes(),
    )?;
    let staged = staging.keep();
    std::fs::rename(&staged, &real_path).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        WorkspaceError::io("could not create the session folder", &path, e)
    })?;
    atomic::sync_dir(&real_dir)?;
    test_hook::stall();
    if let (Some(cid), Some(reg)) = (req.context_id, registry.as_mut())
        && reg.bind(cid, &folder)
    {
        bindings::store(ws, reg, &lock)?;
    }
    Ok(Created {
        number,
        session_path: path.join("SESSION.md"),
        custody_path: path.join(custody::FILE),
        folder,
        path,
    })
}
