//! Finding the workspace: namespace resolution and the walk up from the current folder.
//!
//! The reference only looked at the current folder, so every command had to run from the
//! workspace root. Here every command walks up to the nearest folder holding `.<ns>/`, the way
//! git finds `.git`; `--workspace <dir>` overrides.

use crate::error::{Result, WorkspaceError};
use aw_core::error_code::ErrorCode;
use aw_core::names::is_valid_namespace;
use std::path::{Path, PathBuf};

/// Where the namespace came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamespaceSource {
    /// `--namespace`.
    Flag,
    /// `AW_NAMESPACE`.
    Env,
    /// The only `.<ns>/sessions/` in the nearest folder that has any.
    Workspace,
    /// `~/.config/agent-workflow/namespace`.
    Config,
    /// The built-in `workflow`.
    Default,
}

impl NamespaceSource {
    /// The reference's name for the source.
    pub fn as_str(self) -> &'static str {
        match self {
            NamespaceSource::Flag => "flag",
            NamespaceSource::Env => "env",
            NamespaceSource::Workspace => "workspace",
            NamespaceSource::Config => "config",
            NamespaceSource::Default => "default",
        }
    }
}

/// What the caller gives us to locate a workspace.
#[derive(Debug, Clone, Default)]
pub struct LocateInput {
    /// The process's current folder.
    pub cwd: PathBuf,
    /// `--workspace <dir>`.
    pub workspace: Option<PathBuf>,
    /// `--namespace <ns>`.
    pub namespace: Option<String>,
    /// `AW_NAMESPACE`.
    pub env_namespace: Option<String>,
    /// The user's home folder.
    pub home: Option<PathBuf>,
}

impl LocateInput {
    /// What this process gives: its current folder, `AW_NAMESPACE` and `HOME`, with the
    /// `--workspace` and `--namespace` flags.
    pub fn from_process(workspace: Option<PathBuf>, namespace: Option<String>) -> Result<Self> {
        Ok(LocateInput {
            cwd: current_dir()?,
            workspace,
            namespace,
            env_namespace: std::env::var("AW_NAMESPACE").ok(),
            home: home_dir(),
        })
    }
}

/// A path as text with `/` separators, whatever the platform writes.
pub fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The process's current folder.
pub fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().map_err(|e| WorkspaceError::Refused {
        code: ErrorCode::IoError,
        message: format!("The current folder cannot be read: {e}."),
        action: "Run aw from an existing folder.".to_owned(),
    })
}

/// The workspace exactly at `--workspace` (taken from the current folder when relative) or at
/// the current folder, without walking up: where `workspace-init` creates one. The folder must
/// exist.
pub fn locate_exact(input: LocateInput) -> Result<Workspace> {
    let dir = match &input.workspace {
        Some(w) => input.cwd.join(w),
        None => input.cwd.clone(),
    };
    let dir = dir
        .canonicalize()
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!("{} is not an existing folder.", dir.display()),
            action: "Create the folder first, or pass the right `--workspace <dir>`.".to_owned(),
        })?;
    // Naming the folder explicitly keeps `locate` from walking up.
    locate(&LocateInput {
        workspace: Some(dir),
        ..input
    })
}

/// The user's home folder (`$HOME`), where the global `skills.toml`, the namespace pin and the
/// home skill roots live; `None` when unset.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The value of the environment variable `name`, when it is set (possibly empty): the one reader
/// of the variables the family's manifests name (`detect.installed`, writable dirs, settings
/// keys). Bytes that are not UTF-8 read as U+FFFD, as Node (the family's tools) decodes them: the
/// variable is set, which is what decides for a settings key (its file line is then skipped),
/// and such a path names no folder.
pub fn env_value(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// A located workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The workspace root (the folder holding `.<ns>/` and `docs/`).
    pub root: PathBuf,
    /// The namespace.
    pub ns: String,
    /// Where the namespace came from.
    pub ns_source: NamespaceSource,
    /// Whether `.<ns>/` exists at the root.
    pub initialized: bool,
}

impl Workspace {
    /// `.<ns>/`.
    pub fn state_dir(&self) -> PathBuf {
        self.root.join(format!(".{}", self.ns))
    }
    /// `.<ns>/sessions/`.
    pub fn sessions_dir(&self) -> PathBuf {
        self.state_dir().join("sessions")
    }
    /// `.<ns>/.lock`.
    pub fn lock_path(&self) -> PathBuf {
        self.state_dir().join(".lock")
    }
    /// `docs/`.
    pub fn docs_dir(&self) -> PathBuf {
        self.root.join("docs")
    }

    /// A path as aw shows it: relative to the root when it lies inside, with `/` separators.
    pub fn shown(&self, path: &Path) -> String {
        slashed(path.strip_prefix(&self.root).unwrap_or(path))
    }

    /// An initialised `workflow` workspace at `root`, for unit tests.
    #[cfg(test)]
    pub(crate) fn for_test(root: &Path) -> Self {
        Workspace {
            root: root.to_path_buf(),
            ns: "workflow".into(),
            ns_source: NamespaceSource::Default,
            initialized: true,
        }
    }
}

fn checked(value: &str, name: &str) -> Result<Option<String>> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(None);
    }
    if !is_valid_namespace(v) {
        return Err(WorkspaceError::InvalidNamespace {
            value: v.to_owned(),
            source_name: name.to_owned(),
        });
    }
    Ok(Some(v.to_owned()))
}

/// The namespaces a folder holds: `.<x>/` folders with a `sessions/` inside, `x` valid and not
/// the legacy `qtc`.
fn namespaces_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let ns = name.strip_prefix('.')?.to_owned();
            (is_valid_namespace(&ns) && ns != "qtc" && e.path().join("sessions").is_dir())
                .then_some(ns)
        })
        .collect();
    found.sort();
    found
}

/// The namespace of a workspace nobody named: its state folder is `.workflow/`.
pub const DEFAULT_NAMESPACE: &str = "workflow";

/// The workspace that holds `path` (an absolute path that may not exist yet), if any: the
/// nearest folder at or above it, links resolved, holding the state folder `.<ns>/` of the
/// namespace in effect or of the default one, as [`locate`] recognises an initialised
/// workspace. An explicit output root inside one would write into that workspace without its
/// lock or numbering, so what cannot be checked (a folder that cannot be resolved or looked
/// into) counts as inside: the answer is the folder where the check stopped.
pub fn workspace_holding(path: &Path, ns: &str) -> Option<PathBuf> {
    let existing = path.ancestors().find(|a| a.symlink_metadata().is_ok())?;
    let real = match std::fs::canonicalize(existing) {
        Ok(real) => real,
        Err(_) => return Some(existing.to_path_buf()),
    };
    let markers: Vec<String> = [ns, DEFAULT_NAMESPACE]
        .iter()
        .map(|n| format!(".{n}"))
        .collect();
    real.ancestors()
        .find(|d| {
            markers.iter().any(|m| match std::fs::metadata(d.join(m)) {
                Ok(meta) => meta.is_dir(),
                Err(e) => !matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ),
            })
        })
        .map(Path::to_path_buf)
}

/// Resolves the namespace and the workspace root.
pub fn locate(input: &LocateInput) -> Result<Workspace> {
    let start = match &input.workspace {
        Some(w) if w.is_absolute() => w.clone(),
        Some(w) => input.cwd.join(w),
        None => input.cwd.clone(),
    };
    let explicit_root = input.workspace.is_some();
    let mut ns: Option<(String, NamespaceSource)> = None;
    if let Some(v) = &input.namespace {
        ns = checked(v, "--namespace")?.map(|n| (n, NamespaceSource::Flag));
    }
    if ns.is_none()
        && let Some(v) = &input.env_namespace
    {
        ns = checked(v, "AW_NAMESPACE")?.map(|n| (n, NamespaceSource::Env));
    }
    if ns.is_none() {
        // Auto-detection walks up too: the nearest folder holding exactly one namespaced
        // workspace decides.
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            let found = namespaces_in(d);
            if found.len() == 1 {
                ns = Some((found[0].clone(), NamespaceSource::Workspace));
                break;
            }
            if !found.is_empty() || explicit_root {
                break;
            }
            dir = d.parent();
        }
    }
    if ns.is_none()
        && let Some(home) = &input.home
    {
        let pin = home.join(".config/agent-workflow/namespace");
        if let Ok(Ok(text)) = crate::io::folder::read_regular_path(&pin).map(String::from_utf8) {
            ns = checked(&text, &pin.display().to_string())?.map(|n| (n, NamespaceSource::Config));
        }
    }
    let (ns, ns_source) =
        ns.unwrap_or_else(|| (DEFAULT_NAMESPACE.to_owned(), NamespaceSource::Default));
    let marker = format!(".{ns}");
    let root = if explicit_root {
        start.clone()
    } else {
        start
            .ancestors()
            .find(|d| d.join(&marker).is_dir())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| start.clone())
    };
    let initialized = root.join(&marker).is_dir();
    Ok(Workspace {
        root,
        ns,
        ns_source,
        initialized,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(cwd: &Path) -> LocateInput {
        LocateInput {
            cwd: cwd.to_path_buf(),
            ..Default::default()
        }
    }

    #[test]
    fn walks_up_to_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".workflow/sessions")).unwrap();
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        let ws = locate(&input(&dir.path().join("src/deep"))).unwrap();
        assert_eq!(ws.root, dir.path());
        assert_eq!(ws.ns, "workflow");
        assert_eq!(ws.ns_source, NamespaceSource::Workspace);
        assert!(ws.initialized);
    }

    #[test]
    fn a_path_is_held_by_the_folder_with_the_state_folder_of_a_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        // A fresh clone: `.workflow/` without `sessions/` (which is ignored by git).
        std::fs::create_dir_all(base.join("clone/.workflow")).unwrap();
        assert_eq!(
            workspace_holding(&base.join("clone/docs/designs/x"), "workflow"),
            Some(base.join("clone"))
        );
        // The namespace in effect counts too.
        std::fs::create_dir_all(base.join("acme/.acme")).unwrap();
        assert_eq!(
            workspace_holding(&base.join("acme/d"), "acme"),
            Some(base.join("acme"))
        );
        assert_eq!(workspace_holding(&base.join("acme/d"), "workflow"), None);
        // Another tool's dot-folder with a `sessions/` inside is not a workspace.
        std::fs::create_dir_all(base.join("home/.codex/sessions")).unwrap();
        assert_eq!(
            workspace_holding(&base.join("home/designs"), "workflow"),
            None
        );
        // Through a link, the folder it leads into.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("clone"), base.join("via")).unwrap();
            assert_eq!(
                workspace_holding(&base.join("via/a/b"), "workflow"),
                Some(base.join("clone"))
            );
        }
    }

    #[test]
    fn detects_a_custom_namespace_and_ignores_qtc() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".acme/sessions")).unwrap();
        std::fs::create_dir_all(dir.path().join(".qtc/sessions")).unwrap();
        let ws = locate(&input(dir.path())).unwrap();
        assert_eq!(ws.ns, "acme");
    }

    #[test]
    fn precedence_flag_env_pin_default() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".config/agent-workflow")).unwrap();
        std::fs::write(home.join(".config/agent-workflow/namespace"), "pinned\n").unwrap();
        let mut i = input(dir.path());
        i.home = Some(home.clone());
        assert_eq!(locate(&i).unwrap().ns, "pinned");
        i.env_namespace = Some(" envns ".to_owned());
        assert_eq!(locate(&i).unwrap().ns, "envns");
        i.namespace = Some("flagns".to_owned());
        assert_eq!(locate(&i).unwrap().ns_source, NamespaceSource::Flag);
        i.namespace = Some("Bad!".to_owned());
        assert_eq!(locate(&i).unwrap_err().code(), "ARGS_INVALID");
        let plain = input(dir.path());
        assert_eq!(locate(&plain).unwrap().ns_source, NamespaceSource::Default);
    }

    #[test]
    fn paths_are_shown_from_the_root() {
        let ws = Workspace::for_test(Path::new("/w"));
        assert_eq!(ws.shown(Path::new("/w/docs/specs")), "docs/specs");
        assert_eq!(ws.shown(Path::new("/elsewhere/x")), "/elsewhere/x");
    }

    #[test]
    fn explicit_workspace_is_taken_as_is() {
        let dir = tempfile::tempdir().unwrap();
        let mut i = input(Path::new("/"));
        i.workspace = Some(dir.path().join("new"));
        let ws = locate(&i).unwrap();
        assert_eq!(ws.root, dir.path().join("new"));
        assert!(!ws.initialized);
    }
}
