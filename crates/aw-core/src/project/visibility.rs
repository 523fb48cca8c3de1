//! Multi-root visibility: the agent hosts aw makes external source folders visible to, the file
//! each one reads, and what `visibility doctor` concludes from what those files list.
//!
//! A source is external when its folder lies outside the workspace; the hosts only see such a
//! folder when their settings list it. Claude Code reads `.claude/settings.local.json`
//! (`permissions.additionalDirectories`, see `settings.rs`), Codex `.codex/config.toml`
//! (`writable_roots` and the workspace's trust, see `codex.rs`). An entry names a folder in any
//! spelling: absolute as aw used to write it, or as typed (`../api`) as the reference writes it;
//! the doctor compares folders, never spellings. Warp and its agent Oz keep their
//! folder permissions in per-user agent profiles, not in a file of the project, so there is
//! nothing of theirs to write.

pub use super::settings::Entry;

/// Claude Code's file, relative to the workspace root.
pub const CLAUDE_FILE: &str = ".claude/settings.local.json";
/// Codex's file, relative to the workspace root.
pub const CODEX_FILE: &str = ".codex/config.toml";
/// Why Warp/Oz is never written: it has no per-project setting for extra folders.
pub const WARP_REASON: &str = "no_project_setting";
/// Why a host was left alone: the command was told to (`--skip-*`).
pub const SKIPPED_BY_FLAG: &str = "skipped_by_flag";

/// The hosts a command leaves alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skip {
    /// `--skip-claude`.
    pub claude: bool,
    /// `--skip-codex`.
    pub codex: bool,
    /// `--skip-warp` or `--skip-oz`.
    pub warp: bool,
}

/// What a host's file lists, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// The file does not exist.
    Absent,
    /// The file cannot be read as its format (why).
    Invalid(String),
    /// Its entries, in order, each with the folder it names.
    Listed(Vec<Entry>),
}

impl Listing {
    /// Whether the file names `folder`; `None` when it cannot be read.
    pub fn names(&self, folder: &str) -> Option<bool> {
        match self {
            Listing::Listed(l) => Some(l.iter().any(|e| e.folder == folder)),
            Listing::Absent => Some(false),
            Listing::Invalid(_) => None,
        }
    }
}

/// A host's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostStatus {
    /// Every external source is listed and nothing else is.
    Ok,
    /// No external source, and the file lists no folder.
    NotNeeded,
    /// An external source is not listed.
    Missing,
    /// Every external source is listed, but so are folders no source has.
    Stale,
    /// The file cannot be read.
    Invalid,
}

impl HostStatus {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HostStatus::Ok => "ok",
            HostStatus::NotNeeded => "not_needed",
            HostStatus::Missing => "missing",
            HostStatus::Stale => "stale",
            HostStatus::Invalid => "invalid",
        }
    }

    /// Nothing to do.
    pub fn is_fine(self) -> bool {
        matches!(self, HostStatus::Ok | HostStatus::NotNeeded)
    }
}

/// What `visibility doctor` says about one host's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostReport {
    /// The verdict.
    pub status: HostStatus,
    /// The file's entries, as written.
    pub listed: Vec<String>,
    /// External source folders it does not list.
    pub missing: Vec<String>,
    /// Entries (as written) whose folder is no source's.
    pub stale: Vec<String>,
    /// What to do next (`None`: nothing).
    pub action: Option<String>,
}

/// Diagnoses one host's file. `external` are the resolved folders of the external sources,
/// `known` those of every source; `file` names the file in the advice.
pub fn diagnose(
    file: &str,
    external: &[String],
    known: &[String],
    listing: &Listing,
) -> HostReport {
    let entries: &[Entry] = match listing {
        Listing::Invalid(why) => {
            return HostReport {
                status: HostStatus::Invalid,
                listed: Vec::new(),
                missing: Vec::new(),
                stale: Vec::new(),
                action: Some(format!(
                    "Fix {file} ({why}) or remove it, then run `aw attach-multiroot --from-sources`."
                )),
            };
        }
        Listing::Absent => &[],
        Listing::Listed(l) => l,
    };
    let listed: Vec<String> = entries.iter().map(|e| e.text.clone()).collect();
    let missing: Vec<String> = external
        .iter()
        .filter(|f| !entries.iter().any(|e| &e.folder == *f))
        .cloned()
        .collect();
    let stale: Vec<String> = entries
        .iter()
        .filter(|e| !known.contains(&e.folder))
        .map(|e| e.text.clone())
        .collect();
    let status = if !missing.is_empty() {
        HostStatus::Missing
    } else if !stale.is_empty() {
        HostStatus::Stale
    } else if external.is_empty() {
        HostStatus::NotNeeded
    } else {
        HostStatus::Ok
    };
    let detach = (!stale.is_empty()).then(|| {
        format!(
            "{file} lists {} folder(s) no source has: if aw added them, run `aw detach-multiroot --path <folder>` for each; a folder you listed yourself can stay.",
            stale.len()
        )
    });
    let action = match status {
        HostStatus::Missing => {
            let mut a = format!(
                "Run `aw attach-multiroot --from-sources` to list the external sources in {file}."
            );
            if let Some(d) = &detach {
                a.push(' ');
                a.push_str(d);
            }
            Some(a)
        }
        HostStatus::Stale => detach,
        _ => None,
    };
    HostReport {
        status,
        listed,
        missing,
        stale,
        action,
    }
}

/// What `visibility doctor` read.
#[derive(Debug, Clone, Copy)]
pub struct DoctorInput<'a> {
    /// The resolved folders of the sources outside the workspace.
    pub external: &'a [String],
    /// The resolved folders of every source.
    pub known: &'a [String],
    /// What Claude Code's file lists.
    pub claude: &'a Listing,
    /// What Codex's file lists.
    pub codex: &'a Listing,
    /// The `trust_level` Codex's file gives the workspace (`None`: no entry).
    pub codex_trust: Option<&'a str>,
    /// Entries of the `.gitignore` visibility section the file lacks.
    pub gitignore_missing: &'a [String],
}

/// What `visibility doctor` concludes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doctor {
    /// Claude Code's file.
    pub claude: HostReport,
    /// Codex's file.
    pub codex: HostReport,
    /// Codex's file marks the workspace `trusted`.
    pub trusted: bool,
    /// `.gitignore`: `ok`, `missing` or `not_needed` (no external source).
    pub gitignore: &'static str,
    /// Nothing to do.
    pub ok: bool,
    /// The first thing to do (or that there is nothing to do).
    pub action: String,
}

impl Doctor {
    /// What has drifted, in one sentence (`None`: nothing).
    pub fn drift(&self) -> Option<String> {
        let mut what: Vec<String> = Vec::new();
        for (name, h) in [("Claude Code", &self.claude), ("Codex", &self.codex)] {
            let how = match h.status {
                HostStatus::Ok | HostStatus::NotNeeded => continue,
                HostStatus::Missing => "does not list every external source",
                HostStatus::Stale => "lists folders no source has",
                HostStatus::Invalid => "cannot be read",
            };
            what.push(format!("{name}'s file {how}"));
        }
        if self.gitignore == "missing" {
            what.push(".gitignore lacks the visibility section".to_owned());
        }
        (!what.is_empty())
            .then(|| format!("Multi-root visibility has drifted: {}.", what.join(", ")))
    }
}

/// Diagnoses every host and the `.gitignore` section. Codex's trust entry for the workspace is
/// reported (`trusted`), never judged: Codex reads a project's file only once the user's own
/// configuration trusts the project, so the entry in the project's file decides nothing, and
/// the reference writes none.
pub fn doctor(i: DoctorInput<'_>) -> Doctor {
    let claude = diagnose(CLAUDE_FILE, i.external, i.known, i.claude);
    let codex = diagnose(CODEX_FILE, i.external, i.known, i.codex);
    let gitignore = match (i.external.is_empty(), i.gitignore_missing.is_empty()) {
        (true, _) => "not_needed",
        (false, true) => "ok",
        (false, false) => "missing",
    };
    let gitignore_action = (gitignore == "missing").then(|| {
        "Run `aw attach-multiroot --from-sources`: it also adds the visibility section to .gitignore, so the machine-specific host files stay out of git.".to_owned()
    });
    let ok = claude.status.is_fine() && codex.status.is_fine() && gitignore != "missing";
    let action = [&claude.action, &codex.action, &gitignore_action]
        .into_iter()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| "Nothing to do: every host sees every external source.".to_owned());
    Doctor {
        trusted: i.codex_trust == Some(super::codex::TRUSTED),
        claude,
        codex,
        gitignore,
        ok,
        action,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn listed(entries: &[(&str, &str)]) -> Listing {
        Listing::Listed(
            entries
                .iter()
                .map(|(text, folder)| Entry {
                    text: (*text).into(),
                    folder: (*folder).into(),
                })
                .collect(),
        )
    }

    #[test]
    fn every_verdict() {
        let ext = v(&["/e"]);
        let known = v(&["/e", "/ws/app"]);
        let d = |l: Listing| diagnose("F", &ext, &known, &l);
        let ok = d(listed(&[("/e", "/e")]));
        assert_eq!((ok.status, ok.action), (HostStatus::Ok, None));
        // The reference's spelling of the same folder is the same folder.
        let typed = d(listed(&[("../e", "/e")]));
        assert_eq!((typed.status, typed.listed), (HostStatus::Ok, v(&["../e"])));
        let absent = d(Listing::Absent);
        assert_eq!(absent.status, HostStatus::Missing);
        assert_eq!(absent.missing, v(&["/e"]));
        assert!(
            absent
                .action
                .unwrap()
                .contains("attach-multiroot --from-sources")
        );
        let stale = d(listed(&[("/e", "/e"), ("../old", "/old")]));
        assert_eq!(stale.status, HostStatus::Stale);
        assert_eq!(
            stale.stale,
            v(&["../old"]),
            "as written, so it can be found"
        );
        assert!(stale.action.unwrap().contains("detach-multiroot"));
        let both = d(listed(&[("/old", "/old")]));
        assert_eq!(both.status, HostStatus::Missing);
        assert!(both.action.unwrap().contains("detach-multiroot"));
        let bad = d(Listing::Invalid("not TOML".into()));
        assert_eq!(bad.status, HostStatus::Invalid);
        assert!(bad.action.unwrap().starts_with("Fix F (not TOML)"));
        assert_eq!(listed(&[("x", "/e")]).names("/e"), Some(true));
        assert_eq!(Listing::Invalid("x".into()).names("/e"), None);
        // No external source: nothing is needed.
        let none = diagnose("F", &[], &known, &Listing::Absent);
        assert_eq!(none.status, HostStatus::NotNeeded);
        assert!(none.status.is_fine());
        let leftover = diagnose("F", &[], &known, &listed(&[("/old", "/old")]));
        assert_eq!(leftover.status, HostStatus::Stale);
        assert!(!leftover.status.is_fine());
    }

    #[test]
    fn the_doctor_sums_up_hosts_and_gitignore() {
        let ext = v(&["/e"]);
        let listed = listed(&[("/e", "/e")]);
        let input = DoctorInput {
            external: &ext,
            known: &ext,
            claude: &listed,
            codex: &listed,
            codex_trust: Some("trusted"),
            gitignore_missing: &[],
        };
        let d = doctor(input);
        assert!(d.ok && d.trusted);
        assert_eq!(d.gitignore, "ok");
        assert!(d.action.starts_with("Nothing to do"));
        assert_eq!(d.drift(), None);
        // The trust entry is reported, never judged.
        for trust in [Some("untrusted"), None] {
            let d = doctor(DoctorInput {
                codex_trust: trust,
                ..input
            });
            assert!(d.ok && !d.trusted, "{trust:?}");
        }
        let d = doctor(DoctorInput {
            codex: &Listing::Absent,
            ..input
        });
        assert!(!d.ok);
        assert_eq!(d.codex.status, HostStatus::Missing);
        assert_eq!(
            d.drift().unwrap(),
            "Multi-root visibility has drifted: Codex's file does not list every external source."
        );
        let missing = v(&[".codex/config.toml*"]);
        let d = doctor(DoctorInput {
            gitignore_missing: &missing,
            ..input
        });
        assert_eq!((d.ok, d.gitignore), (false, "missing"));
        assert!(d.action.contains(".gitignore"));
        assert!(d.drift().unwrap().contains(".gitignore"));
        let d = doctor(DoctorInput {
            external: &[],
            claude: &Listing::Absent,
            codex: &Listing::Absent,
            codex_trust: None,
            gitignore_missing: &missing,
            ..input
        });
        assert!(d.ok);
        assert_eq!(d.gitignore, "not_needed");
    }
}
