//! Unit tests of `bindings`: one per rule of the file format, the cascade and classification.

use super::*;

const G: &str = "/home/u/.workflow/skills.toml";
const W: &str = "/ws/.workflow/skills.toml";

fn text(s: &str) -> LevelInput {
    LevelInput::Text(s.to_owned())
}

fn resolve(global: &LevelInput, workspace: &LevelInput) -> Cascade {
    cascade((global, G), (workspace, W))
}

fn bound<'a>(c: &'a Cascade, role: &str) -> (Option<&'a str>, Source, bool) {
    let r = c.role(role).unwrap();
    (r.skill.as_deref(), r.source, r.enabled)
}

fn all_default(c: &Cascade) -> bool {
    c.skills.iter().all(|s| {
        s.source == Source::Default && s.enabled && s.skill.as_deref() == default_skill(s.role)
    })
}

#[test]
fn no_files_gives_every_role_its_default_in_role_order() {
    let c = resolve(&LevelInput::Absent, &LevelInput::Absent);
    let roles: Vec<_> = c.skills.iter().map(|s| s.role).collect();
    assert_eq!(
        roles,
        ["design", "sql", "git", "research", "diagrams", "overview"]
    );
    assert!(all_default(&c));
    assert_eq!(bound(&c, "overview"), (Some("w"), Source::Default, true));
    assert_eq!(c.sources, Sources::default());
    assert!(c.warnings.is_empty());
}

#[test]
fn workspace_overrides_global_role_by_role_and_records_the_source() {
    let c = resolve(
        &text("[skills]\nsql = \"global-sql\"\ngit = \"global-git\"\n"),
        &text("[skills]\nsql = \"ws-sql\"\n"),
    );
    assert_eq!(bound(&c, "sql"), (Some("ws-sql"), Source::Workspace, true));
    assert_eq!(bound(&c, "git"), (Some("global-git"), Source::Global, true));
    assert_eq!(bound(&c, "design"), (Some("design"), Source::Default, true));
    assert_eq!(
        c.sources,
        Sources {
            global: true,
            workspace: true
        }
    );
    assert!(c.warnings.is_empty());
    // Only the global file: its source is recorded, the workspace flag stays false.
    let c = resolve(&text("[skills]\nresearch = \"r2\"\n"), &LevelInput::Absent);
    assert_eq!(bound(&c, "research"), (Some("r2"), Source::Global, true));
    assert_eq!(
        c.sources,
        Sources {
            global: true,
            workspace: false
        }
    );
}

#[test]
fn a_replacement_binding_is_kept_verbatim() {
    let c = resolve(
        &LevelInput::Absent,
        &text("[skills]\ndesign = \"acme/figma-spec\"\n"),
    );
    assert_eq!(
        bound(&c, "design"),
        (Some("acme/figma-spec"), Source::Workspace, true)
    );
    assert!(
        c.skills
            .iter()
            .filter(|s| s.role != "design")
            .all(|s| s.source == Source::Default)
    );
}

#[test]
fn off_turns_a_role_off_whatever_its_case_and_a_later_level_can_turn_it_back_on() {
    let c = resolve(
        &LevelInput::Absent,
        &text("[skills]\nresearch = \" OfF \"\n"),
    );
    assert_eq!(bound(&c, "research"), (None, Source::Workspace, false));
    let c = resolve(
        &text("[skills]\nresearch = \"off\"\n"),
        &text("[skills]\nresearch = \"deep\"\n"),
    );
    assert_eq!(
        bound(&c, "research"),
        (Some("deep"), Source::Workspace, true)
    );
    let c = resolve(&text("[skills]\nresearch = \"off\"\n"), &LevelInput::Absent);
    assert_eq!(bound(&c, "research"), (None, Source::Global, false));
}

#[test]
fn an_empty_value_changes_nothing() {
    let c = resolve(
        &text("[skills]\nsql = \"g\"\n"),
        &text("[skills]\nsql = \"   \"\n"),
    );
    assert_eq!(bound(&c, "sql"), (Some("g"), Source::Global, true));
    assert!(c.warnings.is_empty());
}

#[test]
fn unknown_keys_warn_and_are_ignored_while_other_keys_apply() {
    let c = resolve(
        &LevelInput::Absent,
        &text(
            "[skills]\ncoding-standards = \"x\"\ntools = \"y\"\nsql = \"ws-sql\"\nfrobnicate = 1\n",
        ),
    );
    assert_eq!(
        c.warnings,
        [
            format!("{W}: unknown role 'coding-standards' ignored"),
            format!("{W}: unknown role 'tools' ignored"),
            format!("{W}: unknown role 'frobnicate' ignored"),
        ]
    );
    assert_eq!(bound(&c, "sql"), (Some("ws-sql"), Source::Workspace, true));
    assert_eq!(c.skills.len(), ROLES.len());
    assert!(c.role("tools").is_none());
}

#[test]
fn a_retired_key_warns_as_retired_and_is_ignored() {
    let c = resolve(
        &LevelInput::Absent,
        &text("[skills]\nui-design = \"design\"\n"),
    );
    assert_eq!(c.warnings.len(), 1);
    assert!(c.warnings[0].starts_with(&format!("{W}: role 'ui-design' is retired")));
    assert!(c.warnings[0].contains(RETIRED[0].reason));
    assert!(all_default(&c));
    assert!(c.role("ui-design").is_none());
}

#[test]
fn a_retired_value_warns_and_the_role_keeps_the_earlier_level() {
    let c = resolve(
        &text("[skills]\ndesign = \"acme/design\"\n"),
        &text("[skills]\ndesign = \"UI-Spec\"\nsql = \"ui-design\"\n"),
    );
    // Any role, not only design; compared without regard to case.
    assert_eq!(c.warnings.len(), 2);
    assert!(c.warnings[0].starts_with(&format!(
        "{W}: role 'design' is bound to 'UI-Spec', which is retired"
    )));
    assert!(c.warnings[0].contains(RETIRED[1].reason));
    assert!(c.warnings[1].contains("role 'sql' is bound to 'ui-design'"));
    assert_eq!(
        bound(&c, "design"),
        (Some("acme/design"), Source::Global, true)
    );
    assert_eq!(bound(&c, "sql"), (Some("sql"), Source::Default, true));
}

#[test]
fn a_parse_error_is_a_warning_the_level_is_skipped_and_the_file_still_counts_as_present() {
    let c = resolve(
        &text("[skills]\ndesign = \"x\"\n"),
        &text("[skills\ndesign = \"broken\"\n"),
    );
    assert_eq!(c.warnings.len(), 1);
    assert!(
        c.warnings[0].starts_with(&format!("{W}: parse error (")),
        "{:?}",
        c.warnings
    );
    assert_eq!(bound(&c, "design"), (Some("x"), Source::Global, true));
    assert!(c.sources.workspace);
    let c = resolve(&LevelInput::Absent, &text("not toml at all ==="));
    assert!(all_default(&c));
    assert_eq!(c.warnings.len(), 1);
}

#[test]
fn an_unreadable_file_is_a_warning_and_counts_as_present() {
    let c = resolve(
        &LevelInput::Unreadable("not UTF-8 text".into()),
        &LevelInput::Absent,
    );
    assert_eq!(
        c.warnings,
        [format!("{G}: cannot be read (not UTF-8 text)")]
    );
    assert!(c.sources.global);
    assert!(all_default(&c));
}

#[test]
fn skills_must_be_a_table_and_a_missing_table_is_silent() {
    for bad in ["skills = \"design\"\n", "[[skills]]\ndesign = \"x\"\n"] {
        let c = resolve(&LevelInput::Absent, &text(bad));
        assert_eq!(
            c.warnings,
            [format!("{W}: [skills] is not a table")],
            "{bad}"
        );
        assert!(all_default(&c));
    }
    let c = resolve(
        &LevelInput::Absent,
        &text("[workspace]\ndoc_language = \"es\"\n"),
    );
    assert!(c.warnings.is_empty());
    assert!(all_default(&c));
    // Any TOML spelling of the table counts, and comments around it are no concern.
    let c = resolve(
        &LevelInput::Absent,
        &text("skills = { sql = \"a\" } # inline\n"),
    );
    assert_eq!(bound(&c, "sql"), (Some("a"), Source::Workspace, true));
    let c = resolve(&LevelInput::Absent, &text("skills.git = \"b\"\n"));
    assert_eq!(bound(&c, "git"), (Some("b"), Source::Workspace, true));
}

#[test]
fn values_are_coerced_as_js_string_and_trimmed() {
    let c = resolve(
        &LevelInput::Absent,
        &text(
            "[skills]\nsql = 1\ngit = true\nresearch = 1.5\ndiagrams = [\"a\", 2]\noverview = \"  w2 \"\n",
        ),
    );
    assert_eq!(bound(&c, "sql").0, Some("1"));
    assert_eq!(bound(&c, "git").0, Some("true"));
    assert_eq!(bound(&c, "research").0, Some("1.5"));
    assert_eq!(bound(&c, "diagrams").0, Some("a,2"));
    assert_eq!(bound(&c, "overview").0, Some("w2"));
    let c = resolve(&LevelInput::Absent, &text("[skills.design]\nx = 1\n"));
    assert_eq!(bound(&c, "design").0, Some("[object Object]"));
}

#[test]
fn a_level_lists_its_bindings_in_file_order() {
    let level = parse_level("[skills]\nsql = \"a\"\ngit = \"off\"\n", W);
    assert_eq!(
        level.bindings,
        [("sql", Binding::Skill("a".into())), ("git", Binding::Off)]
    );
}

#[test]
fn retired_names_compare_without_case() {
    assert_eq!(retired("UI-Design").map(|r| r.name), Some("ui-design"));
    assert_eq!(retired("ui-spec").map(|r| r.name), Some("ui-spec"));
    assert_eq!(retired("design"), None);
    // A retired name is never a role.
    assert!(RETIRED.iter().all(|r| default_skill(r.name).is_none()));
}

fn skill(role: &'static str, skill: Option<&str>, source: Source) -> ResolvedSkill {
    ResolvedSkill {
        role,
        skill: skill.map(str::to_owned),
        source,
        enabled: skill.is_some(),
    }
}

#[test]
fn classification_table() {
    use BindingState::*;
    // The default and an explicit canonical binding look the same.
    for s in [Source::Default, Source::Workspace, Source::Global] {
        let p = classify(Some(&skill("design", Some("design"), s)), "design");
        assert_eq!(
            p,
            BindingPolicy {
                state: FloorAndImprovements,
                reason: None,
                action: None
            }
        );
    }
    let off = classify(Some(&skill("design", None, Source::Workspace)), "design");
    assert_eq!(off.state, Off);
    assert_eq!(off.reason.as_deref(), Some("'design' is off"));
    assert_eq!(off.action, None);
    let bad = classify(
        Some(&skill("design", Some("acme-design-lab"), Source::Workspace)),
        "design",
    );
    assert_eq!(bad.state, Misconfigured);
    assert!(bad.reason.as_deref().unwrap().contains("'acme-design-lab'"));
    assert!(bad.action.as_deref().unwrap().contains("'design'"));
    assert!(bad.action.as_deref().unwrap().contains("\"off\""));
    // Canonical is compared exactly.
    assert_eq!(
        classify(
            Some(&skill("design", Some("Design"), Source::Global)),
            "design"
        )
        .state,
        Misconfigured
    );
    // No role slot for the capability: floor with improvements.
    assert_eq!(classify(None, "design").state, FloorAndImprovements);
    assert_eq!(
        [Off, FloorAndImprovements, Misconfigured].map(BindingState::as_str),
        ["off", "floor_and_improvements", "misconfigured"]
    );
}

#[test]
fn classification_from_the_cascade() {
    let c = resolve(&LevelInput::Absent, &LevelInput::Absent);
    assert_eq!(
        classify_in(&c, "design").state,
        BindingState::FloorAndImprovements
    );
    assert_eq!(
        classify_in(&c, "no-such-role").state,
        BindingState::FloorAndImprovements
    );
    let c = resolve(&LevelInput::Absent, &text("[skills]\ndesign = \"off\"\n"));
    assert_eq!(classify_in(&c, "design").state, BindingState::Off);
    let c = resolve(
        &LevelInput::Absent,
        &text("[skills]\ndesign = \"acme/figma-spec\"\n"),
    );
    assert_eq!(classify_in(&c, "design").state, BindingState::Misconfigured);
}

#[test]
fn resolved_skill_serializes_with_the_wire_keys() {
    let r = skill("research", None, Source::Workspace);
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"role":"research","skill":null,"source":"workspace","enabled":false}"#
    );
    assert_eq!(
        serde_json::to_string(&Sources::default()).unwrap(),
        r#"{"global":false,"workspace":false}"#
    );
}
