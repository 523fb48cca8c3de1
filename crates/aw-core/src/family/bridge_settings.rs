//! The bridge settings file (`agent-workflow/bridge-settings.conf`): its line format, the edits
//! `set` and `unset` make, how a setting's effective value is resolved, and how `reconcile`
//! classifies the keys a file holds. Text in, text out: reading and writing the file is
//! aw-workspace's.
//!
//! The format is the one the family's wrappers parse (they never source the file): a setting is
//! a line that starts, at its first byte, with a key (`[A-Za-z_][A-Za-z0-9_]*`) and `=`;
//! everything after the first `=` is the value, byte for byte (blanks included), as long as it
//! holds no line break: a line ending in `\r\n` is malformed, as the kit's reader reads it. A
//! line that is blank, or whose first non-blank character is `#`, is a comment; any other line is
//! malformed and means nothing. An edit of a key also takes a malformed line that starts `KEY=`. A key written twice takes
//! its last value. Every line the user wrote keeps its bytes and its place across an edit, except
//! the lines of the key being set or unset; a line aw writes ends with `\n`.

use serde::Serialize;

/// One line of the file, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    /// The line without its terminator.
    text: String,
    /// Whether it ended with `\r\n` rather than `\n` (or the end of the file).
    crlf: bool,
    /// What the line is.
    kind: LineKind,
}

/// What a line of the file is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineKind {
    /// Blank or a comment.
    Comment,
    /// A setting: its key and value.
    Setting(String, String),
    /// Neither: the wrappers skip it.
    Malformed,
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
/// control character (which would end the line and start another key, or reach the wrapper as
/// a byte it refuses), and no blank at either end (which a reader trimming the value would
/// lose). Checked before the kind's own rule, whatever a manifest allows.
pub fn writable_value(value: &str) -> bool {
    !value
        .chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
        && value.trim_matches([' ', '\t']) == value
}

/// Reads one line (with its carriage return, if any: it is part of the value the wrappers see).
fn classify(raw: &str) -> LineKind {
    // Blank and comment lines may be indented by any white space, a byte-order mark included.
    let lead = raw.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if lead.is_empty() || lead.starts_with('#') {
        return LineKind::Comment;
    }
    let key_len = raw
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let starts_well = raw
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    match raw[key_len..].strip_prefix('=') {
        // A line break inside the value (a carriage return, U+2028, U+2029) ends the match the
        // kit's reader makes, so such a line sets nothing: a CRLF line is malformed there.
        Some(value) if starts_well && !value.contains(['\r', '\u{2028}', '\u{2029}']) => {
            LineKind::Setting(raw[..key_len].to_owned(), value.to_owned())
        }
        _ => LineKind::Malformed,
    }
}

impl SettingsFile {
    /// Parses the file's text (an absent file is the empty text).
    pub fn parse(text: &str) -> Self {
        let final_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() {
            Vec::new()
        } else {
            let count = body.split('\n').count();
            body.split('\n')
                .enumerate()
                .map(|(i, raw)| {
                    // Only a line ended by `\n` can end with `\r\n`; a last line without a
                    // terminator keeps its carriage return as text.
                    let terminated = i + 1 < count || final_newline;
                    let (text, crlf) = match raw.strip_suffix('\r').filter(|_| terminated) {
                        Some(t) => (t, true),
                        None => (raw, false),
                    };
                    Line {
                        text: text.to_owned(),
                        crlf,
                        kind: classify(raw),
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

    /// Whether an edit of `key` takes the line: a setting of the key, or a malformed line that
    /// starts `key=` (a CRLF line of it, say), as the kit's writer matches lines.
    fn edits(l: &Line, key: &str) -> bool {
        match &l.kind {
            LineKind::Setting(k, _) => k == key,
            LineKind::Malformed => l
                .text
                .strip_prefix(key)
                .is_some_and(|rest| rest.starts_with('=')),
            LineKind::Comment => false,
        }
    }

    fn setting(l: &Line) -> Option<(&str, &str)> {
        match &l.kind {
            LineKind::Setting(k, v) => Some((k, v)),
            _ => None,
        }
    }

    /// Every `KEY=value` line, in file order.
    pub fn entries(&self) -> Vec<FileEntry> {
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                Self::setting(l).map(|(k, v)| FileEntry {
                    key: k.to_owned(),
                    value: v.to_owned(),
                    line: i + 1,
                })
            })
            .collect()
    }

    /// The 1-based numbers of the lines that are neither a setting nor a comment.
    pub fn malformed(&self) -> Vec<usize> {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.kind == LineKind::Malformed)
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// The value the file gives `key`: its last line's.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .rev()
            .filter_map(Self::setting)
            .find_map(|(k, v)| (k == key).then_some(v))
    }

    /// Sets `key` to `value`: its first line is rewritten in place and any later line of the
    /// same key dropped (so the file no longer holds a stale duplicate); a new key is appended.
    /// Returns whether the text changed.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        let before = self.render();
        let is_key = |l: &Line| Self::edits(l, key);
        let line = Line {
            text: format!("{key}={value}"),
            // A carriage return would become part of the value.
            crlf: false,
            kind: LineKind::Setting(key.to_owned(), value.to_owned()),
        };
        match self.lines.iter().position(is_key) {
            Some(first) => {
                let mut i = 0;
                self.lines.retain(|l| {
                    let keep = i <= first || !is_key(l);
                    i += 1;
                    keep
                });
                if self.lines[first].kind != line.kind || self.lines[first].crlf {
                    self.lines[first] = line;
                }
            }
            None => {
                self.lines.push(line);
                self.final_newline = true;
            }
        }
        self.render() != before
    }

    /// Removes every line of `key`; returns how many there were.
    pub fn unset(&mut self, key: &str) -> usize {
        let before = self.lines.len();
        self.lines.retain(|l| !Self::edits(l, key));
        if self.lines.is_empty() {
            self.final_newline = false;
        }
        before - self.lines.len()
    }
}

/// Where an effective value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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

/// Why a value that was set is not the one in effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum IgnoredWhy {
    /// Its kind refuses it; the next source applies.
    Refused,
    /// The environment variable is set but empty: the wrappers then skip the file's line, so the
    /// built-in value applies.
    Empty,
    /// The wrapper refuses to run at all with this value (a control character, or a refused
    /// value of a key whose wrapper stops on one).
    RefusesRun,
}

/// A value that was set but is not the one in effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Ignored {
    /// Where it was set.
    pub source: Source,
    /// The value.
    pub value: String,
    /// Why it is not in effect.
    pub reason: IgnoredWhy,
}

/// A setting's effective value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effective {
    /// The value; `None` when neither env, file nor default gives one.
    pub value: Option<String>,
    /// Where it came from.
    pub source: Source,
    /// Values set above it that are not in effect, and why.
    pub ignored: Vec<Ignored>,
}

/// How the wrappers treat a key's environment variable, which the family kit's reader mirrors:
/// most values are passed on unjudged; an enum value, and a value of the timeout keys whose
/// wrappers resolve them, is judged by its kind; one byte cap is judged after its leading zeros
/// are dropped and stops the run when refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvRule {
    /// Used as given.
    Raw,
    /// Judged by the kind; a refused value leaves the built-in value in effect.
    Judged,
    /// Judged after its leading zeros are dropped; a refused value stops the run.
    StopsRun,
}

/// The keys whose wrappers judge an environment value (their timeout resolvers).
const JUDGED_ENV_KEYS: [&str; 2] = ["CODEX_HARD_TIMEOUT", "AGY_HARD_TIMEOUT"];
/// The keys whose wrappers refuse to run on a refused environment value.
const STOPPING_ENV_KEYS: [&str; 1] = ["AGY_REVIEW_MAX_TOTAL_BYTES"];

/// The rule for `key`'s environment variable; `is_enum` when its kind is enum.
pub fn env_rule(key: &str, is_enum: bool) -> EnvRule {
    if STOPPING_ENV_KEYS.contains(&key) {
        EnvRule::StopsRun
    } else if is_enum || JUDGED_ENV_KEYS.contains(&key) {
        EnvRule::Judged
    } else {
        EnvRule::Raw
    }
}

/// Drops the leading zeros of an all-digit value, keeping one digit.
fn without_leading_zeros(v: &str) -> &str {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return v;
    }
    let trimmed = v.trim_start_matches('0');
    if trimmed.is_empty() {
        &v[v.len() - 1..]
    } else {
        trimmed
    }
}

/// Resolves env > file > default as the wrappers do. An environment variable that is set, even
/// empty, decides alone: the file is not read for that key. Empty means the built-in value; a
/// value is then used as `rule` says. Without one, the file's value applies when its kind
/// (`accepts`) takes it, else the default.
pub fn resolve(
    env: Option<&str>,
    rule: EnvRule,
    file: Option<&str>,
    default: Option<&str>,
    accepts: &dyn Fn(&str) -> bool,
) -> Effective {
    let fallback = |ignored: Vec<Ignored>| Effective {
        value: default.map(str::to_owned),
        source: Source::Default,
        ignored,
    };
    let ignored = |source, value: &str, reason| {
        vec![Ignored {
            source,
            value: value.to_owned(),
            reason,
        }]
    };
    if let Some(v) = env {
        let found = |value: &str| Effective {
            value: Some(value.to_owned()),
            source: Source::Env,
            ignored: Vec::new(),
        };
        if v.is_empty() {
            return fallback(ignored(Source::Env, v, IgnoredWhy::Empty));
        }
        let control = v.chars().any(char::is_control);
        return match rule {
            EnvRule::Raw => found(v),
            _ if control => fallback(ignored(Source::Env, v, IgnoredWhy::RefusesRun)),
            EnvRule::Judged if accepts(v) => found(v),
            EnvRule::Judged => fallback(ignored(Source::Env, v, IgnoredWhy::Refused)),
            EnvRule::StopsRun => {
                let canonical = without_leading_zeros(v);
                if accepts(canonical) {
                    found(canonical)
                } else {
                    fallback(ignored(Source::Env, v, IgnoredWhy::RefusesRun))
                }
            }
        };
    }
    match file {
        Some(v) if accepts(v) => Effective {
            value: Some(v.to_owned()),
            source: Source::File,
            ignored: Vec::new(),
        },
        Some(v) => fallback(ignored(Source::File, v, IgnoredWhy::Refused)),
        None => fallback(Vec::new()),
    }
}

/// The value of a setting that is active: set in the environment or the file to something other
/// than its default (the family's "active knob"); `None` when the default applies.
pub fn active<'e>(eff: &'e Effective, default: Option<&str>) -> Option<&'e str> {
    let value = eff.value.as_deref()?;
    (eff.source != Source::Default && Some(value) != default).then_some(value)
}

/// What `reconcile` makes of one line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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

impl KeyClass {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyClass::Unknown => "unknown",
            KeyClass::Retired => "retired",
            KeyClass::Duplicate => "duplicate",
            KeyClass::Current => "current",
        }
    }
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

/// What `reconcile` says of a file as a whole (the kit's outcomes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// No file.
    Absent,
    /// A file the wrappers cannot use (not a regular file, unreadable).
    Unusable,
    /// It holds unknown or retired keys.
    Flagged,
    /// It sets a key twice.
    Duplicates,
    /// Every key is current.
    Ok,
}

/// The outcome of a file whose lines were classified.
pub fn outcome(classes: &[(FileEntry, KeyClass)]) -> Outcome {
    let has = |c: KeyClass| classes.iter().any(|(_, x)| *x == c);
    if has(KeyClass::Unknown) || has(KeyClass::Retired) {
        Outcome::Flagged
    } else if has(KeyClass::Duplicate) {
        Outcome::Duplicates
    } else {
        Outcome::Ok
    }
}

/// A settings key and the member that declares it first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declared<'m, M, E> {
    /// The declaring member.
    pub member: &'m M,
    /// Its declaration of the key.
    pub entry: &'m E,
}

/// Every key the members declare, in member then declaration order; the first declaration of a
/// key wins, as the wrappers read the first manifest that names it.
pub fn first_declarations<'m, M, E>(
    members: &'m [M],
    entries: impl Fn(&'m M) -> &'m [E],
    key: impl Fn(&E) -> &str,
) -> Vec<Declared<'m, M, E>> {
    let mut out: Vec<Declared<'m, M, E>> = Vec::new();
    for member in members {
        for entry in entries(member) {
            if !out.iter().any(|d| key(d.entry) == key(entry)) {
                out.push(Declared { member, entry });
            }
        }
    }
    out
}

/// The declaration of `key` (`key_of` gives an entry's key), when a member declares it.
pub fn declared<'d, 'm, M, E>(
    known: &'d [Declared<'m, M, E>],
    key: &str,
    key_of: impl Fn(&E) -> &str,
) -> Option<&'d Declared<'m, M, E>> {
    known.iter().find(|d| key_of(d.entry) == key)
}

/// How the declarations know `key`: not at all, retired (`retired` says whether an entry is),
/// or in force; the first declaration decides.
pub fn known_as<M, E>(
    known: &[Declared<'_, M, E>],
    key: &str,
    key_of: impl Fn(&E) -> &str,
    retired: impl Fn(&E) -> bool,
) -> Known {
    match declared(known, key, key_of) {
        None => Known::No,
        Some(d) if retired(d.entry) => Known::Retired,
        Some(_) => Known::Current,
    }
}

/// Why `set` refuses a value for a declared key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal<'e> {
    /// The key is retired, for this reason: it arms nothing, whatever the value.
    Retired(&'e str),
    /// The value cannot be written on a line, or the key's kind refuses it.
    Value,
}

/// Whether `set` may write `value` for a key declared with `retired` (why it is retired, when it
/// is) and the kind's check `accepts`: a retired key never; then the value must be writable on
/// one line ([`writable_value`]) and accepted by its kind.
pub fn check_set<'e>(
    retired: Option<&'e str>,
    value: &str,
    accepts: impl Fn(&str) -> bool,
) -> Result<(), Refusal<'e>> {
    if let Some(why) = retired {
        return Err(Refusal::Retired(why));
    }
    if !writable_value(value) || !accepts(value) {
        return Err(Refusal::Value);
    }
    Ok(())
}

/// How many of a file's classified lines fall in each class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Declared and in force.
    pub current: usize,
    /// Declared by no member.
    pub unknown: usize,
    /// Retired.
    pub retired: usize,
    /// Set again on a later line.
    pub duplicate: usize,
}

impl Counts {
    /// Counts the classified lines.
    pub fn of(classes: &[(FileEntry, KeyClass)]) -> Counts {
        let mut c = Counts::default();
        for (_, class) in classes {
            match class {
                KeyClass::Current => c.current += 1,
                KeyClass::Unknown => c.unknown += 1,
                KeyClass::Retired => c.retired += 1,
                KeyClass::Duplicate => c.duplicate += 1,
            }
        }
        c
    }

    /// Whether every line is current (true of a file with no key line).
    pub fn all_current(&self) -> bool {
        self.unknown == 0 && self.retired == 0 && self.duplicate == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_file_reads_back_as_itself() {
        // `aw family settings set|unset` report the file as written without reading it again: what
        // they report of it (its settings and its malformed lines) must be what a reread gives.
        // (A last line's carriage return may read back as its terminator once a line follows.)
        for text in [
            "",
            "A=1",
            "A=1\n",
            "# c\r\nA=1\r\nbad line\nA=2\nB=x\r",
            "A=1\r\nA\r=2\n\n",
        ] {
            for edit in [
                (|f: &mut SettingsFile| {
                    f.set("A", "9");
                }) as fn(&mut SettingsFile),
                |f| {
                    f.set("C", "3");
                },
                |f| {
                    f.unset("A");
                },
                |f| {
                    f.unset("B");
                },
            ] {
                let mut f = SettingsFile::parse(text);
                edit(&mut f);
                let again = SettingsFile::parse(&f.render());
                assert_eq!(again.entries(), f.entries(), "{text:?}");
                assert_eq!(again.malformed(), f.malformed(), "{text:?}");
                assert_eq!(again.render(), f.render(), "{text:?}");
            }
        }
    }

    #[test]
    fn set_refuses_a_retired_key_before_its_value() {
        let any = |_: &str| true;
        let none = |_: &str| false;
        assert_eq!(
            check_set(Some("why"), "1", any),
            Err(Refusal::Retired("why"))
        );
        assert_eq!(
            check_set(Some("why"), "1", none),
            Err(Refusal::Retired("why"))
        );
        assert_eq!(check_set(None, "1", none), Err(Refusal::Value));
        assert_eq!(check_set(None, " 1", any), Err(Refusal::Value));
        assert_eq!(check_set(None, "a\nB=1", any), Err(Refusal::Value));
        assert_eq!(check_set(None, "1", any), Ok(()));
    }

    #[test]
    fn the_first_declaration_says_how_a_key_is_known() {
        // (member, [(key, retired)]): b's retired X comes second and does not count.
        let members = [
            ("a", vec![("X", false), ("R", true)]),
            ("b", vec![("X", true), ("Y", false)]),
        ];
        let known = first_declarations(&members, |m| m.1.as_slice(), |e| e.0);
        let how = |k: &str| known_as(&known, k, |e| e.0, |e| e.1);
        assert_eq!(how("X"), Known::Current);
        assert_eq!(how("R"), Known::Retired);
        assert_eq!(how("Y"), Known::Current);
        assert_eq!(how("Z"), Known::No);
        assert_eq!(
            declared(&known, "Y", |e| e.0).map(|d| d.member.0),
            Some("b")
        );
    }

    #[test]
    fn counts_tally_each_class_and_all_current_needs_no_other() {
        let file = SettingsFile::parse("A=1\nB=2\nA=3\nR=4\n");
        let known = |k: &str| match k {
            "A" => Known::Current,
            "R" => Known::Retired,
            _ => Known::No,
        };
        let c = Counts::of(&reconcile(&file, &known));
        assert_eq!(
            c,
            Counts {
                current: 1,
                unknown: 1,
                retired: 1,
                duplicate: 1
            }
        );
        assert!(!c.all_current());
        assert!(Counts::of(&[]).all_current());
    }

    #[test]
    fn the_first_declaration_of_a_key_wins() {
        let members = [("a", vec!["X", "Y"]), ("b", vec!["Y", "Z"])];
        let found = first_declarations(&members, |m| m.1.as_slice(), |e| e);
        let pairs: Vec<(&str, &str)> = found.iter().map(|d| (d.member.0, *d.entry)).collect();
        assert_eq!(pairs, [("a", "X"), ("a", "Y"), ("b", "Z")]);
    }

    const TEXT: &str = "# my knobs\nA=1\n\n  # keep this\nB = 5m\nnot a setting\nA=2\n";

    #[test]
    fn parse_reads_settings_as_the_wrappers_do_and_render_gives_the_bytes_back() {
        let f = SettingsFile::parse(TEXT);
        assert_eq!(f.render(), TEXT);
        let keys: Vec<_> = f
            .entries()
            .into_iter()
            .map(|e| (e.key, e.value, e.line))
            .collect();
        assert_eq!(
            keys,
            [("A".into(), "1".into(), 2), ("A".into(), "2".into(), 7)]
        );
        assert_eq!(f.malformed(), [5, 6], "spaces around `=` make no setting");
        assert_eq!(f.value("A"), Some("2"), "the last line wins");
        for t in ["", "no newline", "A=1\r\nB=2\r\n", "\n\n", "A=1\r\nB=2\r"] {
            assert_eq!(SettingsFile::parse(t).render(), t);
        }
    }

    #[test]
    fn the_value_is_every_byte_after_the_first_equals_sign() {
        let f = SettingsFile::parse("A= 5m \nB=x=y\r\nC=\n_d1=ok\nD=a\u{2028}b\nE=9\r");
        assert_eq!(f.value("A"), Some(" 5m "));
        assert_eq!(f.value("B"), None, "a CRLF line sets nothing");
        assert_eq!(f.value("D"), None);
        assert_eq!(f.value("E"), None, "nor a last line ending in a bare CR");
        assert_eq!(f.malformed(), [2, 5, 6]);
        assert_eq!(f.value("C"), Some(""));
        assert_eq!(f.value("_d1"), Some("ok"));
        for bad in [
            " A=1",
            "export A=1",
            "1A=1",
            "A-B=1",
            "\u{feff}A=1",
            "=1",
            "A",
        ] {
            let f = SettingsFile::parse(bad);
            assert!(f.entries().is_empty(), "{bad:?}");
            assert_eq!(f.malformed(), [1], "{bad:?}");
        }
        for comment in ["  # x", "\t", "\u{feff}# x", "#A=1"] {
            let f = SettingsFile::parse(comment);
            assert!(
                f.entries().is_empty() && f.malformed().is_empty(),
                "{comment:?}"
            );
        }
    }

    #[test]
    fn set_rewrites_in_place_drops_later_duplicates_and_keeps_comments() {
        let mut f = SettingsFile::parse(TEXT);
        assert!(f.set("A", "3"));
        assert_eq!(
            f.render(),
            "# my knobs\nA=3\n\n  # keep this\nB = 5m\nnot a setting\n"
        );
        assert!(f.set("C", "x"));
        assert!(f.render().ends_with("not a setting\nC=x\n"));
        assert!(!f.set("C", "x"), "the same value writes nothing");
        let mut g = SettingsFile::parse("# only a comment");
        g.set("A", "1");
        assert_eq!(g.render(), "# only a comment\nA=1\n");
    }

    #[test]
    fn a_line_aw_writes_ends_with_a_bare_newline() {
        // In a CRLF file every line is malformed; an edit rewrites the key's line clean.
        let mut f = SettingsFile::parse("X=1\r\nY=2\r\n");
        assert_eq!(f.value("Y"), None);
        f.set("Y", "2");
        f.set("Z", "3");
        assert_eq!(f.render(), "X=1\r\nY=2\nZ=3\n");
        let mut g = SettingsFile::parse("A=1\r\nB=2");
        g.set("C", "3");
        assert_eq!(g.render(), "A=1\r\nB=2\nC=3\n");
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
            "# my knobs\n\n  # keep this\nB = 5m\nnot a setting\n"
        );
        assert_eq!(f.unset("Z"), 0);
        assert_eq!(f.unset("B"), 0, "a malformed line is no key");
    }

    fn digits(v: &str) -> bool {
        !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && v != "0"
    }

    fn at(e: &Effective) -> (Option<&str>, Source) {
        (e.value.as_deref(), e.source)
    }

    #[test]
    fn env_set_decides_alone_and_empty_means_the_built_in_value() {
        let r = resolve(Some("7"), EnvRule::Judged, Some("8"), Some("9"), &digits);
        assert_eq!(at(&r), (Some("7"), Source::Env));
        let r = resolve(Some(""), EnvRule::Judged, Some("8"), Some("9"), &digits);
        assert_eq!(at(&r), (Some("9"), Source::Default), "the file is skipped");
        assert_eq!(r.ignored[0].reason, IgnoredWhy::Empty);
        let r = resolve(Some("x"), EnvRule::Judged, Some("8"), Some("9"), &digits);
        assert_eq!(at(&r), (Some("9"), Source::Default), "not the file's 8");
        assert_eq!(r.ignored[0].reason, IgnoredWhy::Refused);
        let r = resolve(None, EnvRule::Judged, Some("8"), None, &digits);
        assert_eq!(at(&r), (Some("8"), Source::File));
        let r = resolve(None, EnvRule::Judged, Some("y"), None, &digits);
        assert_eq!(at(&r), (None, Source::Default));
        assert_eq!(r.ignored[0].source, Source::File);
    }

    #[test]
    fn env_rules_raw_judged_and_stops_run() {
        let r = resolve(Some("weird"), EnvRule::Raw, None, Some("9"), &digits);
        assert_eq!(at(&r), (Some("weird"), Source::Env), "passed on unjudged");
        let r = resolve(Some("5\u{1}"), EnvRule::Judged, None, Some("9"), &digits);
        assert_eq!(r.ignored[0].reason, IgnoredWhy::RefusesRun);
        let r = resolve(Some("008000"), EnvRule::StopsRun, None, Some("9"), &digits);
        assert_eq!(at(&r), (Some("8000"), Source::Env));
        let r = resolve(Some("lots"), EnvRule::StopsRun, None, Some("9"), &digits);
        assert_eq!(at(&r), (Some("9"), Source::Default));
        assert_eq!(r.ignored[0].reason, IgnoredWhy::RefusesRun);
        let r = resolve(Some("000"), EnvRule::StopsRun, None, Some("9"), &digits);
        assert_eq!(
            r.ignored[0].reason,
            IgnoredWhy::RefusesRun,
            "0 stays refused"
        );
        assert_eq!(env_rule("CODEX_HARD_TIMEOUT", false), EnvRule::Judged);
        assert_eq!(env_rule("CODEX_SERVICE_TIER", true), EnvRule::Judged);
        assert_eq!(
            env_rule("CODEX_REVIEW_MAX_TOTAL_BYTES", false),
            EnvRule::Raw
        );
        assert_eq!(
            env_rule("AGY_REVIEW_MAX_TOTAL_BYTES", false),
            EnvRule::StopsRun
        );
    }

    #[test]
    fn reconcile_classes_and_outcome() {
        let f = SettingsFile::parse("A=1\nOLD=1\nA=2\nWHO=1\n");
        let known = |k: &str| match k {
            "A" => Known::Current,
            "OLD" => Known::Retired,
            _ => Known::No,
        };
        let classes: Vec<KeyClass> = reconcile(&f, &known).into_iter().map(|(_, c)| c).collect();
        assert_eq!(
            classes,
            [
                KeyClass::Current,
                KeyClass::Retired,
                KeyClass::Duplicate,
                KeyClass::Unknown
            ]
        );
        assert_eq!(outcome(&reconcile(&f, &known)), Outcome::Flagged);
        let dup = SettingsFile::parse("A=1\nA=2\n");
        assert_eq!(outcome(&reconcile(&dup, &known)), Outcome::Duplicates);
        let ok = SettingsFile::parse("A=1\n# x\n");
        assert_eq!(outcome(&reconcile(&ok, &known)), Outcome::Ok);
    }
}
