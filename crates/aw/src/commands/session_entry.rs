//! The `SessionEntry` JSON model shared by the session commands: `{code, name, folder, path,
//! state, [type], [date], summary, [branch]}`, with the reference's keys.

use aw_core::session::folder::identity;
use aw_workspace::locate::Workspace;
use aw_workspace::sessions::Info;
use serde_json::{Value, json};

/// The path of a session folder: workspace-relative, or absolute when `absolute`.
pub fn shown_path(ws: &Workspace, info: &Info, absolute: bool) -> String {
    let p = if absolute {
        info.dir.clone()
    } else {
        info.dir
            .strip_prefix(&ws.root)
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|_| info.dir.clone())
    };
    p.to_string_lossy().replace('\\', "/")
}

/// One session as listings report it.
pub fn entry_json(ws: &Workspace, info: &Info, absolute: bool) -> Value {
    let id = identity(&info.folder.folder);
    let mut v = json!({
        "code": id.code,
        "name": id.name,
        "folder": info.folder.folder,
        "path": shown_path(ws, info, absolute),
        "state": info.folder.state.as_str(),
    });
    if let Some(t) = &info.facts.kind {
        v["type"] = json!(t);
    }
    v["date"] = json!(info.date);
    v["summary"] = json!(info.facts.summary);
    if let Some(b) = &info.facts.branch {
        v["branch"] = json!(b);
    }
    v
}
