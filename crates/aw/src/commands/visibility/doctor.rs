//! `aw visibility doctor`: whether the agent hosts' files list every source outside the
//! workspace, and nothing stale. Read-only: it writes nothing, not even the lock.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::{Paint, clean};
use aw_core::error_code::ErrorCode;
use aw_core::project::visibility::{
    CLAUDE_FILE, CODEX_FILE, Doctor, DoctorInput, HostReport, Listing, WARP_REASON, doctor,
};
use aw_workspace::project::visibility::{Inspection, inspect};
use clap::Args;
use serde_json::{Value, json};

// Arguments of `aw visibility doctor`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check multi-root visibility, without changing anything: for every source of the \
project block whose folder lies outside the workspace, whether `.claude/settings.local.json` \
(Claude Code) and `.codex/config.toml` (Codex) list it; which folders those files list that no \
source has (stale); whether Codex's file marks the workspace trusted; and whether `.gitignore` \
keeps the files out of git. A folder counts in either spelling: absolute, or as the block gives \
it (`../api`, as the reference writes it), and in either of Codex's lists (`writable_roots`, or \
the reference's `additional_writable_roots`).\n\nEach host gets a status (`ok`, `not_needed`, \
`missing`, `stale`, `invalid`) and the next action. Any drift exits 1 with `VISIBILITY_DRIFT` \
(the report is in the envelope's `data`). Warp and its agent Oz have no per-project folder setting, so \
there is nothing of theirs to check. Codex reads a project's `.codex/config.toml` only once the \
project is trusted in the user's own Codex configuration, which aw does not read. `--global` is \
not offered."
)]
pub struct DoctorArgs {
    /// Refused: aw reads only the workspace's own host files.
    #[arg(long)]
    pub global: bool,
}

fn report(i: &Inspection) -> Doctor {
    let external: Vec<String> = i
        .sources
        .iter()
        .filter(|s| s.external)
        .map(|s| s.resolved.clone())
        .collect();
    let known: Vec<String> = i.sources.iter().map(|s| s.resolved.clone()).collect();
    doctor(DoctorInput {
        external: &external,
        known: &known,
        claude: &i.claude,
        codex: &i.codex,
        codex_trust: i.codex_trust.as_deref(),
        gitignore_missing: &i.gitignore_missing,
    })
}

fn host_json(file: &str, h: &HostReport) -> Value {
    json!({
        "file": file,
        "status": h.status.as_str(),
        "listed": h.listed,
        "missing": h.missing,
        "stale": h.stale,
        "action": h.action,
    })
}

fn listed(listing: &Listing, folder: &str) -> Value {
    json!(listing.names(folder))
}

fn to_json(i: &Inspection, r: &Doctor) -> Value {
    let mut codex = host_json(CODEX_FILE, &r.codex);
    codex["trusted"] = json!(r.trusted);
    json!({
        "workspace": i.root.to_string_lossy(),
        "block_found": i.block_found,
        "ok": r.ok,
        "sources": i.sources.iter().map(|s| json!({
            "alias": s.source.alias,
            "path": s.source.path,
            "resolved_path": s.resolved,
            "exists": s.exists,
            "external": s.external,
            "claude": if s.external { listed(&i.claude, &s.resolved) } else { Value::Null },
            "codex": if s.external { listed(&i.codex, &s.resolved) } else { Value::Null },
        })).collect::<Vec<_>>(),
        "hosts": {
            "claude": host_json(CLAUDE_FILE, &r.claude),
            "codex": codex,
            "warp": { "skipped": true, "reason": WARP_REASON },
        },
        "gitignore": { "status": r.gitignore, "missing": i.gitignore_missing },
        "action": r.action,
    })
}

fn human(i: &Inspection, r: &Doctor, detail: bool, p: Paint) -> String {
    let mut out = format!(
        "{}\n",
        p.bold(&format!(
            "visibility doctor · {}",
            clean(&i.root.to_string_lossy())
        ))
    );
    let external = i.sources.iter().filter(|s| s.external).count();
    out.push_str(&format!(
        "  {:<12} {} ({external} outside the workspace)\n",
        "Sources",
        i.sources.len()
    ));
    for (name, file, h) in [
        ("Claude Code", CLAUDE_FILE, &r.claude),
        ("Codex", CODEX_FILE, &r.codex),
    ] {
        let mut line = format!("  {name:<12} {:<10} {file}", h.status.as_str());
        if !h.missing.is_empty() {
            line.push_str(&format!(", {} missing", h.missing.len()));
        }
        if !h.stale.is_empty() {
            line.push_str(&format!(", {} stale", h.stale.len()));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!(
        "  {:<12} nothing to check (no per-project folder setting)\n",
        "Warp / Oz"
    ));
    out.push_str(&format!("  {:<12} {}\n", ".gitignore", r.gitignore));
    if detail {
        out.push_str("\nSources\n");
        for s in &i.sources {
            let place = match (s.external, s.exists) {
                (false, _) => "inside",
                (true, true) => "outside",
                (true, false) => "outside, missing",
            };
            out.push_str(&format!(
                "  {:<12} {}  ({place})\n",
                clean(&s.source.alias),
                clean(&s.resolved)
            ));
        }
        for (name, h) in [("Claude Code", &r.claude), ("Codex", &r.codex)] {
            for (what, list) in [("missing", &h.missing), ("stale", &h.stale)] {
                for f in list {
                    out.push_str(&format!("  {name:<12} {what:<8} {}\n", clean(f)));
                }
            }
        }
    }
    out.push_str(&format!("Next: {}\n", clean(&r.action)));
    out
}

/// Runs the command.
pub fn run(args: &DoctorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    if args.global {
        return Err(super::global_refused("visibility doctor"));
    }
    let ws = cx.workspace()?;
    let inspection = inspect(&ws)?;
    let r = report(&inspection);
    let drift = r.drift();
    Ok(match (style.format, drift) {
        (Format::Json, None) => Outcome::json(&to_json(&inspection, &r)),
        // A script gates on the exit code: drift is exit 1 with the reference's code, and the
        // whole report beside the action.
        (Format::Json, Some(message)) => {
            let report = to_json(&inspection, &r);
            let mut f = Failure::new(ErrorCode::VisibilityDrift, message, r.action.clone());
            if let Value::Object(mut m) = report {
                m.shift_remove("action");
                f = f.with_data(|d| d.report = Some(m));
            }
            return Err(f);
        }
        (Format::Human, drift) => Outcome::text(human(
            &inspection,
            &r,
            style.detail,
            Paint::new(style.color),
        ))
        .with_exit(if drift.is_some() { 1 } else { 0 }),
    })
}
