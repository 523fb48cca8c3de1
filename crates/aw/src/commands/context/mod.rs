//! `aw context-plan` and `aw context-budget`: the agent bundle's read-sets, and what they cost.
//! Both work on the same bundle: the one built into aw (its texts and read-sets come from
//! `aw-bundle`), or a bundle folder on disk (`--root`) measured against the built-in read-sets.

pub mod budget;
pub mod plan;

use crate::failure::Failure;
use aw_core::bundle::{Module, ReadSet, Tree, graph};
use aw_workspace::bundle_tree::{packaged, read_root};
use std::path::{Path, PathBuf};

/// The bundle a context command works on.
pub struct Bundle {
    /// Its read-sets (the built-in graph, plus command documents of a `--root` it lacks).
    pub graph: Vec<ReadSet>,
    /// Its files.
    pub tree: Tree,
    /// The folder it was read from (`None`: the bundle built into aw).
    pub root: Option<PathBuf>,
}

impl Bundle {
    /// The bundle at `root`, else the built-in one.
    pub fn load(root: Option<&Path>) -> Result<Self, Failure> {
        let (tree, root) = match root {
            Some(r) => {
                let (real, tree) = read_root(r)?;
                (tree, Some(real))
            }
            None => (
                packaged(aw_bundle::FILES.iter().map(|f| (f.path, f.text))),
                None,
            ),
        };
        Ok(Bundle {
            graph: graph(packaged_graph(), &tree),
            tree,
            root,
        })
    }

    /// Where a bundle path is on disk (`None` for the built-in bundle: it is not a file).
    pub fn absolute(&self, path: &str) -> Option<String> {
        self.root
            .as_ref()
            .map(|r| r.join(path).display().to_string())
    }

    /// `root` and `root_origin` of the receipts: the folder (`explicit`), or `null` and
    /// `packaged` for the bundle built into aw.
    pub fn origin(&self) -> (Option<String>, &'static str) {
        match &self.root {
            Some(r) => (Some(r.display().to_string()), "explicit"),
            None => (None, "packaged"),
        }
    }
}

/// The built-in read-sets, as the core reads them.
fn packaged_graph() -> Vec<ReadSet> {
    aw_bundle::READ_SETS
        .iter()
        .map(|r| ReadSet {
            command: r.command.to_owned(),
            core: r.core.iter().map(|p| (*p).to_owned()).collect(),
            modules: r
                .modules
                .iter()
                .map(|m| Module {
                    signal: m.signal.to_owned(),
                    means: m.means.to_owned(),
                    path: m.path.to_owned(),
                })
                .collect(),
        })
        .collect()
}
