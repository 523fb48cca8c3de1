//! `aw self detect-hosts`: which hosts of the host table have their folder under HOME.

use super::{home, lock};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::install::host::HOSTS;
use aw_core::wire::self_cmd::{DetectHosts, DetectedHost};
use aw_workspace::install::{Snapshot, host_present, installed_version};
use clap::Args;

// Arguments of `aw self detect-hosts`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the agent hosts aw installs into (claude, codex, gemini, opencode) and the \
shared agents folder, each with whether its folder (~/.claude, ~/.codex, ~/.gemini, ~/.opencode, \
~/.agents) exists under HOME and which aw version installed its `w` skill, if any. Read-only.\n\n\
JSON: {home, hosts: [{id, is_host, present, folder, installed_version}], present: [ids]}."
)]
pub struct DetectHostsArgs {}

/// Runs `aw self detect-hosts`.
pub fn run(_args: &DetectHostsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let home = home(cx)?;
    let all: Vec<&'static aw_core::install::host::Host> = HOSTS.iter().collect();
    let _locks = lock(&home, &all, true)?;
    let mut snap = Snapshot::new(&home);
    let mut hosts: Vec<DetectedHost<'_>> = Vec::new();
    let mut present: Vec<&str> = Vec::new();
    for h in HOSTS {
        let here = host_present(&mut snap, h);
        if h.is_host && here {
            present.push(h.id);
        }
        hosts.push(DetectedHost {
            id: h.id,
            is_host: h.is_host,
            present: here,
            folder: home.join(h.root).to_string_lossy().into_owned(),
            installed_version: installed_version(&mut snap, h),
        });
    }
    let model = DetectHosts {
        ok: true,
        home: home.to_string_lossy().into_owned(),
        hosts,
        present,
    };
    Ok(Outcome::shown(&model, &style))
}
