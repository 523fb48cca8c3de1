use super::*;
use crate::design::failure::DesignFailure;
use crate::design::manifest::Baseline;
use crate::documents::design_refs::references;
use crate::error_code::ErrorCode;

fn entry(id: &str, revision: u64, ok: bool) -> DesignPackageEntry {
    DesignPackageEntry {
        id: ok.then(|| id.to_owned()),
        declared_id: Some(id.to_owned()),
        title: Some("T".to_owned()),
        path: format!("docs/designs/{}-design-t", &id[4..]),
        manifest_path: format!("docs/designs/{}-design-t/design-manifest.json", &id[4..]),
        current_baseline: ok.then(|| Baseline {
            revision,
            digest: format!("sha256:{}", "a".repeat(64)),
        }),
        manifest: None,
        content_failures: Vec::new(),
        manifest_text: None,
        design_text: None,
        review_files: Vec::new(),
        ok,
        failures: if ok {
            Vec::new()
        } else {
            vec![DesignFailure {
                code: ErrorCode::DesignManifestInvalid,
                artifact: "m".to_owned(),
                message: "broken".to_owned(),
                action: "fix".to_owned(),
            }]
        },
    }
}

fn index(entries: Vec<DesignPackageEntry>) -> DesignIndex {
    DesignIndex {
        root: "docs/designs".to_owned(),
        packages: entries,
        failures: Vec::new(),
    }
}

#[test]
fn references_are_found_once_each_outside_code_fences() {
    let plan = "# Plan\n\nUses DES-001 and DES-002@r3.\n\n```\nDES-009\n```\nAgain DES-001; not XDES-004 nor DES-01.\nDES-1000\n";
    let refs = references(plan);
    let texts: Vec<&str> = refs.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts, ["DES-001", "DES-002@r3", "DES-1000"]);
    assert_eq!(refs[1].id, "DES-002");
    assert_eq!(refs[1].revision, Some(3));
    assert_eq!(refs[0].line, 3);
}

#[test]
fn the_design_references_section_decides_when_there_is_one() {
    let plan = "# Plan\n\nDES-007 was retired.\n\n## Design references\n\n- DES-001@r2\n- DES-003\n\n## Tasks\n\nSee DES-008.\n";
    let texts: Vec<String> = references(plan).into_iter().map(|r| r.text).collect();
    assert_eq!(texts, ["DES-001@r2", "DES-003"]);
    let es = "# Plan\n\n## Referencias de diseño\n\n- DES-002\n";
    assert_eq!(references(es)[0].id, "DES-002");
}

#[test]
fn each_verdict_has_its_cause() {
    let idx = index(vec![entry("DES-001", 2, true), entry("DES-002", 1, false)]);
    let gate = check(
        references("DES-001 DES-002 DES-003 DES-001@r1"),
        &idx,
        false,
        |_| false,
    );
    let verdicts: Vec<Verdict> = gate.references.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Ok,
            Verdict::Invalid,
            Verdict::Missing,
            Verdict::Stale
        ]
    );
    assert!(!gate.passed);
    assert!(
        gate.references[1]
            .detail
            .as_deref()
            .unwrap()
            .contains("broken")
    );
    assert!(
        gate.references[3]
            .detail
            .as_deref()
            .unwrap()
            .contains("DES-001@r2")
    );
}

#[test]
fn approval_is_checked_only_when_required() {
    let idx = index(vec![entry("DES-001", 1, true)]);
    assert!(check(references("DES-001"), &idx, false, |_| false).passed);
    let gate = check(references("DES-001"), &idx, true, |_| false);
    assert_eq!(gate.references[0].verdict, Verdict::Unapproved);
    assert!(check(references("DES-001"), &idx, true, |_| true).passed);
}

#[test]
fn a_plan_naming_no_design_passes() {
    let gate = check(
        references("# Plan\nNo designs.\n"),
        &index(Vec::new()),
        true,
        |_| false,
    );
    assert!(gate.passed && gate.references.is_empty());
}

#[test]
fn a_verdicts_words_are_its_wire_spelling() {
    for v in [
        Verdict::Ok,
        Verdict::Missing,
        Verdict::Invalid,
        Verdict::Stale,
        Verdict::Unapproved,
    ] {
        assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
    }
}
