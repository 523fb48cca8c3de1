//! What every command receives: the global flags and "now", read once at start.

use crate::cli::Global;
use crate::failure::Failure;
use crate::output::{Format, Style};
use aw_workspace::io::clock::Now;
use aw_workspace::locate::{LocateInput, Workspace, home_dir, locate, locate_exact};
use aw_workspace::publish::Unsettled;
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
    /// Only located: a command that does not read the documents a publish writes (hooks,
    /// sessions, `visibility doctor`) never settles a publish, never takes the lock for it.
    pub fn workspace(&self) -> Result<Workspace, Failure> {
        Ok(locate(&self.locate_input()?)?)
    }

    /// [`Ctx::workspace`], with an interrupted publish settled first, for a command that reads
    /// (or writes) the documents a publish writes (`status`, `resume`, `designs`,
    /// `next-number`, `persist`, `capability`, `flow`): a publish killed half-way is finished or
    /// undone before anything is read, and stderr says what was changed; a journal that cannot
    /// be settled is named on stderr with its next action, and the command goes on. A live
    /// publish that still holds the lock after the wait fails the command (`LOCK_BUSY`) rather
    /// than let it read a publish half done.
    pub fn workspace_settled(&self) -> Result<Workspace, Failure> {
        self.settled(false)
    }

    /// [`Ctx::workspace_settled`] for an `apply`, which publishes under the workspace lock itself:
    /// a live publish still holding the lock is left to that apply's own lock, which answers the
    /// apply's `blocked` result (`CAPABILITY_EFFECT_LOCKED`) rather than a failed command.
    pub fn workspace_settled_for_apply(&self) -> Result<Workspace, Failure> {
        self.settled(true)
    }

    fn settled(&self, apply: bool) -> Result<Workspace, Failure> {
        let ws = self.workspace()?;
        match aw_workspace::publish::settle(&ws) {
            Ok(settled) => {
                if let Some(what) = settled.describe() {
                    crate::output::emit_err(&format!("aw: {what}\n"));
                }
            }
            Err(Unsettled::Busy(_)) if apply => {}
            Err(Unsettled::Busy(e)) => return Err(e.into()),
            Err(Unsettled::Kept(e)) => crate::output::emit_err(&format!(
                "aw: {} Next: {}\n",
                sentence_end(&e.message),
                e.action
            )),
        }
        Ok(ws)
    }

    /// The workspace exactly at `--workspace` or the current folder, never walking up (where
    /// `workspace-init` creates one).
    pub fn workspace_here(&self) -> Result<Workspace, Failure> {
        Ok(locate_exact(self.locate_input()?)?)
    }
}

/// `text` ending with a full stop.
fn sentence_end(text: &str) -> String {
    let t = text.trim_end();
    if t.ends_with(['.', '!', '?']) {
        t.to_owned()
    } else {
        format!("{t}.")
    }
}
