//! The install plan of one host: every file aw writes there with its exact text, the folders it
//! manages (where stale files of an older install and files to uninstall are looked for), and
//! its hooks; then, from what the shell found on disk, what happens to each file. Paths are
//! relative to HOME, `/`-separated.

use super::hooks::groups_for;
use super::host::{CommandFormat, HookArtifact, Host};
use super::marker::{edited, is_marked, marker_text, same_but_digest};
use super::render;
use crate::canonical::sha256_hex;
use crate::capability::builtin::DESIGN_DESCRIPTOR_JSON;
use crate::capability::locator::Locator;
use serde_json::{Value, json};

/// One document of the bundle.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// Its path inside the bundle (`commands/quick.md`).
    pub path: &'a str,
    /// Its text.
    pub text: &'a str,
}

/// What to install (the `--skill-only`, `--no-commands`, `--no-hooks` flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Parts {
    /// Only the `w` and `design` skills.
    pub skill_only: bool,
    /// No command files and no `w-<n>` skills.
    pub no_commands: bool,
    /// No hooks.
    pub no_hooks: bool,
}

impl Parts {
    fn commands(self) -> bool {
        !self.skill_only && !self.no_commands
    }
    fn hooks(self) -> bool {
        !self.skill_only && !self.no_hooks
    }
}

/// How a planned file shows it is ours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// It carries the marker itself.
    Marked,
    /// Its format has no room for a marker (a descriptor whose bytes are sealed): it is ours
    /// when the SKILL.md of its folder (this path) carries the marker.
    Folder(String),
}

/// One file of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedFile {
    /// Its path, relative to HOME.
    pub rel: String,
    /// Its text, the marker's digest not filled in yet ([`PlannedFile::sealed`] is what is
    /// written): comparing a file on disk with it needs no digest computed.
    pub text: String,
    /// How it shows it is ours.
    pub owner: Owner,
}

impl PlannedFile {
    /// The bytes written: the text with its marker's digest filled in.
    pub fn sealed(&self) -> String {
        match self.owner {
            Owner::Marked => super::marker::seal(&self.text),
            Owner::Folder(_) => self.text.clone(),
        }
    }
}

/// A folder aw manages on a host: the files of ours under it that the plan no longer has are
/// stale, and uninstall removes every file of ours under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Managed {
    /// Every file under this folder.
    Tree(String),
    /// This one file (in a folder shared with the person's own files).
    File(String),
    /// Every folder under `dir` whose name starts with `prefix` (the `w-<n>` skills).
    Prefixed {
        /// The parent folder.
        dir: String,
        /// The name prefix.
        prefix: &'static str,
    },
}

/// What the hooks of a host are.
#[derive(Debug, Clone, PartialEq)]
pub enum HookPlan {
    /// Not asked for (`--no-hooks`, `--skill-only`).
    Skipped,
    /// The host cannot carry them; why.
    Unsupported(&'static str),
    /// Merged into the settings file at this path.
    Settings {
        /// The file, relative to HOME.
        rel: String,
        /// `(event, group)` to merge.
        groups: Vec<(&'static str, Value)>,
    },
    /// Written as a plugin (its files are in the plan); the person enables it in the host.
    Plugin {
        /// The plugin folder, relative to HOME.
        dir: String,
    },
    /// Written as a plugin module the host loads by itself (its file is in the plan).
    Module {
        /// The module, relative to HOME.
        path: String,
    },
}

/// Everything aw writes on one host.
#[derive(Debug, Clone)]
pub struct HostPlan {
    /// The host's row.
    pub host: &'static Host,
    /// The files, in the order they are written.
    pub files: Vec<PlannedFile>,
    /// The folders aw manages there.
    pub managed: Vec<Managed>,
    /// The hooks.
    pub hooks: HookPlan,
    /// The path of the aw whose hooks these are (the installing program: a handler naming it is
    /// aw's whatever its last word).
    pub program: String,
}

/// The folder of the `w` skill on `host`.
pub fn bundle_dir(host: &Host) -> String {
    format!("{}/w", host.skills_dir)
}

/// The folder of the design wrapper on `host`.
pub fn design_dir(host: &Host) -> String {
    format!("{}/design", host.skills_dir)
}

/// The descriptor's locator, sealed over the published bytes (hashed once per process).
pub fn design_locator() -> Locator {
    static DIGEST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    Locator {
        path: "workline-capability.json".to_owned(),
        digest: DIGEST
            .get_or_init(|| sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes()))
            .clone(),
    }
}

fn design_files(host: &Host, version: &str) -> Vec<PlannedFile> {
    let descriptor: Value = serde_json::from_str(DESIGN_DESCRIPTOR_JSON).unwrap_or(Value::Null);
    let purpose = descriptor["purpose"].as_str().unwrap_or("design packages");
    let ops: Vec<&str> = descriptor["operations"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["name"].as_str()).collect())
        .unwrap_or_default();
    let dir = design_dir(host);
    let skill_md = format!("{dir}/SKILL.md");
    vec![
        // The descriptor first: a SKILL.md never points at a descriptor that is not there yet.
        PlannedFile {
            rel: format!("{dir}/workline-capability.json"),
            text: DESIGN_DESCRIPTOR_JSON.to_owned(),
            owner: Owner::Folder(skill_md.clone()),
        },
        PlannedFile {
            rel: skill_md,
            text: render::design_skill(purpose, &ops, &design_locator().value(), version),
            owner: Owner::Marked,
        },
    ]
}

/// The plan of `host` for `bundle`, written by aw `version` into the home folder `home` (an
/// absolute path, `/`-separated: the links the host reads are made absolute with it); the hooks
/// run the aw at `program` (an absolute path).
pub fn plan(
    host: &'static Host,
    parts: Parts,
    bundle: &[Source<'_>],
    version: &str,
    home: &str,
    program: &str,
) -> HostPlan {
    let home = home.trim_end_matches('/');
    let w = bundle_dir(host);
    let w_abs = format!("{home}/{w}");
    let mut files = Vec::new();
    let mut managed = vec![Managed::Tree(w.clone()), Managed::Tree(design_dir(host))];
    for f in bundle {
        let rel = format!("{w}/{}", f.path);
        if f.path.ends_with(".md") {
            files.push(PlannedFile {
                rel,
                text: render::bundle_markdown(f.text, version, &w_abs),
                owner: Owner::Marked,
            });
        } else {
            files.push(PlannedFile {
                rel,
                text: f.text.to_owned(),
                owner: Owner::Folder(format!("{w}/SKILL.md")),
            });
        }
    }
    files.extend(design_files(host, version));
    let commands: Vec<(&str, &str)> = bundle
        .iter()
        .filter_map(|f| {
            let name = f.path.strip_prefix("commands/")?.strip_suffix(".md")?;
            (!name.contains('/') && name != "README").then_some((name, f.text))
        })
        .collect();
    if parts.commands() {
        if let Some(surface) = host.commands {
            managed.push(Managed::Tree(surface.dir.to_owned()));
            for (name, text) in &commands {
                let text = match surface.format {
                    CommandFormat::ClaudeMarkdown => render::claude_command(text, version, &w_abs),
                    CommandFormat::GeminiToml => render::gemini_command(text, version, &w_abs),
                    CommandFormat::OpencodeMarkdown => {
                        render::opencode_command(text, version, &w_abs)
                    }
                };
                files.push(PlannedFile {
                    rel: format!("{}/{name}.{}", surface.dir, surface.format.extension()),
                    text,
                    owner: Owner::Marked,
                });
            }
        }
        if host.command_skills {
            managed.push(Managed::Prefixed {
                dir: host.skills_dir.to_owned(),
                prefix: "w-",
            });
            for (name, text) in &commands {
                files.push(PlannedFile {
                    rel: format!("{}/w-{name}/SKILL.md", host.skills_dir),
                    text: render::command_skill(name, text, version, &w_abs),
                    owner: Owner::Marked,
                });
            }
        }
    }
    let hooks = match host.hooks {
        HookArtifact::Unsupported(why) => HookPlan::Unsupported(why),
        _ if !parts.hooks() => HookPlan::Skipped,
        HookArtifact::Settings(rel) => HookPlan::Settings {
            rel: rel.to_owned(),
            groups: groups_for(host, program),
        },
        HookArtifact::Plugin(dir) => {
            managed.push(Managed::Tree(dir.to_owned()));
            files.extend(plugin_files(host, dir, version, program));
            HookPlan::Plugin {
                dir: dir.to_owned(),
            }
        }
        HookArtifact::Module { path, .. } => {
            managed.push(Managed::File(path.to_owned()));
            files.push(PlannedFile {
                rel: path.to_owned(),
                text: render::opencode_plugin(
                    host.edit_matcher.unwrap_or_default(),
                    version,
                    program,
                ),
                owner: Owner::Marked,
            });
            HookPlan::Module {
                path: path.to_owned(),
            }
        }
    };
    HostPlan {
        host,
        files,
        managed,
        hooks,
        program: program.to_owned(),
    }
}

/// A generated hook plugin: the manifest naming the hooks file, and the hooks file (whose root
/// holds only `description` and `hooks`); both carry the marker in their description.
fn plugin_files(host: &Host, dir: &str, version: &str, program: &str) -> Vec<PlannedFile> {
    let mut hooks = serde_json::Map::new();
    for (event, group) in groups_for(host, program) {
        hooks.insert(event.to_owned(), json!([group]));
    }
    let manifest = json!({
        "name": "aw-hooks",
        "version": version,
        "description": format!("aw's hooks (checkpoint before compaction, resume after it, branch check before an edit). {}", marker_text(version)),
        "hooks": "./hooks/hooks.json",
    });
    let hooks_file = json!({
        "description": format!("aw's hooks. {}", marker_text(version)),
        "hooks": hooks,
    });
    let pretty = |v: &Value| format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default());
    vec![
        PlannedFile {
            rel: format!("{dir}/hooks/hooks.json"),
            text: pretty(&hooks_file),
            owner: Owner::Marked,
        },
        PlannedFile {
            rel: format!("{dir}/.codex-plugin/plugin.json"),
            text: pretty(&manifest),
            owner: Owner::Marked,
        },
    ]
}

/// What the shell found at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Nothing.
    Absent,
    /// A regular file and its text (read lossily).
    File(String),
    /// A folder, a symbolic link, or anything else that is not a regular file.
    Other,
}

/// What happens to one planned file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// It is not there: written.
    Create,
    /// A file of ours with other bytes: replaced.
    Update,
    /// Already these bytes.
    Noop,
    /// Something that is not ours is there.
    Conflict,
    /// A file of ours the person has edited since aw wrote it: theirs now, kept.
    Edited,
    /// The reference's file (its own install of the same thing): moved aside, ours written.
    Reference,
}

impl Action {
    /// The wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Noop => "noop",
            Action::Conflict => "conflict",
            Action::Edited => "edited",
            Action::Reference => "reference",
        }
    }
}

/// Whether a file found with `text` is ours: it carries the marker, or (for a file that cannot
/// carry one) its folder's SKILL.md does. `folder_skill` is what was found at that SKILL.md.
pub fn owned(owner: &Owner, text: &str, folder_skill: Option<&Found>) -> bool {
    match owner {
        Owner::Marked => is_marked(text),
        Owner::Folder(_) => matches!(folder_skill, Some(Found::File(t)) if is_marked(t)),
    }
}

/// The digest a SKILL.md's descriptor locator names (`workline-capability.json#sha256=<hex>`).
fn locator_digest(skill_md: &str) -> Option<&str> {
    let key = "workline-capability.json#sha256=";
    let at = skill_md.find(key)? + key.len();
    skill_md.get(at..at + 64)
}

/// Whether a file of ours has been edited since aw wrote it: a marked file whose bytes no
/// longer hash to its marker's digest; a descriptor whose bytes no longer hash to the digest
/// its SKILL.md's locator names.
pub fn was_edited(owner: &Owner, text: &str, folder_skill: Option<&Found>) -> bool {
    match owner {
        Owner::Marked => edited(text),
        Owner::Folder(_) => match folder_skill {
            Some(Found::File(skill)) => {
                locator_digest(skill).is_some_and(|d| sha256_hex(text.as_bytes()) != d)
            }
            _ => false,
        },
    }
}

/// What happens to `file`, given what is at its path and (for a folder-owned file) at its
/// folder's SKILL.md.
pub fn decide(file: &PlannedFile, found: &Found, folder_skill: Option<&Found>) -> Action {
    match found {
        Found::Absent => Action::Create,
        Found::Other => Action::Conflict,
        Found::File(t) if same_but_digest(t, &file.text) => Action::Noop,
        Found::File(t) if owned(&file.owner, t, folder_skill) => {
            if was_edited(&file.owner, t, folder_skill) {
                Action::Edited
            } else {
                Action::Update
            }
        }
        Found::File(_) => Action::Conflict,
    }
}

/// Whether a skill folder aw would create a SKILL.md in belongs to someone else already: no
/// SKILL.md there, but `others` files that are not aw's planned bytes (capability spec §11: a
/// folder with content and no SKILL.md is foreign).
pub fn folder_claimed(skill_md: &Found, others: usize) -> bool {
    matches!(skill_md, Found::Absent) && others > 0
}

/// Whose a file found under a managed folder (not in the plan) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stray {
    /// Aw's, as aw wrote it (an older install's): removed.
    Ours,
    /// Aw's, edited since: the person's now, kept.
    Edited,
    /// Not aw's: kept.
    Foreign,
}

/// Whose a file found under a managed folder (not in the plan) is: marked, or a descriptor
/// beside a marked SKILL.md, is aw's; edited since, the person's.
pub fn stray(rel: &str, text: &str, sibling_skill: Option<&Found>) -> Stray {
    let owner = if rel.ends_with("/workline-capability.json") && !is_marked(text) {
        Owner::Folder(String::new())
    } else {
        Owner::Marked
    };
    if !owned(&owner, text, sibling_skill) {
        Stray::Foreign
    } else if was_edited(&owner, text, sibling_skill) {
        Stray::Edited
    } else {
        Stray::Ours
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::host::host;

    const BUNDLE: &[Source<'static>] = &[
        Source {
            path: "SKILL.md",
            text: "---\nname: w\ndescription: aw.\n---\n# w\n",
        },
        Source {
            path: "commands/quick.md",
            text: "---\ndescription: Quick.\nargument-hint: \"[x]\"\nallowed-tools: [Bash]\n---\nGo. $ARGUMENTS\n",
        },
        Source {
            path: "commands/status.md",
            text: "---\ndescription: Status.\n---\nRun `aw status`.\n",
        },
    ];

    fn rels(p: &HostPlan) -> Vec<&str> {
        p.files.iter().map(|f| f.rel.as_str()).collect()
    }

    #[test]
    fn claude_gets_the_skill_the_design_wrapper_and_its_commands() {
        let p = plan(
            host("claude").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        assert_eq!(
            rels(&p),
            [
                ".claude/skills/w/SKILL.md",
                ".claude/skills/w/commands/quick.md",
                ".claude/skills/w/commands/status.md",
                ".claude/skills/design/workline-capability.json",
                ".claude/skills/design/SKILL.md",
                ".claude/commands/w/quick.md",
                ".claude/commands/w/status.md",
            ]
        );
        assert!(
            matches!(p.hooks, HookPlan::Settings { ref rel, .. } if rel == ".claude/settings.json")
        );
        for f in &p.files {
            assert!(f.rel.starts_with(".claude/"));
            if f.owner == Owner::Marked {
                assert!(is_marked(&f.sealed()), "{}", f.rel);
            }
        }
    }

    #[test]
    fn gemini_gets_toml_commands_and_command_skills() {
        let p = plan(
            host("gemini").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let r = rels(&p);
        assert!(r.contains(&".gemini/commands/w/quick.toml"));
        assert!(r.contains(&".gemini/skills/w-quick/SKILL.md"));
        assert!(r.contains(&".gemini/skills/w-status/SKILL.md"));
        assert!(matches!(p.hooks, HookPlan::Unsupported(_)));
    }

    #[test]
    fn codex_gets_command_skills_and_a_hook_plugin() {
        let p = plan(
            host("codex").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let r = rels(&p);
        assert!(r.contains(&".codex/skills/w-quick/SKILL.md"));
        assert!(r.contains(&".codex/aw-hooks-plugin/.codex-plugin/plugin.json"));
        let hooks = p
            .files
            .iter()
            .find(|f| f.rel.ends_with("hooks/hooks.json"))
            .unwrap();
        let v: Value = serde_json::from_str(&hooks.text).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["description", "hooks"]);
    }

    #[test]
    fn opencode_gets_a_marked_plugin_module_in_its_global_plugins_folder() {
        let p = plan(
            host("opencode").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let m = p
            .files
            .iter()
            .find(|f| f.rel == ".config/opencode/plugins/aw-hooks.js")
            .unwrap();
        assert!(is_marked(&m.text));
        assert!(m.text.contains("\"branch-check\""));
        assert!(m.text.contains("\"edit\", \"write\""));
        assert!(p.managed.contains(&Managed::File(m.rel.clone())));
    }

    #[test]
    fn skill_only_and_no_commands_leave_the_commands_and_hooks_out() {
        let only = plan(
            host("claude").unwrap(),
            Parts {
                skill_only: true,
                ..Parts::default()
            },
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        assert_eq!(only.files.len(), 5);
        assert_eq!(only.hooks, HookPlan::Skipped);
        let no_cmd = plan(
            host("gemini").unwrap(),
            Parts {
                no_commands: true,
                ..Parts::default()
            },
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        assert!(
            rels(&no_cmd)
                .iter()
                .all(|r| !r.contains("w-") && !r.contains("commands/w"))
        );
    }

    #[test]
    fn the_design_wrapper_is_the_same_on_every_host_and_sealed() {
        let a = plan(
            host("claude").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let b = plan(
            host("gemini").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let skill = |p: &HostPlan| {
            p.files
                .iter()
                .find(|f| f.rel.ends_with("design/SKILL.md"))
                .unwrap()
                .text
                .clone()
        };
        assert_eq!(skill(&a), skill(&b));
        assert!(skill(&a).contains(&design_locator().value()));
        assert!(skill(&a).contains(crate::capability::wrapper::WRAPPER_MARKER));
    }

    #[test]
    fn every_file_a_writer_marks_reads_back_as_ours_on_every_host() {
        for h in crate::install::host::HOSTS {
            let p = plan(h, Parts::default(), BUNDLE, "0.1.0", "/h", "/h/bin/aw");
            for f in p.files.iter().filter(|f| f.owner == Owner::Marked) {
                assert_eq!(
                    crate::install::marker::marker_version(&f.text).as_deref(),
                    Some("0.1.0"),
                    "{}: {}",
                    f.rel,
                    f.text
                );
            }
        }
    }

    #[test]
    fn only_our_files_are_replaced() {
        let p = plan(
            host("claude").unwrap(),
            Parts::default(),
            BUNDLE,
            "0.1.0",
            "/h",
            "/h/bin/aw",
        );
        let skill = &p.files[0];
        assert_eq!(decide(skill, &Found::Absent, None), Action::Create);
        assert_eq!(
            decide(skill, &Found::File(skill.sealed()), None),
            Action::Noop
        );
        let older = crate::install::marker::seal(&skill.text.replace("0.1.0", "0.0.9"));
        assert_eq!(
            decide(skill, &Found::File(older.clone()), None),
            Action::Update
        );
        // The person edited the older file: it is theirs now.
        let mine = older.replace("# w\n", "# w\nmy line\n");
        assert_eq!(decide(skill, &Found::File(mine), None), Action::Edited);
        assert_eq!(
            decide(
                skill,
                &Found::File("---\nname: w\n---\nmine\n".into()),
                None
            ),
            Action::Conflict
        );
        assert_eq!(decide(skill, &Found::Other, None), Action::Conflict);
        let json = &p.files[3];
        let marked = Found::File(p.files[4].sealed());
        assert_eq!(
            decide(json, &Found::File("{}".into()), Some(&marked)),
            Action::Edited,
            "the descriptor no longer hashes to what its SKILL.md names"
        );
        let older_skill = Found::File(p.files[4].sealed().replace(
            &design_locator().digest,
            &crate::canonical::sha256_hex(b"{}"),
        ));
        assert_eq!(
            decide(json, &Found::File("{}".into()), Some(&older_skill)),
            Action::Update
        );
        assert_eq!(
            decide(json, &Found::File("{}".into()), Some(&Found::Absent)),
            Action::Conflict
        );
    }
}
