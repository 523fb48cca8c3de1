//! The checkpoint template aw writes, its seal, and the overwrite guard.
//!
//! The written template ends with a seal: the SHA-256 of every byte before the seal line. Filling
//! in any placeholder breaks the seal, which is how the overwrite guard tells the untouched
//! template (free to regenerate) from a checkpoint somebody wrote in (preserved unless forced).
//! The reference v21 looked for its own placeholder marker instead, and since the template always
//! contains that marker, every partially filled checkpoint was silently overwritten.

use super::snapshot::Snapshot;
use crate::canonical::sha256_hex;

/// How many touched files the snapshot lists before summarising the rest.
const MAX_FILES_LISTED: usize = 20;

/// The seal line, as the reference v22 writes it (`<!-- written by agent-workflow.checkpoint at
/// <YYYY-MM-DD HH:MM> · template sha256=<hex> -->`), so that either tool regenerates the other's
/// untouched template and preserves a filled one.
const SEAL_PREFIX: &str = "<!-- written by agent-workflow.checkpoint at ";
const SEAL_DIGEST: &str = " · template sha256=";
const SEAL_SUFFIX: &str = " -->";
/// The seal earlier aw releases wrote (`<!-- aw checkpoint template sha256=<hex> -->`): still a
/// seal, so their untouched templates are regenerated too.
const OLD_SEAL_PREFIX: &str = "<!-- aw checkpoint template sha256=";

/// Renders the snapshot, sealed.
pub fn render(s: &Snapshot) -> String {
    let progress = match s
        .tasks
        .and_then(|(c, t)| crate::artifacts::percent(c, t).map(|p| (p, c, t)))
    {
        Some((p, c, t)) => format!("{p}% ({c} of {t} tasks done)"),
        None => "_unknown: TASKS.md is missing or lists no task_".to_owned(),
    };
    let mut out: Vec<String> = vec![
        format!("# Checkpoint — {}", s.folder),
        String::new(),
        format!("- Updated: {}", s.updated),
        format!("- Progress: {progress}"),
        String::new(),
        "## Last action".into(),
        String::new(),
        "_[AI: In one to three sentences, what was last finished. The recent diff and the newest decision show it.]_".into(),
        String::new(),
        "## Next step".into(),
        String::new(),
        "_[AI: In one or two sentences, what comes next. Start from the first open task.]_".into(),
        String::new(),
        "## Recent decisions".into(),
        String::new(),
    ];
    match &s.last_decision {
        Some((id, excerpt)) if excerpt.is_empty() => out.push(format!("- {id}")),
        Some((id, excerpt)) => out.push(format!("- {id}: {excerpt}")),
        None => out.push("_No decision recorded yet._".into()),
    }
    out.extend([
        String::new(),
        "## Files touched (post-last-commit)".into(),
        String::new(),
    ]);
    if s.files.is_empty() {
        out.push("_No uncommitted change in the workspace._".into());
    }
    for f in s.files.iter().take(MAX_FILES_LISTED) {
        let counts = match (f.added, f.removed) {
            (Some(a), Some(r)) => format!("+{a} -{r}"),
            _ => "binary".to_owned(),
        };
        out.push(format!(
            "- {} ({counts}) — _[AI: why it changed, in one line]_",
            f.path
        ));
    }
    if s.files.len() > MAX_FILES_LISTED {
        out.push(format!("- _… {} more_", s.files.len() - MAX_FILES_LISTED));
    }
    out.extend([
        String::new(),
        "## Critical context to resume".into(),
        String::new(),
        "_[AI: Two or three paragraphs holding what a fresh conversation needs to carry on without exploring again: what was learned, what is settled, what to watch out for.]_".into(),
        String::new(),
        "## Refs".into(),
        String::new(),
    ]);
    if let Some(origin) = &s.origin {
        out.push(format!("- Origin: {origin}"));
    }
    if !s.artifacts.is_empty() {
        out.push(format!("- Artifacts present: {}", s.artifacts.join(", ")));
    }
    out.push("- Skills used: _[AI: the skills this session invoked]_".into());
    let body = out.join("\n") + "\n\n";
    let seal = format!(
        "{SEAL_PREFIX}{}{SEAL_DIGEST}{}{SEAL_SUFFIX}\n",
        s.updated,
        sha256_hex(body.as_bytes())
    );
    body + &seal
}

/// True only when `text` is byte for byte a template aw (or the reference v22) sealed: the last
/// line is a seal and its digest matches every byte before it.
pub fn is_pristine(text: &str) -> bool {
    let body_end = text.strip_suffix('\n').unwrap_or(text);
    let start = body_end.rfind('\n').map_or(0, |i| i + 1);
    let seal = &body_end[start..];
    let Some(digest) = seal_digest(seal) else {
        return false;
    };
    sha256_hex(&text.as_bytes()[..start]) == digest
}

/// The hex digest a seal line carries, if `line` is a seal.
fn seal_digest(line: &str) -> Option<&str> {
    let inner = line.strip_suffix(SEAL_SUFFIX)?;
    let digest = if let Some(d) = inner.strip_prefix(OLD_SEAL_PREFIX) {
        d
    } else {
        // The digest follows the last ` template sha256=`; the `·` before it is not required
        // (a stamp is whatever the writer put there).
        let rest = inner.strip_prefix(SEAL_PREFIX)?;
        let at = rest.rfind(SEAL_DIGEST.trim_start_matches(" ·"))?;
        &rest[at + SEAL_DIGEST.trim_start_matches(" ·").len()..]
    };
    (digest.len() == 64
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    .then_some(digest)
}

/// The stub `session-close` leaves when a session has no checkpoint: nothing but the title.
pub fn is_stub(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || t == "# CHECKPOINT"
}

/// What the overwrite guard decides for an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Nothing to lose: missing, an empty stub, or our untouched sealed template.
    Regenerate,
    /// Someone wrote in it (or it predates the seal): keep it unless forced.
    Preserve,
}

/// The overwrite guard: `existing` is the current file's text (`None` when it is missing).
pub fn guard(existing: Option<&str>, force: bool) -> Guard {
    match existing {
        _ if force => Guard::Regenerate,
        None => Guard::Regenerate,
        Some(t) if is_stub(t) || is_pristine(t) => Guard::Regenerate,
        Some(_) => Guard::Preserve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::snapshot::{parse_numstat, sample as snapshot};

    #[test]
    fn render_shape_and_seal() {
        let text = render(&snapshot());
        assert!(
            text.starts_with("# Checkpoint — 004-login-quick\n\n- Updated: 2026-03-01 10:30\n")
        );
        assert!(text.contains("- Progress: 40% (2 of 5 tasks done)\n"));
        assert!(text.contains("- DEC-002: ESM: No CJS.\n"));
        assert!(text.contains("- src/a.rs (+3 -1) — _[AI:"));
        assert!(text.contains("- img.png (binary) — _[AI:"));
        assert!(text.contains("- Origin: spec-refine-loop\n"));
        assert!(text.contains("- Artifacts present: session, tasks, scripts(2)\n"));
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with(
                "<!-- written by agent-workflow.checkpoint at 2026-03-01 10:30 · template sha256="
            ),
            "the reference v22's seal line, so it regenerates our untouched template: {last}"
        );
        assert!(is_pristine(&text));
        assert_eq!(guard(Some(&text), false), Guard::Regenerate);
    }

    #[test]
    fn render_without_tasks_decisions_or_files() {
        let text = render(&Snapshot {
            folder: "x".into(),
            updated: "2026-03-01 10:30".into(),
            ..Default::default()
        });
        assert!(text.contains("- Progress: _unknown: TASKS.md is missing or lists no task_\n"));
        assert!(text.contains("_No decision recorded yet._"));
        assert!(text.contains("_No uncommitted change in the workspace._"));
        assert!(!text.contains("- Origin:"));
        assert!(!text.contains("- Artifacts present:"));
        let zero = render(&Snapshot {
            tasks: Some((0, 0)),
            ..Default::default()
        });
        assert!(zero.contains("_unknown"));
    }

    #[test]
    fn long_file_lists_are_cut() {
        let numstat: String = (0..25).map(|i| format!("1\t0\tf{i}\n")).collect();
        let text = render(&Snapshot {
            files: parse_numstat(&numstat),
            ..Default::default()
        });
        assert!(text.contains("- f19 (+1 -0)"));
        assert!(!text.contains("- f20 (+1 -0)"));
        assert!(text.contains("- _… 5 more_\n"));
    }

    #[test]
    fn any_edit_breaks_the_seal() {
        let text = render(&snapshot());
        let filled = text.replacen(
            "_[AI: In one to three sentences, what was last finished. The recent diff and the newest decision show it.]_",
            "Wrote the parser.",
            1,
        );
        assert!(!is_pristine(&filled));
        assert_eq!(guard(Some(&filled), false), Guard::Preserve);
        assert_eq!(guard(Some(&filled), true), Guard::Regenerate);
        assert!(!is_pristine(&text.replace('\n', "\r\n")));
        assert!(!is_pristine(&format!("{text}more\n")));
        assert!(
            is_pristine(text.trim_end_matches('\n')),
            "a dropped final newline is tolerated"
        );
        let forged = text.replace("sha256=", "sha256=0");
        assert!(!is_pristine(&forged));
    }

    #[test]
    fn guard_cases() {
        assert_eq!(guard(None, false), Guard::Regenerate);
        assert_eq!(guard(Some("# CHECKPOINT\n"), false), Guard::Regenerate);
        assert_eq!(guard(Some("# CHECKPOINT\r\n"), false), Guard::Regenerate);
        assert_eq!(guard(Some(""), false), Guard::Regenerate);
        // The v21 template had no seal: somebody's file as far as we can tell.
        let v21 = "# Checkpoint — x\n\n## Last action\n\n_[AI: …]_\n\n<!-- written by agent-workflow.checkpoint at 2026-01-01 10:00 -->\n";
        assert_eq!(guard(Some(v21), false), Guard::Preserve);
        assert_eq!(guard(Some("# Notes\nmine\n"), false), Guard::Preserve);
    }

    #[test]
    fn the_seal_older_aw_releases_wrote_is_honoured() {
        let body = "# Checkpoint — x\n\n_[AI: x]_\n\n";
        let sealed = format!(
            "{body}<!-- aw checkpoint template sha256={} -->\n",
            sha256_hex(body.as_bytes())
        );
        assert!(is_pristine(&sealed));
        assert!(!is_pristine(&sealed.replace("_[AI: x]_", "done")));
    }

    #[test]
    fn reference_v22_seal_is_honoured() {
        let body = "# Checkpoint — x\n\n_[AI: x]_\n\n";
        let sealed = format!(
            "{body}<!-- written by agent-workflow.checkpoint at 2026-01-01 10:00 · template sha256={} -->\n",
            sha256_hex(body.as_bytes())
        );
        assert!(is_pristine(&sealed));
        assert!(!is_pristine(&sealed.replace("_[AI: x]_", "done")));
    }
}
