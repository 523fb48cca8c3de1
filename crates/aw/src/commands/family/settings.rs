//! `aw family settings [list|get KEY|set KEY VALUE|unset KEY|reconcile] [--from <skill-dir>]…`
//!
//! The bridges' host settings file, `${XDG_CONFIG_HOME:-~/.config}/agent-workflow/
//! bridge-settings.conf`, typed by the `settings` blocks of the family members' manifests. The
//! file format, the edits, the resolution and the verbs' rules (which declaration wins, what `set`
//! refuses, how `reconcile` classifies) are `aw_core::family::bridge_settings`'s; the file and
//! the members on disk are `aw_workspace::family::bridge_settings`'s; the output is
//! `aw_core::wire::family::FamilySettings`, shown by `views::family_settings`. A verb reads the
//! file once: after a write, the file as written is what it reports.

use super::survey::{roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::Outcome;
use aw_core::error_code::ErrorCode;
use aw_core::family::bridge_settings::{
    Counts, Declared, Effective, Outcome as FileOutcome, Refusal, SettingsFile, check_set,
    declared, env_rule, first_declarations, known_as, outcome, reconcile, resolve,
};
use aw_core::family::roster::BRIDGE_KIND;
use aw_core::wire::family::{
    ClassifiedKey, FamilySettings, InvalidValueDetails, RetiredKeyDetails, Setting, SettingsMember,
    SettingsVerb, UnknownKeyDetails,
};
use aw_manifest::{Class, SettingEntry, SettingKind};
use aw_workspace::family::bridge_settings::{
    FileState, Member, config_home, edit, edit_existing, file_path, member_at,
};
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use clap::{Args, Subcommand};
use std::path::Path;

// Arguments of `aw family settings`.
#[derive(Debug, Args)]
#[command(
    long_about = "The bridges' host settings file, ${XDG_CONFIG_HOME:-~/.config}/agent-workflow/\
bridge-settings.conf: one KEY=value per line from the first column (the value is every byte \
after the '='), '#' comments kept.\n\nThe known keys come from the \
`settings` blocks of the family's bridges as `aw family status` finds them (the copy \
detect.installed names), or of the --from folders. `set` refuses an unknown key (listing the known ones), a retired key (quoting why) \
and a value its kind refuses (showing the allowed form); `unset` removes a key, retired or not. \
The effective value is the environment variable's when it is set (an empty one means the \
built-in value; enum and timeout keys are judged by their kind, as the wrappers judge them), \
else the file's when its kind accepts it, else the manifest default. `reconcile` classifies the file's keys: unknown, retired, \
duplicate or current.\n\nWrites are atomic, under a lock, and keep every other line as written."
)]
pub struct SettingsArgs {
    /// What to do (default: list).
    #[command(subcommand)]
    pub verb: Option<Verb>,
    /// Read the keys from this member folder instead of the installed members (repeatable).
    #[arg(long, value_name = "SKILL_DIR", global = true)]
    pub from: Vec<String>,
}

// The `settings` verbs.
#[derive(Debug, Subcommand)]
// A verb's arguments are built only when that verb runs, which keeps start-up small.
#[command(defer = true)]
pub enum Verb {
    /// Every known key with its effective value and where it comes from.
    List,
    /// One key's effective value and where it comes from.
    Get {
        /// The setting key.
        key: String,
    },
    /// Write KEY=VALUE to the file, once the key and the value are checked.
    Set {
        /// The setting key.
        key: String,
        /// The value, in the key's allowed form (a leading '-' is a value, refused by its kind).
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Remove every line of KEY from the file.
    Unset {
        /// The setting key.
        key: String,
    },
    /// Classify the file's keys: unknown, retired, duplicate, current.
    Reconcile,
}

/// A known key: its first declaration and the member that makes it.
type KnownKey<'m> = Declared<'m, Member, SettingEntry>;

/// Runs `aw family settings`.
pub fn run(args: &SettingsArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let cwd = current_dir()?;
    let home = cx.home();
    let members = if args.from.is_empty() {
        // The bridges as `aw family status` finds them: the copy detect.installed names, never
        // a project's own skill folder, so a cloned project cannot widen what `set` accepts.
        let (cwd, roots) = roots(&[], cx)?;
        survey(&cwd, &roots, cx)
            .iter()
            .filter(|s| s.member.kind == BRIDGE_KIND)
            .filter_map(|s| s.primary().map(|p| Member::of(&p.dir, &p.copy)))
            .collect()
    } else {
        let mut out = Vec::new();
        for arg in &args.from {
            let member = member_at(&resolve_arg(&cwd, arg));
            if member.report.class != Class::Valid {
                let first = member
                    .report
                    .errors
                    .first()
                    .map_or(String::new(), |e| format!(": {}", e.message));
                return Err(Failure::new(
                    ErrorCode::FamilySettingsManifestInvalid,
                    format!("--from {arg}: its capability.json is not VALID{first}"),
                    format!("check it with `aw manifest validate {arg}`"),
                ));
            }
            out.push(member);
        }
        out
    };
    let known = first_declarations(&members, |m| m.settings.as_slice(), |e| e.key.as_str());
    let Some(config) = config_home(home.as_deref()) else {
        return Err(Failure::new(
            ErrorCode::FamilySettingsNoConfigDir,
            "neither XDG_CONFIG_HOME (absolute) nor HOME is set, so the settings file has no place",
            "set HOME or XDG_CONFIG_HOME and run the command again",
        ));
    };
    let path = file_path(&config);
    let settings = Settings {
        known: &known,
        members: &members,
        path: &path,
    };
    let verb = args.verb.as_ref().unwrap_or(&Verb::List);
    let model = match verb {
        Verb::List => settings.list(),
        Verb::Get { key } => settings.get(key)?,
        Verb::Set { key, value } => settings.set(&config, key, value)?,
        Verb::Unset { key } => settings.unset(&config, key)?,
        Verb::Reconcile => settings.reconcile(),
    };
    Ok(Outcome::shown(&model, &style))
}

/// What every verb reads from: the known keys, the members that declare them, the file.
struct Settings<'a, 'm> {
    known: &'a [KnownKey<'m>],
    members: &'a [Member],
    path: &'a Path,
}

/// An entry's key.
fn key_of(e: &SettingEntry) -> &str {
    &e.key
}

/// The wire spelling of a setting's kind.
fn kind_name(kind: SettingKind) -> &'static str {
    match kind {
        SettingKind::Enum => "enum",
        SettingKind::Integer => "integer",
        SettingKind::Duration => "duration",
        SettingKind::Boolean => "boolean",
    }
}

/// The wire spelling of a validator class.
fn class_name(class: Class) -> &'static str {
    match class {
        Class::Valid => "valid",
        Class::Invalid => "invalid",
        Class::Unsupported => "unsupported",
    }
}

impl<'a> Settings<'a, '_> {
    fn state(&self) -> FileState {
        aw_workspace::family::bridge_settings::read(self.path)
    }

    fn find(&self, key: &str) -> Result<&'a KnownKey<'a>, Failure> {
        declared(self.known, key, key_of).ok_or_else(|| self.unknown(key))
    }

    fn unknown(&self, key: &str) -> Failure {
        let keys: Vec<&str> = self.known.iter().map(|k| k.entry.key.as_str()).collect();
        let list = if keys.is_empty() {
            "none: no installed member declares settings".to_owned()
        } else {
            keys.join(", ")
        };
        let details = UnknownKeyDetails {
            key: key.to_owned(),
            known: keys.iter().map(|k| (*k).to_owned()).collect(),
        };
        let mut f = Failure::new(
            ErrorCode::FamilySettingsUnknownKey,
            format!("unknown settings key '{key}'; the known keys are: {list}"),
            "use one of the known keys (`aw family settings list` shows them), or pass --from \
             <skill-dir> to read another member's keys",
        )
        .with_details(details);
        f.exit = 2;
        f
    }

    fn setting(&self, k: &KnownKey<'a>, file: Option<&SettingsFile>) -> Setting<'a> {
        let e: &'a SettingEntry = k.entry;
        let env = env_value(&e.key);
        let in_file = file.and_then(|f| f.value(&e.key));
        let rule = env_rule(&e.key, e.kind == SettingKind::Enum);
        let eff: Effective = resolve(env.as_deref(), rule, in_file, e.default.as_deref(), &|v| {
            e.accepts(v)
        });
        let bounded = e.min.is_some() || e.max.is_some();
        Setting {
            key: &e.key,
            member: k.member.name(),
            member_dir: k.member.dir.to_string_lossy().into_owned(),
            kind: kind_name(e.kind),
            allowed: e.allowed_label(),
            default: e.default.as_deref(),
            retired: e.retired.as_deref(),
            effect: &e.effect,
            applies_to: &e.applies_to,
            env,
            file: in_file.map(str::to_owned),
            value: eff.value,
            source: eff.source,
            ignored: eff.ignored,
            values: (!e.values.is_empty()).then_some(e.values.as_slice()),
            min: bounded.then_some(e.min),
            max: bounded.then_some(e.max),
        }
    }

    /// The model's head: the file and its state; the verb's keys are `None`.
    fn head(&self, verb: SettingsVerb, state: &FileState) -> FamilySettings<'a> {
        let warning = match state {
            FileState::Unusable(why) => Some(format!(
                "the settings file cannot be read ({why}); the wrappers ignore it and their \
                 built-in values apply"
            )),
            FileState::Present { utf8: false, .. } => Some(
                "the settings file is not UTF-8 throughout; its other lines still count, but aw \
                 will not rewrite it"
                    .to_owned(),
            ),
            _ => None,
        };
        FamilySettings {
            verb,
            file: self.path.to_string_lossy().into_owned(),
            exists: !matches!(state, FileState::Absent),
            file_state: state.name(),
            malformed: state
                .file()
                .map(SettingsFile::malformed)
                .unwrap_or_default(),
            warning,
            members: None,
            settings: None,
            key: None,
            previous: None,
            changed: None,
            removed: None,
            setting: None,
            outcome: None,
            counts: None,
            all_current: None,
            keys: None,
        }
    }

    fn list(&self) -> FamilySettings<'a> {
        let state = self.state();
        let mut v = self.head(SettingsVerb::List, &state);
        // Which manifests were read, so a member whose manifest is not VALID (and so adds no
        // keys) is visible rather than silently missing.
        let members: &'a [Member] = self.members;
        v.members = Some(
            members
                .iter()
                .map(|m| SettingsMember {
                    name: m.name(),
                    dir: m.dir.to_string_lossy().into_owned(),
                    class: class_name(m.report.class),
                    keys: m.settings.iter().map(|e| e.key.as_str()).collect(),
                })
                .collect(),
        );
        v.settings = Some(
            self.known
                .iter()
                .map(|k| self.setting(k, state.file()))
                .collect(),
        );
        v
    }

    fn get(&self, key: &str) -> Result<FamilySettings<'a>, Failure> {
        let k = self.find(key)?;
        let state = self.state();
        let mut v = self.head(SettingsVerb::Get, &state);
        v.setting = Some(Some(self.setting(k, state.file())));
        Ok(v)
    }

    fn set(&self, config: &Path, key: &'a str, value: &str) -> Result<FamilySettings<'a>, Failure> {
        let k = self.find(key)?;
        match check_set(k.entry.retired.as_deref(), value, |v| k.entry.accepts(v)) {
            Ok(()) => {}
            Err(Refusal::Retired(why)) => {
                let details = RetiredKeyDetails {
                    key: key.to_owned(),
                    retired: why.to_owned(),
                };
                let mut f = Failure::new(
                    ErrorCode::FamilySettingsRetired,
                    format!("{key} is retired and arms nothing: {why}"),
                    format!("leave it unset (`aw family settings unset {key}` removes it)"),
                )
                .with_details(details);
                f.exit = 2;
                return Err(f);
            }
            Err(Refusal::Value) => {
                let allowed = k.entry.allowed_label();
                let details = InvalidValueDetails {
                    key: key.to_owned(),
                    value: value.to_owned(),
                    allowed: allowed.clone(),
                };
                let mut f = Failure::new(
                    ErrorCode::FamilySettingsInvalidValue,
                    format!("{key} does not accept '{value}'; allowed: {allowed}"),
                    format!("give {key} a value of the form {allowed}"),
                )
                .with_details(details);
                f.exit = 2;
                return Err(f);
            }
        }
        // The file as written is the file as it now stands: it is not read again.
        let (previous, changed, file) = edit(config, |f| {
            let previous = f.value(key).map(str::to_owned);
            let changed = f.set(key, value);
            (previous, changed, f.clone())
        })?;
        let state = FileState::Present { file, utf8: true };
        let mut v = self.head(SettingsVerb::Set, &state);
        v.key = Some(key);
        v.previous = Some(previous);
        v.changed = Some(changed);
        v.setting = Some(Some(self.setting(k, state.file())));
        Ok(v)
    }

    fn unset(&self, config: &Path, key: &'a str) -> Result<FamilySettings<'a>, Failure> {
        // A key no member declares may still be removed when the file holds it: that is how a
        // line `reconcile` calls unknown is cleaned up.
        let known = declared(self.known, key, key_of);
        // The file is read once, under the writers' lock; when it is absent nothing is made
        // (no folder, lock or file) just to say there was nothing to remove.
        let edited = edit_existing(
            config,
            |state| known.is_some() || state.file().is_some_and(|f| f.value(key).is_some()),
            |f| (f.unset(key), f.clone()),
        )?;
        let (removed, state) = match edited {
            Some((removed, file)) => (removed, FileState::Present { file, utf8: true }),
            None if known.is_some() => (0, FileState::Absent),
            None => return Err(self.unknown(key)),
        };
        let mut v = self.head(SettingsVerb::Unset, &state);
        v.key = Some(key);
        v.removed = Some(removed);
        v.setting = Some(known.map(|k| self.setting(k, state.file())));
        Ok(v)
    }

    fn reconcile(&self) -> FamilySettings<'a> {
        let state = self.state();
        let mut v = self.head(SettingsVerb::Reconcile, &state);
        let classes = state.file().map_or_else(Vec::new, |f| {
            reconcile(f, &|key| {
                known_as(self.known, key, key_of, |e| e.retired.is_some())
            })
        });
        let counts = Counts::of(&classes);
        v.outcome = Some(match state {
            FileState::Absent => FileOutcome::Absent,
            FileState::Unusable(_) => FileOutcome::Unusable,
            FileState::Present { .. } => outcome(&classes),
        });
        v.counts = Some(counts);
        v.all_current = Some(counts.all_current());
        v.keys = Some(
            classes
                .into_iter()
                .map(|(e, class)| {
                    let k = declared(self.known, &e.key, key_of);
                    ClassifiedKey {
                        valid: k.map(|k| k.entry.accepts(&e.value)),
                        retired: k.and_then(|k| k.entry.retired.as_deref()),
                        key: e.key,
                        value: e.value,
                        line: e.line,
                        class,
                    }
                })
                .collect(),
        );
        v
    }
}
