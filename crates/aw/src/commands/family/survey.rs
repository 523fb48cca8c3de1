//! The member survey shared by `family status`, `posture` and `sandbox`: for each roster member,
//! where `detect.installed` points and every copy found there or under a skill root, each
//! placed on the detection ladder.

use crate::context::Ctx;
use crate::failure::Failure;
use aw_core::capability::inventory::skill_roots;
use aw_core::family::{
    Classified, Found, MEMBERS, ManifestFacts, Member, Resolved, State, candidates, classify,
    resolve_installed,
};
use aw_manifest::{Class, Report};
use aw_workspace::family::{InstalledCopy, distinct_folders, inspect};
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use std::path::{Path, PathBuf};

/// One folder looked at for a member, with what was found there.
pub struct Seen {
    /// The folder.
    pub dir: PathBuf,
    /// Why it was looked at.
    pub found: Found,
    /// What is there.
    pub copy: InstalledCopy,
    /// Its rung.
    pub class: Classified,
}

/// One member's survey.
pub struct Surveyed {
    /// The roster entry.
    pub member: &'static Member,
    /// The `detect.installed.env` value, when set.
    pub env: Option<String>,
    /// Where `detect.installed` points.
    pub resolved: Resolved,
    /// Every folder that holds the marker, in candidate order.
    pub copies: Vec<Seen>,
}

impl Surveyed {
    /// The copy that speaks for the member: the one where `detect.installed` points, as in the
    /// kit (a copy elsewhere is listed, never taken for the member).
    pub fn primary(&self) -> Option<&Seen> {
        self.copies
            .iter()
            .find(|c| c.found == Found::DetectInstalled)
    }

    /// The member's rung: its primary copy's, else not-installed.
    pub fn state(&self) -> State {
        self.primary()
            .map_or(State::NotInstalled, |s| s.class.state)
    }
}

/// The standard skill roots (current folder, then home) followed by the `--root`s.
pub fn roots(extra: &[PathBuf], cx: &Ctx<'_>) -> Result<(PathBuf, Vec<PathBuf>), Failure> {
    let cwd = current_dir()?;
    let mut roots = skill_roots(&cwd, cx.home().as_deref());
    for r in extra {
        let r = cwd.join(r);
        if !roots.contains(&r) {
            roots.push(r);
        }
    }
    Ok((cwd, roots))
}

/// Surveys every member.
pub fn survey(cwd: &Path, roots: &[PathBuf], cx: &Ctx<'_>) -> Vec<Surveyed> {
    let home = cx.home();
    MEMBERS
        .iter()
        .map(|member| {
            let env = env_value(member.env);
            let resolved = resolve_installed(env.as_deref(), member.default, home.as_deref(), cwd);
            // One folder reached through two roots (a linked skill folder) is one copy.
            let copies = distinct_folders(candidates(member.name, resolved.path.as_deref(), roots))
                .into_iter()
                .filter_map(|(dir, found)| {
                    let copy = inspect(&dir, member.file)?;
                    let class = classify(member, Some(&facts(&copy.report)));
                    Some(Seen {
                        dir,
                        found,
                        copy,
                        class,
                    })
                })
                .collect();
            Surveyed {
                member,
                env,
                resolved,
                copies,
            }
        })
        .collect()
}

/// What the ladder reads from a validator report.
fn facts(r: &Report) -> ManifestFacts {
    ManifestFacts {
        class: match r.class {
            Class::Valid => "valid",
            Class::Invalid => "invalid",
            Class::Unsupported => "unsupported",
        },
        name: r.name.clone(),
        kind: r.kind.clone(),
        available: r.available,
        first_error: r.errors.first().map(|e| e.message.clone()),
    }
}
