//! The human views of `aw self install | uninstall | detect-hosts | doctor`.

use super::View;
use crate::output::Style;
use crate::style::clean_lines;
use aw_core::install::hooks::split_command;
use aw_core::wire::self_cmd::{
    DetectHosts, DoctorHost, InstallFile, InstallHooks, InstallTarget, SelfDoctor, SelfInstall,
    SelfUninstall, SurveyEntry, UninstallHooks,
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

impl View for SelfDoctor<'_> {
    fn render(&self, out: &mut dyn Write, _style: &Style) -> fmt::Result {
        writeln!(out, "aw {}", clean_lines(self.version))?;
        if self.aws_on_path.is_empty() {
            writeln!(
                out,
                "  on PATH: no aw (the commands the agent runs call `aw`: put this aw on PATH)"
            )?;
        }
        for (i, a) in self.aws_on_path.iter().enumerate() {
            writeln!(
                out,
                "  {} {} · {}",
                if i == 0 { "on PATH:" } else { "   also:" },
                clean_lines(&a.path),
                which(a.program)
            )?;
        }
        if let Some(p) = &self.agent_workflow_on_path {
            writeln!(out, "  the reference is on PATH too: {}", clean_lines(p))?;
        }
        for h in &self.hosts {
            doctor_host(out, h)?;
        }
        Ok(())
    }
}

/// What an `aw` on PATH is, for a person.
fn which(program: &str) -> &'static str {
    match program {
        "this-aw" => "this aw",
        "reference" => {
            "the reference's (Workline) aw: commands the agent runs would reach it, not this aw"
        }
        "other-native" => "another native program: another aw build, or something else named aw",
        _ => "a script or other program named aw",
    }
}

fn doctor_host(out: &mut dyn Write, h: &DoctorHost<'_>) -> fmt::Result {
    write!(out, "  {:<9} {}", clean_lines(h.id), h.verdict)?;
    if let Some(v) = &h.installed_version {
        write!(out, " · aw {}", clean_lines(v))?;
    }
    writeln!(out)?;
    for (key, list) in [
        ("missing", &h.missing),
        ("outdated", &h.outdated),
        ("stale", &h.stale),
        ("foreign_in_the_way", &h.foreign_in_the_way),
    ] {
        for p in list.iter().flatten() {
            writeln!(out, "{INDENT}{key}: {}", clean_lines(p))?;
        }
    }
    for p in h.edited.iter().flatten() {
        writeln!(out, "{INDENT}edited (yours now, kept): {}", clean_lines(p))?;
    }
    if h.hooks_in_place == Some(Some(false)) {
        writeln!(out, "{INDENT}hooks: not in place")?;
    }
    let edited_hooks = h.edited_hooks.as_deref().unwrap_or_default();
    for p in h.hook_programs_missing.iter().flatten() {
        writeln!(
            out,
            "{INDENT}hooks run {}, which is no longer there",
            clean_lines(p)
        )?;
        for e in edited_hooks {
            if split_command(&e.command).is_some_and(|(q, _)| q == p.as_str()) {
                writeln!(
                    out,
                    "{INDENT}your edited {} hook `{}` runs it: install keeps it as it is (yours), so change its program by hand",
                    clean_lines(&e.event),
                    clean_lines(&e.command)
                )?;
            }
        }
    }
    for e in edited_hooks {
        writeln!(
            out,
            "{INDENT}edited hook (yours now, kept): {} `{}`",
            clean_lines(&e.event),
            clean_lines(&e.command)
        )?;
    }
    let pairs = h.duplicate_entries.as_deref().unwrap_or_default();
    for e in h.duplicate_hooks.iter().flatten() {
        let e_shown = clean_lines(e);
        let mut here = pairs.iter().filter(|p| p.event == *e).peekable();
        if here.peek().is_none() {
            writeln!(
                out,
                "{INDENT}{e_shown} runs twice (aw's hook beside the reference's equivalent; aw self install takes the reference's out)"
            )?;
        }
        for p in here {
            write!(out, "{INDENT}{e_shown} runs twice: ")?;
            survey_entry(out, p.entries.first())?;
            write!(out, " and ")?;
            survey_entry(out, p.entries.get(1))?;
            if p.fix == "install" {
                writeln!(
                    out,
                    " are copies of aw's entry; aw self install takes the second out"
                )?;
            } else {
                writeln!(
                    out,
                    " fire for the same trigger; both are yours (tuned or edited), so aw keeps both: remove one of them by hand"
                )?;
            }
        }
    }
    if let Some(r) = &h.reference {
        for p in &r.files {
            writeln!(out, "{INDENT}the reference's: {}", clean_lines(p))?;
        }
        for e in &r.hooks {
            writeln!(out, "{INDENT}the reference's hook: {}", clean_lines(e))?;
        }
        for o in &r.outside {
            writeln!(
                out,
                "{INDENT}the reference's, left outside: {} ({})",
                clean_lines(&o.path),
                clean_lines(o.note)
            )?;
        }
    }
    if matches!(h.verdict, "outdated" | "not-installed") {
        writeln!(
            out,
            "{INDENT}next: aw self install --target {}",
            clean_lines(h.id)
        )?;
    }
    Ok(())
}

/// One entry of a duplicate pair: `entry 2 (matcher "Edit", `aw hook …`)`.
fn survey_entry(out: &mut dyn Write, e: Option<&SurveyEntry>) -> fmt::Result {
    let Some(e) = e else {
        return write!(out, "entry null (matcher none, ``)");
    };
    write!(out, "entry {} (matcher ", e.entry)?;
    match &e.matcher {
        Some(m) => write!(out, "\"{}\"", clean_lines(m))?,
        None => write!(out, "none")?,
    }
    write!(out, ", `{}`)", clean_lines(&e.command))
}
