use super::*;
use crate::capability::builtin::DESIGN_DESCRIPTOR_JSON;

fn descriptor() -> Descriptor {
    serde_json::from_str(DESIGN_DESCRIPTOR_JSON).unwrap()
}

fn copy(name: &str, root: &str, loaded: Result<(Descriptor, String), Failure>) -> Copy {
    Copy {
        name: name.to_owned(),
        version: Some("1.0.0".to_owned()),
        location: Location {
            scope: root.to_owned(),
            skill_dir: format!("{root}/{name}"),
            skill_md: format!("{root}/{name}/SKILL.md"),
            descriptor_path: "d.json".to_owned(),
        },
        loaded,
    }
}

#[test]
fn roots_are_every_host_folder_under_cwd_then_home_each_once() {
    let roots = skill_roots(Path::new("/w"), Some(Path::new("/h")));
    assert_eq!(roots.len(), 2 * SKILL_DIRS.len());
    assert_eq!(roots[0], Path::new("/w/.claude/skills"));
    assert_eq!(roots[1], Path::new("/h/.claude/skills"));
    assert_eq!(roots[2], Path::new("/w/.agents/skills"));
    assert_eq!(roots[19], Path::new("/h/.kimi-code/skills"));
    // Working in the home folder: each root once.
    assert_eq!(
        skill_roots(Path::new("/h"), Some(Path::new("/h"))).len(),
        SKILL_DIRS.len()
    );
    assert_eq!(skill_roots(Path::new("/w"), None).len(), SKILL_DIRS.len());
}

#[test]
fn the_instance_digest_covers_both_skill_md_and_the_seal() {
    let d = instance_digest(b"---\nname: a\n---\n", &"0".repeat(64));
    assert!(crate::canonical::is_digest(&d));
    assert_ne!(d, instance_digest(b"---\nname: b\n---\n", &"0".repeat(64)));
    assert_ne!(d, instance_digest(b"---\nname: a\n---\n", &"1".repeat(64)));
}

#[test]
fn equal_replicas_are_one_ready_instance_with_every_location_sorted_by_name() {
    let digest = "a".repeat(64);
    let out = group(vec![
        copy("zeta", "/w", Ok((descriptor(), digest.clone()))),
        copy("acme", "/w", Ok((descriptor(), digest.clone()))),
        copy("acme", "/h", Ok((descriptor(), digest.clone()))),
    ]);
    assert_eq!(
        out.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        ["acme", "zeta"]
    );
    assert_eq!(out[0].state, State::Ready);
    assert_eq!(out[0].digest, Some(digest));
    let scopes: Vec<&str> = out[0].locations.iter().map(|l| l.scope.as_str()).collect();
    assert_eq!(scopes, ["/w", "/h"]);
}

#[test]
fn copies_with_different_bytes_collide() {
    let out = group(vec![
        copy("acme", "/w", Ok((descriptor(), "a".repeat(64)))),
        copy("acme", "/h", Ok((descriptor(), "b".repeat(64)))),
    ]);
    assert_eq!(out[0].state, State::Misconfigured);
    assert_eq!(
        (out[0].digest.as_ref(), out[0].descriptor.as_ref()),
        (None, None)
    );
    let f = out[0].failure.as_ref().unwrap();
    assert_eq!(f.code, ErrorCode::CapabilityInstanceCollision);
    assert!(f.message.contains("/w/acme") && f.message.contains("/h/acme"));
}

#[test]
fn a_failed_copy_makes_the_name_misconfigured_with_its_failure() {
    let failure = Failure {
        code: ErrorCode::CapabilityDescriptorDigestMismatch,
        artifact: "x".into(),
        path: String::new(),
        message: "m".into(),
        action: "a".into(),
    };
    let out = group(vec![
        copy("acme", "/w", Ok((descriptor(), "a".repeat(64)))),
        copy("acme", "/h", Err(failure.clone())),
    ]);
    assert_eq!(out[0].state, State::Misconfigured);
    assert_eq!(out[0].failure.as_ref(), Some(&failure));
    assert_eq!(out[0].locations.len(), 2);
}
