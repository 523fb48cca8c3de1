//! `aw schema [<command> [<verb>]] [--all <dir>]`: the JSON Schema (draft 2020-12) of a
//! command's output, or of the failure envelope (`aw schema error`), generated from the typed
//! models that produce the output.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome, pretty};
use aw_core::error_code::ErrorCode;
use aw_core::wire::schema::{self, Index, Written};
use aw_workspace::io::atomic::write_into;
use clap::Args;
use std::path::PathBuf;

// Arguments of `aw schema`.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the JSON Schema (draft 2020-12) of a command's JSON output, generated \
from the types that produce it, so it cannot drift from what the command prints. `aw schema \
error` prints the failure envelope every command prints when it refuses (`ok: false`, `error`, \
`data.action`). With no command, list the names it knows; a command whose output is not typed \
yet is refused and named.\n\n`--all <dir>` writes every schema into the folder as \
`<command>.json` (a verb joined with `-`: `flow-advance.json`) and `error.json`; the project \
keeps them in `docs/schemas/`."
)]
pub struct SchemaArgs {
    /// The command, and its verb for a command that has verbs (`flow advance`); `error` for the
    /// failure envelope.
    #[arg(value_name = "COMMAND", num_args = 0..=2)]
    pub words: Vec<String>,
    /// Write every schema into this folder instead.
    #[arg(long, value_name = "DIR", conflicts_with = "words")]
    pub all: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &SchemaArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    if let Some(dir) = &args.all {
        let files: Vec<(String, Vec<u8>)> = Index::all()
            .schemas
            .into_iter()
            .filter_map(|name| {
                let s = schema::of(name)?;
                Some((schema::file_name(name), pretty(&s).into_bytes()))
            })
            .collect();
        let written = write_into(dir, &files)?;
        let model = Written {
            dir: dir.to_string_lossy().into_owned(),
            files: files.into_iter().map(|(name, _)| name).collect(),
        };
        return Ok(match style.format {
            Format::Json => Outcome::json(&model),
            Format::Human => Outcome::text(format!(
                "Wrote {} schemas:\n{}",
                written.len(),
                written
                    .iter()
                    .map(|p| format!("  {}\n", crate::style::clean(&p.to_string_lossy())))
                    .collect::<String>()
            )),
        });
    }
    if args.words.is_empty() {
        let index = Index::all();
        return Ok(match style.format {
            Format::Json => Outcome::json(&index),
            Format::Human => Outcome::text(format!(
                "Typed outputs (aw schema <command>):\n{}",
                index
                    .schemas
                    .iter()
                    .map(|n| format!("  {n}\n"))
                    .collect::<String>()
            )),
        });
    }
    let name = args.words.join("-");
    match schema::of(&name) {
        // A schema is JSON whatever the format asked: it is read by programs.
        Some(s) => Ok(Outcome::json(&s)),
        None => Err(Failure::new(
            ErrorCode::ArgsInvalid,
            format!(
                "`{}` has no typed output schema yet.",
                crate::style::clean(&args.words.join(" "))
            ),
            format!(
                "Run `aw schema` for the names it knows: {}.",
                Index::all().schemas.join(", ")
            ),
        )),
    }
}
