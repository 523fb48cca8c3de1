//! What a change of multi-root visibility reports (`workspace-init`'s `attach_multiroot`,
//! `attach-multiroot`, `detach-multiroot`, `remove-source`): one entry per host, in the
//! reference's keys.

use aw_core::project::visibility::{SKIPPED_BY_FLAG, WARP_REASON};
use aw_workspace::project::visibility::{HostChange, HostsPlan};
use serde_json::{Value, json};

/// A skipped host.
fn skipped(reason: &str) -> Value {
    json!({ "skipped": true, "reason": reason })
}

/// One host's file: `{file, action, added, removed}`, or `{skipped, reason}` when the command
/// was told to leave it alone.
pub fn host_json(h: &Option<HostChange>) -> Value {
    match h {
        Some(h) => json!({
            "file": h.file,
            "action": h.change.action,
            "added": h.added,
            "removed": h.removed,
        }),
        None => skipped(SKIPPED_BY_FLAG),
    }
}

/// Warp (and its agent Oz): never written; why.
pub fn warp_json(skipped_by_flag: bool) -> Value {
    skipped(if skipped_by_flag {
        SKIPPED_BY_FLAG
    } else {
        WARP_REASON
    })
}

/// The reference's multi-root object: `{paths, claude, codex, warp, detached_removed}`.
pub fn multiroot_json(paths: &[String], hosts: &HostsPlan, warp_skipped: bool) -> Value {
    json!({
        "paths": paths,
        "claude": host_json(&hosts.claude),
        "codex": host_json(&hosts.codex),
        "warp": warp_json(warp_skipped),
        "detached_removed": hosts.removed(),
    })
}

/// One line per host for the human views: `.codex/config.toml  updated (+1, -0)`.
pub fn hosts_human(hosts: &HostsPlan, warp_skipped: bool) -> String {
    let mut out = String::new();
    for (name, h) in [("Claude Code", &hosts.claude), ("Codex", &hosts.codex)] {
        match h {
            Some(h) => out.push_str(&format!(
                "  {:<12} {} {} (+{}, -{})\n",
                name,
                h.file,
                h.change.action,
                h.added.len(),
                h.removed.len()
            )),
            None => out.push_str(&format!("  {name:<12} skipped\n")),
        }
    }
    let warp = if warp_skipped {
        "skipped"
    } else {
        "nothing to write (Warp and Oz have no per-project folder setting)"
    };
    out.push_str(&format!("  {:<12} {warp}\n", "Warp / Oz"));
    out
}
