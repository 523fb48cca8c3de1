//! `aw session-artifacts [--code <c>] [--verbose] [--dump [kinds]]`: a consolidated view of a
//! session's files (descriptor, tasks, decisions, presence of the others, SQL scripts), or the
//! raw contents of chosen kinds.
//!
//! File names come from the artifact catalogue (case-insensitive; `DECISIONES.md` is a
//! decisions file, `OBJETIVO.md` a descriptor); the TASKS and DECISION grammars are the shared
//! ones in `aw_core::artifacts`. A read never binds the conversation.

use crate::cli::given;
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::artifacts::{ArtifactKind, ScriptCounts};
use aw_core::error_code::ErrorCode;
use aw_core::session::folder::identity;
use aw_core::session::resolve::Intent;
use aw_core::wire::session_artifacts::{
    Artifacts, ArtifactsDump, ArtifactsSummary, Dump, Dumped, DumpedFile, DumpedScript, Outline,
    ScriptTotals, SessionArtifacts,
};
use aw_workspace::locate::slashed;
use aw_workspace::sessions::artifacts::{self as disk, Summary, entries, sql_scripts};
use aw_workspace::sessions::context_id::from_env;
use aw_workspace::sessions::hooks::read_checkpoint;
use aw_workspace::sessions::narrative;
use aw_workspace::sessions::resolver::{self, Request, Resolved};
use aw_workspace::sessions::{self, Descriptor, DescriptorKind};
use clap::Args;
use std::path::Path;

// Arguments of `aw session-artifacts`.
#[derive(Debug, Args)]
#[command(
    long_about = "Summarise a session's artifacts, or dump their contents.\n\nThe summary reports \
the descriptor's title, success-criteria count and origin, task progress, the number of \
decisions, which other artifacts exist and the SQL scripts under `scripts/`. `--dump` (with \
`--code`) returns the raw files of the kinds listed, in that order: objetivo (or objective), \
decisiones (or decisions), conclusiones (or conclusions), tasks, checkpoint, backlog, scripts \
(all of them when none is listed); the output names each by the first spelling."
)]
pub struct SessionArtifactsArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Report every presence flag, the script counts and the branch even when empty, and the
    /// session folder's absolute path.
    #[arg(long)]
    pub verbose: bool,
    /// Dump the raw files of these kinds (comma-separated; all when empty): objetivo,
    /// decisiones, conclusiones (or objective, decisions, conclusions), tasks, checkpoint,
    /// backlog, scripts.
    #[arg(long, value_name = "KINDS", num_args = 0..=1, default_missing_value = "")]
    pub dump: Option<String>,
    /// Leave out the session's narrative (what it did, what is next, each fact with its source),
    /// which the summary otherwise carries.
    #[arg(long)]
    pub no_narrative: bool,
}

/// The kinds `--dump` accepts (the reference's wire ids), in the order a bare `--dump` gives
/// them.
const DUMP_KINDS: [&str; 7] = [
    "objetivo",
    "decisiones",
    "conclusiones",
    "tasks",
    "checkpoint",
    "backlog",
    "scripts",
];

/// English names accepted on input for the wire ids that are Spanish; the output keeps the
/// wire id.
const DUMP_ALIASES: [(&str, &str); 3] = [
    ("objective", "objetivo"),
    ("decisions", "decisiones"),
    ("conclusions", "conclusiones"),
];

/// The wire id of a kind as typed (any letter case, an English alias allowed).
fn dump_kind(typed: &str) -> Option<&'static str> {
    let lower = typed.to_lowercase();
    DUMP_KINDS
        .iter()
        .copied()
        .find(|k| *k == lower)
        .or_else(|| {
            DUMP_ALIASES
                .iter()
                .find(|(alias, _)| *alias == lower)
                .map(|(_, id)| *id)
        })
}

/// Runs the command.
pub fn run(args: &SessionArtifactsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let code = given(&args.code);
    let kinds = match &args.dump {
        None => None,
        Some(csv) => Some(dump_kinds(csv, code)?),
    };
    let ws = cx.workspace()?;
    let cid = from_env();
    let resolved = resolver::resolve(
        &ws,
        &Request {
            code,
            allow_closed: true,
            bind: false,
            context_id: if kinds.is_some() {
                None
            } else {
                cid.as_deref()
            },
            intent: Intent::Read,
        },
    )?;
    let names = entries(&resolved.path)?;
    let descriptor = sessions::descriptor(&resolved.path, &names)?;
    // The reference's shape: absolute with `--verbose` or `--dump`, workspace-relative
    // otherwise.
    let shown = if args.verbose || kinds.is_some() {
        slashed(&resolved.path)
    } else {
        ws.shown(&resolved.path)
    };
    let id = identity(&resolved.folder);
    let state = resolved.state.as_str();
    if let Some(kinds) = kinds {
        let dumped = dump(&resolved, &names, descriptor, &kinds)?;
        let model = SessionArtifacts::Dump(ArtifactsDump {
            session: &resolved.folder,
            path: shown,
            code: id.code,
            state,
            dumped,
        });
        return Ok(Outcome::shown(&model, &style));
    }
    let summary = disk::summary(&resolved.path, &names, descriptor.as_ref())?;
    let story = if args.no_narrative {
        None
    } else {
        let (_, checkpoint) = read_checkpoint(&resolved.path)?;
        Some(narrative::with_read(
            &resolved.path,
            &resolved.folder,
            &names,
            descriptor
                .as_ref()
                .and_then(|d| Some((d.path.file_name()?.to_str()?, d.text.as_str()))),
            checkpoint.as_deref(),
        )?)
    };
    // `--detail` (human only) counts the scripts even when there are none.
    let artifacts = artifacts(&summary, args.verbose, style.detail);
    let model = SessionArtifacts::Summary(ArtifactsSummary {
        session: &resolved.folder,
        path: shown,
        code: id.code,
        state,
        artifacts,
        branch: summary.branch.as_deref().or(args.verbose.then_some("")),
        branch_declared: summary.branch.is_some(),
        narrative: story.as_ref(),
    });
    Ok(Outcome::shown(&model, &style))
}

fn dump_kinds(csv: &str, code: Option<&str>) -> Result<Vec<&'static str>, Failure> {
    if code.is_none() {
        return Err(Failure::new(
            ErrorCode::InvalidInput,
            "`--dump` needs `--code <session>`: a dump never guesses the session.",
            "Add `--code <session>`.",
        ));
    }
    let asked: Vec<&str> = csv
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if asked.is_empty() {
        return Ok(DUMP_KINDS.to_vec());
    }
    // In the order asked, as the reference answers; a kind asked twice appears once.
    let mut kinds = Vec::new();
    for typed in asked {
        let Some(kind) = dump_kind(typed) else {
            return Err(Failure::new(
                ErrorCode::InvalidInput,
                format!("`{typed}` is not a kind `--dump` knows."),
                format!(
                    "Use some of: {} (or objective, decisions, conclusions).",
                    DUMP_KINDS.join(", ")
                ),
            ));
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

/// What the summary's files hold: a presence flag only when true, unless `verbose`; the
/// scripts only when there are some, unless `verbose` or `detail`.
fn artifacts(s: &Summary, verbose: bool, detail: bool) -> Artifacts<'_> {
    let p = s.presence;
    let flag = |present: bool| (present || verbose).then_some(present);
    let ScriptCounts {
        total,
        forward,
        rollback,
    } = ScriptCounts::of(s.scripts.iter().map(|s| s.rollback));
    Artifacts {
        session: s.outline.as_ref().map(|o| Outline {
            titulo: o.title.as_deref(),
            criterios_count: o.criteria_count,
            has_origen: o.has_origin,
        }),
        tasks: s.tasks.as_ref(),
        decisiones_count: s.decisions,
        checkpoint_present: flag(p.checkpoint),
        conclusiones_present: flag(p.conclusions),
        analysis_file_present: flag(p.analysis_file),
        backlog_present: flag(p.backlog),
        scripts_sql_present: flag(p.scripts_sql),
        scripts: (total > 0 || verbose || detail).then_some(ScriptTotals {
            total,
            forward,
            rollback,
            has_bundle: p.scripts_sql,
        }),
    }
}

/// A file dumped: its path, text and size.
fn file(path: &Path, content: String) -> DumpedFile {
    DumpedFile {
        path: path.to_string_lossy().into_owned(),
        size: content.len(),
        content,
    }
}

/// The files of the kinds asked for, in that order.
fn dump(
    r: &Resolved,
    entries: &[String],
    descriptor: Option<Descriptor>,
    kinds: &[&'static str],
) -> Result<Dumped, Failure> {
    if descriptor
        .as_ref()
        .is_some_and(|d| d.kind == DescriptorKind::Requirements)
    {
        let f = Failure::new(
            ErrorCode::LegacyFormat,
            format!(
                "Session '{}' predates SESSION.md: it only has REQUIREMENTS.md, which cannot be dumped by kind.",
                r.folder
            ),
            "Read REQUIREMENTS.md directly, or move its content into a SESSION.md.",
        );
        // The reference's `data`: its token, the session, its folder and the reason again.
        let hint = f.message.clone();
        return Err(f.with_data(|d| {
            d.error = Some("legacy_format".to_owned());
            d.session = Some(r.folder.clone());
            d.path = Some(slashed(&r.path));
            d.hint = Some(hint);
        }));
    }
    let artifact = |k: ArtifactKind| -> Result<Dump, Failure> {
        let Some(p) = disk::artifact(&r.path, entries, k) else {
            return Ok(Dump::File(None));
        };
        Ok(Dump::File(disk::read_text(&p)?.map(|t| file(&p, t))))
    };
    let mut dumped = Vec::new();
    for kind in kinds {
        let v = match *kind {
            "objetivo" => Dump::File(descriptor.as_ref().map(|d| file(&d.path, d.text.clone()))),
            "decisiones" => artifact(ArtifactKind::Decisions)?,
            "conclusiones" => artifact(ArtifactKind::Conclusions)?,
            "tasks" => artifact(ArtifactKind::Tasks)?,
            "checkpoint" => artifact(ArtifactKind::Checkpoint)?,
            "backlog" => artifact(ArtifactKind::Backlog)?,
            _ => Dump::Scripts(
                sql_scripts(&r.path)
                    .into_iter()
                    .map(|f| DumpedScript {
                        name: f.name,
                        path: f.path.to_string_lossy().into_owned(),
                        size: f.size,
                        is_rollback: f.rollback,
                    })
                    .collect(),
            ),
        };
        dumped.push((*kind, v));
    }
    Ok(Dumped(dumped))
}
