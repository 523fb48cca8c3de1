//! Writes a realistic, deterministic workspace for benchmarks and manual testing.
//!
//! ```text
//! cargo run -p aw --example gen-workspace -- <dir> [--specs N] [--plans N] [--phases N]
//!                                                  [--sessions N] [--seed S] [--undated]
//! ```
//!
//! `--undated` writes sessions as the reference's v22 does: `SESSION.md` declares no start date,
//! and `.workflow/HISTORY.md` holds a row (with its date) for each closed session, so a listing
//! dates an active session from nothing and a closed one from its row (the `listing` benchmark).
//!
//! The same arguments always write the same bytes. Documents mix the reference's Spanish
//! keywords and our English ones the way real workspaces do: specs with and without frontmatter
//! (legacy ones included), plans in every state (open, started, blocked, awaiting final
//! validation, done, inconsistent, pre-contract), fenced examples that must not count as phases,
//! execution batches, CRLF files, and sessions with checkpoints, backlogs and closed markers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// SplitMix64: small, fast and good enough to make varied documents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const NOUNS: &[&str] = &[
    "login",
    "checkout",
    "invoice",
    "billing",
    "search",
    "profile",
    "export",
    "import",
    "audit",
    "webhook",
    "catalog",
    "cart",
    "refund",
    "report",
    "session",
    "token",
    "quota",
    "upload",
    "notification",
    "schedule",
    "ledger",
    "inventory",
    "pricing",
    "onboarding",
    "consent",
];
const QUALIFIERS: &[&str] = &[
    "otp", "retry", "cache", "limits", "history", "bulk", "v2", "sync", "offline", "csv", "pdf",
    "mobile", "admin", "public", "batch", "stream", "preview", "archive",
];
const VERBS_EN: &[&str] = &[
    "validate",
    "persist",
    "render",
    "index",
    "migrate",
    "expose",
    "throttle",
    "sign",
    "retry",
    "reconcile",
    "paginate",
    "encrypt",
];
const VERBS_ES: &[&str] = &[
    "validar",
    "persistir",
    "renderizar",
    "indexar",
    "migrar",
    "exponer",
    "limitar",
    "firmar",
    "reintentar",
    "conciliar",
    "paginar",
    "cifrar",
];
const FILES: &[&str] = &[
    "src/api/handlers.rs",
    "src/domain/model.rs",
    "src/db/migrations/0007.sql",
    "web/app/page.tsx",
    "src/services/queue.ts",
    "docs/manuals/ops.md",
    "src/config.rs",
    "tests/e2e/flow.spec.ts",
];
const TEAMS: &[&str] = &[
    "support", "finance", "sales", "platform", "security", "mobile",
];

struct Args {
    dir: PathBuf,
    specs: usize,
    plans: usize,
    phases: usize,
    sessions: usize,
    seed: u64,
    undated: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: gen-workspace <dir> [--specs N] [--plans N] [--phases N] [--sessions N] [--seed S] [--undated]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        dir: PathBuf::new(),
        specs: 30,
        plans: 30,
        phases: 6,
        sessions: 12,
        seed: 1,
        undated: false,
    };
    let mut dir = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> u64 {
            it.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
                eprintln!("{name} takes a number");
                usage()
            })
        };
        match a.as_str() {
            "--specs" => args.specs = num("--specs") as usize,
            "--plans" => args.plans = num("--plans") as usize,
            "--phases" => args.phases = num("--phases").max(1) as usize,
            "--sessions" => args.sessions = num("--sessions") as usize,
            "--seed" => args.seed = num("--seed"),
            "--undated" => args.undated = true,
            "-h" | "--help" => usage(),
            other if !other.starts_with('-') && dir.is_none() => dir = Some(PathBuf::from(other)),
            _ => usage(),
        }
    }
    args.dir = dir.unwrap_or_else(|| usage());
    args
}

fn slug(rng: &mut Rng) -> String {
    format!("{}-{}", rng.pick(NOUNS), rng.pick(QUALIFIERS))
}

fn date(rng: &mut Rng) -> String {
    format!("2026-{:02}-{:02}", 1 + rng.below(9), 1 + rng.below(28))
}

fn sentence(rng: &mut Rng, spanish: bool) -> String {
    if spanish {
        format!(
            "El equipo de {} necesita {} el {} de {} sin romper el flujo actual.",
            rng.pick(TEAMS),
            rng.pick(VERBS_ES),
            rng.pick(NOUNS),
            rng.pick(NOUNS)
        )
    } else {
        format!(
            "The {} team needs to {} the {} {} without breaking the current flow.",
            rng.pick(TEAMS),
            rng.pick(VERBS_EN),
            rng.pick(NOUNS),
            rng.pick(QUALIFIERS)
        )
    }
}

fn num(n: usize) -> String {
    format!("{n:03}")
}

fn spec(rng: &mut Rng, n: usize, slug: &str) -> String {
    let spanish = rng.chance(40);
    let legacy = rng.chance(10);
    let mut s = String::new();
    if !legacy {
        let status = rng.pick(&[
            "draft",
            "refining",
            "ready-for-plan",
            "ready-for-plan",
            "ready-for-plan",
        ]);
        let _ = writeln!(s, "---\nstatus: {status}");
        if rng.chance(60) {
            let _ = writeln!(s, "date: {}", date(rng));
        }
        s.push_str("---\n");
    }
    let _ = writeln!(s, "# Spec {} — {slug}\n", num(n));
    let (origin, req, ctx, scope, acc, scen, open) = if spanish {
        (
            "Origen",
            "Requerimiento",
            "Contexto",
            "Alcance",
            "Criterios de aceptación",
            "Escenarios",
            "Open questions",
        )
    } else {
        (
            "Origin",
            "Requirement",
            "Context",
            "Scope",
            "Acceptance criteria",
            "Scenarios",
            "Open questions",
        )
    };
    let _ = writeln!(
        s,
        "## {origin}\n- {} ({})\n",
        sentence(rng, spanish),
        date(rng)
    );
    let _ = writeln!(
        s,
        "## {req}\n{} {} {}\n",
        sentence(rng, spanish),
        sentence(rng, spanish),
        sentence(rng, spanish)
    );
    let _ = writeln!(s, "## {ctx}\n{}\n", sentence(rng, spanish));
    let _ = writeln!(
        s,
        "## {scope}\n**In:**\n- {}\n- {}\n**Out:**\n- {}\n",
        rng.pick(NOUNS),
        rng.pick(NOUNS),
        rng.pick(NOUNS)
    );
    let _ = writeln!(s, "## {acc}");
    for i in 0..3 + rng.below(4) {
        let _ = writeln!(
            s,
            "- [ ] AC{} — {} {}",
            i + 1,
            rng.pick(VERBS_EN),
            rng.pick(NOUNS)
        );
    }
    let _ = writeln!(
        s,
        "\n## {scen}\n```gherkin\nGIVEN a {} with {}\nWHEN the user asks to {} it\nTHEN the {} is stored\n```\n",
        rng.pick(NOUNS),
        rng.pick(QUALIFIERS),
        rng.pick(VERBS_EN),
        rng.pick(NOUNS)
    );
    if legacy && rng.chance(50) {
        let _ = writeln!(
            s,
            "## Refinement decisions\n- Keep the {} as is.\n",
            rng.pick(NOUNS)
        );
    }
    let _ = writeln!(s, "## {open}");
    match rng.below(3) {
        0 => s.push_str(if spanish { "- Ninguna.\n" } else { "None.\n" }),
        _ => {
            for _ in 0..1 + rng.below(3) {
                let _ = writeln!(
                    s,
                    "- Should the {} {}?",
                    rng.pick(NOUNS),
                    rng.pick(VERBS_EN)
                );
            }
        }
    }
    s
}

/// How far a generated plan has gone.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Fresh,
    Started,
    Blocked,
    FinalPending,
    Done,
    Inconsistent,
    PreContract,
}

fn plan(rng: &mut Rng, n: usize, slug: &str, spec: Option<(usize, &str)>, phases: usize) -> String {
    let spanish = rng.chance(50);
    let shape = match rng.below(20) {
        0..=3 => Shape::Fresh,
        4..=9 => Shape::Started,
        10..=11 => Shape::Blocked,
        12..=13 => Shape::FinalPending,
        14..=17 => Shape::Done,
        18 => Shape::Inconsistent,
        _ => Shape::PreContract,
    };
    let mut s = format!("# Plan {} — {slug}\n\n", num(n));
    let spec_path = spec.map(|(sn, ss)| format!("docs/specs/{}-spec-{ss}.md", num(sn)));
    let evidence = rng.below(10);
    if let (Some(path), 0..=6) = (&spec_path, evidence) {
        if spanish {
            let _ = writeln!(s, "> Derivado de {path} · generado por plan-new-loop");
        } else {
            let _ = writeln!(s, "> Derived from {path} · generated by plan-new-loop");
        }
    }
    let declared_done = matches!(shape, Shape::Done | Shape::Inconsistent);
    let key = if spanish { "Estado" } else { "State" };
    let _ = writeln!(
        s,
        "> {key}: {}",
        if declared_done { "done" } else { "open" }
    );
    if declared_done {
        let _ = writeln!(
            s,
            "> {}: {} · {} {}",
            if spanish { "Cierre" } else { "Closed" },
            date(rng),
            if spanish { "sesión" } else { "session" },
            num(1 + rng.below(200) as usize)
        );
    }
    if rng.chance(50) {
        let _ = writeln!(
            s,
            "> {}: {}",
            if spanish { "Fecha" } else { "Date" },
            date(rng)
        );
    }
    s.push('\n');
    let _ = writeln!(s, "## {}", if spanish { "Origen" } else { "Origin" });
    match (&spec, evidence) {
        (Some(_), 0..=7) => {
            let _ = writeln!(s, "- {}", spec_path.as_deref().unwrap_or(""));
        }
        (Some((sn, _)), _) => {
            let _ = writeln!(s, "- Follows spec {} after the review.", num(*sn));
        }
        (None, _) => {
            let _ = writeln!(s, "- {}", sentence(rng, spanish));
        }
    }
    let _ = writeln!(
        s,
        "\n## {}\n{} {}\n",
        if spanish { "Solución" } else { "Solution" },
        sentence(rng, spanish),
        sentence(rng, spanish)
    );
    let _ = writeln!(
        s,
        "## Impacted\n- `{}`\n- `{}`\n",
        rng.pick(FILES),
        rng.pick(FILES)
    );
    let _ = writeln!(
        s,
        "## Dependencies\n- {}\n",
        rng.pick(&["none", "ninguna", "platform release 4.2"])
    );
    let _ = writeln!(
        s,
        "## {}\n",
        if spanish && rng.chance(30) {
            "Tareas"
        } else {
            "Tasks"
        }
    );
    let total = phases;
    let validated = match shape {
        Shape::Fresh => 0,
        Shape::Started | Shape::Blocked => {
            (1 + rng.below(total as u64) as usize / 2).min(total.saturating_sub(1))
        }
        Shape::FinalPending | Shape::Done | Shape::PreContract => total,
        Shape::Inconsistent => total.saturating_sub(1),
    };
    for f in 1..=total {
        let name = format!(
            "{} {}",
            rng.pick(if spanish { VERBS_ES } else { VERBS_EN }),
            rng.pick(NOUNS)
        );
        let _ = writeln!(s, "### F{f} — {name}");
        let is_validated = f <= validated;
        let state = if shape == Shape::PreContract {
            None
        } else if is_validated {
            Some(if spanish { "validada" } else { "validated" })
        } else if shape == Shape::Blocked && f == validated + 1 {
            Some(if spanish { "bloqueada" } else { "blocked" })
        } else if f == validated + 1 && shape != Shape::Fresh {
            Some(if spanish {
                "en ejecución"
            } else {
                "in progress"
            })
        } else {
            Some(if spanish { "pendiente" } else { "pending" })
        };
        if let Some(st) = state {
            let _ = writeln!(s, "> {key}: {st}");
        }
        if shape == Shape::Blocked && f == validated + 1 {
            let _ = writeln!(
                s,
                "> {}: {}",
                if spanish { "Bloqueo" } else { "Blocker" },
                if spanish {
                    "esperando credenciales del proveedor"
                } else {
                    "waiting for the vendor's credentials"
                }
            );
        }
        let _ = writeln!(
            s,
            "\n**{}:** {}",
            if spanish { "Resultado" } else { "Result" },
            sentence(rng, spanish)
        );
        let _ = writeln!(s, "**{}:**", if spanish { "Trabajo" } else { "Work" });
        for t in 1..=3 + rng.below(3) {
            let checked = is_validated || (f == validated + 1 && t == 1 && shape != Shape::Fresh);
            let _ = writeln!(
                s,
                "- [{}] T{f}.{t} — {} `{}`",
                if checked { "x" } else { " " },
                rng.pick(if spanish { VERBS_ES } else { VERBS_EN }),
                rng.pick(FILES)
            );
        }
        if f == 2 && rng.chance(30) {
            // An example inside a fence: its heading and state must not count as a phase.
            s.push_str("\nExample of the expected shape:\n\n```md\n### F9 — example\n> Estado: bloqueada\n```\n");
        }
        let _ = writeln!(
            s,
            "\n**{}:** `cargo test -p {}` green.\n**{}:** {}\n",
            if spanish {
                "Validación de fase"
            } else {
                "Phase validation"
            },
            rng.pick(NOUNS),
            if spanish {
                "Condición de salida"
            } else {
                "Exit condition"
            },
            sentence(rng, spanish)
        );
    }
    if shape != Shape::PreContract && rng.chance(70) {
        let _ = writeln!(s, "## Execution batches");
        let cut = (total / 2).max(1);
        let _ = writeln!(s, "- B1 · continuous · F1-F{cut}");
        if cut < total {
            let _ = writeln!(s, "- B2 · isolated · F{}-F{total}", cut + 1);
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "## Validations\n- `cargo test --workspace`\n\n## Risks / impact\n- {}\n",
        sentence(rng, spanish)
    );
    let _ = writeln!(s, "## Open questions\n- None.");
    if rng.chance(10) {
        s = s.replace('\n', "\r\n");
    }
    s
}

/// A session's files, and its date (written as `Start date:` unless `undated`).
fn session(
    rng: &mut Rng,
    folder: &str,
    doc: Option<String>,
    undated: bool,
) -> (Vec<(&'static str, String)>, String) {
    let spanish = rng.chance(30);
    let mut files = Vec::new();
    let objective = sentence(rng, spanish);
    let origin = match &doc {
        Some(d) => format!("- loop, {d}"),
        None => format!("- conversation with {}", rng.pick(TEAMS)),
    };
    let day = date(rng);
    let declared = if undated {
        String::new()
    } else {
        format!("Start date: {day}\n\n")
    };
    files.push((
        "SESSION.md",
        format!(
            "# Session — {folder}\n\n{declared}## Objective\n{objective}\n\n## Origin\n{origin}\n\n\
             ## Success criteria\n- [ ] {} works end to end\n",
            rng.pick(NOUNS)
        ),
    ));
    if rng.chance(60) {
        let mut cp = format!(
            "# Checkpoint — {folder}\n\n- Updated: {} {:02}:{:02}\n\n## Completed\n- {}\n\n## Pending / Next\n- {}\n",
            date(rng),
            rng.below(24),
            rng.below(60),
            sentence(rng, spanish),
            sentence(rng, spanish)
        );
        if rng.chance(30) {
            let _ = write!(
                cp,
                "\n## Excluded\n- {} {}\n",
                rng.pick(NOUNS),
                rng.pick(QUALIFIERS)
            );
        }
        files.push(("CHECKPOINT.md", cp));
    }
    if rng.chance(30) {
        files.push((
            "BACKLOG.md",
            format!(
                "# Backlog\n\n## {}\n- {} {}\n- {} {}\n",
                if spanish { "Diferidos" } else { "Deferred" },
                rng.pick(NOUNS),
                rng.pick(QUALIFIERS),
                rng.pick(NOUNS),
                rng.pick(QUALIFIERS)
            ),
        ));
    }
    if rng.chance(60) {
        files.push((".closed", String::new()));
    }
    (files, day)
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{}: {e}", parent.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn main() {
    let args = parse_args();
    let mut rng = Rng(args.seed);
    let root = &args.dir;
    write(
        &root.join("CLAUDE.md"),
        "# Project\n\n<!-- WORKFLOW-PROJECT-START -->\n## Proyecto\n\nGenerated workspace\n\n## Fuentes\n\n\
         | Alias | Path | Rama principal |\n|---|---|---|\n| app | . | main |\n<!-- WORKFLOW-PROJECT-END -->\n",
    );
    std::fs::create_dir_all(root.join(".workflow/sessions")).expect("sessions folder");
    let spec_slugs: Vec<String> = (0..args.specs).map(|_| slug(&mut rng)).collect();
    for (i, s) in spec_slugs.iter().enumerate() {
        let text = spec(&mut rng, i + 1, s);
        write(
            &root.join(format!("docs/specs/{}-spec-{s}.md", num(i + 1))),
            &text,
        );
    }
    let mut plan_files = Vec::new();
    for i in 0..args.plans {
        let derived = spec_slugs
            .get(i)
            .filter(|_| !rng.chance(10))
            .map(|ss| (i + 1, ss.as_str()));
        let s = derived.map_or_else(|| slug(&mut rng), |(_, ss)| ss.to_owned());
        let text = plan(&mut rng, i + 1, &s, derived, args.phases);
        let file = format!("docs/plans/{}-plan-{s}.md", num(i + 1));
        write(&root.join(&file), &text);
        plan_files.push(file);
    }
    let mut history =
        String::from("# Session History\n\n| Session | Date | State | Refs |\n|---|---|---|---|\n");
    for i in 0..args.sessions {
        let flow = rng.pick(&[
            "spec-refine",
            "plan-new",
            "plan-exec",
            "quick",
            "plan-refine",
        ]);
        let folder = format!("{}-{}-{flow}", num(i + 1), slug(&mut rng));
        let doc = (!plan_files.is_empty() && rng.chance(70))
            .then(|| plan_files[rng.below(plan_files.len() as u64) as usize].clone());
        let (files, day) = session(&mut rng, &folder, doc, args.undated);
        if files.iter().any(|(name, _)| *name == ".closed") {
            let _ = writeln!(history, "| {folder} | {day} | closed | — |");
        }
        for (name, text) in files {
            write(
                &root.join(".workflow/sessions").join(&folder).join(name),
                &text,
            );
        }
    }
    if args.undated {
        write(&root.join(".workflow/HISTORY.md"), &history);
    }
    println!(
        "wrote {} specs, {} plans of {} phases and {} sessions into {}",
        args.specs,
        args.plans,
        args.phases,
        args.sessions,
        root.display()
    );
}
