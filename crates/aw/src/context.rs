//! What every command receives: the global flags and "now", read once at start.

use crate::cli::Global;
use crate::failure::Failure;
use crate::output::{Format, Style};
use aw_workspace::clock::Now;
use aw_workspace::locate::{LocateInput, Workspace, home_dir, locate, locate_exact};
use std::path::{Path, PathBuf};

/// A command's context.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// The global flags.
    pub global: &'a Global,
    /// "Now", read once before the command started.
    pub now: Now,
    /// A home folder the caller chose (the demo's temporary one); `None` is the process's
    /// `HOME`. Read it through [`Ctx::home`].
    pub home: Option<&'a Path>,
}

impl Ctx<'_> {
    /// The output style: `default` is the command's projection when no flag decides.
    pub fn style(&self, default: Format) -> Result<Style, Failure> {
        self.global.flags().resolve(default)
    }

    /// The output style of most commands: human on a terminal, JSON when piped.
    pub fn default_style(&self) -> Result<Style, Failure> {
        self.style(crate::output::tty_default())
    }

    /// The home folder: the one the caller chose, else `HOME`.
    pub fn home(&self) -> Option<PathBuf> {
        self.home.map(Path::to_path_buf).or_else(home_dir)
    }

    fn locate_input(&self) -> Result<LocateInput, Failure> {
        let mut input = LocateInput::from_process(
            self.global.workspace.clone(),
            self.global.namespace.clone(),
        )?;
        input.home = self.home();
        Ok(input)
    }

    /// The workspace: `--workspace`, else the nearest folder above the current one holding
    /// `.<ns>/`; the namespace from `--namespace`, `AW_NAMESPACE`, detection or the pin file.
    pub fn workspace(&self) -> Result<Workspace, Failure> {
        let ws = locate(&self.locate_input()?)?;
        // A publish killed half-way is finished or undone before anything reads the workspace.
        aw_workspace::publish::settle(&ws);
        Ok(ws)
    }

    /// The workspace exactly at `--workspace` or the current folder, never walking up (where
    /// `workspace-init` creates one).
    pub fn workspace_here(&self) -> Result<Workspace, Failure> {
        Ok(locate_exact(self.locate_input()?)?)
    }
}
