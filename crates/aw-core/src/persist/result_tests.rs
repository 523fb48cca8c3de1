use super::*;
use crate::error_code::ErrorCode;
use crate::persist::answer::request;
use crate::persist::inventory::build;
use serde_json::json;

#[test]
fn the_validate_command_repeats_the_kinds_only_when_narrowed() {
    assert_eq!(validate_command(&DocKind::ALL), "aw persist validate");
    assert_eq!(
        validate_command(&[DocKind::Spec, DocKind::Plan]),
        "aw persist validate --kind spec --kind plan"
    );
}

#[test]
fn prepare_names_the_validate_command_and_the_skeleton() {
    let inv = build(&[], &[DocKind::Spec]);
    let r = prepared(inv.clone(), request(&inv));
    assert_eq!(r.outcome, Outcome::NeedsInput);
    assert!(r.next_action.contains("'aw persist validate --kind spec'"));
    assert!(r.next_action.contains(&inv.digest()));
    let v = serde_json::to_value(&r).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "stage",
            "outcome",
            "inventory",
            "semantic",
            "plan",
            "written",
            "error",
            "next_action"
        ]
    );
    assert_eq!(v["semantic"]["operation"], json!("persist"));
    assert_eq!(
        v["semantic"]["answer_skeleton"]["items"][0]["kind"],
        json!("spec")
    );
}

#[test]
fn a_blocked_apply_says_nothing_was_written_unless_something_was() {
    let e = CapabilityError::new(ErrorCode::PersistNumberTaken, "m", "do this");
    assert_eq!(
        blocked(Stage::Apply, None, e.clone(), None).next_action,
        "nothing was written; do this"
    );
    assert_eq!(
        blocked(Stage::Validate, None, e.clone(), None).next_action,
        "do this"
    );
    assert_eq!(
        blocked(Stage::Apply, None, e, Some("fix x".into())).next_action,
        "fix x"
    );
}

#[test]
fn stdin_must_be_one_object() {
    for bad in ["", "  \n", "[1]", "{", "3"] {
        assert_eq!(
            carried(bad, Stage::Validate).unwrap_err().code,
            ErrorCode::ArgsInvalid,
            "{bad:?}"
        );
    }
    assert_eq!(
        carried("{\"answer\": null}", Stage::Validate).unwrap(),
        None
    );
    assert_eq!(
        carried("{\"plan\": {}}", Stage::Apply).unwrap(),
        Some(Carried::Plan(json!({})))
    );
    // A plan is no answer for validate.
    assert_eq!(carried("{\"plan\": {}}", Stage::Validate).unwrap(), None);
}

#[test]
fn an_answer_is_carried_wrapped_or_bare_as_the_reference_sends_it() {
    let wrapped = carried("{\"answer\": {\"version\": 1}}", Stage::Validate).unwrap();
    assert_eq!(
        wrapped,
        Some(Carried::Answer {
            answer: json!({"version": 1}),
            bare: false
        })
    );
    let raw = "{\"version\": 1, \"operation\": \"persist\", \"decisions\": {}}";
    for stage in [Stage::Validate, Stage::Apply] {
        assert_eq!(
            carried(raw, stage).unwrap(),
            Some(Carried::Answer {
                answer: json!({"version": 1, "operation": "persist", "decisions": {}}),
                bare: true
            })
        );
    }
    assert_eq!(
        apply_command(&[DocKind::Spec], "abc"),
        "aw persist apply --kind spec --approval abc"
    );
    assert_eq!(
        apply_command(&DocKind::ALL, "abc"),
        "aw persist apply --approval abc"
    );
}
