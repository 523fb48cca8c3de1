use super::*;
use serde_json::json;

#[test]
fn inside_a_workspace_without_a_target_the_root_is_docs_designs() {
    for target in [None, Some(""), Some("   ")] {
        let root = resolve_output_root(true, target).unwrap();
        assert_eq!(
            root,
            OutputRoot::Workspace {
                root: "docs/designs".to_owned(),
                declared: false
            }
        );
        assert!(root.is_indexable());
    }
    assert_eq!(
        serde_json::to_value(resolve_output_root(true, None).unwrap()).unwrap(),
        json!({"kind": "workspace", "root": "docs/designs", "declared": false})
    );
}

#[test]
fn a_declared_root_inside_a_workspace_must_be_safe_and_relative() {
    for target in [
        "../outside",
        "/elsewhere/my-designs",
        "docs/../x",
        "a\\b",
        "C:x",
    ] {
        let f = resolve_output_root(true, Some(target)).unwrap_err();
        assert_eq!(f.code, ErrorCode::DesignOutputRootUnsafe, "{target}");
        assert!(f.message.contains(target));
    }
    let root = resolve_output_root(true, Some(" docs/designs/team-a ")).unwrap();
    assert_eq!(
        root,
        OutputRoot::Workspace {
            root: "docs/designs/team-a".to_owned(),
            declared: true
        }
    );
    assert!(root.is_indexable());
    let elsewhere = resolve_output_root(true, Some("docs/mockups")).unwrap();
    assert!(!elsewhere.is_indexable());
    // Segment by segment: a sibling that starts with the same letters is not under it.
    assert!(
        !resolve_output_root(true, Some("docs/designs-evil"))
            .unwrap()
            .is_indexable()
    );
}

#[test]
fn outside_a_workspace_the_root_must_be_named_and_is_taken_as_given() {
    let root = resolve_output_root(false, Some(" /elsewhere/my-designs ")).unwrap();
    assert_eq!(
        root,
        OutputRoot::Explicit {
            root: "/elsewhere/my-designs".to_owned()
        }
    );
    assert_eq!(root.kind(), RootKind::Explicit);
    assert!(!root.is_indexable());
    // A relative or unnormalized root is refused: it would mean another folder at each stage.
    for target in ["docs/designs", "/a/../b", "/", "/a//b", "/a/./b"] {
        let f = resolve_output_root(false, Some(target)).unwrap_err();
        assert_eq!(f.code, ErrorCode::DesignOutputRootUnsafe, "{target}");
    }
    assert_eq!(
        resolve_output_root(false, Some("/x/y/")).unwrap().root(),
        "/x/y"
    );
    assert_eq!(
        serde_json::to_value(&root).unwrap(),
        json!({"kind": "explicit", "root": "/elsewhere/my-designs"})
    );
    for target in [None, Some(""), Some(" ")] {
        let f = resolve_output_root(false, target).unwrap_err();
        assert_eq!(f.code, ErrorCode::DesignOutputRootRequired);
        assert!(f.action.contains("target"));
    }
}

#[test]
fn the_flag_wins_over_the_target_input_which_wins_over_nothing() {
    let input = json!("docs/designs/team");
    assert_eq!(requested_target(Some("a"), Some(&input)), Some("a"));
    assert_eq!(
        requested_target(Some("  "), Some(&input)),
        Some("docs/designs/team")
    );
    assert_eq!(
        requested_target(None, Some(&input)),
        Some("docs/designs/team")
    );
    assert_eq!(requested_target(None, Some(&json!(3))), None);
    assert_eq!(requested_target(None, None), None);
}
