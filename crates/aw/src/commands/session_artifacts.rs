//! `aw session-artifacts [--code <c>] [--verbose] [--dump [kinds]]`: a consolidated view of a
//! session's files (descriptor, tasks, decisions, presence of the others, SQL scripts), or the
//! raw contents of chosen kinds.
//!
//! File names come from the artifact catalogue (case-insensitive; `DECISIONES.md` is a
//! decisions file, `OBJETIVO.md` a descriptor); the TASKS and DECISION grammars are the shared
//! ones in `aw_core::artifacts`. A read never binds the conversation.

use crate::cli::Global;
use crate::context;
use crate::failure::Failure;
use crate::output::{Format, Outcome, tty_default};
use aw_core::artifacts::{ArtifactKind, parse_decisions, parse_tasks};
use aw_core::markdown::{self, aliases};
use aw_core::session::document;
use aw_core::session::folder::identity;
use aw_core::session::resolve::Intent;
use aw_workspace::WorkspaceError;
use aw_workspace::checkpoint as disk;
use aw_workspace::context_id::from_env;
use aw_workspace::resolver::{self, Request, Resolved};
use aw_workspace::sessions::{self, Descriptor, DescriptorKind};
use clap::Args;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// Arguments of `aw session-artifacts`.
#[derive(Debug, Args)]
#[command(
    long_about = "Summarise a session's artifacts, or dump their contents.\n\nThe summary reports \
the descriptor's title, success-criteria count and origin, task progress, the number of \
decisions, which other artifacts exist and the SQL scripts under `scripts/`. `--dump` (with \
`--code`) returns the raw files of the kinds listed: objetivo, decisiones, conclusiones, tasks, \
checkpoint, backlog, scripts (all of them when none is listed)."
)]
pub struct SessionArtifactsArgs {
    /// The session: a number, a folder name or a unique folder prefix.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Report every presence flag, the script counts and the branch even when empty.
    #[arg(long)]
    pub verbose: bool,
    /// Dump the raw files of these kinds (comma-separated; all when empty).
    #[arg(long, value_name = "KINDS", num_args = 0..=1, default_missing_value = "")]
    pub dump: Option<String>,
}

/// The kinds `--dump` accepts, in output order.
const DUMP_KINDS: [&str; 7] = [
    "objetivo",
    "decisiones",
    "conclusiones",
    "tasks",
    "checkpoint",
    "backlog",
    "scripts",
];

/// Runs the command.
pub fn run(args: &SessionArtifactsArgs, global: &Global) -> Result<Outcome, Failure> {
    let style = global.flags().resolve(tty_default())?;
    let code = args
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let kinds = match &args.dump {
        None => None,
        Some(csv) => Some(dump_kinds(csv, code)?),
    };
    let ws = context::workspace(global)?;
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
    let entries = disk::entries(&resolved.path)?;
    let descriptor = sessions::descriptor(&resolved.path, &entries)?;
    let rel = resolved
        .path
        .strip_prefix(&ws.root)
        .unwrap_or(&resolved.path)
        .to_string_lossy()
        .replace('\\', "/");
    let id = identity(&resolved.folder);
    let mut model = json!({
        "session": resolved.folder,
        "path": rel,
        "code": id.code,
        "state": resolved.state.as_str(),
    });
    if let Some(kinds) = kinds {
        return dump(&resolved, &entries, descriptor, &kinds, model, style.format);
    }
    let summary = Summary::read(&resolved.path, &entries, descriptor.as_ref())?;
    if style.format == Format::Human {
        return Ok(Outcome::text(summary.human(&resolved.folder, style.detail)));
    }
    model["artifacts"] = summary.json(args.verbose);
    match (&summary.branch, args.verbose) {
        (Some(b), _) => model["branch"] = json!(b),
        (None, true) => model["branch"] = json!(""),
        (None, false) => {}
    }
    Ok(Outcome::json(model))
}

fn dump_kinds(csv: &str, code: Option<&str>) -> Result<Vec<&'static str>, Failure> {
    if code.is_none() {
        return Err(Failure::new(
            "INVALID_INPUT",
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
    if let Some(bad) = asked.iter().find(|k| !DUMP_KINDS.contains(k)) {
        return Err(Failure::new(
            "INVALID_INPUT",
            format!("`{bad}` is not a kind `--dump` knows."),
            format!("Use some of: {}.", DUMP_KINDS.join(", ")),
        ));
    }
    Ok(DUMP_KINDS
        .iter()
        .copied()
        .filter(|k| asked.contains(k))
        .collect())
}

/// What the summary reads from the folder.
struct Summary {
    session: Option<Value>,
    tasks: Option<Value>,
    decisions: usize,
    presence: Vec<(&'static str, bool)>,
    scripts: Scripts,
    branch: Option<String>,
    title: Option<String>,
}

#[derive(Default)]
struct Scripts {
    total: usize,
    forward: usize,
    rollback: usize,
    has_bundle: bool,
    files: Vec<(String, PathBuf, u64)>,
}

fn read_opt(path: Option<PathBuf>) -> Result<Option<String>, WorkspaceError> {
    match path {
        Some(p) => disk::read_text(&p),
        None => Ok(None),
    }
}

impl Summary {
    fn read(
        dir: &Path,
        entries: &[String],
        descriptor: Option<&Descriptor>,
    ) -> Result<Self, WorkspaceError> {
        let session_doc = descriptor.filter(|d| d.kind != DescriptorKind::Requirements);
        let outline = session_doc.map(|d| document::outline(&d.text));
        let title = outline.as_ref().and_then(|o| o.title.clone());
        let session = outline.map(|o| {
            json!({
                "titulo": o.title,
                "criterios_count": o.criteria_count,
                "has_origen": o.has_origin,
            })
        });
        let tasks = read_opt(disk::artifact(dir, entries, ArtifactKind::Tasks))?
            .map(|t| serde_json::to_value(parse_tasks(&t).summary()).unwrap_or(Value::Null));
        let decisions = read_opt(disk::artifact(dir, entries, ArtifactKind::Decisions))?
            .map(|t| parse_decisions(&t).len())
            .unwrap_or(0);
        let has = |k: ArtifactKind| k.find(entries).is_some();
        let scripts = scripts(dir, has(ArtifactKind::ScriptsSql));
        Ok(Summary {
            session,
            tasks,
            decisions,
            presence: vec![
                ("checkpoint_present", has(ArtifactKind::Checkpoint)),
                ("conclusiones_present", has(ArtifactKind::Conclusions)),
                ("analysis_file_present", has(ArtifactKind::AnalysisFile)),
                ("backlog_present", has(ArtifactKind::Backlog)),
                ("scripts_sql_present", has(ArtifactKind::ScriptsSql)),
            ],
            scripts,
            branch: descriptor.and_then(|d| markdown::value(&d.text, aliases::BRANCH)),
            title,
        })
    }

    fn json(&self, verbose: bool) -> Value {
        let mut a = Map::new();
        a.insert(
            "session".into(),
            self.session.clone().unwrap_or(Value::Null),
        );
        a.insert("tasks".into(), self.tasks.clone().unwrap_or(Value::Null));
        a.insert("decisiones_count".into(), json!(self.decisions));
        for (k, present) in &self.presence {
            if *present || verbose {
                a.insert((*k).into(), json!(present));
            }
        }
        if self.scripts.total > 0 || verbose {
            a.insert(
                "scripts".into(),
                json!({
                    "total": self.scripts.total,
                    "forward": self.scripts.forward,
                    "rollback": self.scripts.rollback,
                    "has_bundle": self.scripts.has_bundle,
                }),
            );
        }
        Value::Object(a)
    }

    fn human(&self, folder: &str, detail: bool) -> String {
        let mut out = format!("{folder}\n");
        out.push_str(&format!(
            "  Title      {}\n",
            self.title.as_deref().unwrap_or("—")
        ));
        let tasks = self
            .tasks
            .as_ref()
            .map(|t| {
                format!(
                    "{}/{} done ({}%)",
                    t["closed"], t["total"], t["progress_pct"]
                )
            })
            .unwrap_or_else(|| "no TASKS.md".to_owned());
        out.push_str(&format!("  Tasks      {tasks}\n"));
        out.push_str(&format!("  Decisions  {}\n", self.decisions));
        let present: Vec<&str> = self
            .presence
            .iter()
            .filter(|(_, p)| *p)
            .map(|(k, _)| k.trim_end_matches("_present"))
            .collect();
        out.push_str(&format!(
            "  Also       {}\n",
            if present.is_empty() {
                "—".to_owned()
            } else {
                present.join(", ")
            }
        ));
        if self.scripts.total > 0 || detail {
            out.push_str(&format!(
                "  Scripts    {} ({} forward, {} rollback)\n",
                self.scripts.total, self.scripts.forward, self.scripts.rollback
            ));
        }
        if let Some(b) = &self.branch {
            out.push_str(&format!("  Branch     {b}\n"));
        }
        out
    }
}

/// The `.sql` files under `scripts/`, recursively (symbolic links are not followed), sorted.
fn scripts(dir: &Path, has_bundle: bool) -> Scripts {
    let root = dir.join("scripts");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        let Ok(list) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in list.filter_map(|e| e.ok()) {
            let Ok(ft) = e.file_type() else { continue };
            let path = e.path();
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file()
                && e.file_name()
                    .to_string_lossy()
                    .to_ascii_lowercase()
                    .ends_with(".sql")
            {
                let name = path
                    .strip_prefix(&root)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                files.push((name, path, size));
            }
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let rollback = files.iter().filter(|f| is_rollback(&f.0)).count();
    Scripts {
        total: files.len(),
        forward: files.len() - rollback,
        rollback,
        has_bundle,
        files,
    }
}

fn is_rollback(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".rollback.sql")
}

fn file_json(path: &Path, content: String) -> Value {
    json!({
        "path": path.to_string_lossy(),
        "size": content.len(),
        "content": content,
    })
}

fn dump(
    r: &Resolved,
    entries: &[String],
    descriptor: Option<Descriptor>,
    kinds: &[&str],
    mut model: Value,
    format: Format,
) -> Result<Outcome, Failure> {
    if descriptor
        .as_ref()
        .is_some_and(|d| d.kind == DescriptorKind::Requirements)
    {
        return Err(Failure::new(
            "LEGACY_FORMAT",
            format!(
                "Session '{}' predates SESSION.md: it only has REQUIREMENTS.md, which cannot be dumped by kind.",
                r.folder
            ),
            "Read REQUIREMENTS.md directly, or move its content into a SESSION.md.",
        ));
    }
    let artifact = |k: ArtifactKind| -> Result<Value, Failure> {
        let Some(p) = disk::artifact(&r.path, entries, k) else {
            return Ok(Value::Null);
        };
        Ok(disk::read_text(&p)?.map_or(Value::Null, |t| file_json(&p, t)))
    };
    let mut shown = Vec::new();
    for kind in kinds {
        let v = match *kind {
            "objetivo" => descriptor
                .as_ref()
                .map_or(Value::Null, |d| file_json(&d.path, d.text.clone())),
            "decisiones" => artifact(ArtifactKind::Decisions)?,
            "conclusiones" => artifact(ArtifactKind::Conclusions)?,
            "tasks" => artifact(ArtifactKind::Tasks)?,
            "checkpoint" => artifact(ArtifactKind::Checkpoint)?,
            "backlog" => artifact(ArtifactKind::Backlog)?,
            _ => {
                let s = scripts(&r.path, false);
                json!(
                    s.files
                        .iter()
                        .map(|(name, path, size)| json!({
                            "name": name,
                            "path": path.to_string_lossy(),
                            "size": size,
                            "is_rollback": is_rollback(name),
                        }))
                        .collect::<Vec<_>>()
                )
            }
        };
        shown.push((*kind, v.clone()));
        model[*kind] = v;
    }
    if format == Format::Json {
        return Ok(Outcome::json(model));
    }
    let mut out = format!("{} · dump\n", r.folder);
    for (kind, v) in shown {
        let line = match &v {
            Value::Null => "—".to_owned(),
            Value::Array(a) => format!("{} file(s)", a.len()),
            other => format!(
                "{} bytes · {}",
                other["size"],
                other["path"].as_str().unwrap_or("")
            ),
        };
        out.push_str(&format!("  {kind:<13} {line}\n"));
    }
    Ok(Outcome::text(out))
}
