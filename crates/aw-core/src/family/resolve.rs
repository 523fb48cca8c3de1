//! Where `detect.installed` points, and how an installed copy compares with a bundled one.

use serde::Serialize;
use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// Which part of `detect.installed` chose the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// The environment variable, set and non-empty.
    Env,
    /// The manifest default.
    Default,
}

/// The install folder `detect.installed` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The folder; `None` when the default needs a home folder and none is known.
    pub path: Option<PathBuf>,
    /// Env or default.
    pub via: Via,
    /// A remark on how the value was read (a `~user` prefix, an unknown home).
    pub note: Option<String>,
}

/// Resolves `detect.installed`: a non-empty `env_value` is taken as written; otherwise the
/// default, where only `~` and a leading `~/` mean the home folder. Nothing goes through a
/// shell, so `~user/…` is not anyone's home: it is a relative path whose first folder is named
/// `~user`, read against `cwd` like any other relative path (as the family's tools read it).
pub fn resolve_installed(
    env_value: Option<&str>,
    default: &str,
    home: Option<&Path>,
    cwd: &Path,
) -> Resolved {
    if let Some(v) = env_value.filter(|v| !v.is_empty()) {
        return Resolved {
            path: Some(cwd.join(v)),
            via: Via::Env,
            note: None,
        };
    }
    let home_rel = if default == "~" {
        Some("")
    } else {
        default.strip_prefix("~/")
    };
    let (path, note) = match home_rel {
        Some(rest) => match home {
            Some(h) => (Some(h.join(rest)), None),
            None => (None, Some("no home folder is known".to_owned())),
        },
        None if default.starts_with('~') => (
            Some(cwd.join(default)),
            Some(format!(
                "{default} is not expanded (only ~ and ~/ are): read relative to the current folder"
            )),
        ),
        None => (Some(cwd.join(default)), None),
    };
    Resolved {
        path,
        via: Via::Default,
        note,
    }
}

/// Why a folder is a candidate for a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    /// It is where `detect.installed` points.
    DetectInstalled,
    /// It is `<root>/<name>` under a skill root.
    Root,
}

/// The folders to look at for one member, in order and each once: the `detect.installed`
/// folder first (the one the family's own tools use), then `<root>/<name>` for every root.
pub fn candidates(
    name: &str,
    installed: Option<&Path>,
    roots: &[PathBuf],
) -> Vec<(PathBuf, Found)> {
    let mut out: Vec<(PathBuf, Found)> = Vec::new();
    let all = installed
        .map(|p| (p.to_path_buf(), Found::DetectInstalled))
        .into_iter()
        .chain(roots.iter().map(|r| (r.join(name), Found::Root)));
    for (path, found) in all {
        if !out.iter().any(|(p, _)| *p == path) {
            out.push((path, found));
        }
    }
    out
}

/// An installed copy's version against the bundled one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    /// The bundled copy is newer.
    Behind,
    /// Same version.
    Current,
    /// The installed copy is newer than the bundled one.
    Ahead,
    /// One side has no version, or a version that is not dotted numbers.
    Unknown,
}

/// Compares an installed version with a bundled one (dotted numbers, a `-…`/`+…` suffix
/// ignored; equal strings are current whatever their form).
pub fn freshness(installed: Option<&str>, bundled: Option<&str>) -> Freshness {
    let (Some(i), Some(b)) = (installed, bundled) else {
        return Freshness::Unknown;
    };
    if i == b {
        return Freshness::Current;
    }
    match (numbers(i), numbers(b)) {
        (Some(i), Some(b)) => match i.cmp(&b) {
            Ordering::Less => Freshness::Behind,
            Ordering::Equal => Freshness::Current,
            Ordering::Greater => Freshness::Ahead,
        },
        _ => Freshness::Unknown,
    }
}

fn numbers(v: &str) -> Option<Vec<u64>> {
    let core = v.split(['-', '+']).next()?;
    core.split('.').map(|p| p.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_then_default_with_tilde() {
        let home = Path::new("/h");
        let cwd = Path::new("/w");
        let r = resolve_installed(Some("/x/y"), "~/d", Some(home), cwd);
        assert_eq!((r.path.unwrap(), r.via), (PathBuf::from("/x/y"), Via::Env));
        // An empty variable counts as unset.
        let r = resolve_installed(Some(""), "~/d/e", Some(home), cwd);
        assert_eq!(
            (r.path.unwrap(), r.via),
            (PathBuf::from("/h/d/e"), Via::Default)
        );
        assert_eq!(
            resolve_installed(None, "~", Some(home), cwd).path.unwrap(),
            PathBuf::from("/h")
        );
        let user = resolve_installed(None, "~bob/d", Some(home), cwd);
        assert_eq!(user.path.unwrap(), PathBuf::from("/w/~bob/d"));
        assert!(user.note.unwrap().contains("not expanded"));
        assert_eq!(
            resolve_installed(None, "rel", Some(home), cwd)
                .path
                .unwrap(),
            PathBuf::from("/w/rel")
        );
        assert_eq!(resolve_installed(None, "~/d", None, cwd).path, None);
    }

    #[test]
    fn candidates_start_with_detect_installed_and_are_unique() {
        let roots = [PathBuf::from("/h/.claude/skills"), PathBuf::from("/r")];
        let c = candidates("m", Some(Path::new("/h/.claude/skills/m")), &roots);
        assert_eq!(
            c,
            [
                (PathBuf::from("/h/.claude/skills/m"), Found::DetectInstalled),
                (PathBuf::from("/r/m"), Found::Root)
            ]
        );
    }

    #[test]
    fn freshness_orders_numerically() {
        assert_eq!(freshness(Some("3.5.0"), Some("3.10.0")), Freshness::Behind);
        assert_eq!(freshness(Some("3.5.0"), Some("3.5.0")), Freshness::Current);
        assert_eq!(freshness(Some("4.0.0"), Some("3.9.9")), Freshness::Ahead);
        assert_eq!(freshness(None, Some("1.0.0")), Freshness::Unknown);
        assert_eq!(freshness(Some("x"), Some("1.0.0")), Freshness::Unknown);
    }
}
