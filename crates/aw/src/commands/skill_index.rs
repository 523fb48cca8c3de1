//! `aw skill-index [--root <dir>]…`: the installed skills, from their SKILL.md frontmatter only.
//! The roots are the hosts' standard skill folders (aw-core's `skill_roots`, under the current
//! folder and the home folder, as `aw skills` searches them) and every `--root`; the walk is
//! `aw_workspace::capability::skill_index`.

use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::capability::inventory::skill_roots;
use aw_core::wire::skill_index::{Skill, SkillIndex};
use aw_workspace::capability::skill_index::{IndexedSkill, index};
use aw_workspace::locate::current_dir;
use clap::Args;
use std::path::PathBuf;

// Arguments of `aw skill-index`.
#[derive(Debug, Args)]
#[command(
    long_about = "List the installed skills, read from their SKILL.md frontmatter only: name \
(else the folder's name), description, metadata.version (else version) and folder.\n\nThe roots \
searched are every agent host's skill folder (.claude/skills, .agents/skills, .codex/skills, \
.gemini/skills, .opencode/skills and the others `aw skills` knows) under the current folder and \
under HOME, then each --root (a folder of skill folders, or one skill folder). A folder without \
a SKILL.md that opens and closes a frontmatter is not a skill.\n\nJSON (when piped): {skills: \
[{name, description, version, path, root}], roots, count}. On a terminal: one skill per line."
)]
pub struct SkillIndexArgs {
    /// Another folder to search (repeatable).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
}

/// Runs `aw skill-index`.
pub fn run(args: &SkillIndexArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let cwd = current_dir()?;
    let mut roots = skill_roots(&cwd, cx.home().as_deref());
    for r in &args.roots {
        let r = if r.is_absolute() {
            r.clone()
        } else {
            cwd.join(r)
        };
        if !roots.contains(&r) {
            roots.push(r);
        }
    }
    let skills = index(&roots);
    let model = SkillIndex {
        skills: skills.iter().map(skill_out).collect(),
        roots: roots.iter().map(|r| r.display().to_string()).collect(),
        count: skills.len(),
    };
    Ok(Outcome::shown(&model, &style))
}

fn skill_out(s: &IndexedSkill) -> Skill<'_> {
    Skill {
        name: &s.name,
        description: s.description.as_deref(),
        version: s.version.as_deref(),
        path: &s.path,
        root: &s.root,
    }
}
