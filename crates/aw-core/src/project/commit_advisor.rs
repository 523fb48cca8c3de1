//! What `aw hook git-commit-advisor` says before a host runs a shell command: when the command
//! commits with a message that does not name the one active session (`session<NNN>`), it
//! advises the agent to add the tag. It never blocks (exit 0 always); the advice goes to stderr.
//!
//! - **Off** with `AW_COMMIT_ADVISOR=off` (any case).
//! - **The call**: `tool_name` exactly `Bash`, and `tool_input.command` holding `git commit`
//!   (whole words, any blanks between).
//! - **The message**: the first `-m "…"` or `-m '…'` after a blank, backslash escapes undone;
//!   a commit without one (`--message=`, `-F`, a heredoc, an editor) is not judged.
//! - **The session**: exactly one active session in the workspace, whose folder carries a
//!   number of three digits or more (`001-…` or the older `session001-…`); else nothing to say.
//! - **The tag**: `session<digits>` (three or more, any case, whole word) anywhere in the
//!   message silences the advice, whatever the number.

use super::pretool::payload_object;
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

/// The longest message the advice quotes whole, in UTF-16 units (the reference's count).
pub const QUOTED_MAX: usize = 60;

// The reference's patterns; `\b` is an ASCII word boundary, as in JavaScript. A pattern that
// failed to compile would make the advisor silent, never crash it.
static GIT_COMMIT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)git\s+commit(?-u:\b)").ok());
static MESSAGE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r#"\s-m\s+(?:"((?:[^"\\]|\\[^\n\r\x{2028}\x{2029}])*)"|'((?:[^'\\]|\\[^\n\r\x{2028}\x{2029}])*)')"#,
    )
    .ok()
});
static TAG: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i-u)\bsession[0-9]{3,}\b").ok());

/// The commit message a payload's shell command gives with `-m`, when the payload is a `Bash`
/// call running `git commit -m …`; `None` for anything else (garbage included).
pub fn commit_message(payload: &str) -> Option<String> {
    let map = payload_object(payload)?;
    if map.get("tool_name").and_then(Value::as_str) != Some("Bash") {
        return None;
    }
    let command = map
        .get("tool_input")?
        .as_object()?
        .get("command")?
        .as_str()
        .filter(|c| !c.is_empty())?;
    if !GIT_COMMIT.as_ref()?.is_match(command) {
        return None;
    }
    let caps = MESSAGE.as_ref()?.captures(command)?;
    let quoted = caps.get(1).or_else(|| caps.get(2))?.as_str();
    Some(unescape(quoted))
}

/// `text` with each backslash escape replaced by the character it escapes (a backslash before
/// a line end stays, as the reference's pattern leaves it).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&n)) if !matches!(n, '\n' | '\r' | '\u{2028}' | '\u{2029}') => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// A session folder's number as written (`001-x` → `001`, `session0042-y` → `0042`, `007` →
/// `007`): three digits or more, then `-` or the end.
pub fn session_number(folder: &str) -> Option<&str> {
    let digits_of = |rest: &'_ str| -> Option<usize> {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        (n >= 3 && matches!(rest.as_bytes().get(n), None | Some(b'-'))).then_some(n)
    };
    if let Some(rest) = folder.strip_prefix("session")
        && let Some(n) = digits_of(rest)
    {
        return Some(&rest[..n]);
    }
    digits_of(folder).map(|n| &folder[..n])
}

/// The advice to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice {
    /// The active session's folder.
    pub folder: String,
    /// Its number, as written.
    pub number: String,
    /// The commit message.
    pub message: String,
}

/// The advice for `message` given the active sessions' folders: `None` unless exactly one is
/// active, it carries a number, and the message names no session.
pub fn advise(message: &str, active: &[String]) -> Option<Advice> {
    let [folder] = active else {
        return None;
    };
    let number = session_number(folder)?;
    if TAG.as_ref().is_none_or(|t| t.is_match(message)) {
        return None;
    }
    Some(Advice {
        folder: folder.clone(),
        number: number.to_owned(),
        message: message.to_owned(),
    })
}

impl Advice {
    /// What stderr says, prefixed with `display` (the runtime's `displayName`, else `aw`).
    pub fn text(&self, display: &str) -> String {
        let tag = format!("session{}", self.number);
        format!(
            "[{display} git-commit-advisor] The commit message does not name the active session.\n\
             \x20 session:  {tag} ({})\n\
             \x20 message:  \"{}\"\n\
             \x20 expected: the tag `{tag}`, e.g. at the end: \"({tag})\"\n\
             \n\
             This is advice only: the commit goes ahead. Amend the message to carry the tag,\n\
             so the commit can be traced to its session.\n\
             \n\
             To silence this advice: AW_COMMIT_ADVISOR=off\n",
            self.folder,
            quoted(&self.message)
        )
    }
}

/// `message` whole when at most [`QUOTED_MAX`] UTF-16 units, else its first ones and `...`
/// (never cutting a character in two).
fn quoted(message: &str) -> String {
    if aw_json::js::utf16_len(message) <= QUOTED_MAX {
        return message.to_owned();
    }
    let mut units = 0;
    let cut: String = message
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units <= QUOTED_MAX
        })
        .collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash(command: &str) -> String {
        serde_json::json!({"session_id": "s", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "commit"}})
        .to_string()
    }

    #[test]
    fn the_message_comes_from_the_first_quoted_dash_m() {
        let m = |c: &str| commit_message(&bash(c));
        assert_eq!(
            m(r#"git commit -m "feat: add x""#).as_deref(),
            Some("feat: add x")
        );
        assert_eq!(m("git  commit -a -m 'fix: y'").as_deref(), Some("fix: y"));
        assert_eq!(
            m(r#"git commit -m "say \"hi\" \\ ok""#).as_deref(),
            Some(r#"say "hi" \ ok"#)
        );
        assert_eq!(
            m(r#"cd x && git commit -m "a" -m "b""#).as_deref(),
            Some("a")
        );
        assert_eq!(m("git commit --message='x'"), None);
        assert_eq!(m("git commit -F msg.txt"), None);
        assert_eq!(m("git commit <<EOF\nx\nEOF"), None);
        // `\b` holds before a dash: `git commit-tree` counts, as in the reference.
        assert_eq!(m(r#"git commit-tree -m "x""#).as_deref(), Some("x"));
        assert_eq!(m(r#"git log -m "x""#), None);
        assert_eq!(m(r#"mygit commit -m "x""#), None);
        assert_eq!(m(r#"git commit -m"x""#), None);
    }

    #[test]
    fn only_a_bash_call_with_a_command_is_read() {
        let other = r#"{"tool_name":"Shell","tool_input":{"command":"git commit -m \"x\""}}"#;
        assert_eq!(commit_message(other), None);
        for text in [
            "",
            "x",
            "[]",
            "{}",
            r#"{"tool_name":"Bash","tool_input":{"command":7}}"#,
        ] {
            assert_eq!(commit_message(text), None, "{text}");
        }
    }

    #[test]
    fn numbers_are_read_as_written_in_both_layouts() {
        assert_eq!(session_number("001-one-quick"), Some("001"));
        assert_eq!(session_number("session0042-x"), Some("0042"));
        assert_eq!(session_number("007"), Some("007"));
        assert_eq!(session_number("12-x"), None);
        assert_eq!(session_number("login-fix"), None);
        assert_eq!(session_number("001x"), None);
    }

    #[test]
    fn advice_needs_one_numbered_active_session_and_no_tag() {
        let one = ["001-one-quick".to_owned()];
        let a = advise("feat: add x", &one).unwrap();
        assert_eq!(a.number, "001");
        let text = a.text("aw");
        assert!(text.contains("session001 (001-one-quick)"));
        assert!(text.contains("AW_COMMIT_ADVISOR=off"));
        assert_eq!(advise("feat: y (session001)", &one), None);
        assert_eq!(advise("feat: y (SESSION0999)", &one), None);
        assert!(advise("feat: y (session01)", &one).is_some());
        assert!(advise("feat: y (mysession001)", &one).is_some());
        assert_eq!(advise("x", &[]), None);
        assert_eq!(advise("x", &["001-a".into(), "002-b".into()]), None);
        assert_eq!(advise("x", &["login-fix".into()]), None);
    }

    #[test]
    fn a_long_message_is_cut_to_sixty_units() {
        let long = "é".repeat(70);
        let a = advise(&long, &["001-a".to_owned()]).unwrap();
        assert!(a.text("aw").contains(&format!("\"{}...\"", "é".repeat(60))));
        let emoji = format!("{}{}", "a".repeat(59), "😀😀");
        assert_eq!(quoted(&emoji), format!("{}...", "a".repeat(59)));
    }
}
