//! `aw stack [--project-dir <dir>]`: the marker-file rules of the project block's stack, on any
//! folder.

use crate::support::Ws;
use serde_json::json;

#[test]
fn the_workspace_root_by_default_or_the_folder_named() {
    let w = Ws::initialised();
    assert_eq!(
        w.ok(&["stack"]),
        json!({"language": null, "framework": null, "db": null, "build": null, "wrapper": null})
    );
    w.write("package.json", r#"{"devDependencies":{"typescript":"5"}}"#);
    assert_eq!(
        w.ok(&["stack"]),
        json!({"language": "TypeScript", "framework": "Node", "db": null, "build": "npm", "wrapper": "npm"})
    );
    w.write("api/build.gradle.kts", "");
    w.write("api/package.json", "{}");
    assert_eq!(
        w.ok(&["stack", "--project-dir", "api"]),
        json!({"language": "Java", "framework": "Spring Boot", "db": null, "build": "Gradle", "wrapper": "gradle"})
    );
    // The project's own wrapper script is the build command when it has one (the reference's
    // `wrapper` key).
    w.write("api/gradlew", "#!/bin/sh\n");
    assert_eq!(
        w.ok(&["stack", "--project-dir", "api"])["wrapper"],
        "./gradlew"
    );
    // From a subfolder, the default is still the workspace root; --project-dir is taken from
    // the current folder.
    let v = w.ok_in(&w.root().join("api"), &["stack"]);
    assert_eq!(v["framework"], "Node");
    let v = w.ok_in(&w.root().join("api"), &["stack", "--project-dir", "."]);
    assert_eq!(v["build"], "Gradle");
}

#[test]
fn a_missing_folder_is_refused_and_the_human_view_lists_every_key() {
    let w = Ws::bare();
    let v = w.fails(&["stack", "--project-dir", "nowhere"], "INVALID_INPUT");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`nowhere`")
    );
    w.write("web/angular.json", "{}");
    let (code, text) = w.text(&["stack", "--project-dir", "web", "--format", "human"]);
    assert_eq!(code, 0);
    assert_eq!(
        text,
        "stack · web\n  Language   TypeScript\n  Framework  Angular\n  Database   unknown\n  Build      npm\n  Command    ng\n"
    );
}
