//! The design graph `aw status` shows (workspace spec §10.1 `designs`): the packages of the
//! index, the references specs and plans make to them, each judged as `aw designs --plan` judges
//! it, and the counts: valid, stale (a pinned revision that moved on), missing (no valid package
//! has the identity) and orphaned (a valid package no document references).

use super::gate::{Verdict, check};
use super::index::DesignIndex;
use super::output_root::DESIGNS_DIR;
use crate::documents::design_refs::Reference;
use serde::Serialize;

/// A package, as the board lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct GraphPackage {
    /// The validated identity, else null.
    pub id: Option<String>,
    /// The identity the manifest claims.
    pub declared_id: Option<String>,
    /// The title.
    pub title: Option<String>,
    /// The folder, workspace-relative.
    pub path: String,
    /// The current revision.
    pub revision: Option<u64>,
    /// The maturity it attains as it stands (`outline` | `handoff`; `outline` when any check
    /// fails), when the manifest is valid.
    pub maturity: Option<super::sources::Maturity>,
    /// Whether the package validates.
    pub ok: bool,
}

/// One reference from a document to a package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct GraphReference {
    /// The document, workspace-relative.
    pub from: String,
    /// As written.
    pub text: String,
    /// The identity.
    pub id: String,
    /// The pinned revision.
    pub revision: Option<u64>,
    /// `valid`, `stale` or `missing`.
    pub state: &'static str,
    /// Why, when not valid.
    pub detail: Option<String>,
}

/// The counts by state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DesignCounts {
    /// Valid references.
    pub valid: usize,
    /// Stale references.
    pub stale: usize,
    /// Missing references.
    pub missing: usize,
    /// Orphaned packages.
    pub orphaned: usize,
}

/// The design graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Designs {
    /// `docs/designs`.
    pub root: String,
    /// The packages.
    pub packages: Vec<GraphPackage>,
    /// References from specs and plans to packages.
    pub references: Vec<GraphReference>,
    /// Counts by state.
    pub counts: DesignCounts,
}

impl Default for Designs {
    fn default() -> Self {
        Designs {
            root: DESIGNS_DIR.to_owned(),
            packages: Vec::new(),
            references: Vec::new(),
            counts: DesignCounts::default(),
        }
    }
}

/// The graph of `index` and the references `docs` make (each document's path and references,
/// specs then plans). A package that does not validate counts its references as missing.
pub fn graph(index: &DesignIndex, docs: &[(&str, &[Reference])]) -> Designs {
    let mut out = Designs {
        root: index.root.clone(),
        packages: index
            .packages
            .iter()
            .map(|p| GraphPackage {
                id: p.id.clone(),
                declared_id: p.declared_id.clone(),
                title: p.title.clone(),
                path: p.path.clone(),
                revision: p.current_baseline.as_ref().map(|b| b.revision),
                maturity: p.attained(),
                ok: p.ok,
            })
            .collect(),
        ..Designs::default()
    };
    let mut referenced: Vec<&str> = Vec::new();
    for (from, refs) in docs {
        let gate = check(refs.to_vec(), index, false, |_| true);
        for c in gate.references {
            let state = match c.verdict {
                Verdict::Ok | Verdict::Unapproved => "valid",
                Verdict::Stale => "stale",
                Verdict::Missing | Verdict::Invalid => "missing",
            };
            match state {
                "valid" => out.counts.valid += 1,
                "stale" => out.counts.stale += 1,
                _ => out.counts.missing += 1,
            }
            if let Some(p) = index.resolve(&c.reference.id) {
                referenced.push(p.path.as_str());
            }
            out.references.push(GraphReference {
                from: (*from).to_owned(),
                text: c.reference.text,
                id: c.reference.id,
                revision: c.reference.revision,
                state,
                detail: c.detail,
            });
        }
    }
    out.counts.orphaned = index
        .packages
        .iter()
        .filter(|p| p.ok && !referenced.contains(&p.path.as_str()))
        .count();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::index::DesignPackageEntry;
    use crate::design::manifest::Baseline;
    use crate::documents::design_refs::references;

    fn entry(n: &str, revision: u64) -> DesignPackageEntry {
        DesignPackageEntry {
            id: Some(format!("DES-{n}")),
            declared_id: Some(format!("DES-{n}")),
            title: Some("T".to_owned()),
            path: format!("docs/designs/{n}-design-t"),
            manifest_path: format!("docs/designs/{n}-design-t/design-manifest.json"),
            current_baseline: Some(Baseline {
                revision,
                digest: format!("sha256:{}", "a".repeat(64)),
            }),
            manifest: None,
            content_failures: Vec::new(),
            manifest_text: None,
            design_text: None,
            review_files: Vec::new(),
            ok: true,
            failures: Vec::new(),
        }
    }

    #[test]
    fn references_are_judged_and_counted_and_unreferenced_packages_are_orphans() {
        let index = DesignIndex {
            root: "docs/designs".to_owned(),
            packages: vec![entry("001", 2), entry("002", 1), entry("003", 1)],
            failures: Vec::new(),
        };
        let spec = references("## Design references\n- DES-001\n- DES-009\n");
        let plan = references("## Design references\n- DES-001@r1\n- DES-002\n");
        let g = graph(
            &index,
            &[
                ("docs/specs/001-spec-a.md", &spec),
                ("docs/plans/001-plan-a.md", &plan),
            ],
        );
        let states: Vec<&str> = g.references.iter().map(|r| r.state).collect();
        assert_eq!(states, ["valid", "missing", "stale", "valid"]);
        assert_eq!(
            g.counts,
            DesignCounts {
                valid: 2,
                stale: 1,
                missing: 1,
                orphaned: 1
            }
        );
        assert_eq!(g.packages.len(), 3);
        assert_eq!(g.references[2].from, "docs/plans/001-plan-a.md");
    }

    #[test]
    fn no_designs_is_the_empty_shape() {
        let g = graph(&DesignIndex::empty(), &[]);
        assert_eq!(g, Designs::default());
        assert_eq!(
            serde_json::to_value(&g).unwrap(),
            serde_json::json!({"root": "docs/designs", "packages": [], "references": [],
                "counts": {"valid": 0, "stale": 0, "missing": 0, "orphaned": 0}})
        );
    }
}
