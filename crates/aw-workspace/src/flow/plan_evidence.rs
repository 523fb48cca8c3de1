//! What is on disk at the plan paths a flow answer names, for the evidence aw checks itself
//! (`aw_core::flow::plan_evidence`): the core says which paths to look at and decides; this
//! only looks.

use crate::locate::{Workspace, slashed};
use aw_core::flow::plan_evidence::{EvidenceFacts, PlanFile, requested};

/// The facts for `raw` (a submit's stdin text): the root and, for each plan path its
/// `plan.propuesta-publicada` detail names, what is there. Each path is `docs/plans/<one
/// component>` (the core's [`requested`] guarantees it).
pub fn gather(ws: &Workspace, raw: &str) -> EvidenceFacts {
    let root = slashed(&ws.root);
    let plans = requested(raw, &root)
        .into_iter()
        .map(|rel| {
            let found = look(ws, &rel);
            (rel, found)
        })
        .collect();
    EvidenceFacts { root, plans }
}

/// What is at `rel`: the entry itself is never followed when it is a link, and a folder on the
/// way may be a link only when it stays inside the workspace.
fn look(ws: &Workspace, rel: &str) -> PlanFile {
    let path = ws.root.join(rel);
    let Ok(entry) = crate::io::containment::entry_target(&ws.root, &path) else {
        return PlanFile::Linked;
    };
    match std::fs::symlink_metadata(&entry) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => PlanFile::Absent,
        Err(_) => PlanFile::Unreadable,
        Ok(m) if m.file_type().is_symlink() => PlanFile::Linked,
        Ok(m) if !m.is_file() => PlanFile::NotRegular,
        Ok(_) => match crate::io::folder::read_regular_path(&entry) {
            Ok(bytes) => PlanFile::Text(String::from_utf8_lossy(&bytes).into_owned()),
            Err(_) => PlanFile::Unreadable,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(detail: &str) -> String {
        serde_json::json!({"validations": [{"id": "plan.propuesta-publicada", "passed": true, "detail": detail}]})
            .to_string()
    }

    #[test]
    fn each_named_plan_is_looked_at_without_following_a_link() {
        let t = tempfile::tempdir().unwrap();
        let ws = Workspace::for_test(t.path());
        let plans = t.path().join("docs/plans");
        std::fs::create_dir_all(&plans).unwrap();
        std::fs::write(plans.join("001-plan-a.md"), "# Plan 001 — a\n").unwrap();
        std::fs::create_dir(plans.join("002-plan-b.md")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("p.md"), "# Plan\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("p.md"), plans.join("003-plan-c.md"))
            .unwrap();
        let facts = gather(
            &ws,
            &answer(
                "docs/plans/001-plan-a.md docs/plans/002-plan-b.md docs/plans/003-plan-c.md \
                 docs/plans/004-plan-d.md",
            ),
        );
        let found: Vec<&PlanFile> = facts.plans.iter().map(|(_, f)| f).collect();
        assert_eq!(found[0], &PlanFile::Text("# Plan 001 — a\n".into()));
        assert_eq!(found[1], &PlanFile::NotRegular);
        #[cfg(unix)]
        assert_eq!(found[2], &PlanFile::Linked);
        assert_eq!(found[3], &PlanFile::Absent);
        assert_eq!(facts.root, slashed(t.path()));
    }
}
