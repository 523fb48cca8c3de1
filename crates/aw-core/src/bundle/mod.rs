//! The agent bundle's read-sets and their cost: what `aw context-plan` and `aw context-budget`
//! decide. Pure: the bundle comes in as a [`Tree`] (each file's size, line count and frontmatter
//! description, measured by the shell from the embedded bundle or a folder on disk) and a graph
//! of [`ReadSet`]s (the embedded bundle's, see `aw-bundle`); plans and reports go out.

pub mod budget;
pub mod plan;

use std::collections::BTreeMap;

/// The folder of the command documents inside a bundle (`commands/<name>.md`).
pub const COMMANDS_DIR: &str = "commands";

/// The orientation skill at the bundle's root; with [`COMMANDS_DIR`] it makes a folder a bundle.
pub const SKILL_FILE: &str = "SKILL.md";

/// One file of a bundle, as measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    /// Its size in bytes.
    pub bytes: u64,
    /// Its lines (a last line without a newline counts).
    pub lines: u64,
    /// The `description` of its frontmatter, when it has one.
    pub description: Option<String>,
}

/// A bundle's files by bundle-relative, `/`-separated path.
pub type Tree = BTreeMap<String, Doc>;

/// The lines of `text`, as [`Doc::lines`] counts them.
pub fn line_count(text: &str) -> u64 {
    text.lines().count() as u64
}

/// The approximate token count of `bytes`: a quarter of the bytes, rounded up. No tokenizer is
/// run; English prose averages about four bytes a token, which is all a budget needs.
pub fn tokens(bytes: u64) -> u64 {
    bytes.div_ceil(4)
}

/// How [`tokens`] estimates, for the reports.
pub const TOKENS_ESTIMATE: &str = "bytes / 4, rounded up (an estimate: no tokenizer is run)";

/// A document a command reads only under a signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// The signal that pulls it in.
    pub signal: String,
    /// What the signal means, in one line.
    pub means: String,
    /// The document, bundle-relative.
    pub path: String,
}

/// What one command reads: its core documents in order, then its modules under their signals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadSet {
    /// The command (`commands/<name>.md`).
    pub command: String,
    /// Read every time, in this order.
    pub core: Vec<String>,
    /// Read only under their signal, in this order.
    pub modules: Vec<Module>,
}

/// The path of a command's own document.
pub fn command_path(command: &str) -> String {
    format!("{COMMANDS_DIR}/{command}.md")
}

/// The command a path names, when it is a `commands/<name>.md` of the bundle.
pub fn command_of(path: &str) -> Option<&str> {
    let name = path
        .strip_prefix(COMMANDS_DIR)?
        .strip_prefix('/')?
        .strip_suffix(".md")?;
    (!name.is_empty() && !name.contains('/')).then_some(name)
}

/// The read-sets of a bundle: the packaged graph, plus every command document of `tree` the
/// graph does not know (a bundle a user extended), which reads only itself. Sorted by command.
pub fn graph(packaged: Vec<ReadSet>, tree: &Tree) -> Vec<ReadSet> {
    let mut sets = packaged;
    for path in tree.keys() {
        if let Some(name) = command_of(path)
            && !sets.iter().any(|r| r.command == name)
        {
            sets.push(ReadSet {
                command: name.to_owned(),
                core: vec![path.clone()],
                modules: Vec::new(),
            });
        }
    }
    sets.sort_by(|a, b| a.command.cmp(&b.command));
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(bytes: u64) -> Doc {
        Doc {
            bytes,
            lines: 1,
            description: None,
        }
    }

    #[test]
    fn tokens_are_a_quarter_of_the_bytes_rounded_up() {
        assert_eq!((tokens(0), tokens(1), tokens(4), tokens(5)), (0, 1, 1, 2));
    }

    #[test]
    fn lines_count_a_last_line_without_newline() {
        assert_eq!(
            (
                line_count(""),
                line_count("a"),
                line_count("a\n"),
                line_count("a\nb")
            ),
            (0, 1, 1, 2)
        );
    }

    #[test]
    fn command_paths_and_names() {
        assert_eq!(command_path("quick"), "commands/quick.md");
        assert_eq!(command_of("commands/quick.md"), Some("quick"));
        assert_eq!(command_of("commands/sub/x.md"), None);
        assert_eq!(command_of("commands/.md"), None);
        assert_eq!(command_of("SKILL.md"), None);
    }

    #[test]
    fn a_command_document_the_graph_lacks_reads_only_itself() {
        let packaged = vec![ReadSet {
            command: "quick".into(),
            core: vec!["commands/quick.md".into(), "loops/q.md".into()],
            modules: Vec::new(),
        }];
        let tree: Tree = [
            ("commands/quick.md".to_owned(), doc(1)),
            ("commands/extra.md".to_owned(), doc(1)),
            ("SKILL.md".to_owned(), doc(1)),
        ]
        .into_iter()
        .collect();
        let g = graph(packaged, &tree);
        let names: Vec<&str> = g.iter().map(|r| r.command.as_str()).collect();
        assert_eq!(names, ["extra", "quick"]);
        assert_eq!(g[0].core, ["commands/extra.md"]);
        assert_eq!(g[1].core.len(), 2, "the packaged read-set is kept");
    }
}
