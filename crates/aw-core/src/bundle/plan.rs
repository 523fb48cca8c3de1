//! `aw context-plan`: the ordered read-set of one command under the signals observed.
//!
//! - **Order.** The command's core documents, in the graph's order, then the modules its
//!   signals pull in, in the graph's order; a path is listed once.
//! - **Signals.** De-duplicated and sorted. A signal is declared when some command of the graph
//!   has a module under it; a declared signal this command has no module for adds nothing.
//! - **Safe profile.** An undeclared signal, or a module a signal pulls in that the tree lacks,
//!   means the plan cannot be trusted to be enough: the read-set becomes the core plus every
//!   module of the command (profile `safe`), with a notice saying why.
//! - **Degraded.** Any listed file the tree lacks (it is still listed, `missing`), or a signal no
//!   command declares: the plan says why in `reasons` (the receipt's `fallback.reasons`, as the
//!   reference words them: the undeclared signals, the files the bundle lacks), and the notice
//!   says so.

use super::{Module, ReadSet, Tree};
use serde::Serialize;

/// How much of the command's documents the plan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// The core and the modules of the observed signals.
    Compact,
    /// The core and every module of the command.
    Safe,
}

/// Why a plan fell back to the safe profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// A signal no command declares.
    UnknownSignal,
    /// A module a signal pulls in is not in the tree.
    MissingModule,
}

/// Whether a read-set entry is read every time or under a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Read every time.
    Core,
    /// Read under its signal.
    Module,
}

/// One document to read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Entry {
    /// Bundle-relative path.
    pub path: String,
    /// Its size (0 when missing).
    pub bytes: u64,
    /// Core or module.
    pub kind: Kind,
    /// The signal that pulled a module in (`None` for core documents).
    pub signal: Option<String>,
    /// The tree lacks it.
    pub missing: bool,
}

/// A signal the command reads a module for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Available {
    /// The signal.
    pub signal: String,
    /// What it means.
    pub means: String,
    /// The module it pulls in.
    pub module: String,
}

/// The plan of one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The command.
    pub command: String,
    /// Compact or safe.
    pub profile: Profile,
    /// The observed signals, de-duplicated and sorted.
    pub signals: Vec<String>,
    /// Those no command declares.
    pub unknown_signals: Vec<String>,
    /// The signals this command reads a module for.
    pub available: Vec<Available>,
    /// What to read, in order.
    pub read_set: Vec<Entry>,
    /// The sum of the entries' bytes.
    pub bytes: u64,
    /// Some listed file is missing, or a signal is undeclared: `reasons` is not empty.
    pub degraded: bool,
    /// Why the plan is degraded, one line per cause (empty when it is not).
    pub reasons: Vec<String>,
    /// Why the profile is safe, when it is.
    pub fallback: Option<Fallback>,
    /// What to tell the person once, when anything is off.
    pub notice: Option<String>,
}

/// Why no plan could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// No command was named.
    NoCommand,
    /// The graph has no such command.
    UnknownCommand {
        /// The name given.
        name: String,
        /// The names it has, sorted.
        valid: Vec<String>,
    },
}

/// The plan of `command` under `signals` (see the module's rules).
pub fn plan(
    graph: &[ReadSet],
    tree: &Tree,
    command: &str,
    signals: &[String],
) -> Result<Plan, PlanError> {
    let command = command.trim();
    if command.is_empty() {
        return Err(PlanError::NoCommand);
    }
    let Some(set) = graph.iter().find(|r| r.command == command) else {
        let mut valid: Vec<String> = graph.iter().map(|r| r.command.clone()).collect();
        valid.sort();
        return Err(PlanError::UnknownCommand {
            name: command.to_owned(),
            valid,
        });
    };
    let mut observed: Vec<String> = signals
        .iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    observed.sort();
    observed.dedup();
    let declared = |s: &str| {
        graph
            .iter()
            .any(|r| r.modules.iter().any(|m| m.signal == s))
    };
    let unknown: Vec<String> = observed.iter().filter(|s| !declared(s)).cloned().collect();
    let pulled: Vec<&Module> = set
        .modules
        .iter()
        .filter(|m| observed.contains(&m.signal))
        .collect();
    let fallback = if !unknown.is_empty() {
        Some(Fallback::UnknownSignal)
    } else if pulled.iter().any(|m| !tree.contains_key(&m.path)) {
        Some(Fallback::MissingModule)
    } else {
        None
    };
    let modules: Vec<&Module> = match fallback {
        Some(_) => set.modules.iter().collect(),
        None => pulled,
    };
    let mut read_set: Vec<Entry> = Vec::new();
    let mut push = |path: &str, kind: Kind, signal: Option<&str>| {
        if read_set.iter().any(|e| e.path == path) {
            return;
        }
        let doc = tree.get(path);
        read_set.push(Entry {
            path: path.to_owned(),
            bytes: doc.map_or(0, |d| d.bytes),
            kind,
            signal: signal.map(str::to_owned),
            missing: doc.is_none(),
        });
    };
    for path in &set.core {
        push(path, Kind::Core, None);
    }
    for m in &modules {
        push(&m.path, Kind::Module, Some(&m.signal));
    }
    let missing: Vec<&str> = read_set
        .iter()
        .filter(|e| e.missing)
        .map(|e| e.path.as_str())
        .collect();
    let notice = notice(fallback, &unknown, &missing);
    let mut reasons = Vec::new();
    if !unknown.is_empty() {
        reasons.push(format!("undeclared signals: {}", unknown.join(", ")));
    }
    if !missing.is_empty() {
        reasons.push(format!("the bundle lacks: {}", missing.join(", ")));
    }
    Ok(Plan {
        command: set.command.clone(),
        profile: if fallback.is_some() {
            Profile::Safe
        } else {
            Profile::Compact
        },
        signals: observed,
        unknown_signals: unknown,
        available: set
            .modules
            .iter()
            .map(|m| Available {
                signal: m.signal.clone(),
                means: m.means.clone(),
                module: m.path.clone(),
            })
            .collect(),
        bytes: read_set.iter().map(|e| e.bytes).sum(),
        degraded: !reasons.is_empty(),
        reasons,
        read_set,
        fallback,
        notice,
    })
}

fn notice(fallback: Option<Fallback>, unknown: &[String], missing: &[&str]) -> Option<String> {
    let mut parts = Vec::new();
    match fallback {
        Some(Fallback::UnknownSignal) => parts.push(format!(
            "No command declares the signal(s) {}: every module of the command is listed.",
            unknown.join(", ")
        )),
        Some(Fallback::MissingModule) => parts.push(
            "A module a signal needs is missing from the bundle: every module of the command is \
             listed."
                .to_owned(),
        ),
        None => {}
    }
    if !missing.is_empty() {
        parts.push(format!(
            "Missing from the bundle, so not readable: {}; reinstall it (`aw self install`).",
            missing.join(", ")
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::super::Doc;
    use super::*;

    fn module(signal: &str, path: &str) -> Module {
        Module {
            signal: signal.into(),
            means: format!("{signal} means"),
            path: path.into(),
        }
    }

    fn graph() -> Vec<ReadSet> {
        vec![
            ReadSet {
                command: "quick".into(),
                core: vec!["commands/quick.md".into(), "shared/loop.md".into()],
                modules: vec![
                    module("web", "modules/web.md"),
                    module("db", "modules/db.md"),
                ],
            },
            ReadSet {
                command: "status".into(),
                core: vec!["commands/status.md".into()],
                modules: vec![module("ui", "modules/ui.md")],
            },
        ]
    }

    fn tree(paths: &[&str]) -> Tree {
        paths
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    (*p).to_owned(),
                    Doc {
                        bytes: 10 * (i as u64 + 1),
                        lines: 1,
                        description: None,
                    },
                )
            })
            .collect()
    }

    fn full() -> Tree {
        tree(&[
            "commands/quick.md",
            "shared/loop.md",
            "modules/web.md",
            "modules/db.md",
            "commands/status.md",
            "modules/ui.md",
        ])
    }

    fn sigs(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| (*x).to_owned()).collect()
    }

    fn paths(p: &Plan) -> Vec<&str> {
        p.read_set.iter().map(|e| e.path.as_str()).collect()
    }

    #[test]
    fn core_first_then_the_modules_of_the_signals_in_graph_order() {
        let p = plan(&graph(), &full(), "quick", &sigs(&["db", "web", "db"])).unwrap();
        assert_eq!(p.profile, Profile::Compact);
        assert_eq!(p.signals, ["db", "web"]);
        assert_eq!(
            paths(&p),
            [
                "commands/quick.md",
                "shared/loop.md",
                "modules/web.md",
                "modules/db.md"
            ]
        );
        assert_eq!(p.read_set[0].kind, Kind::Core);
        assert_eq!(p.read_set[2].signal.as_deref(), Some("web"));
        assert_eq!(p.bytes, 10 + 20 + 30 + 40);
        assert!(!p.degraded && p.notice.is_none() && p.fallback.is_none());
        assert_eq!(p.available.len(), 2);
        assert_eq!(p.available[1].module, "modules/db.md");
    }

    #[test]
    fn no_signal_reads_the_core_and_a_declared_foreign_signal_adds_nothing() {
        let p = plan(&graph(), &full(), "quick", &[]).unwrap();
        assert_eq!(paths(&p), ["commands/quick.md", "shared/loop.md"]);
        let p = plan(&graph(), &full(), "quick", &sigs(&["ui"])).unwrap();
        assert_eq!(p.profile, Profile::Compact);
        assert_eq!(paths(&p), ["commands/quick.md", "shared/loop.md"]);
    }

    #[test]
    fn an_undeclared_signal_reads_every_module() {
        let p = plan(&graph(), &full(), "quick", &sigs(&["nonsense"])).unwrap();
        assert_eq!(p.profile, Profile::Safe);
        assert_eq!(p.fallback, Some(Fallback::UnknownSignal));
        assert_eq!(p.unknown_signals, ["nonsense"]);
        // Degraded as the reference says it: an undeclared signal is a reason, in its words.
        assert!(p.degraded);
        assert_eq!(p.reasons, ["undeclared signals: nonsense"]);
        assert_eq!(paths(&p).len(), 4);
        assert!(p.notice.unwrap().contains("nonsense"));
    }

    #[test]
    fn a_missing_module_reads_every_module_and_is_degraded() {
        let mut t = full();
        t.remove("modules/db.md");
        let p = plan(&graph(), &t, "quick", &sigs(&["db"])).unwrap();
        assert_eq!(p.profile, Profile::Safe);
        assert_eq!(p.fallback, Some(Fallback::MissingModule));
        assert_eq!(paths(&p).len(), 4);
        let db = p
            .read_set
            .iter()
            .find(|e| e.path == "modules/db.md")
            .unwrap();
        assert!(db.missing && db.bytes == 0);
        assert!(p.degraded);
        // A missing module no signal asks for changes nothing.
        let p = plan(&graph(), &t, "quick", &sigs(&["web"])).unwrap();
        assert_eq!(p.profile, Profile::Compact);
        assert!(!p.degraded);
    }

    #[test]
    fn a_missing_core_file_is_listed_and_degraded_but_compact() {
        let mut t = full();
        t.remove("shared/loop.md");
        let p = plan(&graph(), &t, "quick", &[]).unwrap();
        assert_eq!(p.profile, Profile::Compact);
        assert!(p.degraded && p.read_set[1].missing);
        assert!(p.notice.unwrap().contains("shared/loop.md"));
    }

    #[test]
    fn a_module_two_signals_pull_in_is_listed_once() {
        let mut g = graph();
        g[0].modules.push(module("sql", "modules/db.md"));
        let p = plan(&g, &full(), "quick", &sigs(&["sql", "db"])).unwrap();
        assert_eq!(
            paths(&p),
            ["commands/quick.md", "shared/loop.md", "modules/db.md"]
        );
        assert_eq!(
            p.read_set[2].signal.as_deref(),
            Some("db"),
            "the first module entry wins"
        );
        assert_eq!(p.bytes, 10 + 20 + 40);
    }

    #[test]
    fn errors() {
        assert_eq!(plan(&graph(), &full(), " ", &[]), Err(PlanError::NoCommand));
        assert_eq!(
            plan(&graph(), &full(), "nope", &[]),
            Err(PlanError::UnknownCommand {
                name: "nope".into(),
                valid: vec!["quick".into(), "status".into()]
            })
        );
    }
}
