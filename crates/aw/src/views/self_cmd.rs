//! The human views of `aw self install | uninstall | detect-hosts`.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::wire::self_cmd::{
    DetectHosts, InstallFile, InstallHooks, InstallTarget, SelfInstall, SelfUninstall,
    UninstallHooks,
};
use std::fmt::{self, Write};

/// The indent of a host's detail lines.
const INDENT: &str = "            ";

impl View for SelfInstall<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let dry = if self.dry_run {
            " · dry run, nothing written"
        } else {
            ""
        };
        writeln!(out, "aw self install {}{dry}", clean_lines(self.version))?;
        for t in &self.targets {
            install_target(out, t, style.detail)?;
        }
        Ok(())
    }
}

fn count(files: &[InstallFile], action: &str) -> usize {
    files.iter().filter(|f| f.action == action).count()
}

fn install_target(out: &mut dyn Write, t: &InstallTarget<'_>, detail: bool) -> fmt::Result {
    write!(
        out,
        "  {:<9} {:<9} {} new, {} updated, {} unchanged",
        clean_lines(t.target),
        t.status,
        count(&t.files, "create"),
        count(&t.files, "update"),
        count(&t.files, "noop"),
    )?;
    for (action, label) in [
        ("reference", "in place of the reference's"),
        ("edited", "edited by you and kept"),
    ] {
        let n = count(&t.files, action);
        if n > 0 {
            write!(out, ", {n} {label}")?;
        }
    }
    writeln!(out, ", {} stale removed", t.removed_stale.len())?;
    install_hooks(out, &t.hooks)?;
    for b in t.backups_removed {
        writeln!(
            out,
            "{INDENT}older backup deleted (the newest {} are kept): {}",
            aw_core::install::backups::KEEP,
            clean_lines(&b.to_string_lossy())
        )?;
    }
    if let Some(c) = &t.commands {
        writeln!(
            out,
            "{INDENT}commands: {} (in {})",
            clean_lines(c.invoked_as),
            clean_lines(&c.dir)
        )?;
    }
    for m in &t.moved_aside {
        let what = match m.kind {
            "skill-folder" => "your skill folder, whole, moved aside",
            "reference" => "the reference's, replaced and kept aside",
            "edited" => "your edit, moved aside",
            _ => "moved aside",
        };
        writeln!(
            out,
            "{INDENT}{what}: {} → {}",
            clean_lines(&m.path),
            clean_lines(&m.to)
        )?;
    }
    for e in &t.kept_edited {
        writeln!(
            out,
            "{INDENT}kept (edited since aw wrote it, yours now; --force moves it aside): {}",
            clean_lines(e)
        )?;
    }
    for o in &t.reference.outside {
        writeln!(
            out,
            "{INDENT}left as it is: {} ({})",
            clean_lines(&o.path),
            clean_lines(o.note)
        )?;
    }
    if detail {
        for f in &t.files {
            writeln!(out, "{INDENT}{:<7} {}", f.action, clean_lines(&f.path))?;
        }
        for r in &t.removed_stale {
            writeln!(out, "{INDENT}remove  {}", clean_lines(r))?;
        }
    }
    Ok(())
}

/// The hooks line (`hooks: <status> · file: … · note: …`) and, for a settings file, the entries
/// kept or taken out.
fn install_hooks(out: &mut dyn Write, hooks: &InstallHooks<'_>) -> fmt::Result {
    let (status, facts): (&str, [(&str, Option<&str>); 2]) = match hooks {
        InstallHooks::Settings(h) => (
            h.status,
            [("file", h.file.as_deref()), ("backup", h.backup.as_deref())],
        ),
        InstallHooks::Plugin(h) => (
            h.status,
            [("plugin", Some(&h.plugin)), ("note", Some(h.note))],
        ),
        InstallHooks::Module(h) => (
            h.status,
            [("module", Some(&h.module)), ("note", Some(h.note))],
        ),
        InstallHooks::Unsupported(h) => (h.status, [("reason", Some(h.reason)), ("", None)]),
        InstallHooks::Skipped(h) => (h.status, [("", None), ("", None)]),
    };
    write!(out, "{INDENT}hooks: {status}")?;
    for (key, value) in facts {
        if let Some(v) = value {
            write!(out, " · {key}: {}", clean_lines(v))?;
        }
    }
    writeln!(out)?;
    let InstallHooks::Settings(h) = hooks else {
        return Ok(());
    };
    for e in h.edited_kept {
        writeln!(
            out,
            "{INDENT}kept: your edited {} hook running aw (yours now; aw adds none beside it)",
            clean_lines(e)
        )?;
    }
    for (list, what) in [
        (
            &h.reference_hooks_kept,
            "kept: the reference's hook, while agent-workflow is on PATH",
        ),
        (
            &h.reference_hooks_removed,
            "taken out: the reference's hook (agent-workflow is no longer on PATH)",
        ),
    ] {
        for r in list {
            writeln!(
                out,
                "{INDENT}{what}: {} `{}`",
                clean_lines(r.event),
                clean_lines(r.command)
            )?;
        }
    }
    Ok(())
}

impl View for SelfUninstall<'_> {
    fn render(&self, out: &mut dyn Write, style: &Style) -> fmt::Result {
        let dry = if self.dry_run {
            " · dry run, nothing removed"
        } else {
            ""
        };
        writeln!(out, "aw self uninstall{dry}")?;
        for t in &self.targets {
            let (status, edited_kept) = match &t.hooks {
                UninstallHooks::Settings(h) => (h.status, h.edited_kept),
                UninstallHooks::Other(h) => (h.status, h.edited_kept),
            };
            writeln!(
                out,
                "  {:<9} {:<8} {} file(s) removed, {} kept (not aw's) · hooks: {status}",
                clean_lines(t.target),
                t.status,
                t.removed.len(),
                t.kept_foreign.len(),
            )?;
            for e in edited_kept.unwrap_or_default() {
                writeln!(
                    out,
                    "{INDENT}kept: your edited {} hook running aw (yours now)",
                    clean_lines(e)
                )?;
            }
            if style.detail {
                for f in &t.removed {
                    writeln!(out, "{INDENT}remove {}", clean_lines(f))?;
                }
                for f in &t.kept_foreign {
                    writeln!(out, "{INDENT}keep   {}", clean_lines(f))?;
                }
            }
        }
        if let Some(n) = self.note {
            writeln!(out, "{n}")?;
        }
        Ok(())
    }
}

impl View for DetectHosts<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        for h in &self.hosts {
            let state = if h.present { "present" } else { "absent" };
            write!(
                out,
                "{:<9} {:<8} {} · ",
                clean_lines(h.id),
                state,
                clean_lines(&h.folder)
            )?;
            match &h.installed_version {
                Some(v) => writeln!(out, "aw {} installed", clean_lines(v))?,
                None => writeln!(out, "aw not installed")?,
            }
        }
        Ok(())
    }
}
