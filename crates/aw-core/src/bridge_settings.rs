//! The bridge settings file (`agent-workflow/bridge-settings.conf`): its line format, the edits
//! `set` and `unset` make, how a setting's effective value is resolved, and how `reconcile`
//! classifies the keys a file holds. Text in, text out: reading and writing the file is
//! aw-workspace's.
//!
//! The format is one `KEY=value` per line, optionally preceded by `export ` as a shell file
//! would write it. Blank lines and lines whose first non-blank character is `#` are comments;
//! spaces and tabs around the key and the value are not part of them. A key written twice takes
//! its last value, as a shell reading the file in order would. Every
//! line the user wrote keeps its bytes and its place across an edit, except the lines of the key
//! being set or unset.

use serde::Serialize;

/// One line of the file, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    /// The line without its terminator.
    text: String,
    /// Whether it ended with `\r\n` rather than `\n` (or the end of the file).
    crlf: bool,
    /// The setting it holds, when it is one.
    entry: Option<(String, String)>,
    /// Whether the setting was written `export KEY=value` (a rewrite keeps the word).
    exported: bool,
}

/// A parsed settings file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SettingsFile {
    lines: Vec<Line>,
    /// Whether the last line ended with a line terminator.
    final_newline: bool,
}

/// One `KEY=value` line of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileEntry {
    /// The key.
    pub key: String,
    /// The value.
    pub value: String,
    /// The 1-based line number.
    pub line: usize,
}

/// Whether `value` can be written as one line and read back as itself: no line break or other
/// control character (which would end the line and start another key), and no blank at either
/// end (which the reader trims). Checked before the kind's own rule, whatever a manifest allows.
pub fn writable_value(value: &str) -> bool {
    !value.chars().any(char::is_control) && value.trim_matches([' ', '\t']) == value
}

/// Splits a line into its key and value, and says whether it began with `export`; `None` for a
/// comment, a blank or a line without `=` before which there is a key.
fn parse_entry(text: &str) -> Option<(String, String, bool)> {
    // A byte-order mark at the start of the file is not part of the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start_matches([' ', '\t']);
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let (key, value) = trimmed.split_once('=')?;
    let key = key.trim_matches([' ', '\t']);
    // `export KEY=value` sets KEY for a shell that sources the file; the word is not the key.
    let (key, exported) = match key
        .strip_prefix("export")
        .filter(|rest| rest.starts_with([' ', '\t']))
    {
        Some(rest) => (rest.trim_start_matches([' ', '\t']), true),
        None => (key, false),
    };
    if key.is_empty() {
        return None;
    }
    Some((
        key.to_owned(),
        value.trim_matches([' ', '\t']).to_owned(),
        exported,
    ))
}

impl SettingsFile {
    /// Parses the file's text (an absent file is the empty text).
    pub fn parse(text: &str) -> Self {
        let final_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n')
                .map(|raw| {
                    let (text, crlf) = match raw.strip_suffix('\r') {
                        Some(t) => (t, true),
                        None => (raw, false),
                    };
                    let parsed = parse_entry(text);
                    Line {
                        text: text.to_owned(),
                        crlf,
                        exported: parsed.as_ref().is_some_and(|p| p.2),
                        entry: parsed.map(|(k, v, _)| (k, v)),
                    }
                })
                .collect()
        };
        SettingsFile {
            lines,
            final_newline,
        }
    }

    /// The file's text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, l) in self.lines.iter().enumerate() {
            out.push_str(&l.text);
            let last = i + 1 == self.lines.len();
            if !last || self.final_newline {
                out.push_str(if l.crlf { "\r\n" } else { "\n" });
            }
        }
        out
    }

    /// Every `KEY=value` line, in file order.
    pub fn entries(&self) -> Vec<FileEntry> {
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                l.entry.as_ref().map(|(k, v)| FileEntry {
                    key: k.clone(),
                    value: v.clone(),
                    line: i + 1,
                })
            })
            .collect()
    }

    /// The value the file gives `key`: its last line's.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.lines.iter().rev().find_map(|l| match &l.entry {
            Some((k, v)) if k == key => Some(v.as_str()),
            _ => None,
        })
    }

    /// Sets `key` to `value`: its first line is rewritten in place and any later line of the
    /// same key dropped (so the file no longer holds a stale duplicate); a new key is appended.
    /// Returns whether the text changed.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        let before = self.render();
        let is_key = |l: &Line| l.entry.as_ref().is_some_and(|(k, _)| k == key);
        match self.lines.iter().position(is_key) {
            Some(first) => {
                let mut i = 0;
                self.lines.retain(|l| {
                    let keep = i <= first || !is_key(l);
                    i += 1;
                    keep
                });
                let line = &mut self.lines[first];
                // An identical value keeps the user's spacing.
                if line.entry.as_ref().map(|(_, v)| v.as_str()) != Some(value) {
                    let export = if line.exported { "export " } else { "" };
                    line.text = format!("{export}{key}={value}");
                    line.entry = Some((key.to_owned(), value.to_owned()));
                }
            }
            None => {
                // Follow the file's own line ending: the first terminated line's. An unterminated
                // last line gets that ending too, now that a line follows it.
                let crlf = self.crlf_style();
                if let Some(last) = self.lines.last_mut()
                    && !self.final_newline
                {
                    last.crlf = crlf;
                }
                self.lines.push(Line {
                    text: format!("{key}={value}"),
                    crlf,
                    entry: Some((key.to_owned(), value.to_owned())),
                    exported: false,
                });
                self.final_newline = true;
            }
        }
        self.render() != before
    }

    /// Whether the file ends its lines with `\r\n`: its first terminated line decides.
    fn crlf_style(&self) -> bool {
        let terminated = if self.final_newline {
            self.lines.len()
        } else {
            self.lines.len().saturating_sub(1)
        };
        self.lines[..terminated].first().is_some_and(|l| l.crlf)
    }

    /// Removes every line of `key`; returns how many there were.
    pub fn unset(&mut self, key: &str) -> usize {
        let before = self.lines.len();
        self.lines
            .retain(|l| l.entry.as_ref().is_none_or(|(k, _)| k != key));
        if self.lines.is_empty() {
            self.final_newline = false;
        }
        before - self.lines.len()
    }
}

/// Where an effective value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The environment variable named like the key.
    Env,
    /// The settings file.
    File,
    /// The manifest's default (which may be none: the wrapper's built-in value applies).
    Default,
}

impl Source {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Env => "env",
            Source::File => "file",
            Source::Default => "default",
        }
    }
}

/// A value that was set but not used because its kind refuses it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ignored {
    /// Where it was set.
    pub source: Source,
    /// The refused value.
    pub value: String,
}

/// A setting's effective value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effective {
    /// The value; `None` when neither env, file nor default gives one.
    pub value: Option<String>,
    /// Where it came from.
    pub source: Source,
    /// Values set above it that the kind refused.
    pub ignored: Vec<Ignored>,
}

/// Resolves env > file > default. An empty environment variable counts as unset; a value the
/// kind refuses (`accepts`) is skipped, and recorded, so the next source applies.
pub fn resolve(
    env: Option<&str>,
    file: Option<&str>,
    default: Option<&str>,
    accepts: &dyn Fn(&str) -> bool,
) -> Effective {
    let mut ignored = Vec::new();
    for (source, value) in [
        (Source::Env, env.filter(|v| !v.is_empty())),
        (Source::File, file),
    ] {
        let Some(value) = value else { continue };
        if accepts(value) {
            return Effective {
                value: Some(value.to_owned()),
                source,
                ignored,
            };
        }
        ignored.push(Ignored {
            source,
            value: value.to_owned(),
        });
    }
    Effective {
        value: default.map(str::to_owned),
        source: Source::Default,
        ignored,
    }
}

/// The value of a setting that is active: set in the environment or the file to something other
/// than its default (the family's "active knob"); `None` when the default applies.
pub fn active<'e>(eff: &'e Effective, default: Option<&str>) -> Option<&'e str> {
    let value = eff.value.as_deref()?;
    (eff.source != Source::Default && Some(value) != default).then_some(value)
}

/// What `reconcile` makes of one line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyClass {
    /// No member declares it.
    Unknown,
    /// Declared but retired: recognized, arms nothing.
    Retired,
    /// An earlier line already sets it (the later line wins).
    Duplicate,
    /// Declared and in force.
    Current,
}

/// How the registry knows a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Not at all.
    No,
    /// In force.
    Current,
    /// Retired.
    Retired,
}

/// Classifies each `KEY=value` line: unknown first, then retired, then a repeat of an earlier
/// line, else current.
pub fn reconcile(file: &SettingsFile, known: &dyn Fn(&str) -> Known) -> Vec<(FileEntry, KeyClass)> {
    // A set, so a file of many keys costs one lookup per line.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    file.entries()
        .into_iter()
        .map(|e| {
            let repeat = !seen.insert(e.key.clone());
            let class = match known(&e.key) {
                Known::No => KeyClass::Unknown,
                Known::Retired => KeyClass::Retired,
                Known::Current if repeat => KeyClass::Duplicate,
                Known::Current => KeyClass::Current,
            };
            (e, class)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# my knobs\nA=1\n\n  # keep this\nB = 5m \nnot a setting\nA=2\n";

    #[test]
    fn parse_reads_entries_and_render_gives_the_bytes_back() {
        let f = SettingsFile::parse(TEXT);
        assert_eq!(f.render(), TEXT);
        let keys: Vec<_> = f
            .entries()
            .into_iter()
            .map(|e| (e.key, e.value, e.line))
            .collect();
        assert_eq!(
            keys,
            [
                ("A".into(), "1".into(), 2),
                ("B".into(), "5m".into(), 5),
                ("A".into(), "2".into(), 7)
            ]
        );
        assert_eq!(f.value("A"), Some("2"), "the last line wins");
        for t in ["", "no newline", "A=1\r\nB=2\r\n", "\n\n"] {
            assert_eq!(SettingsFile::parse(t).render(), t);
        }
    }

    #[test]
    fn set_rewrites_in_place_drops_later_duplicates_and_keeps_comments() {
        let mut f = SettingsFile::parse(TEXT);
        assert!(f.set("A", "3"));
        assert_eq!(
            f.render(),
            "# my knobs\nA=3\n\n  # keep this\nB = 5m \nnot a setting\n"
        );
        assert!(f.set("C", "x"));
        assert!(f.render().ends_with("not a setting\nC=x\n"));
        assert!(!f.set("B", "5m"), "the same value keeps the user's spacing");
        let mut g = SettingsFile::parse("# only a comment");
        g.set("A", "1");
        assert_eq!(g.render(), "# only a comment\nA=1\n");
        let mut h = SettingsFile::parse("X=1\r\n");
        h.set("Y", "2");
        assert_eq!(h.render(), "X=1\r\nY=2\r\n");
    }

    #[test]
    fn an_export_line_is_the_key_and_a_rewrite_keeps_the_word() {
        let mut f = SettingsFile::parse("export A=1\nexport\tB = 2\nexportC=3\nexport =4\n");
        let keys: Vec<_> = f.entries().into_iter().map(|e| (e.key, e.value)).collect();
        assert_eq!(
            keys,
            [
                ("A".into(), "1".into()),
                ("B".into(), "2".into()),
                ("exportC".into(), "3".into()),
                ("export".into(), "4".into())
            ]
        );
        assert!(f.set("A", "9"));
        assert!(f.render().starts_with("export A=9\n"));
        assert_eq!(f.unset("B"), 1);
    }

    #[test]
    fn an_unterminated_last_line_takes_the_files_ending_when_a_line_follows() {
        let mut f = SettingsFile::parse("A=1\r\nB=2");
        f.set("C", "3");
        assert_eq!(f.render(), "A=1\r\nB=2\r\nC=3\r\n");
        let mut g = SettingsFile::parse("A=1\nB=2");
        g.set("C", "3");
        assert_eq!(g.render(), "A=1\nB=2\nC=3\n");
        let mut h = SettingsFile::parse("A=1");
        h.set("C", "3");
        assert_eq!(h.render(), "A=1\nC=3\n");
    }

    #[test]
    fn unset_removes_every_line_of_the_key_only() {
        let mut f = SettingsFile::parse(TEXT);
        assert_eq!(f.unset("A"), 2);
        assert_eq!(
            f.render(),
            "# my knobs\n\n  # keep this\nB = 5m \nnot a setting\n"
        );
        assert_eq!(f.unset("Z"), 0);
    }

    #[test]
    fn resolve_is_env_then_file_then_default_skipping_refused_values() {
        let digits = |v: &str| v.bytes().all(|b| b.is_ascii_digit());
        let r = resolve(Some("7"), Some("8"), Some("9"), &digits);
        assert_eq!((r.value.as_deref(), r.source), (Some("7"), Source::Env));
        let r = resolve(Some(""), Some("8"), Some("9"), &digits);
        assert_eq!((r.value.as_deref(), r.source), (Some("8"), Source::File));
        assert!(r.ignored.is_empty(), "an empty env var is unset");
        let r = resolve(Some("x"), Some("y"), None, &digits);
        assert_eq!((r.value, r.source), (None, Source::Default));
        assert_eq!(r.ignored.len(), 2);
    }

    #[test]
    fn reconcile_classes() {
        let f = SettingsFile::parse("A=1\nOLD=1\nA=2\nWHO=1\n");
        let known = |k: &str| match k {
            "A" => Known::Current,
            "OLD" => Known::Retired,
            _ => Known::No,
        };
        let classes: Vec<_> = reconcile(&f, &known).into_iter().map(|(_, c)| c).collect();
        assert_eq!(
            classes,
            [
                KeyClass::Current,
                KeyClass::Retired,
                KeyClass::Duplicate,
                KeyClass::Unknown
            ]
        );
    }
}
