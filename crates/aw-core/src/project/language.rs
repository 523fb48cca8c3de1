//! The language the project block is written in.
//!
//! aw reads the block in English and in the reference's Spanish, but the reference reads only its
//! Spanish form, so a team that moves from the reference to aw one person at a time needs aw to
//! write that form. The rule:
//!
//! - a block aw edits keeps its language (a Spanish block stays Spanish, an English one English);
//! - a new block is written in the configured language: `AW_DOC_LANGUAGE` when set (it wins),
//!   else `[workspace] doc_language` in `.<ns>/skills.toml`, else English.

use super::InputError;

/// The environment variable that chooses the language of a new block.
pub const ENV: &str = "AW_DOC_LANGUAGE";

/// Where the setting lives in `.<ns>/skills.toml`: table and key.
pub const SETTING: (&str, &str) = ("workspace", "doc_language");

/// A language aw writes the block in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Language {
    /// Our English headings and labels (the default).
    #[default]
    English,
    /// The reference's Spanish form, the only one the reference reads.
    Spanish,
}

impl Language {
    /// The setting's value: `en` or `es`.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Spanish => "es",
        }
    }

    /// Reads a setting's value (`en` or `es`, any case, surrounding blanks ignored).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "en" => Some(Language::English),
            "es" => Some(Language::Spanish),
            _ => None,
        }
    }
}

/// The language of a new block: the environment's value when it is set and not blank, else the
/// workspace setting, else English. A value that is neither `en` nor `es` is refused, naming
/// where it came from, rather than silently writing the other language.
pub fn configured(env: Option<&str>, setting: Option<&str>) -> Result<Language, InputError> {
    let (value, from) = match (env.filter(|v| !v.trim().is_empty()), setting) {
        (Some(v), _) => (v, ENV.to_owned()),
        (None, Some(v)) => (
            v,
            format!("`{}` in `[{}]` of skills.toml", SETTING.1, SETTING.0),
        ),
        (None, None) => return Ok(Language::English),
    };
    Language::parse(value).ok_or_else(|| InputError::DocLanguage {
        value: value.to_owned(),
        from,
    })
}

/// The language to write a block in: the language of the block being replaced when it has
/// one, else `fallback` (the workspace's, see [`configured`]).
pub fn for_block(existing: Option<Language>, fallback: Language) -> Language {
    existing.unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_wins_then_the_setting_then_english() {
        assert_eq!(configured(None, None), Ok(Language::English));
        assert_eq!(configured(None, Some("es")), Ok(Language::Spanish));
        assert_eq!(configured(Some(" ES "), Some("en")), Ok(Language::Spanish));
        assert_eq!(configured(Some("en"), Some("es")), Ok(Language::English));
        assert_eq!(
            configured(Some("  "), Some("es")),
            Ok(Language::Spanish),
            "a blank variable is unset"
        );
        let e = configured(Some("fr"), None).unwrap_err();
        assert!(e.to_string().contains("AW_DOC_LANGUAGE"), "{e}");
        assert!(e.action().contains("`es`"));
        let e = configured(None, Some("spanish")).unwrap_err();
        assert!(e.to_string().contains("doc_language"), "{e}");
    }

    #[test]
    fn an_existing_block_keeps_its_language() {
        assert_eq!(
            for_block(Some(Language::Spanish), Language::English),
            Language::Spanish
        );
        assert_eq!(
            for_block(Some(Language::English), Language::Spanish),
            Language::English
        );
        assert_eq!(for_block(None, Language::Spanish), Language::Spanish);
        assert_eq!(Language::Spanish.code(), "es");
        assert_eq!(Language::default(), Language::English);
    }
}
