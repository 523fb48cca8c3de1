//! `aw`: a fast, native runtime for AI-agent workflows.

#![forbid(unsafe_code)]

mod cli;
mod commands;
mod context;
mod failure;
mod output;
mod style;
mod views;

use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = cli::run(argv);
    ExitCode::from(code)
}
