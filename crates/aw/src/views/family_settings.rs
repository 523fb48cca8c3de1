//! The human view of `aw family settings`: the file's state, then what the verb found or did.
//! Every manifest or file string is cleaned (a value escaped), so none adds a line of its own.

use super::View;
use crate::output::Style;
use crate::style::{clean, escaped};
use aw_core::family::bridge_settings::{IgnoredWhy, Outcome};
use aw_core::wire::family::{FamilySettings, Setting, SettingsVerb};
use std::fmt::{self, Write};

impl View for FamilySettings<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        write!(out, "settings file: {}", clean(&self.file))?;
        if !self.exists {
            write!(out, " (absent)")?;
        }
        writeln!(out)?;
        if let Some(w) = &self.warning {
            writeln!(out, "warning: {}", clean(w))?;
        }
        if !self.malformed.is_empty() {
            write!(
                out,
                "malformed lines, which the wrappers skip (a setting is KEY=value from the first \
                 column): "
            )?;
            for (i, n) in self.malformed.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(out, "{sep}{n}")?;
            }
            writeln!(out)?;
        }
        match self.verb {
            SettingsVerb::List => {
                for m in self.members.iter().flatten() {
                    if m.class != "valid" {
                        writeln!(
                            out,
                            "skipped {} ({}): its manifest is {}; `aw manifest validate` says why",
                            clean(m.name.unwrap_or("")),
                            clean(&m.dir),
                            m.class
                        )?;
                    }
                }
                let settings = self.settings.as_deref().unwrap_or_default();
                if settings.is_empty() {
                    writeln!(out, "no member declares settings")?;
                }
                for s in settings {
                    setting_lines(out, s)?;
                }
            }
            SettingsVerb::Get => setting(out, self)?,
            SettingsVerb::Set => {
                let what = if self.changed == Some(true) {
                    "set"
                } else {
                    "already set"
                };
                write!(out, "{what}: ")?;
                setting(out, self)?;
            }
            SettingsVerb::Unset => {
                writeln!(
                    out,
                    "removed {} line(s) of {}",
                    self.removed.unwrap_or(0),
                    clean(self.key.unwrap_or(""))
                )?;
                setting(out, self)?;
            }
            SettingsVerb::Reconcile => {
                for k in self.keys.iter().flatten() {
                    writeln!(
                        out,
                        "line {}: {} {}",
                        k.line,
                        clean(&k.key),
                        k.class.as_str()
                    )?;
                }
                writeln!(
                    out,
                    "{}",
                    match self.outcome {
                        Some(Outcome::Absent) =>
                            "no settings file: every key has its built-in value",
                        Some(Outcome::Unusable) =>
                            "the settings file cannot be used; nothing to classify",
                        Some(Outcome::Ok) => "all current",
                        Some(Outcome::Duplicates) =>
                            "a key is set twice and the last line wins: `aw family settings set \
                             KEY VALUE` folds the lines into one",
                        _ =>
                            "some keys need attention: unset them (`aw family settings unset KEY`)",
                    }
                )?;
            }
        }
        Ok(())
    }
}

/// The one setting of `get`, `set` and `unset`, when there is one.
fn setting(out: &mut dyn Write, model: &FamilySettings<'_>) -> fmt::Result {
    match &model.setting {
        Some(Some(s)) => setting_lines(out, s),
        _ => Ok(()),
    }
}

/// One setting as `KEY = value [source]`, then its member, allowed form and effect.
fn setting_lines(out: &mut dyn Write, s: &Setting<'_>) -> fmt::Result {
    write!(out, "{} = ", clean(s.key))?;
    match &s.value {
        Some(x) => write!(out, "{}", escaped(x))?,
        None => write!(out, "(unset: the wrapper's built-in value applies)")?,
    }
    writeln!(out, " [{}]", s.source.as_str())?;
    if let Some(r) = s.retired {
        writeln!(out, "  RETIRED, arms nothing: {}", clean(r))?;
    }
    let allowed = clean(&s.allowed);
    for i in &s.ignored {
        let source = i.source.as_str();
        let value = escaped(&i.value);
        match i.reason {
            IgnoredWhy::Empty => writeln!(
                out,
                "  {source} variable set but empty: the file's line is skipped and the built-in \
                 value applies"
            )?,
            IgnoredWhy::RefusesRun => writeln!(
                out,
                "  {source} value '{value}' makes the wrapper refuse to run (allowed: {allowed})"
            )?,
            IgnoredWhy::Refused => {
                writeln!(out, "  ignored {source} value '{value}' (not {allowed})")?
            }
        }
    }
    writeln!(
        out,
        "  {} · {allowed} · {}",
        clean(s.member.unwrap_or("")),
        clean(s.effect)
    )
}
