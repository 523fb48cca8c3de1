//! The language the project block is written in.
//!
//! aw reads the block in English and in the reference's Spanish, but the reference reads only its
//! Spanish form, so a team that moves from the reference to aw one person at a time needs aw to
//! write that form. The rule:
//!
//! - a block aw edits keeps its language (a Spanish block stays Spanish, an English one English);
//! - a new block is written in the configured language: `AW_DOC_LANGUAGE` when set (it wins),
//!   else `[workspace] doc_language` in `.<ns>/skills.toml`; else the reference's Spanish when
//!   the reference has been used here (see [`super::reference_trace`]), since a teammate's
//!   reference would otherwise rewrite an English block and lose its sources; else English.

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

/// Why a block is written in the language it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The block being replaced is written in it.
    Block,
    /// `AW_DOC_LANGUAGE` asks for it.
    Environment,
    /// `[workspace] doc_language` in skills.toml asks for it.
    Setting,
    /// Nothing asks, and the reference has been used here: these traces of it were found.
    Reference(Vec<String>),
    /// Nothing asks: English.
    Default,
}

/// The language of a block, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The language.
    pub language: Language,
    /// Why.
    pub reason: Reason,
}

/// The language of a new block: the environment's value when it is set and not blank, else the
/// workspace setting, else Spanish when `reference` lists traces of the reference (looked at
/// only when nothing is configured, so it is a closure), else English. A value that is neither
/// `en` nor `es` is refused, naming where it came from, rather than silently writing the other
/// language.
pub fn choose(
    env: Option<&str>,
    setting: Option<&str>,
    reference: impl FnOnce() -> Vec<String>,
) -> Result<Choice, InputError> {
    let (value, from, reason) = match (env.filter(|v| !v.trim().is_empty()), setting) {
        (Some(v), _) => (v, ENV.to_owned(), Reason::Environment),
        (None, Some(v)) => (
            v,
            format!("`{}` in `[{}]` of skills.toml", SETTING.1, SETTING.0),
            Reason::Setting,
        ),
        (None, None) => {
            let traces = reference();
            return Ok(if traces.is_empty() {
                Choice {
                    language: Language::English,
                    reason: Reason::Default,
                }
            } else {
                Choice {
                    language: Language::Spanish,
                    reason: Reason::Reference(traces),
                }
            });
        }
    };
    let language = Language::parse(value).ok_or_else(|| InputError::DocLanguage {
        value: value.to_owned(),
        from,
    })?;
    Ok(Choice { language, reason })
}

/// The language to write a block in: the language of the block being replaced when it has
/// one, else `fallback` (the workspace's, see [`configured`]).
pub fn for_block(existing: Option<Language>, fallback: Language) -> Language {
    existing.unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configured(env: Option<&str>, setting: Option<&str>) -> Result<Language, InputError> {
        choose(env, setting, Vec::new).map(|c| c.language)
    }

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
    fn traces_of_the_reference_ask_for_spanish_unless_a_setting_says_otherwise() {
        let traces = || vec![".workflow/processes.json".to_owned()];
        assert_eq!(
            choose(None, None, traces),
            Ok(Choice {
                language: Language::Spanish,
                reason: Reason::Reference(traces())
            })
        );
        let asked = |env, setting| choose(env, setting, || panic!("not looked at")).unwrap();
        assert_eq!(asked(Some("en"), None).reason, Reason::Environment);
        assert_eq!(asked(None, Some("en")).language, Language::English);
        assert_eq!(asked(None, Some("en")).reason, Reason::Setting);
        assert_eq!(
            choose(None, None, Vec::new).unwrap().reason,
            Reason::Default
        );
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
