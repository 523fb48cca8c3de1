//! `aw context-budget`: what the bundle costs an agent, command by command, and whether it grew
//! past a frozen baseline.
//!
//! Measures (bytes, lines, and [`super::tokens`] estimated from bytes):
//! - **discovery**: the frontmatter descriptions a host loads before anything is invoked
//!   (`SKILL.md`'s and every command document's);
//! - **activation**: each command document, plus the median of their sizes;
//! - **guaranteed**: each command's core read-set (what `context-plan` lists with no signal);
//! - **modules**: every module of the graph, each counted once;
//! - **revision**: the first 16 hex digits of the SHA-256 of the sorted `path:size` lines (one
//!   per file, each ending in a newline) and the file count, so two reports can tell whether they
//!   measured the same tree.
//!
//! **Judging.** A baseline is a report of this shape (a frozen `aw context-budget --json`). Each
//! judged figure's ceiling is `floor(baseline × 1.10)` ([`HEADROOM_PERCENT`]): discovery total,
//! activation median, each command's activation and guaranteed read-set, modules total. A figure
//! above its ceiling is an offender and the verdict is `over-budget`; a row the baseline does not
//! have (a new command) is reported as new, never judged.

use super::{ReadSet, SKILL_FILE, Tree, command_path, tokens};
use crate::canonical::sha256_hex;
use serde::Serialize;
use serde_json::Value;

/// The ceiling of a judged figure, in percent of its baseline.
pub const HEADROOM_PERCENT: u64 = 110;

/// Lines, bytes and the token estimate of some files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Size {
    /// How many files.
    pub files: u64,
    /// Their lines.
    pub lines: u64,
    /// Their bytes.
    pub bytes: u64,
    /// [`super::tokens`] of the bytes.
    pub tokens: u64,
}

impl Size {
    fn add(&mut self, lines: u64, bytes: u64) {
        self.files += 1;
        self.lines += lines;
        self.bytes += bytes;
        self.tokens = tokens(self.bytes);
    }
}

/// What identifies the tree measured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Revision {
    /// First 16 hex digits of the SHA-256 of the sorted `path:size` lines.
    pub digest: String,
    /// How many files.
    pub files: u64,
}

/// One description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DescriptionRow {
    /// The file it heads.
    pub path: String,
    /// Its bytes (0 when the file has none).
    pub bytes: u64,
}

/// The discovery measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Discovery {
    /// Every description, `SKILL.md` first.
    pub rows: Vec<DescriptionRow>,
    /// Their bytes.
    pub bytes: u64,
    /// Their token estimate.
    pub tokens: u64,
}

/// One command document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ActivationRow {
    /// The command.
    pub command: String,
    /// Its document.
    pub path: String,
    /// Its size.
    #[serde(flatten)]
    pub size: Size,
    /// The tree lacks it.
    pub missing: bool,
}

/// The activation measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Activation {
    /// One row per command, by name.
    pub rows: Vec<ActivationRow>,
    /// The median of the rows' bytes (the mean of the two middle ones, rounded down, for an
    /// even count).
    pub median_bytes: u64,
}

/// One command's core read-set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct GuaranteedRow {
    /// The command.
    pub command: String,
    /// The size of its core documents.
    #[serde(flatten)]
    pub size: Size,
    /// Core documents the tree lacks.
    pub missing: Vec<String>,
}

/// The guaranteed measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Guaranteed {
    /// One row per command, by name.
    pub rows: Vec<GuaranteedRow>,
}

/// Everything measured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Report {
    /// The tree measured.
    pub revision: Revision,
    /// The whole tree.
    pub bundle: Size,
    /// Descriptions.
    pub discovery: Discovery,
    /// Command documents.
    pub activation: Activation,
    /// Core read-sets.
    pub guaranteed: Guaranteed,
    /// Distinct modules.
    pub modules: Size,
}

/// The revision of a tree (see the module's rules).
pub fn revision(tree: &Tree) -> Revision {
    let mut lines = String::new();
    for (path, doc) in tree {
        lines.push_str(&format!("{path}:{}\n", doc.bytes));
    }
    Revision {
        digest: sha256_hex(lines.as_bytes())[..16].to_owned(),
        files: tree.len() as u64,
    }
}

/// Measures `tree` under `graph`.
pub fn measure(graph: &[ReadSet], tree: &Tree) -> Report {
    let mut bundle = Size::default();
    for doc in tree.values() {
        bundle.add(doc.lines, doc.bytes);
    }
    let mut described = vec![SKILL_FILE.to_owned()];
    described.extend(graph.iter().map(|r| command_path(&r.command)));
    let rows: Vec<DescriptionRow> = described
        .into_iter()
        .map(|path| DescriptionRow {
            bytes: tree
                .get(&path)
                .and_then(|d| d.description.as_ref())
                .map_or(0, |d| d.len() as u64),
            path,
        })
        .collect();
    let discovery_bytes = rows.iter().map(|r| r.bytes).sum();
    let activation: Vec<ActivationRow> = graph
        .iter()
        .map(|r| {
            let path = command_path(&r.command);
            let mut size = Size::default();
            let doc = tree.get(&path);
            if let Some(d) = doc {
                size.add(d.lines, d.bytes);
            }
            ActivationRow {
                command: r.command.clone(),
                missing: doc.is_none(),
                path,
                size,
            }
        })
        .collect();
    let guaranteed = graph
        .iter()
        .map(|r| {
            let mut size = Size::default();
            let mut missing = Vec::new();
            let mut seen: Vec<&str> = Vec::new();
            for path in &r.core {
                if seen.contains(&path.as_str()) {
                    continue;
                }
                seen.push(path);
                match tree.get(path) {
                    Some(d) => size.add(d.lines, d.bytes),
                    None => missing.push(path.clone()),
                }
            }
            GuaranteedRow {
                command: r.command.clone(),
                size,
                missing,
            }
        })
        .collect();
    let mut modules = Size::default();
    let mut seen: Vec<&str> = Vec::new();
    for m in graph.iter().flat_map(|r| &r.modules) {
        if seen.contains(&m.path.as_str()) {
            continue;
        }
        seen.push(&m.path);
        if let Some(d) = tree.get(&m.path) {
            modules.add(d.lines, d.bytes);
        }
    }
    let median_bytes = median(activation.iter().map(|r| r.size.bytes).collect());
    Report {
        revision: revision(tree),
        bundle,
        discovery: Discovery {
            rows,
            bytes: discovery_bytes,
            tokens: tokens(discovery_bytes),
        },
        activation: Activation {
            rows: activation,
            median_bytes,
        },
        guaranteed: Guaranteed { rows: guaranteed },
        modules,
    }
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

/// One judged figure of a report: `(measure, key, bytes)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// `discovery`, `activation`, `guaranteed` or `modules`.
    pub measure: &'static str,
    /// `total`, `median`, or the command.
    pub key: String,
    /// The bytes.
    pub bytes: u64,
}

/// The judged figures of a report in its JSON form (the shape [`Report`] serialises to, which is
/// also the baseline's); `None` when the JSON does not have that shape.
pub fn figures(v: &Value) -> Option<Vec<Figure>> {
    let num = |v: &Value| v.as_u64();
    let mut out = vec![Figure {
        measure: "discovery",
        key: "total".into(),
        bytes: num(v.get("discovery")?.get("bytes")?)?,
    }];
    let activation = v.get("activation")?;
    out.push(Figure {
        measure: "activation",
        key: "median".into(),
        bytes: num(activation.get("median_bytes")?)?,
    });
    for (measure, section) in [
        ("activation", activation),
        ("guaranteed", v.get("guaranteed")?),
    ] {
        let rows = section.get("rows")?.as_array()?;
        // A baseline without per-command rows would judge no command at all: every one would
        // read as new. That is a hollowed baseline, not a frozen bundle.
        if rows.is_empty() {
            return None;
        }
        for row in rows {
            out.push(Figure {
                measure,
                key: row.get("command")?.as_str()?.to_owned(),
                bytes: num(row.get("bytes")?)?,
            });
        }
    }
    out.push(Figure {
        measure: "modules",
        key: "total".into(),
        bytes: num(v.get("modules")?.get("bytes")?)?,
    });
    Some(out)
}

/// How one figure compares with the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Within its ceiling.
    Ok,
    /// Above its ceiling.
    Over,
    /// The baseline has no such row: reported, not judged.
    New,
}

/// One figure judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Check {
    /// The measure.
    pub measure: &'static str,
    /// The row.
    pub key: String,
    /// Bytes now.
    pub actual: u64,
    /// Bytes at the freeze (`None` for a new row).
    pub baseline: Option<u64>,
    /// The most allowed (`None` for a new row).
    pub ceiling: Option<u64>,
    /// The outcome.
    pub status: Status,
}

/// The verdict of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum Verdict {
    /// No baseline: only measured.
    #[serde(rename = "measured")]
    Measured,
    /// Every judged figure is within its ceiling.
    #[serde(rename = "ok")]
    Ok,
    /// Some figure is above its ceiling.
    #[serde(rename = "over-budget")]
    OverBudget,
}

/// The ceiling of a figure frozen at `baseline` bytes.
pub fn ceiling(baseline: u64) -> u64 {
    baseline.saturating_mul(HEADROOM_PERCENT) / 100
}

/// Judges the current figures against the baseline's.
pub fn judge(current: &[Figure], baseline: &[Figure]) -> (Verdict, Vec<Check>) {
    let checks: Vec<Check> = current
        .iter()
        .map(|f| {
            let frozen = baseline
                .iter()
                .find(|b| b.measure == f.measure && b.key == f.key)
                .map(|b| b.bytes);
            let ceiling = frozen.map(ceiling);
            let status = match ceiling {
                None => Status::New,
                Some(c) if f.bytes > c => Status::Over,
                Some(_) => Status::Ok,
            };
            Check {
                measure: f.measure,
                key: f.key.clone(),
                actual: f.bytes,
                baseline: frozen,
                ceiling,
                status,
            }
        })
        .collect();
    let verdict = if checks.iter().any(|c| c.status == Status::Over) {
        Verdict::OverBudget
    } else {
        Verdict::Ok
    };
    (verdict, checks)
}

#[cfg(test)]
mod tests {
    use super::super::{Doc, Module};
    use super::*;

    fn doc(bytes: u64, description: Option<&str>) -> Doc {
        Doc {
            bytes,
            lines: bytes / 10,
            description: description.map(str::to_owned),
        }
    }

    fn fixture() -> (Vec<ReadSet>, Tree) {
        let graph = vec![
            ReadSet {
                command: "a".into(),
                core: vec!["commands/a.md".into(), "shared.md".into()],
                modules: vec![Module {
                    signal: "s".into(),
                    means: "m".into(),
                    path: "modules/s.md".into(),
                }],
            },
            ReadSet {
                command: "b".into(),
                core: vec!["commands/b.md".into(), "shared.md".into()],
                modules: vec![Module {
                    signal: "s".into(),
                    means: "m".into(),
                    path: "modules/s.md".into(),
                }],
            },
        ];
        let tree: Tree = [
            ("SKILL.md", doc(500, Some("orient"))),
            ("commands/a.md", doc(100, Some("does a"))),
            ("commands/b.md", doc(300, None)),
            ("shared.md", doc(1000, None)),
            ("modules/s.md", doc(70, None)),
        ]
        .into_iter()
        .map(|(p, d)| (p.to_owned(), d))
        .collect();
        (graph, tree)
    }

    #[test]
    fn measures_each_command_and_counts_shared_files_once() {
        let (g, t) = fixture();
        let r = measure(&g, &t);
        assert_eq!(r.bundle.files, 5);
        assert_eq!(r.bundle.bytes, 1970);
        assert_eq!(r.discovery.bytes, 6 + 6);
        assert_eq!(r.discovery.rows[0].path, "SKILL.md");
        assert_eq!(r.activation.rows[1].size.bytes, 300);
        assert_eq!(r.activation.median_bytes, 200);
        assert_eq!(r.guaranteed.rows[0].size.bytes, 1100);
        assert_eq!(r.guaranteed.rows[0].size.files, 2);
        assert_eq!(r.guaranteed.rows[1].size.tokens, 325);
        assert_eq!(
            r.modules.bytes, 70,
            "one module shared by two commands counts once"
        );
        assert_eq!(r.revision.files, 5);
        assert_eq!(r.revision.digest.len(), 16);
    }

    #[test]
    fn the_revision_changes_with_a_size_and_not_with_content_of_equal_size() {
        let (_, t) = fixture();
        let mut grown = t.clone();
        grown.get_mut("shared.md").unwrap().bytes += 1;
        assert_ne!(revision(&t), revision(&grown));
        let mut same = t.clone();
        same.get_mut("shared.md").unwrap().lines += 3;
        assert_eq!(revision(&t), revision(&same));
        // sha256("a:1\n")
        let one: Tree = [("a".to_owned(), doc(1, None))].into_iter().collect();
        assert_eq!(revision(&one).digest, sha256_hex(b"a:1\n")[..16].to_owned());
    }

    #[test]
    fn missing_files_are_reported_per_row() {
        let (g, mut t) = fixture();
        t.remove("shared.md");
        let r = measure(&g, &t);
        assert_eq!(r.guaranteed.rows[0].missing, ["shared.md"]);
        t.remove("commands/b.md");
        assert!(measure(&g, &t).activation.rows[1].missing);
    }

    #[test]
    fn a_report_judged_against_itself_is_ok_and_growth_past_ten_percent_is_over() {
        let (g, t) = fixture();
        let frozen = figures(&serde_json::to_value(measure(&g, &t)).unwrap()).unwrap();
        let (verdict, checks) = judge(&frozen, &frozen);
        assert_eq!(verdict, Verdict::Ok);
        assert!(checks.iter().all(|c| c.status == Status::Ok));

        // shared.md 1000 → 1120: a's core 1100 → 1220, above its ceiling 1210; b's 1300 → 1420,
        // within its ceiling 1430.
        let mut grown = t.clone();
        grown.get_mut("shared.md").unwrap().bytes = 1120;
        let now = figures(&serde_json::to_value(measure(&g, &grown)).unwrap()).unwrap();
        let (verdict, checks) = judge(&now, &frozen);
        assert_eq!(verdict, Verdict::OverBudget);
        let over: Vec<(&str, &str)> = checks
            .iter()
            .filter(|c| c.status == Status::Over)
            .map(|c| (c.measure, c.key.as_str()))
            .collect();
        assert_eq!(over, [("guaranteed", "a")]);
    }

    #[test]
    fn a_row_new_since_the_freeze_is_reported_not_judged() {
        let (g, t) = fixture();
        let frozen = figures(&serde_json::to_value(measure(&g[..1], &t)).unwrap()).unwrap();
        let now = figures(&serde_json::to_value(measure(&g, &t)).unwrap()).unwrap();
        let (_, checks) = judge(&now, &frozen);
        let b: Vec<&Check> = checks.iter().filter(|c| c.key == "b").collect();
        assert_eq!(b.len(), 2);
        assert!(
            b.iter()
                .all(|c| c.status == Status::New && c.ceiling.is_none())
        );
    }

    #[test]
    fn ceilings_round_down_and_json_of_another_shape_has_no_figures() {
        assert_eq!(
            (ceiling(0), ceiling(9), ceiling(10), ceiling(1000)),
            (0, 9, 11, 1100)
        );
        assert_eq!(figures(&serde_json::json!({"discovery": {}})), None);
        assert_eq!(figures(&serde_json::json!([])), None);
    }
}
