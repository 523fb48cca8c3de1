//! Reading the `skills.toml` cascade: `~/.<ns>/skills.toml`, then `.<ns>/skills.toml` of the
//! workspace. What the files mean is `aw_core::capability::bindings`; this module only finds
//! and reads them. Nothing here fails: a missing file is an absent level, an unreadable one a
//! warning.

use crate::locate::Workspace;
use crate::project::read_optional;
use aw_core::capability::bindings::{self, Cascade, LevelInput};
use std::path::{Path, PathBuf};

/// The file's name inside `.<ns>/`.
pub const FILE: &str = "skills.toml";

/// `~/.<ns>/skills.toml` for the home folder `home`.
pub fn global_path(home: &Path, ns: &str) -> PathBuf {
    home.join(format!(".{ns}")).join(FILE)
}

/// `.<ns>/skills.toml` of `ws`.
pub fn workspace_path(ws: &Workspace) -> PathBuf {
    ws.state_dir().join(FILE)
}

/// The cascade of `ws`, with `home` the user's home folder as the command found it (no home, no
/// global level): the home is read once, by the locator, not again here.
pub fn read(ws: &Workspace, home: Option<&Path>) -> Cascade {
    let global = home.map(|h| global_path(h, &ws.ns));
    let workspace = workspace_path(ws);
    let global_input = global.as_deref().map_or(LevelInput::Absent, level);
    let global_shown = global.as_deref().map(shown).unwrap_or_default();
    bindings::cascade(
        (&global_input, &global_shown),
        (&level(&workspace), &shown(&workspace)),
    )
}

/// One level: the file's text, absent, or the reason it could not be read. The read never
/// waits on a FIFO (`folder::read_regular_path`, through `read_optional`).
fn level(path: &Path) -> LevelInput {
    match read_optional(path) {
        Ok(Some(text)) => LevelInput::Text(text),
        Ok(None) => LevelInput::Absent,
        Err(e) => LevelInput::Unreadable(reason(&e)),
    }
}

/// The cause of a failed read without the path (the warning names the file already).
fn reason(e: &crate::error::WorkspaceError) -> String {
    match e {
        crate::error::WorkspaceError::Io { source, .. }
            if source.kind() == std::io::ErrorKind::InvalidData =>
        {
            "it is not UTF-8 text".to_owned()
        }
        crate::error::WorkspaceError::Io { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Why the `[docs]` canon of the cascade cannot be used, if it cannot (the user's file first,
/// then the workspace's; see [`aw_core::flow::docs_canon`]). A file that cannot be read is
/// refused too: a layout nobody can read is not the canonical one.
pub fn docs_canon_refusal(ws: &Workspace, home: Option<&Path>) -> Option<String> {
    let global = home.map(|h| global_path(h, &ws.ns));
    for path in global
        .iter()
        .map(PathBuf::as_path)
        .chain([workspace_path(ws).as_path()])
    {
        match level(path) {
            LevelInput::Absent => {}
            LevelInput::Unreadable(why) => {
                return Some(format!("{} cannot be read ({why})", shown(path)));
            }
            LevelInput::Text(text) => {
                if let Some(r) = aw_core::flow::docs_canon::refusal(&shown(path), &text) {
                    return Some(r);
                }
            }
        }
    }
    None
}
