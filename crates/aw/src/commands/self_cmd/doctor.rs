//! `aw self doctor`: which `aw` is on PATH (this one, the reference's, another build), which
//! hosts are present, what aw installed where and at which version, and what is wrong: files
//! missing or stale, files the person edited (kept), hooks absent or naming a program that is
//! gone, and the reference's install left beside aw's (its files, its hooks, each event that
//! would run twice).

use super::{VERSION, home, host_plan, lock, program};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::install::hooks::{HookSurvey, SurveyRun};
use aw_core::install::host::{HOSTS, Host};
use aw_core::install::plan::{Action, Parts};
use aw_core::wire::self_cmd::{
    AwOnPath, DoctorHost, DoctorReference, DuplicateEntry, EditedHook, ReferenceOutside,
    SelfDoctor, SurveyEntry,
};
use aw_workspace::install::{
    HostInstall, Program, Snapshot, every_on_path, hook_survey, host_present, inspect_install,
    installed_version, program_runs, which_program,
};
use clap::Args;
use std::path::Path;

// Arguments of `aw self doctor`.
#[derive(Debug, Args)]
#[command(
    long_about = "Check aw's installation, read-only: which `aw` is on PATH (the first one is what \
commands the agent runs call) and which program each is (this aw, the reference's Node.js `aw`, \
another native build), which hosts are present under HOME, and per host whether aw is \
installed, at which version (from the marker), and what differs from what this aw would install: \
missing files, outdated files, stale files of an older install, files you edited since aw wrote \
them (kept: they are yours), files of yours in aw's way, whether the hooks are in place and the \
program they run still exists, hooks of aw's whose command you edited (edited_hooks: yours, no \
fault), each event whose hook would run twice (duplicate_hooks: a fault), and what the \
reference's own install left in aw's places (its files, its hooks).\n\n\
Verdict per host: ok (installed and current), outdated (run `aw self install --target <host>`, \
which also replaces what the reference left), not-installed, absent (no host folder). \
JSON: {aw_on_path, aw_on_path_is, aws_on_path, version, hosts: [...], healthy}."
)]
pub struct DoctorArgs {}

/// Runs `aw self doctor`.
pub fn run(_args: &DoctorArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let home = home(cx)?;
    let program = program();
    let aws: Vec<AwOnPath<'_>> = every_on_path("aw")
        .into_iter()
        .map(|p| AwOnPath {
            program: which_program(&p).as_str(),
            path: p.to_string_lossy().into_owned(),
        })
        .collect();
    let first_is = aws.first().map(|a| a.program);
    let all: Vec<&'static Host> = HOSTS.iter().collect();
    let _locks = lock(&home, &all, true)?;
    let mut snap = Snapshot::new(&home);
    let mut hosts = Vec::new();
    for h in HOSTS {
        hosts.push(host_entry(&home, &mut snap, h, &program));
    }
    let reference_first = first_is.is_some_and(|p| p == Program::Reference.as_str());
    let healthy =
        !aws.is_empty() && !reference_first && hosts.iter().all(|h| h.verdict != "outdated");
    let model = SelfDoctor {
        ok: true,
        healthy,
        version: VERSION,
        program: &program,
        aw_on_path: aws.first().map(|a| a.path.clone()),
        aw_on_path_is: first_is,
        aws_on_path: aws,
        agent_workflow_on_path: aw_workspace::install::on_path("agent-workflow")
            .map(|p| p.to_string_lossy().into_owned()),
        home: home.to_string_lossy().into_owned(),
        hosts,
    };
    Ok(Outcome::shown(&model, &style))
}

/// A host with nothing but its id, presence, version and verdict.
fn bare(h: &'static Host, present: bool, version: Option<String>) -> DoctorHost<'static> {
    DoctorHost {
        id: h.id,
        present,
        installed_version: version,
        reference: None,
        verdict: "absent",
        problem: None,
        missing: None,
        outdated: None,
        stale: None,
        edited: None,
        foreign_in_the_way: None,
        hooks_in_place: None,
        hook_programs: None,
        hook_programs_missing: None,
        duplicate_hooks: None,
        duplicate_entries: None,
        edited_hooks: None,
    }
}

fn host_entry(
    home: &Path,
    snap: &mut Snapshot,
    h: &'static Host,
    program: &str,
) -> DoctorHost<'static> {
    let present = host_present(snap, h);
    let version = installed_version(snap, h);
    let installed = version.is_some();
    let mut entry = bare(h, present, version);
    if !present && !installed {
        return entry;
    }
    let plan = host_plan(h, Parts::default(), home, program);
    let hi = match inspect_install(snap, plan, VERSION) {
        Ok(hi) => hi,
        Err(e) => {
            entry.verdict = if installed {
                "outdated"
            } else {
                "not-installed"
            };
            entry.problem = Some(e.to_string());
            return entry;
        }
    };
    let shown = |r: &str| super::shown(home, r);
    let survey = hook_survey(snap, h, program);
    let reference = reference_of(home, survey.as_ref(), &hi);
    // The reference's hooks count against the verdict only when an install would take them
    // out: one aw has no equivalent for stays while the reference is on PATH.
    let reference_hooks = match &hi.settings {
        Some(st) => !st.merge.reference_removed.is_empty(),
        None => !reference.hooks.is_empty(),
    };
    let has_reference = !reference.files.is_empty() || reference_hooks;
    entry.reference = Some(reference);
    if !installed {
        entry.verdict = "not-installed";
        return entry;
    }
    let of = |a: Action| -> Vec<String> {
        hi.steps
            .iter()
            .filter(|s| s.action == a)
            .map(|s| shown(&s.rel))
            .collect()
    };
    // Every entry of aw's there as aw writes it (the reference's beside them are counted apart).
    let hooks = hi.settings.as_ref().map(|s| s.merge.added.is_empty());
    let (missing, outdated, conflicts) =
        (of(Action::Create), of(Action::Update), of(Action::Conflict));
    let mut edited = of(Action::Edited);
    edited.extend(hi.edited.iter().map(|r| shown(r)));
    let stale: Vec<String> = hi.stale.iter().map(|f| shown(&f.rel)).collect();
    let duplicates = survey.as_ref().map(|s| s.duplicates()).unwrap_or_default();
    // Every program aw's hooks run, edited hooks' included: a gone one fails at every trigger.
    let programs: Vec<String> = survey
        .as_ref()
        .map(HookSurvey::programs)
        .unwrap_or_default();
    let gone: Vec<String> = programs
        .iter()
        .filter(|p| !program_runs(p))
        .cloned()
        .collect();
    // Each pair of aw's handlers that fire for one trigger, and whether install takes one out
    // (two exact copies of aw's own entry); else both are the person's, named for them to choose.
    let overlaps: Vec<DuplicateEntry> = survey
        .as_ref()
        .map(|s| {
            s.overlaps()
                .into_iter()
                .map(|o| {
                    let entry = |r: SurveyRun| SurveyEntry {
                        entry: r.entry,
                        matcher: r.matcher,
                        command: r.command,
                    };
                    DuplicateEntry {
                        event: o.first.event.clone(),
                        fix: if o.install_removes {
                            "install"
                        } else {
                            "by-hand"
                        },
                        entries: vec![entry(o.first), entry(o.second)],
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let current = missing.is_empty()
        && outdated.is_empty()
        && stale.is_empty()
        && hooks != Some(false)
        && gone.is_empty()
        && duplicates.is_empty()
        && !has_reference;
    entry.verdict = if current { "ok" } else { "outdated" };
    entry.missing = Some(missing);
    entry.outdated = Some(outdated);
    entry.stale = Some(stale);
    entry.edited = Some(edited);
    entry.foreign_in_the_way = Some(conflicts);
    entry.hooks_in_place = Some(hooks);
    entry.hook_programs = Some(programs);
    entry.hook_programs_missing = Some(gone);
    entry.duplicate_hooks = Some(duplicates);
    entry.duplicate_entries = Some(overlaps);
    entry.edited_hooks = Some(
        survey
            .map(|s| {
                s.edited
                    .into_iter()
                    .map(|(event, command)| EditedHook { event, command })
                    .collect()
            })
            .unwrap_or_default(),
    );
    entry
}

/// What the reference's own install left in this host's places.
fn reference_of(home: &Path, survey: Option<&HookSurvey>, hi: &HostInstall) -> DoctorReference {
    DoctorReference {
        files: hi
            .reference
            .iter()
            .map(|r| super::shown(home, &r.rel))
            .collect(),
        hooks: survey.map(|s| s.reference.clone()).unwrap_or_default(),
        outside: hi
            .reference_outside
            .iter()
            .map(|(r, what)| ReferenceOutside {
                path: super::shown(home, r),
                note: what,
            })
            .collect(),
    }
}
