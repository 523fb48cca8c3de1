//! Stack detection: which build files a folder holds says which language, framework and build
//! tool it uses, and the command that runs the build (the reference's `wrapper`).

use super::model::Stack;
use serde_json::Value;

/// What the shell found in one folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackProbe {
    /// `pom.xml` exists.
    pub pom: bool,
    /// `build.gradle` or `build.gradle.kts` exists.
    pub gradle: bool,
    /// `angular.json` exists.
    pub angular: bool,
    /// The text of `package.json`, when it exists.
    pub package_json: Option<String>,
    /// `mvnw` exists.
    pub mvnw: bool,
    /// `mvnw.cmd` exists.
    pub mvnw_cmd: bool,
    /// `gradlew` exists.
    pub gradlew: bool,
    /// `gradlew.bat` exists.
    pub gradlew_bat: bool,
}

/// What a folder's build files say: the stack, and the command that runs its build (`None`
/// when no build file is recognised).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Detected {
    /// Language, framework and build tool.
    pub stack: Stack,
    /// The build command: the project's own wrapper script when it has one (`./mvnw`,
    /// `./gradlew`, or their Windows forms), else the tool (`mvn`, `gradle`, `ng`, `npm`).
    pub wrapper: Option<&'static str>,
}

fn java(build: &str) -> Stack {
    Stack {
        language: Some("Java".into()),
        framework: Some("Spring Boot".into()),
        db: None,
        build: Some(build.into()),
    }
}

/// The stack a folder's build files imply (empty when none is recognised).
pub fn detect(p: &StackProbe) -> Stack {
    detect_full(p).stack
}

/// The stack and build command a folder's build files imply. The first rule that matches wins:
/// Maven, Gradle, Angular, then `package.json`.
pub fn detect_full(p: &StackProbe) -> Detected {
    let found = |stack: Stack, wrapper: &'static str| Detected {
        stack,
        wrapper: Some(wrapper),
    };
    if p.pom {
        let wrapper = match (p.mvnw, p.mvnw_cmd) {
            (true, _) => "./mvnw",
            (false, true) => "./mvnw.cmd",
            _ => "mvn",
        };
        return found(java("Maven"), wrapper);
    }
    if p.gradle {
        let wrapper = match (p.gradlew, p.gradlew_bat) {
            (true, _) => "./gradlew",
            (false, true) => "./gradlew.bat",
            _ => "gradle",
        };
        return found(java("Gradle"), wrapper);
    }
    if p.angular {
        let stack = Stack {
            language: Some("TypeScript".into()),
            framework: Some("Angular".into()),
            db: None,
            build: Some("npm".into()),
        };
        return found(stack, "ng");
    }
    let Some(text) = &p.package_json else {
        return Detected::default();
    };
    // An unreadable package.json still says "a Node project"; its dependencies just stay unknown.
    let manifest: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let deps: Vec<&str> = ["dependencies", "devDependencies"]
        .iter()
        .filter_map(|k| manifest.get(k).and_then(Value::as_object))
        .flat_map(|m| m.keys().map(String::as_str))
        .collect();
    let framework = if deps.contains(&"react") {
        "React"
    } else if deps.contains(&"vue") {
        "Vue"
    } else {
        "Node"
    };
    let language = if deps.iter().any(|d| d.contains("typescript")) {
        "TypeScript"
    } else {
        "JavaScript"
    };
    let stack = Stack {
        language: Some(language.into()),
        framework: Some(framework.into()),
        db: None,
        build: Some("npm".into()),
    };
    found(stack, "npm")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(text: &str) -> StackProbe {
        StackProbe {
            package_json: Some(text.into()),
            ..StackProbe::default()
        }
    }

    #[test]
    fn build_files_in_priority_order() {
        let all = StackProbe {
            pom: true,
            gradle: true,
            angular: true,
            package_json: Some("{}".into()),
            ..StackProbe::default()
        };
        assert_eq!(detect(&all).build.as_deref(), Some("Maven"));
        let gradle = StackProbe {
            gradle: true,
            angular: true,
            ..StackProbe::default()
        };
        assert_eq!(detect(&gradle).build.as_deref(), Some("Gradle"));
        let ng = StackProbe {
            angular: true,
            ..pkg("{\"dependencies\":{\"react\":\"1\"}}")
        };
        assert_eq!(detect(&ng).framework.as_deref(), Some("Angular"));
        assert!(detect(&StackProbe::default()).is_empty());
    }

    #[test]
    fn package_json_dependencies_decide() {
        let react = detect(&pkg(
            r#"{"dependencies":{"react":"18"},"devDependencies":{"@types/typescript-x":"1"}}"#,
        ));
        assert_eq!(
            (react.language.as_deref(), react.framework.as_deref()),
            (Some("TypeScript"), Some("React"))
        );
        let vue = detect(&pkg(r#"{"dependencies":{"vue":"3"}}"#));
        assert_eq!(
            (vue.language.as_deref(), vue.framework.as_deref()),
            (Some("JavaScript"), Some("Vue"))
        );
        let broken = detect(&pkg("not json"));
        assert_eq!(
            (broken.framework.as_deref(), broken.build.as_deref()),
            (Some("Node"), Some("npm"))
        );
        // As in the reference, peer dependencies say nothing about the framework.
        let peer = detect(&pkg(r#"{"peerDependencies":{"react":"18"}}"#));
        assert_eq!(peer.framework.as_deref(), Some("Node"));
    }

    #[test]
    fn the_build_command_prefers_the_projects_own_wrapper() {
        let w = |p: StackProbe| detect_full(&p).wrapper;
        let pom = StackProbe {
            pom: true,
            ..StackProbe::default()
        };
        assert_eq!(w(pom.clone()), Some("mvn"));
        assert_eq!(
            w(StackProbe {
                mvnw_cmd: true,
                ..pom.clone()
            }),
            Some("./mvnw.cmd")
        );
        assert_eq!(
            w(StackProbe {
                mvnw: true,
                mvnw_cmd: true,
                ..pom
            }),
            Some("./mvnw")
        );
        let gradle = StackProbe {
            gradle: true,
            ..StackProbe::default()
        };
        assert_eq!(w(gradle.clone()), Some("gradle"));
        assert_eq!(
            w(StackProbe {
                gradlew_bat: true,
                ..gradle.clone()
            }),
            Some("./gradlew.bat")
        );
        assert_eq!(
            w(StackProbe {
                gradlew: true,
                ..gradle
            }),
            Some("./gradlew")
        );
        let ng = StackProbe {
            angular: true,
            ..StackProbe::default()
        };
        assert_eq!(w(ng), Some("ng"));
        assert_eq!(w(pkg("{}")), Some("npm"));
        assert_eq!(
            w(StackProbe {
                mvnw: true,
                ..StackProbe::default()
            }),
            None
        );
    }
}
