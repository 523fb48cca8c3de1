//! Stack detection: which build files a folder holds says which language, framework and build
//! tool it uses.

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
}

fn java(build: &str) -> Stack {
    Stack {
        language: Some("Java".into()),
        framework: Some("Spring Boot".into()),
        db: None,
        build: Some(build.into()),
    }
}

/// The stack a folder's build files imply (empty when none is recognised). The first rule that
/// matches wins: Maven, Gradle, Angular, then `package.json`.
pub fn detect(p: &StackProbe) -> Stack {
    if p.pom {
        return java("Maven");
    }
    if p.gradle {
        return java("Gradle");
    }
    if p.angular {
        return Stack {
            language: Some("TypeScript".into()),
            framework: Some("Angular".into()),
            db: None,
            build: Some("npm".into()),
        };
    }
    let Some(text) = &p.package_json else {
        return Stack::default();
    };
    // An unreadable package.json still says "a Node project"; its dependencies just stay unknown.
    let manifest: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let deps: Vec<&str> = ["dependencies", "devDependencies", "peerDependencies"]
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
    Stack {
        language: Some(language.into()),
        framework: Some(framework.into()),
        db: None,
        build: Some("npm".into()),
    }
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
    }
}
