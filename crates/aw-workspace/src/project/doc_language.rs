//! Reading the language a new project block is written in: `AW_DOC_LANGUAGE`, `[workspace]
//! doc_language` in `.<ns>/skills.toml` (parsed as TOML), and the reference's traces. Which one
//! wins, and what a value means, is `aw_core::project::language`.

use crate::error::{Result, WorkspaceError};
use crate::locate::Workspace;
use crate::project::read_optional;
use aw_core::error_code::ErrorCode;
use aw_core::project::language::{self, Choice, SETTING};
use std::path::Path;

/// The language of a new block in `ws`, and why; `home` is where the reference's traces on this
/// machine are looked for (only when nothing configures the language).
pub fn choose(ws: &Workspace, home: Option<&Path>) -> Result<Choice> {
    let env = std::env::var(language::ENV).ok();
    let path = ws.state_dir().join("skills.toml");
    let setting = match read_optional(&path)? {
        Some(text) => setting(&text, &path)?,
        None => None,
    };
    let traces = || crate::project::reference_trace::traces(ws, home);
    language::choose(env.as_deref(), setting.as_deref(), traces).map_err(|e| {
        WorkspaceError::Refused {
            code: ErrorCode::InvalidInput,
            message: format!("{}.", e),
            action: e.action(),
        }
    })
}

/// `[workspace] doc_language` of a skills.toml text: `None` when the table or the key is absent;
/// a file that is not TOML, or a value that is not a string, is refused.
fn setting(text: &str, path: &Path) -> Result<Option<String>> {
    let refused = |why: String| WorkspaceError::Refused {
        code: ErrorCode::InvalidInput,
        message: format!("{} cannot be read: {why}.", path.display()),
        action: format!(
            "Fix the file (it is TOML), or set `{}` with `{} = \"en\"` or `\"es\"` under `[{}]`.",
            language::ENV,
            SETTING.1,
            SETTING.0
        ),
    };
    let doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| refused(e.message().to_owned()))?;
    let Some(item) = doc.get(SETTING.0).and_then(|t| t.get(SETTING.1)) else {
        return Ok(None);
    };
    match item.as_str() {
        Some(v) => Ok(Some(v.to_owned())),
        None => Err(refused(format!(
            "`{}` under `[{}]` must be a string",
            SETTING.1, SETTING.0
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Option<String>> {
        setting(text, Path::new("skills.toml"))
    }

    #[test]
    fn the_setting_is_read_as_toml() {
        assert_eq!(read("").unwrap(), None);
        assert_eq!(read("[skills]\n# design = \"x\"\n").unwrap(), None);
        assert_eq!(
            read("[skills]\nsql = \"sql\"\n\n[workspace]\ndoc_language = \"es\" # team\n").unwrap(),
            Some("es".to_owned())
        );
        assert_eq!(
            read("workspace = { doc_language = 'en' }\n").unwrap(),
            Some("en".to_owned()),
            "any TOML spelling of the same table"
        );
        assert_eq!(
            read("[workspace]\ndoc_language = 1\n").unwrap_err().code(),
            ErrorCode::InvalidInput
        );
        assert_eq!(
            read("[workspace\n").unwrap_err().code(),
            ErrorCode::InvalidInput
        );
        // The seeded template sets nothing, and uncommenting its lines sets the language.
        let template = aw_core::project::skills_toml::template("workflow");
        assert_eq!(read(&template).unwrap(), None);
        let on = template
            .replace("# [workspace]", "[workspace]")
            .replace("# doc_language = \"en\"", "doc_language = \"es\"");
        assert_eq!(read(&on).unwrap(), Some("es".to_owned()));
    }
}
