//! `aw stack`: the stack a folder's marker files imply.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw stack`; an unknown key is `null`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stack {
    /// The language (`Java`, `TypeScript`, …).
    pub language: Option<String>,
    /// The framework (`Spring Boot`, `Angular`, `React`, …).
    pub framework: Option<String>,
    /// The database.
    pub db: Option<String>,
    /// The build tool (`Maven`, `Gradle`, `npm`).
    pub build: Option<String>,
    /// The command that runs the build (`./mvnw`, `gradle`, `npm`, …).
    pub wrapper: Option<&'static str>,
    /// The folder looked at (for the human view only).
    #[serde(skip)]
    #[schemars(skip)]
    pub folder: String,
}

impl Stack {
    /// The output for the stack detected in `folder` and its build command.
    pub fn of(
        st: &crate::project::model::Stack,
        wrapper: Option<&'static str>,
        folder: String,
    ) -> Stack {
        Stack {
            language: st.language.clone(),
            framework: st.framework.clone(),
            db: st.db.clone(),
            build: st.build.clone(),
            wrapper,
            folder,
        }
    }
}
