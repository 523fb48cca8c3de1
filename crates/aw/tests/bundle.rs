//! The agent-facing bundle (`aw-bundle`): its size, its frontmatter, and that every command,
//! flag, document path and signal it names is real, checked against the binary and the flow
//! registry rather than against a copy of them.

use crate::support::Ws;
use aw_bundle::{FILES, commands};
use aw_core::flow::choices::RESOLVE_LABEL;
use aw_core::flow::gloss;
use aw_core::flow::registry::Registry;
use aw_core::vocab::flow::{PAUSE_LABEL, STOP_LABEL};
use std::collections::{BTreeMap, BTreeSet};

/// The whole bundle stays under this many lines (the reference ships 7,248).
const LINE_BUDGET: usize = 1_500;

/// The files of the workspace a bundle document may name besides its own documents.
const WORKSPACE_FILES: &[&str] = &[
    "AGENTS.md",
    "BACKLOG.md",
    "CHECKPOINT.md",
    "CLAUDE.md",
    "CONCLUSIONS.md",
    "DECISION.md",
    "DESIGN.md",
    "SESSION.md",
    "TASKS.md",
];

/// The five flow commands, the session type each one's session is created with.
const FLOWS: &[(&str, &str)] = &[
    ("quick", "quick"),
    ("spec-refine", "refine"),
    ("plan-new", "refine"),
    ("plan-refine", "refine"),
    ("plan-exec", "exec"),
];

fn registry() -> &'static Registry {
    Registry::get()
}

fn text(path: &str) -> &'static str {
    aw_bundle::file(path)
        .unwrap_or_else(|| panic!("{path} is not in the bundle"))
        .text
}

/// The frontmatter of a document as `key → raw value` (top-level keys only).
fn frontmatter(path: &str, doc: &str) -> BTreeMap<String, String> {
    let body = doc
        .strip_prefix("---\n")
        .and_then(|t| t.split_once("\n---\n"))
        .unwrap_or_else(|| panic!("{path} has no frontmatter"))
        .0;
    body.lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_owned(), v.trim().to_owned()))
        .collect()
}

/// Every code text of a document: each inline span (a span may wrap a line) and each line of a
/// fenced block.
fn code_texts(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            out.push(line.to_owned());
        } else {
            prose.push_str(line);
            prose.push(' ');
        }
    }
    let mut parts = prose.split('`');
    parts.next();
    while let Some(span) = parts.next() {
        out.push(span.to_owned());
        parts.next();
    }
    out
}

/// Splits a command line into words, a double-quoted string being one word.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Every `aw …` invocation the bundle writes, as `(document, words after "aw")`.
fn invocations() -> Vec<(&'static str, Vec<String>)> {
    let mut out = Vec::new();
    for f in FILES {
        for code in code_texts(f.text) {
            for piece in code.split('|') {
                if let Some(rest) = piece.trim().strip_prefix("aw ") {
                    out.push((f.path, words(rest)));
                }
            }
        }
    }
    out
}

/// The command path of an invocation (the leading bare words) and the `--flags` it uses.
fn path_and_flags(words: &[String]) -> (Vec<String>, Vec<String>) {
    let path = words
        .iter()
        .take_while(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        })
        .cloned()
        .collect();
    let flags = words
        .iter()
        .filter(|w| w.starts_with("--"))
        .map(|w| w.split('=').next().unwrap_or(w).to_owned())
        .collect();
    (path, flags)
}

#[test]
fn the_bundle_stays_under_its_line_budget() {
    let lines: usize = FILES.iter().map(|f| f.text.lines().count()).sum();
    assert!(
        lines < LINE_BUDGET,
        "the bundle has {lines} lines; its budget is {LINE_BUDGET}"
    );
    // Counting must see every file: a document left out of FILES would escape the budget.
    assert!(FILES.len() >= 20, "{} files", FILES.len());
}

#[test]
fn every_command_document_has_discovery_frontmatter_and_takes_its_arguments() {
    let names: Vec<&str> = commands().map(|(n, _)| n).collect();
    for (name, file) in commands() {
        let front = frontmatter(file.path, file.text);
        let description = front.get("description").map(String::as_str).unwrap_or("");
        assert!(
            description.starts_with("Use when") && description.len() <= 140,
            "{name}: the description is one short \"Use when…\" sentence: {description:?}"
        );
        assert!(
            front.get("argument-hint").is_some_and(|h| !h.is_empty()),
            "{name}: no argument-hint"
        );
        let tools = front.get("allowed-tools").map(String::as_str).unwrap_or("");
        let list = tools
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .unwrap_or_else(|| panic!("{name}: allowed-tools is a flow list: {tools:?}"));
        let tools: Vec<&str> = list.split(',').map(str::trim).collect();
        assert!(tools.contains(&"Bash") && tools.contains(&"Read"), "{name}");
        assert!(
            file.text.contains("$ARGUMENTS"),
            "{name} never reads its input"
        );
    }
    // The transversal commands leave every write to aw.
    for name in ["status", "resume", "persist", "workspace-init"] {
        let file = aw_bundle::file(&format!("commands/{name}.md")).unwrap();
        let tools = &frontmatter(file.path, file.text)["allowed-tools"];
        assert!(
            !tools.contains("Write") && !tools.contains("Edit"),
            "{name}"
        );
    }
    assert_eq!(
        names,
        [
            "persist",
            "plan-exec",
            "plan-new",
            "plan-refine",
            "quick",
            "resume",
            "spec-new",
            "spec-refine",
            "status",
            "workspace-init"
        ]
    );
}

#[test]
fn every_aw_invocation_in_the_bundle_names_a_real_command_and_its_flags() {
    let ws = Ws::bare();
    let mut helps: BTreeMap<Vec<String>, String> = BTreeMap::new();
    let found = invocations();
    assert!(found.len() > 30, "only {} invocations found", found.len());
    for (doc, words) in found {
        let (path, flags) = path_and_flags(&words);
        assert!(
            !path.is_empty(),
            "{doc}: `aw {}` names no command",
            words.join(" ")
        );
        let help = helps.entry(path.clone()).or_insert_with(|| {
            let mut args: Vec<&str> = path.iter().map(|s| &**s).collect();
            args.push("--help");
            let (code, out) = ws.stdout(&args, None, &[]);
            assert_eq!(code, 0, "{doc}: `aw {}` is not a command", path.join(" "));
            let usage = format!("Usage: aw {} ", path.join(" "));
            assert!(
                out.contains(&usage),
                "{doc}: `aw {}` is not a command path:\n{out}",
                path.join(" ")
            );
            out
        });
        for flag in flags {
            let named = help.match_indices(&flag).any(|(i, _)| {
                !help[i + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            assert!(named, "{doc}: `aw {}` has no flag {flag}", path.join(" "));
        }
    }
}

#[test]
fn every_registry_document_is_a_bundle_file() {
    for d in registry().decisions.iter() {
        assert!(
            aw_bundle::file(&d.document).is_some(),
            "{} reads {}, which the bundle does not have",
            d.id,
            d.document
        );
    }
}

#[test]
fn the_glossary_explains_every_signal_of_the_registry_and_no_other() {
    let glossary = text("GLOSSARY.md");
    let signals: BTreeSet<&str> = registry()
        .decisions
        .iter()
        .flat_map(|d| d.signals().iter().map(|s| s.as_ref()))
        .collect();
    assert_eq!(signals.len(), 41);
    let (glossary, _) = glossary
        .split_once("\n## Evidence ids\n")
        .expect("GLOSSARY.md has its evidence ids after the signals");
    let defined: BTreeSet<&str> = glossary
        .lines()
        .filter_map(|l| l.strip_prefix("- `")?.split_once("`: ").map(|(id, _)| id))
        .collect();
    for s in &signals {
        let line = glossary
            .lines()
            .find(|l| l.starts_with(&format!("- `{s}`: ")))
            .unwrap_or_else(|| panic!("GLOSSARY.md does not explain {s}"));
        assert!(line.len() > s.len() + 20, "{s} has no real meaning: {line}");
    }
    assert_eq!(
        defined, signals,
        "the glossary defines ids the registry has not"
    );
}

/// The `- `id`: meaning` items of a GLOSSARY.md section, continuation lines joined.
fn glossary_items(section: &str) -> Vec<(String, String)> {
    let glossary = text("GLOSSARY.md");
    let body = glossary
        .split_once(&format!("\n## {section}\n"))
        .unwrap_or_else(|| panic!("GLOSSARY.md has no {section} section"))
        .1;
    let body = body.split("\n## ").next().unwrap();
    let mut items: Vec<(String, String)> = Vec::new();
    for line in body.lines() {
        if let Some((id, means)) = line.strip_prefix("- `").and_then(|l| l.split_once("`: ")) {
            items.push((id.to_owned(), means.to_owned()));
        } else if let (Some(cont), Some(last)) = (line.strip_prefix("  "), items.last_mut()) {
            last.1.push(' ');
            last.1.push_str(cont);
        }
    }
    items
}

/// Issue 20 (point 14): the evidence ids and dump kinds are wire ids kept from the reference;
/// GLOSSARY.md explains each one with the very words the directives use.
#[test]
fn the_glossary_explains_every_evidence_id_and_dump_kind_as_the_directives_do() {
    let owned = |t: &[(&str, &str)]| -> Vec<(String, String)> {
        t.iter()
            .map(|(i, m)| ((*i).to_owned(), (*m).to_owned()))
            .collect()
    };
    assert_eq!(glossary_items("Evidence ids"), owned(gloss::EVIDENCE));
    assert_eq!(glossary_items("Dump kinds"), owned(gloss::DUMP_KINDS));
    // Each kind explained is one the command takes.
    let ws = Ws::initialised();
    let folder = ws.create_session("quick", "x-quick", "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    for (kind, _) in gloss::DUMP_KINDS {
        let (code, out) = ws.run(&["session-artifacts", "--code", &folder, "--dump", kind]);
        assert_eq!(code, 0, "{kind}: {out:#}");
        assert!(out.get(*kind).is_some(), "{kind}: {out:#}");
    }
}

/// Issue 20 (point 11): a gate whose reading only dumps `SESSION.md` can show a check only once
/// it is written there, so the guide of each such step says to tick it under the success
/// criteria first.
#[test]
fn every_reading_of_the_objective_is_prepared_by_its_guide() {
    let mut readings = 0;
    for d in registry().decisions.iter() {
        let Some(a) = &d.action else { continue };
        if !gloss::dumped(&a.invocation.args).contains(&"objetivo")
            || d.scope == "quick" && d.id.ends_with("seed-order")
        {
            continue;
        }
        readings += 1;
        let guide = text(&d.document);
        assert!(
            guide.contains("`## Success criteria`") && guide.contains("`- [x]"),
            "{} reads SESSION.md, but {} never says to tick the checks there",
            d.id,
            d.document
        );
    }
    assert_eq!(readings, 5);
    let presentation = text("PRESENTATION.md");
    assert!(presentation.contains("the `objetivo` dump\nprints it"));
}

/// Issue 20 (point 13): the commit choice says when the commit is made, as the guide does.
#[test]
fn the_commit_choices_say_when_the_commit_is_made_as_the_guide_does() {
    let consequence = |id: &str| {
        registry()
            .decision(id)
            .unwrap()
            .alternatives
            .as_ref()
            .unwrap()[0]
            .consequence
            .clone()
    };
    let code = text("guides/code.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(code.contains("In quick, commit right after the person approves"));
    let quick = consequence("quick.commit-authorization");
    assert!(
        quick.contains("right after this approval") && !quick.contains("when the task closes"),
        "{quick}"
    );
    assert!(
        code.contains(
            "in plan-exec, at the commit reading, once the plan's state lines are written"
        )
    );
    let batch = consequence("plan-exec.commit-authorization");
    assert!(
        batch.contains("at the commit reading once the plan's state lines are written"),
        "{batch}"
    );
}

/// Issue 20 (point 13): plan-exec runs the phase proofs after the phase state reading, so that
/// reading cannot need their result (v22: under the run's custody, asking no approval); and the
/// proofs the validations reading shows are the session's success criteria.
#[test]
fn plan_exec_needs_no_result_before_the_step_that_produces_it() {
    let journey = aw_core::flow::Journey::builtin(aw_core::flow::Flow::PlanExec).unwrap();
    let at = |id: &str| journey.rows.iter().position(|d| d.id == id).unwrap();
    assert!(at("plan-exec.phase-state-transition") < at("plan-exec.validation-execution"));
    let guide = text("guides/plan-exec.md");
    let bullet = |name: &str| -> String {
        let start = guide
            .find(&format!("\n- {name}"))
            .unwrap_or_else(|| panic!("{name}"));
        let rest = &guide[start + 1..];
        let end = rest[1..].find("\n- ").map_or(rest.len(), |i| i + 1);
        rest[..end].to_owned()
    };
    let phase = bullet("Phase state");
    assert!(
        !phase.contains("run it before this reading")
            && phase.contains("`validated` waits for the validations reading"),
        "{phase}"
    );
    let validations = bullet("Validations");
    assert!(
        validations.contains("no approval is asked")
            && validations.contains("write `validated` on each phase it proved"),
        "{validations}"
    );
    assert!(
        guide.contains(
            "First write the batch's proofs into `SESSION.md` under `## Success criteria`"
        )
    );
}

/// Issue 20 (point 13): the board field the bundle names is defined, and means what the board
/// computes.
#[test]
fn final_validation_pending_is_defined_as_the_board_computes_it() {
    let formats = text("FORMATS.md");
    assert!(
        formats.contains("`final_validation_pending: true` for an open plan whose\n  phases are all validated and tasks all ticked"),
        "FORMATS.md does not define final_validation_pending"
    );
    let ws = Ws::new();
    ws.write(
        "docs/plans/001-plan-demo.md",
        "# Plan 001 — demo\n\n> Status: open\n\n## Tasks\n\n### F1 — a\n> Status: validated\n- [x] T1.1 — a\n",
    );
    assert_eq!(
        ws.ok(&["status"])["plans"][0]["final_validation_pending"],
        true
    );
    ws.write(
        "docs/plans/001-plan-demo.md",
        "# Plan 001 — demo\n\n> Status: open\n\n## Tasks\n\n### F1 — a\n> Status: validated\n- [ ] T1.1 — a\n",
    );
    assert_eq!(
        ws.ok(&["status"])["plans"][0]["final_validation_pending"],
        false
    );
}

/// Issue 20 (point 15): SKILL.md says what to do without a workspace, and which files under
/// `.workflow/` are shared: the ones the `.gitignore` aw writes does not keep out.
#[test]
fn the_skill_says_what_to_do_without_a_workspace_and_what_to_commit() {
    let skill = text("SKILL.md");
    let flat = skill.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Without one (`aw status` says it is not initialised)")
            && flat.contains("Offer `/w:workspace-init` at the repository root first"),
        "{skill}"
    );
    let ws = Ws::initialised();
    let folder = ws.create_session("quick", "x-quick", "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    ws.ok(&["session-close", "--code", &folder]);
    let ignored: Vec<String> = std::fs::read_to_string(ws.root().join(".gitignore"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix(".workflow/"))
        .map(|l| l.trim_end_matches('/').to_owned())
        .collect();
    assert!(ignored.len() >= 4, "{ignored:?}");
    let machine = flat
        .split_once("Commit `.workflow/skills.toml` and `.workflow/HISTORY.md` with `docs/`")
        .expect("SKILL.md says what to commit")
        .1
        .split("this machine's")
        .next()
        .unwrap();
    for name in &ignored {
        assert!(
            machine.contains(&format!("`{name}")),
            "SKILL.md does not call {name} per-machine"
        );
    }
    for shared in ["skills.toml", "HISTORY.md"] {
        assert!(
            ws.root().join(".workflow").join(shared).is_file(),
            "{shared}"
        );
        assert!(!ignored.iter().any(|i| i == shared), "{shared} is ignored");
    }
}

#[test]
fn every_document_a_bundle_file_points_at_exists() {
    for f in FILES {
        for code in code_texts(f.text) {
            let code = code.trim();
            let is_path = code.ends_with(".md")
                && !code.contains([' ', '<'])
                && !code.starts_with("docs/")
                && !code.starts_with(".workflow/");
            if is_path && !WORKSPACE_FILES.contains(&code) {
                assert!(
                    aw_bundle::file(code).is_some(),
                    "{} points at {code}, which the bundle does not have",
                    f.path
                );
            }
        }
    }
}

#[test]
fn the_labels_the_bundle_quotes_are_the_ones_aw_emits() {
    let presentation = text("PRESENTATION.md");
    for label in [PAUSE_LABEL, STOP_LABEL, RESOLVE_LABEL] {
        assert!(
            presentation.contains(&format!("`{label}`")),
            "PRESENTATION.md does not name {label}"
        );
    }
}

/// Replaces the placeholders of a command line written in a document with real values.
fn filled(line: &str, folder: &str) -> Vec<String> {
    words(line)
        .into_iter()
        .map(|w| {
            w.replace("<slug>", "demo")
                .replace("<folder>", folder)
                .replace("<file>", "001-spec-demo.md")
        })
        .map(|w| {
            if w.starts_with('<') {
                "demo objective".to_owned()
            } else {
                w
            }
        })
        .collect()
}

#[test]
fn each_flow_command_starts_its_run_exactly_as_its_document_says() {
    for (flow, kind) in FLOWS {
        let doc = text(&format!("commands/{flow}.md"));
        let lines: Vec<String> = code_texts(doc)
            .into_iter()
            .filter_map(|c| c.trim().strip_prefix("aw ").map(str::to_owned))
            .collect();
        let create = lines
            .iter()
            .find(|l| l.starts_with("session-create "))
            .unwrap_or_else(|| panic!("{flow}.md never creates its session"));
        assert!(
            create.contains(&format!("--type {kind} --name <slug>-{flow} ")),
            "{flow}: {create}"
        );
        let adopt = format!("flow advance --session <folder> --flow {flow} --adopt");
        assert!(lines.contains(&adopt), "{flow}.md never adopts its run");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("flow submit --session <folder>"))
        );

        let ws = Ws::initialised();
        let args = filled(create, "");
        let args: Vec<&str> = args.iter().map(|s| &**s).collect();
        let session = ws.ok(&args);
        let folder = session["folder"].as_str().unwrap();
        assert!(folder.ends_with(&format!("-demo-{flow}")), "{folder}");
        let args = filled(&adopt, folder);
        let args: Vec<&str> = args.iter().map(|s| &**s).collect();
        let directive = ws.ok(&args);
        assert_eq!(directive["flow"], *flow);
        assert!(
            ["semantic", "execution"].contains(&directive["boundary"]["kind"].as_str().unwrap()),
            "{flow}: {directive:#}"
        );
        let document = directive["boundary"]["document"].as_str().unwrap();
        assert!(aw_bundle::file(document).is_some(), "{flow}: {document}");
    }
}

#[test]
fn the_invocation_parser_sees_blocks_spans_and_pipes() {
    let doc = "Run `aw status --json`.\n```\necho x | aw flow submit --session 1\n```\n\
               A wrapped `aw persist\nprepare --kind spec` span.\n";
    let found: Vec<Vec<String>> = code_texts(doc)
        .iter()
        .flat_map(|c| {
            c.split('|')
                .map(str::trim)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter_map(|p| p.strip_prefix("aw ").map(words))
        .collect();
    let parsed: Vec<(Vec<String>, Vec<String>)> = found.iter().map(|w| path_and_flags(w)).collect();
    assert_eq!(
        parsed,
        [
            (
                vec!["flow".into(), "submit".into()],
                vec!["--session".into()]
            ),
            (vec!["status".into()], vec!["--json".into()]),
            (
                vec!["persist".into(), "prepare".into()],
                vec!["--kind".into()]
            ),
        ]
    );
}

/// The `markdown` examples of FORMATS.md, placeholders filled in: (spec, plan).
fn format_examples() -> (String, String) {
    let formats = text("FORMATS.md");
    let blocks: Vec<String> = formats
        .split("```markdown\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().to_owned())
        .map(|b| {
            b.replace("NNN", "001")
                .replace("<slug>", "demo")
                .replace("<title>", "Demo")
        })
        .collect();
    assert_eq!(blocks.len(), 2, "FORMATS.md shows a spec and a plan");
    (blocks[0].clone(), blocks[1].clone())
}

#[test]
fn the_formats_the_bundle_teaches_are_what_aw_status_reads() {
    let ws = Ws::new();
    let (spec, plan) = format_examples();
    ws.write("docs/specs/001-spec-demo.md", &spec);
    ws.write("docs/plans/001-plan-demo.md", &plan);
    let board = ws.ok(&["status"]);
    assert_eq!(board["specs"][0]["status"], "draft");
    assert_eq!(board["specs"][0]["open_questions"], 0);
    let p = &board["plans"][0];
    assert_eq!(p["plan_state"], "open");
    assert_eq!(p["phases_total"], 2);
    assert_eq!(p["tasks_total"], 1);
    assert_eq!(p["spec"]["status"], "resolved");
    assert_eq!(p["spec"]["evidence"], "derived-from");
    assert_eq!(p["batches"]["consistent"], true, "{p:#}");

    // The states the guides tell an agent to write.
    ws.write(
        "docs/specs/001-spec-demo.md",
        &spec.replace("status: draft", "status: ready-for-plan"),
    );
    let blocked = plan.replacen(
        "> Status: pending",
        "> Status: blocked\n> Blocker: the migration is not applied",
        1,
    );
    ws.write("docs/plans/001-plan-demo.md", &blocked);
    let board = ws.ok(&["status"]);
    assert_eq!(board["specs"][0]["status"], "ready-for-plan");
    let p = &board["plans"][0];
    assert_eq!(p["phases_blocked"], 1);
    assert_eq!(
        p["blocked_phases"][0]["blocker"],
        "the migration is not applied"
    );
    let done = plan
        .replace("> Status: pending", "> Status: validated")
        .replace("- [ ]", "- [x]")
        .replace(
            "> Status: open",
            "> Status: done\n> Closed: 2026-03-10 · 004-demo-plan-exec",
        );
    ws.write("docs/plans/001-plan-demo.md", &done);
    let board = ws.ok(&["status"]);
    assert_eq!(
        board["plans"][0]["plan_state"], "done",
        "{:#}",
        board["plans"][0]
    );
    assert_eq!(board["plans"][0]["phases_validated"], 2);
}

#[test]
fn the_session_headings_the_bundle_teaches_are_read() {
    let formats = text("FORMATS.md");
    for heading in [
        "## Completed",
        "## Pending / Next",
        "## Excluded",
        "## Deferred",
    ] {
        assert!(formats.contains(&format!("`{heading}`")), "{heading}");
    }
    let ws = Ws::new();
    let folder = ws.create_session("quick", "x-quick", "x")["folder"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = format!(".workflow/sessions/{folder}");
    ws.write(
        &format!("{dir}/CHECKPOINT.md"),
        "# Checkpoint\n\n## Completed\n- F1 done\n\n## Pending / Next\n- F2\n\n## Excluded\n- the export\n",
    );
    ws.write(
        &format!("{dir}/BACKLOG.md"),
        "# Backlog\n\n## Deferred\n- the retry policy\n",
    );
    let read = ws.ok(&["checkpoint-read", "--code", &folder]);
    assert_eq!(read["checkpoint"]["ultimo"], "- F1 done");
    assert_eq!(read["checkpoint"]["proximo"], "- F2");
    let board = ws.ok(&["status"]);
    let items: Vec<(&str, &str)> = board["discarded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["kind"].as_str().unwrap(), d["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        items,
        [("deferred", "the retry policy"), ("excluded", "the export")]
    );
}
