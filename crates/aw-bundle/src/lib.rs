//! The agent-facing bundle: the `w` skill an agent host loads (`SKILL.md`), one document per
//! command it can invoke (`commands/<name>.md`) and the few documents those read, embedded in
//! the binary so `aw self install` never depends on files beside it.
//!
//! The texts live under `bundle/` in this crate, one file each; [`FILES`] lists them (a test
//! checks that the list and the folder agree). [`READ_SETS`] says what each command reads, in
//! order: the data `aw context-plan` and `aw context-budget` work from.

#![forbid(unsafe_code)]

/// One file of the bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundleFile {
    /// Its path inside the bundle, `/`-separated (`commands/quick.md`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

macro_rules! bundle_files {
    ($($path:literal),* $(,)?) => {
        &[$(BundleFile { path: $path, text: include_str!(concat!("../bundle/", $path)) }),*]
    };
}

/// Every file of the bundle, sorted by path.
pub const FILES: &[BundleFile] = bundle_files![
    "FORMATS.md",
    "GLOSSARY.md",
    "PRESENTATION.md",
    "SKILL.md",
    "commands/persist.md",
    "commands/plan-exec.md",
    "commands/plan-new.md",
    "commands/plan-refine.md",
    "commands/quick.md",
    "commands/resume.md",
    "commands/spec-new.md",
    "commands/spec-refine.md",
    "commands/status.md",
    "commands/workspace-init.md",
    "design/CONTRACT.md",
    "guides/batches.md",
    "guides/code.md",
    "guides/plan-exec.md",
    "guides/plan-new.md",
    "guides/plan-refine.md",
    "guides/quick.md",
    "guides/spec-refine.md",
];

/// The folder of the command documents.
pub const COMMANDS_DIR: &str = "commands";

/// The file at `path`, if the bundle has one.
pub fn file(path: &str) -> Option<&'static BundleFile> {
    FILES.iter().find(|f| f.path == path)
}

/// The commands, as `(name, file)`: every `commands/<name>.md`, sorted by name.
pub fn commands() -> impl Iterator<Item = (&'static str, &'static BundleFile)> {
    FILES.iter().filter_map(|f| {
        let name = f
            .path
            .strip_prefix(COMMANDS_DIR)?
            .strip_prefix('/')?
            .strip_suffix(".md")?;
        (!name.contains('/')).then_some((name, f))
    })
}

/// A document a command reads only under a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Module {
    /// The signal that pulls it in (`db`, `design`, …).
    pub signal: &'static str,
    /// What the signal means, in one line.
    pub means: &'static str,
    /// The document, bundle-relative.
    pub path: &'static str,
}

/// What one command reads: its core documents in order, then the modules its signals pull in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSet {
    /// The command (a `commands/<name>.md` of the bundle).
    pub command: &'static str,
    /// Read every time, in this order (the command's own document first).
    pub core: &'static [&'static str],
    /// Read only under their signal.
    pub modules: &'static [Module],
}

/// What the `design` signal means: the work involves a design package.
const MEANS_DESIGN: &str =
    "the work creates, revises or implements a design package (screens, flows, structure)";
/// What the `compaction` signal means.
const MEANS_COMPACTION: &str =
    "the context is running out: the CHECKPOINT must be written before anything is compacted";

/// The read-set of every command, in the order of [`commands`].
pub const READ_SETS: &[ReadSet] = &[
    ReadSet {
        command: "persist",
        core: &["commands/persist.md", "FORMATS.md"],
        modules: &[],
    },
    ReadSet {
        command: "plan-exec",
        core: &[
            "commands/plan-exec.md",
            "guides/plan-exec.md",
            "guides/batches.md",
            "guides/code.md",
            "GLOSSARY.md",
            "FORMATS.md",
            "PRESENTATION.md",
        ],
        modules: &[Module {
            signal: "design",
            means: MEANS_DESIGN,
            path: "design/CONTRACT.md",
        }],
    },
    ReadSet {
        command: "plan-new",
        core: &[
            "commands/plan-new.md",
            "guides/plan-new.md",
            "guides/batches.md",
            "GLOSSARY.md",
            "FORMATS.md",
            "PRESENTATION.md",
        ],
        modules: &[Module {
            signal: "design",
            means: MEANS_DESIGN,
            path: "design/CONTRACT.md",
        }],
    },
    ReadSet {
        command: "plan-refine",
        core: &[
            "commands/plan-refine.md",
            "guides/plan-refine.md",
            "guides/plan-new.md",
            "guides/batches.md",
            "GLOSSARY.md",
            "FORMATS.md",
            "PRESENTATION.md",
        ],
        modules: &[],
    },
    ReadSet {
        command: "quick",
        core: &[
            "commands/quick.md",
            "guides/quick.md",
            "guides/code.md",
            "GLOSSARY.md",
            "PRESENTATION.md",
        ],
        modules: &[Module {
            signal: "compaction",
            means: MEANS_COMPACTION,
            path: "FORMATS.md",
        }],
    },
    ReadSet {
        command: "resume",
        core: &["commands/resume.md"],
        modules: &[],
    },
    ReadSet {
        command: "spec-new",
        core: &["commands/spec-new.md", "GLOSSARY.md", "FORMATS.md"],
        modules: &[],
    },
    ReadSet {
        command: "spec-refine",
        core: &[
            "commands/spec-refine.md",
            "guides/spec-refine.md",
            "GLOSSARY.md",
            "FORMATS.md",
            "PRESENTATION.md",
        ],
        modules: &[Module {
            signal: "design",
            means: MEANS_DESIGN,
            path: "design/CONTRACT.md",
        }],
    },
    ReadSet {
        command: "status",
        core: &["commands/status.md"],
        modules: &[],
    },
    ReadSet {
        command: "workspace-init",
        core: &["commands/workspace-init.md"],
        modules: &[],
    },
];

/// The read-set of `command`, if the bundle has that command.
pub fn read_set(command: &str) -> Option<&'static ReadSet> {
    READ_SETS.iter().find(|r| r.command == command)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn on_disk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            if entry.file_type().unwrap().is_dir() {
                on_disk(&entry.path(), &rel, out);
            } else {
                out.push(rel);
            }
        }
    }

    #[test]
    fn the_list_names_every_file_of_the_folder_sorted() {
        let mut found = Vec::new();
        on_disk(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("bundle"),
            "",
            &mut found,
        );
        found.sort();
        let listed: Vec<&str> = FILES.iter().map(|f| f.path).collect();
        assert_eq!(listed, found);
    }

    #[test]
    fn every_command_has_a_read_set_of_existing_files_starting_with_itself() {
        let names: Vec<&str> = commands().map(|(n, _)| n).collect();
        let with_sets: Vec<&str> = READ_SETS.iter().map(|r| r.command).collect();
        assert_eq!(names, with_sets);
        for r in READ_SETS {
            assert_eq!(r.core[0], format!("{COMMANDS_DIR}/{}.md", r.command));
            for path in r.core.iter().chain(r.modules.iter().map(|m| &m.path)) {
                assert!(
                    file(path).is_some(),
                    "{} reads {path}, not in the bundle",
                    r.command
                );
            }
        }
    }

    #[test]
    fn every_document_but_the_skill_is_read_by_some_command_once() {
        for f in FILES {
            let readers = READ_SETS
                .iter()
                .filter(|r| r.core.contains(&f.path) || r.modules.iter().any(|m| m.path == f.path))
                .count();
            assert!(
                f.path == "SKILL.md" || readers > 0,
                "{} is in no read-set",
                f.path
            );
        }
        for r in READ_SETS {
            let mut all: Vec<&str> = r.core.to_vec();
            all.extend(
                r.modules
                    .iter()
                    .map(|m| m.path)
                    .filter(|p| !r.core.contains(p)),
            );
            let mut sorted = all.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), all.len(), "{} lists a file twice", r.command);
            for m in r.modules {
                assert!(!m.means.trim().is_empty() && !m.signal.is_empty());
            }
        }
    }

    #[test]
    fn the_skill_carries_the_crate_version() {
        let skill = file("SKILL.md").unwrap().text;
        let front = skill
            .strip_prefix("---\n")
            .and_then(|t| t.split_once("\n---\n"))
            .unwrap()
            .0;
        assert!(front.lines().any(|l| l == "name: w"));
        assert!(
            front
                .lines()
                .any(|l| l.starts_with("description: Orientation"))
        );
        assert!(
            front.contains(&format!(
                "metadata:\n  version: {}",
                env!("CARGO_PKG_VERSION")
            )),
            "SKILL.md's metadata.version must be {}",
            env!("CARGO_PKG_VERSION")
        );
    }
}
