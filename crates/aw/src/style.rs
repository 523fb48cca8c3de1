//! Colour and terminal safety for the human views, decided in one place.
//!
//! Colour is on only when stdout is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not
//! `dumb`. Every piece of user-supplied text a view shows (titles, objectives, names, paths) goes
//! through [`clean`], and the whole human text goes through [`for_terminal`] as it is written, so
//! no control character from a document can move the cursor, retitle the window or ring the bell.

use anstyle::{AnsiColor, Effects, Style};
use std::borrow::Cow;
use std::ffi::OsStr;

/// Whether colour is on, from the facts that decide it.
pub fn color_wanted(is_terminal: bool, no_color: Option<&OsStr>, term: Option<&OsStr>) -> bool {
    is_terminal && no_color.is_none_or(OsStr::is_empty) && term.is_none_or(|t| t != "dumb")
}

/// Whether colour is on for this process's stdout.
pub fn color_enabled() -> bool {
    use std::io::IsTerminal;
    color_wanted(
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
    )
}

/// Paints text in the few styles the views use, or leaves it plain when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// A painter; `on` is the resolved colour decision.
    pub fn new(on: bool) -> Self {
        Paint { on }
    }

    fn apply(self, style: Style, s: &str) -> String {
        if self.on {
            format!("{}{s}{}", style.render(), style.render_reset())
        } else {
            s.to_owned()
        }
    }

    /// Bold.
    pub fn bold(self, s: &str) -> String {
        self.apply(Style::new().effects(Effects::BOLD), s)
    }

    /// Dimmed.
    pub fn dim(self, s: &str) -> String {
        self.apply(Style::new().effects(Effects::DIMMED), s)
    }

    /// Red: something is wrong.
    pub fn red(self, s: &str) -> String {
        self.apply(fg(AnsiColor::Red), s)
    }

    /// Green: done, valid, active.
    pub fn green(self, s: &str) -> String {
        self.apply(fg(AnsiColor::Green), s)
    }

    /// Yellow: needs attention.
    pub fn yellow(self, s: &str) -> String {
        self.apply(fg(AnsiColor::Yellow), s)
    }

    /// Bold red: a failure's heading.
    pub fn bold_red(self, s: &str) -> String {
        self.apply(fg(AnsiColor::Red).effects(Effects::BOLD), s)
    }

    /// Bold, in a colour.
    pub fn bold_in(self, color: AnsiColor, s: &str) -> String {
        self.apply(fg(color).effects(Effects::BOLD), s)
    }
}

fn fg(color: AnsiColor) -> Style {
    Style::new().fg_color(Some(color.into()))
}

/// User-supplied text made safe to show on one line: every control character (escape, carriage
/// return, bell, newline, tab, the C1 set, …) is removed.
pub fn clean(s: &str) -> Cow<'_, str> {
    if s.chars().any(char::is_control) {
        Cow::Owned(s.chars().filter(|c| !c.is_control()).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// A whole human text made safe for a terminal, as it is written: newlines and tabs stay; when
/// colour is on, the colour sequences (`ESC [ digits;… m`) stay too; every other control
/// character is removed. It catches what a view did not [`clean`].
pub fn for_terminal(text: &str, color: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && color
            && let Some(len) = sgr_len(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if !unsafe_char(c) {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of a colour sequence (`ESC [ [0-9;]* m`) at the start of `s`.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\u{1b}[")?;
    let params = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (body.as_bytes().get(params) == Some(&b'm')).then_some(2 + params + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_needs_a_terminal_and_no_opt_out() {
        let some = |s: &'static str| Some(OsStr::new(s));
        assert!(color_wanted(true, None, some("xterm-256color")));
        assert!(
            color_wanted(true, some(""), None),
            "an empty NO_COLOR is unset"
        );
        assert!(!color_wanted(false, None, some("xterm")));
        assert!(!color_wanted(true, some("1"), some("xterm")));
        assert!(!color_wanted(true, None, some("dumb")));
    }

    #[test]
    fn paint_is_plain_when_off() {
        assert_eq!(Paint::new(false).bold_red("x"), "x");
        let red = Paint::new(true).red("x");
        assert!(red.starts_with("\u{1b}[") && red.contains('x') && red.ends_with('m'));
        assert_eq!(for_terminal(&red, true), red, "our colour survives");
    }

    #[test]
    fn user_text_loses_its_control_characters() {
        assert_eq!(clean("plain title"), "plain title");
        assert_eq!(
            clean("a\u{1b}]0;pwned\u{7}b\r\nc\u{9b}2Jd"),
            "a]0;pwnedbc2Jd"
        );
    }

    #[test]
    fn the_terminal_guard_keeps_layout_and_only_our_kind_of_escape() {
        let text = "line\tone\n\u{1b}[2J\u{1b}]0;title\u{7}\r\u{1b}[1;31mred\u{1b}[0m\n";
        assert_eq!(
            for_terminal(text, true),
            "line\tone\n[2J]0;title\u{1b}[1;31mred\u{1b}[0m\n"
        );
        assert_eq!(
            for_terminal(text, false),
            "line\tone\n[2J]0;title[1;31mred[0m\n",
            "without colour no escape is written at all"
        );
        assert!(matches!(for_terminal("calm\n", true), Cow::Borrowed(_)));
    }
}
