//! `aw family status [--root <dir>]… [--bundled <dir>] [--project <dir>]`

use super::survey::{Seen, Surveyed, roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use crate::views::View;
use aw_core::family::{
    Freshness, authoritative_version, compares_with_bundle, freshness, kit_bundles, missing_reason,
};
use aw_core::wire::family::{Bundled, Deployed, FamilyStatus, Installed, StatusCopy, StatusMember};
use aw_workspace::family::{bundled_manifest, deployed_stamp, folder_exists};
use clap::Args;
use serde_json::Value;
use std::path::PathBuf;

// Arguments of `aw family status`.
#[derive(Debug, Args)]
#[command(
    long_about = "Detect each agent-workflow family member (kit, memory, engine, the codex and \
antigravity bridges). A member's folder is where `detect.installed` points (its environment \
variable when set and non-empty, else the default with `~` and `~/` meaning HOME; `~user/…` is not \
expanded and reads relative to the current folder); that folder alone decides, as in the family's \
tools. Copies at `<root>/<name>` under the hosts' skill roots and every --root are listed too. A \
folder counts when its marker file (SKILL.md) is a regular file.\n\n\
The member is placed on the ladder not-installed → unsupported → invalid → stub → foreign → ok \
(the first that applies; the reason quotes the validator's first error), with the authoritative \
version and where it came from (package.json, else SKILL.md metadata.version). --bundled <dir> \
compares each ok bridge with `<dir>/<name>/capability.json` (freshness behind, current, unknown or \
not-checked); --project <dir> reads each member's `detect.deployed` stamp there.\n\n\
JSON (when piped): {roots, warnings, members: [{name, kind, state, reason, dir, version, versionFrom, \
installed: {env, envValue, default, via, path, note}, bundled: {dir, present, error, version, \
freshness}, deployed: {file, path, present, stamp}, copies: [{dir, found, state, reason, version, \
versionFrom}]}]}. Read-only."
)]
pub struct StatusArgs {
    /// Another skill root to search (repeatable).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// A folder of bundled member copies (`<dir>/<name>/capability.json`), e.g. a kit's `bridges/`.
    #[arg(long, value_name = "DIR")]
    pub bundled: Option<PathBuf>,
    /// A project to check the members' deployment markers in.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// Runs `aw family status`.
pub fn run(args: &StatusArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let (cwd, roots) = roots(&args.roots, cx)?;
    let members: Vec<StatusMember> = survey(&cwd, &roots, cx)
        .iter()
        .map(|s| {
            member_model(
                s,
                args.bundled.as_ref().map(|b| cwd.join(b)),
                args.project.as_ref().map(|p| cwd.join(p)),
            )
        })
        .collect();
    // A folder named on the command line that is not there is most likely a typo: say so
    // rather than report every member absent from it.
    let named = args
        .roots
        .iter()
        .map(|r| ("--root", r))
        .chain(args.bundled.iter().map(|b| ("--bundled", b)))
        .chain(args.project.iter().map(|p| ("--project", p)));
    let warnings: Vec<String> = named
        .filter(|(_, dir)| !folder_exists(&cwd.join(dir)))
        .map(|(flag, dir)| format!("{flag} {} is not a folder", dir.display()))
        .collect();
    let model = FamilyStatus {
        roots: roots.iter().map(|r| r.display().to_string()).collect(),
        warnings,
        members,
    };
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&model.text(&style)).into_owned()),
    })
}

fn copy_model(seen: &Seen) -> StatusCopy {
    let state = seen.class.state;
    StatusCopy {
        dir: seen.dir.display().to_string(),
        found: seen.found,
        state,
        reason: seen.class.reason.clone(),
        version: authoritative_version(state, seen.copy.version.version.clone()),
        version_from: authoritative_version(state, Some(seen.copy.version.from.label())),
    }
}

fn member_model(s: &Surveyed, bundled: Option<PathBuf>, project: Option<PathBuf>) -> StatusMember {
    let m = s.member;
    let primary = s.primary();
    let primary_model = primary.map(copy_model);
    let version = primary_model.as_ref().and_then(|p| p.version.clone());
    let version_from = primary_model.as_ref().and_then(|p| p.version_from);
    let bundled = bundled.filter(|_| kit_bundles(m.kind)).map(|dir| {
        let dir = dir.join(m.name);
        let read = bundled_manifest(&dir);
        let bundled_version = read
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .and_then(|sum| sum.version.clone());
        let fresh = match &read {
            _ if !compares_with_bundle(m.kind, s.state()) => Freshness::NotChecked,
            Ok(Some(_)) => freshness(
                version.as_ref().and_then(Value::as_str),
                bundled_version.as_deref(),
            ),
            _ => Freshness::Unknown,
        };
        Bundled {
            dir: dir.display().to_string(),
            present: !matches!(read, Ok(None)),
            error: read.as_ref().err().cloned(),
            version: bundled_version,
            freshness: fresh,
        }
    });
    let deployed = project.and_then(|p| {
        let file = m.deployed?;
        let stamp = deployed_stamp(&p, file);
        Some(Deployed {
            file,
            path: p.join(file).display().to_string(),
            present: stamp.is_some(),
            stamp,
        })
    });
    StatusMember {
        name: m.name,
        kind: m.kind,
        state: s.state(),
        reason: match primary {
            Some(p) => p.class.reason.clone(),
            None => Some(missing_reason(
                m.file,
                m.env,
                s.env.as_deref(),
                s.resolved
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .as_deref(),
            )),
        },
        dir: primary.map(|p| p.dir.display().to_string()),
        version,
        version_from,
        installed: Installed {
            env: m.env,
            env_value: s.env.clone(),
            default: m.default,
            via: s.resolved.via,
            path: s.resolved.path.as_ref().map(|p| p.display().to_string()),
            note: s.resolved.note.clone(),
        },
        bundled,
        deployed,
        copies: s.copies.iter().map(copy_model).collect(),
    }
}
