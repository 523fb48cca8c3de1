//! The installed-skill inventory: skill roots, linked skill folders, the confined loader's
//! failures, replicas and collisions.

use aw_core::canonical::{is_digest, sha256_hex};
use aw_core::capability::builtin::DESIGN_DESCRIPTOR_JSON;
use aw_core::capability::inventory::State;
use aw_core::error_code::ErrorCode;
use aw_workspace::capability::inventory::scan;
use std::path::Path;

const KEY: &str = "workline-capability-descriptor";

/// A skill folder `dir` named `name` whose SKILL.md carries `locator` (none when `None`) and
/// whose `d.json` is the design descriptor; `extra` goes at the end of SKILL.md.
fn skill(dir: &Path, name: &str, locator: Option<&str>, extra: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let loc = locator.map_or(String::new(), |l| format!("  {KEY}: \"{l}\"\n"));
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\nmetadata:\n  version: '1.0.0'\n{loc}---\n# {name}\n{extra}"),
    )
    .unwrap();
    std::fs::write(dir.join("d.json"), DESIGN_DESCRIPTOR_JSON).unwrap();
}

fn sealed() -> String {
    format!(
        "d.json#sha256={}",
        sha256_hex(DESIGN_DESCRIPTOR_JSON.as_bytes())
    )
}

struct Env {
    _t: tempfile::TempDir,
    cwd: std::path::PathBuf,
    home: std::path::PathBuf,
}

fn env() -> Env {
    let t = tempfile::tempdir().unwrap();
    let (cwd, home) = (t.path().join("w"), t.path().join("h"));
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    Env { _t: t, cwd, home }
}

impl Env {
    fn scan(&self) -> Vec<aw_core::capability::inventory::Instance> {
        scan(&self.cwd, Some(&self.home))
    }
}

#[test]
fn an_installed_improvement_enters_with_its_head_digest_and_location() {
    let e = env();
    let root = e.home.join(".claude/skills");
    skill(&root.join("acme"), "acme", Some(&sealed()), "");
    // Without the locator a skill is ambient: not in the inventory.
    skill(&root.join("plain"), "plain", None, "");
    let inv = e.scan();
    assert_eq!(inv.len(), 1, "{inv:?}");
    let i = &inv[0];
    assert_eq!(
        (i.name.as_str(), i.state, i.version.as_deref()),
        ("acme", State::Ready, Some("1.0.0"))
    );
    assert!(is_digest(i.digest.as_deref().unwrap()));
    assert_eq!(i.descriptor.as_ref().unwrap().name, "design");
    assert_eq!(i.locations[0].scope, root.display().to_string());
    assert_eq!(i.locations[0].descriptor_path, "d.json");
}

#[test]
fn equal_replicas_in_two_roots_are_one_instance_with_both_scopes() {
    let e = env();
    skill(
        &e.cwd.join(".claude/skills/acme"),
        "acme",
        Some(&sealed()),
        "",
    );
    skill(
        &e.home.join(".agents/skills/acme"),
        "acme",
        Some(&sealed()),
        "",
    );
    let inv = e.scan();
    assert_eq!((inv.len(), inv[0].state), (1, State::Ready));
    let scopes: Vec<&str> = inv[0].locations.iter().map(|l| l.scope.as_str()).collect();
    assert_eq!(
        scopes,
        [
            e.cwd.join(".claude/skills").display().to_string(),
            e.home.join(".agents/skills").display().to_string()
        ]
    );
}

#[test]
fn the_same_name_with_different_bytes_collides() {
    let e = env();
    skill(
        &e.cwd.join(".claude/skills/acme"),
        "acme",
        Some(&sealed()),
        "",
    );
    skill(
        &e.home.join(".claude/skills/acme"),
        "acme",
        Some(&sealed()),
        "changed\n",
    );
    let inv = e.scan();
    assert_eq!(
        (inv[0].state, inv[0].digest.as_ref()),
        (State::Misconfigured, None)
    );
    assert_eq!(
        inv[0].failure.as_ref().unwrap().code,
        ErrorCode::CapabilityInstanceCollision
    );
}

#[test]
fn the_loaders_failures_surface_as_misconfigured() {
    let e = env();
    let root = e.home.join(".claude/skills");
    let zeros = format!("d.json#sha256={}", "0".repeat(64));
    skill(&root.join("a-zero"), "a-zero", Some(&zeros), "");
    let missing = format!("gone.json#sha256={}", "0".repeat(64));
    skill(&root.join("b-missing"), "b-missing", Some(&missing), "");
    skill(&root.join("c-retired"), "ui-design", Some(&sealed()), "");
    skill(&root.join("d-bad"), "d-bad", Some("d.json"), "");
    let inv = e.scan();
    let codes: Vec<(&str, ErrorCode)> = inv
        .iter()
        .map(|i| {
            assert_eq!(
                (i.state, i.descriptor.is_none()),
                (State::Misconfigured, true)
            );
            (i.name.as_str(), i.failure.as_ref().unwrap().code)
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("a-zero", ErrorCode::CapabilityDescriptorDigestMismatch),
            ("b-missing", ErrorCode::CapabilityDescriptorMissing),
            ("d-bad", ErrorCode::CapabilityLocatorInvalid),
            ("ui-design", ErrorCode::CapabilityNameRetired),
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_linked_skill_folder_is_followed_and_a_linked_descriptor_is_not() {
    let e = env();
    let real = e.cwd.join("elsewhere/acme");
    skill(&real, "acme", Some(&sealed()), "");
    std::fs::create_dir_all(e.home.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(&real, e.home.join(".claude/skills/acme")).unwrap();
    let inv = e.scan();
    assert_eq!((inv.len(), inv[0].state), (1, State::Ready), "{inv:?}");
    // A descriptor that is itself a link is refused.
    let other = e.cwd.join(".claude/skills/zed");
    skill(&other, "zed", Some(&sealed()), "");
    std::fs::remove_file(other.join("d.json")).unwrap();
    std::os::unix::fs::symlink(real.join("d.json"), other.join("d.json")).unwrap();
    let inv = e.scan();
    assert_eq!(
        inv[1].failure.as_ref().map(|f| f.code),
        Some(ErrorCode::CapabilityDescriptorNotConfined)
    );
}

#[test]
fn folders_without_a_closed_frontmatter_are_not_skills() {
    let e = env();
    let dir = e.cwd.join(".codex/skills/acme");
    skill(&dir, "acme", Some(&sealed()), "");
    let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    std::fs::write(dir.join("SKILL.md"), text.replace("\n---\n#", "\n#")).unwrap();
    std::fs::create_dir_all(e.cwd.join(".codex/skills/empty")).unwrap();
    assert!(e.scan().is_empty());
}
