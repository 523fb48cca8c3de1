//! The `skills.toml` cascade read from a real home folder and workspace.

use aw_core::capability::bindings::{BindingState, Source, classify_in};
use aw_workspace::capability::skill_bindings::{global_path, read, workspace_path};
use aw_workspace::locate::{NamespaceSource, Workspace};
use std::path::Path;

fn ws(root: &Path, ns: &str) -> Workspace {
    let w = Workspace {
        root: root.to_path_buf(),
        ns: ns.into(),
        ns_source: NamespaceSource::Default,
        initialized: true,
    };
    std::fs::create_dir_all(w.state_dir()).unwrap();
    w
}

fn write(path: &Path, text: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn home_and_workspace_files_cascade_under_the_workspace_namespace() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let w = ws(&dir.path().join("ws"), "acme");
    assert_eq!(global_path(&home, "acme"), home.join(".acme/skills.toml"));
    assert_eq!(workspace_path(&w), w.root.join(".acme/skills.toml"));
    // A file under the default namespace is not this workspace's.
    write(
        &home.join(".workflow/skills.toml"),
        b"[skills]\nresearch = \"wrong-ns\"\n",
    );
    write(
        &global_path(&home, "acme"),
        b"# mine\n[skills]\nsql = \"global-sql\"\ngit = \"global-git\"\ndesign = \"off\"\n",
    );
    write(
        &workspace_path(&w),
        b"[skills]\nsql = \"ws-sql\"\ndesign = \"acme/figma-spec\"\nfrobnicate = \"x\"\n",
    );
    let c = read(&w, Some(&home));
    let at = |role: &str| {
        let r = c.role(role).unwrap();
        (r.skill.clone(), r.source, r.enabled)
    };
    assert_eq!(at("sql"), (Some("ws-sql".into()), Source::Workspace, true));
    assert_eq!(at("git"), (Some("global-git".into()), Source::Global, true));
    assert_eq!(
        at("design"),
        (Some("acme/figma-spec".into()), Source::Workspace, true)
    );
    assert_eq!(
        at("research"),
        (Some("research".into()), Source::Default, true)
    );
    assert!(c.sources.global && c.sources.workspace);
    assert_eq!(
        c.warnings,
        [format!(
            "{}: unknown role 'frobnicate' ignored",
            workspace_path(&w).display()
        )]
    );
    assert_eq!(classify_in(&c, "design").state, BindingState::Misconfigured);
    // The files are only read, never rewritten.
    assert!(
        std::fs::read_to_string(global_path(&home, "acme"))
            .unwrap()
            .starts_with("# mine\n")
    );
}

#[test]
fn missing_files_and_no_home_give_the_defaults_without_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path(), "workflow");
    for home in [None, Some(dir.path().join("nohome"))] {
        let c = read(&w, home.as_deref());
        assert!(c.warnings.is_empty());
        assert!(!c.sources.global && !c.sources.workspace);
        assert!(c.skills.iter().all(|s| s.source == Source::Default));
    }
}

#[test]
fn an_unreadable_file_is_a_warning_and_the_other_level_still_applies() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let w = ws(&dir.path().join("ws"), "workflow");
    write(
        &global_path(&home, "workflow"),
        b"[skills]\nsql = \"\xff\"\n",
    );
    write(&workspace_path(&w), b"[skills]\ngit = \"g2\"\n");
    let c = read(&w, Some(&home));
    assert_eq!(
        c.warnings,
        [format!(
            "{}: cannot be read (it is not UTF-8 text)",
            global_path(&home, "workflow").display()
        )]
    );
    assert!(c.sources.global);
    assert_eq!(c.role("sql").unwrap().source, Source::Default);
    assert_eq!(c.role("git").unwrap().skill.as_deref(), Some("g2"));
    // A folder where the file should be: a warning too, never an error.
    let w2 = ws(&dir.path().join("ws2"), "workflow");
    std::fs::create_dir_all(workspace_path(&w2)).unwrap();
    let c = read(&w2, None);
    assert_eq!(c.warnings.len(), 1);
    assert!(c.sources.workspace);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_skills_toml_is_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let w = ws(dir.path(), "workflow");
    let status = std::process::Command::new("mkfifo")
        .arg(workspace_path(&w))
        .status()
        .unwrap();
    assert!(status.success());
    let c = read(&w, None);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.skills.iter().all(|s| s.source == Source::Default));
}
