//! Colour and terminal safety for the human views, decided in one place.
//!
//! Colour is on when stdout is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`
//! (`CLICOLOR_FORCE`, set and not `0`, turns it on without a terminal; `NO_COLOR` still wins).
//! The global `--color always|never` decides instead of all of them; `--color auto` is the rule
//! above. The choice is recorded once per process ([`choose`]), before anything is printed.
//! Every piece of user-supplied text a view shows (titles, objectives, names, paths) goes through
//! [`clean`], and human text bound for a terminal goes through [`for_terminal`] as it is written,
//! which keeps only the colour sequences [`Paint`] itself writes: no control character from a
//! document can move the cursor, conceal text, retitle the window or ring the bell.

use anstyle::{AnsiColor, Effects, Style};
use std::borrow::Cow;
use std::ffi::OsStr;
use std::sync::OnceLock;

/// `--color`: when the human views and help are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (`CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Always, whatever the variables say and wherever stdout goes.
    Always,
    /// Never.
    Never,
}

/// The process's `--color` choice, recorded once by the command line.
static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Records the `--color` choice for every later [`stdout_sink`]; only the first call counts.
pub fn choose(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// Where human text goes: whether it is bound for a terminal, and whether colour is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sink {
    /// Stdout is a terminal, or colour was forced (text meant to be shown on one).
    pub terminal: bool,
    /// Colour is on.
    pub color: bool,
}

/// The facts that decide colour.
#[derive(Debug, Clone, Copy, Default)]
pub struct ColorEnv<'a> {
    /// Stdout is a terminal.
    pub is_terminal: bool,
    /// `NO_COLOR`.
    pub no_color: Option<&'a OsStr>,
    /// `TERM`.
    pub term: Option<&'a OsStr>,
    /// `CLICOLOR_FORCE`.
    pub force: Option<&'a OsStr>,
    /// `--color`: `always` and `never` win over every variable above.
    pub choice: ColorChoice,
}

/// Where human text goes, from the facts that decide it.
pub fn sink_for(env: ColorEnv<'_>) -> Sink {
    let set = |v: Option<&OsStr>| v.is_some_and(|v| !v.is_empty());
    let forced = env.force.is_some_and(|v| !v.is_empty() && v != "0");
    let color = match env.choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            (env.is_terminal || forced)
                && !set(env.no_color)
                && env.term.is_none_or(|t| t != "dumb")
        }
    };
    Sink {
        terminal: env.is_terminal || color,
        color,
    }
}

/// Where this process's stdout goes.
pub fn stdout_sink() -> Sink {
    use std::io::IsTerminal;
    let (no_color, term, force) = (
        std::env::var_os("NO_COLOR"),
        std::env::var_os("TERM"),
        std::env::var_os("CLICOLOR_FORCE"),
    );
    sink_for(ColorEnv {
        is_terminal: std::io::stdout().is_terminal(),
        no_color: no_color.as_deref(),
        term: term.as_deref(),
        force: force.as_deref(),
        choice: CHOICE.get().copied().unwrap_or_default(),
    })
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
/// return, bell, newline, tab, the C1 set, …) and every bidirectional-text control (which can make
/// a terminal show text in another order than it is) is removed.
pub fn clean(s: &str) -> Cow<'_, str> {
    strip(s, |c| c.is_control() || is_bidi_control(c))
}

/// User-supplied text shown on one line with its control and bidirectional characters written
/// as escapes (`\u{1}`, `\n`) rather than removed: for a value whose exact bytes matter (a
/// refused setting), where dropping a byte would show another, valid-looking value.
pub fn escaped(s: &str) -> Cow<'_, str> {
    if s.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        Cow::Owned(
            s.chars()
                .map(|c| {
                    if c.is_control() || is_bidi_control(c) {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// The bidirectional formatting characters: marks, embeddings, overrides and isolates.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// User-supplied text made safe to show as lines: like [`clean`], but line breaks and tabs stay
/// (a failure's message, a directive's text).
pub fn clean_lines(s: &str) -> Cow<'_, str> {
    strip(s, unsafe_in_text)
}

fn strip(s: &str, drop: impl Fn(char) -> bool) -> Cow<'_, str> {
    if s.chars().any(&drop) {
        Cow::Owned(s.chars().filter(|c| !drop(*c)).collect())
    } else {
        Cow::Borrowed(s)
    }
}

fn unsafe_in_text(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// The escape sequences [`Paint`] writes: reset, bold, dim, and the three colours. A test keeps
/// this list and `Paint` in step.
const OUR_SEQUENCES: &[&str] = &[
    "\u{1b}[0m",
    "\u{1b}[1m",
    "\u{1b}[2m",
    "\u{1b}[31m",
    "\u{1b}[32m",
    "\u{1b}[33m",
];

/// A whole human text made safe for the sink, as it is written. Text that is not bound for a
/// terminal is written as it is (the views already [`clean`]ed what users supplied). Text bound
/// for one keeps newlines and tabs and, when colour is on, the sequences [`Paint`] writes; every
/// other control character is removed. It catches what a view did not clean.
pub fn for_terminal(text: &str, sink: Sink) -> Cow<'_, str> {
    if !sink.terminal || !text.chars().any(unsafe_in_text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && sink.color
            && let Some(seq) = OUR_SEQUENCES.iter().find(|s| rest.starts_with(**s))
        {
            out.push_str(seq);
            rest = &rest[seq.len()..];
            continue;
        }
        if !unsafe_in_text(c) {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(
        is_terminal: bool,
        no_color: Option<&'a str>,
        term: Option<&'a str>,
        force: Option<&'a str>,
    ) -> Sink {
        chosen(is_terminal, no_color, term, force, ColorChoice::Auto)
    }

    fn chosen<'a>(
        is_terminal: bool,
        no_color: Option<&'a str>,
        term: Option<&'a str>,
        force: Option<&'a str>,
        choice: ColorChoice,
    ) -> Sink {
        sink_for(ColorEnv {
            is_terminal,
            no_color: no_color.map(OsStr::new),
            term: term.map(OsStr::new),
            force: force.map(OsStr::new),
            choice,
        })
    }

    #[test]
    fn the_color_flag_wins_over_the_variables() {
        use ColorChoice::{Always, Auto, Never};
        let on = Sink {
            terminal: true,
            color: true,
        };
        // `always`: colour without a terminal, against NO_COLOR, TERM=dumb and CLICOLOR_FORCE=0.
        assert_eq!(chosen(false, None, None, None, Always), on);
        assert_eq!(
            chosen(false, Some("1"), Some("dumb"), Some("0"), Always),
            on
        );
        // `never`: no colour on a terminal, against CLICOLOR_FORCE.
        let plain_terminal = Sink {
            terminal: true,
            color: false,
        };
        assert_eq!(
            chosen(true, None, Some("xterm"), Some("1"), Never),
            plain_terminal
        );
        assert_eq!(
            chosen(false, None, None, Some("1"), Never),
            Sink {
                terminal: false,
                color: false
            },
            "never colours nothing, so piped text stays as it is"
        );
        // `auto` is the variables' rule.
        for (t, nc, term, force, color) in [
            (true, None, Some("xterm"), None, true),
            (true, Some("1"), Some("xterm"), None, false),
            (false, None, None, Some("1"), true),
            (false, Some("1"), None, Some("1"), false),
            (true, None, Some("dumb"), None, false),
            (false, None, Some("xterm"), None, false),
        ] {
            assert_eq!(
                chosen(t, nc, term, force, Auto).color,
                color,
                "auto on {t} {nc:?} {term:?} {force:?}"
            );
        }
    }

    #[test]
    fn colour_needs_a_terminal_and_no_opt_out() {
        let on = Sink {
            terminal: true,
            color: true,
        };
        assert_eq!(env(true, None, Some("xterm-256color"), None), on);
        assert_eq!(
            env(true, Some(""), None, None),
            on,
            "an empty NO_COLOR is unset"
        );
        assert_eq!(
            env(false, None, Some("xterm"), None),
            Sink {
                terminal: false,
                color: false
            }
        );
        assert_eq!(
            env(true, Some("1"), Some("xterm"), None),
            Sink {
                terminal: true,
                color: false
            }
        );
        assert_eq!(
            env(true, None, Some("dumb"), None),
            Sink {
                terminal: true,
                color: false
            }
        );
        assert_eq!(
            env(false, None, None, Some("1")),
            on,
            "CLICOLOR_FORCE without a terminal"
        );
        assert!(!env(false, None, None, Some("0")).color);
        assert!(
            !env(false, Some("1"), None, Some("1")).color,
            "NO_COLOR wins"
        );
    }

    #[test]
    fn paint_writes_only_the_sequences_the_guard_keeps() {
        let p = Paint::new(true);
        let painted = [
            p.bold("x"),
            p.dim("x"),
            p.red("x"),
            p.green("x"),
            p.yellow("x"),
            p.bold_red("x"),
            p.bold_in(AnsiColor::Green, "x"),
            p.bold_in(AnsiColor::Yellow, "x"),
        ];
        for s in &painted {
            assert_ne!(s, "x");
            let mut rest = s.replace('x', "");
            for seq in OUR_SEQUENCES {
                rest = rest.replace(seq, "");
            }
            assert_eq!(rest, "", "{s:?} writes a sequence the guard would drop");
            let on = Sink {
                terminal: true,
                color: true,
            };
            assert_eq!(for_terminal(s, on), s.as_str());
        }
        assert_eq!(Paint::new(false).bold_red("x"), "x");
    }

    #[test]
    fn user_text_loses_its_control_characters() {
        assert_eq!(clean("plain title"), "plain title");
        let hostile = "a\u{1b}]0;pwned\u{7}b\r\nc\u{9b}2Jd\te";
        assert_eq!(clean(hostile), "a]0;pwnedbc2Jde");
        assert_eq!(clean_lines(hostile), "a]0;pwnedb\nc2Jd\te");
    }

    #[test]
    fn the_terminal_guard_keeps_layout_and_only_our_sequences() {
        let text = "line\tone\n\u{1b}[2J\u{1b}]0;title\u{7}\r\u{1b}[8mhidden\u{1b}[0m \u{1b}[1m\u{1b}[31mred\u{1b}[0m\n";
        let on = Sink {
            terminal: true,
            color: true,
        };
        assert_eq!(
            for_terminal(text, on),
            "line\tone\n[2J]0;title[8mhidden\u{1b}[0m \u{1b}[1m\u{1b}[31mred\u{1b}[0m\n"
        );
        let plain = Sink {
            terminal: true,
            color: false,
        };
        assert_eq!(
            for_terminal(text, plain),
            "line\tone\n[2J]0;title[8mhidden[0m [1m[31mred[0m\n",
            "without colour no escape is written at all"
        );
        let piped = Sink {
            terminal: false,
            color: false,
        };
        assert_eq!(
            for_terminal(text, piped),
            text,
            "piped text is written as it is"
        );
        assert!(matches!(for_terminal("calm\n", on), Cow::Borrowed(_)));
    }
}
