//! `aw family settings [list|get KEY|set KEY VALUE|unset KEY|reconcile] [--from <skill-dir>]…`
//!
//! The bridges' host settings file, `${XDG_CONFIG_HOME:-~/.config}/agent-workflow/
//! bridge-settings.conf`, typed by the `settings` blocks of the family members' manifests. The
//! file format, the edits and the resolution are `aw_core::family::bridge_settings`'s; the file and the
//! members on disk are `aw_workspace::family::bridge_settings`'s.

use super::survey::{roots, survey};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::{clean, escaped};
use aw_core::error_code::ErrorCode;
use aw_core::family::bridge_settings::{
    Declared, Effective, KeyClass, Known, Outcome as FileOutcome, SettingsFile, env_rule,
    first_declarations, outcome, reconcile, resolve, writable_value,
};
use aw_core::family::roster::BRIDGE_KIND;
use aw_manifest::{Class, SettingEntry, SettingKind};
use aw_workspace::family::bridge_settings::{
    FileState, Member, config_home, edit, file_path, member_at,
};
use aw_workspace::family::skill::resolve_arg;
use aw_workspace::locate::current_dir;
use aw_workspace::locate::env_value;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
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
    let view = View {
        known: &known,
        members: &members,
        path: &path,
    };
    let verb = args.verb.as_ref().unwrap_or(&Verb::List);
    let model = match verb {
        Verb::List => view.list()?,
        Verb::Get { key } => view.get(key)?,
        Verb::Set { key, value } => view.set(&config, key, value)?,
        Verb::Unset { key } => view.unset(&config, key)?,
        Verb::Reconcile => view.reconcile()?,
    };
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(human(verb, &model)),
    })
}

struct View<'a, 'm> {
    known: &'a [KnownKey<'m>],
    members: &'a [Member],
    path: &'a Path,
}

impl View<'_, '_> {
    fn state(&self) -> FileState {
        aw_workspace::family::bridge_settings::read(self.path)
    }

    fn find(&self, key: &str) -> Result<&KnownKey<'_>, Failure> {
        self.known
            .iter()
            .find(|k| k.entry.key == key)
            .ok_or_else(|| self.unknown(key))
    }

    fn unknown(&self, key: &str) -> Failure {
        let keys: Vec<&str> = self.known.iter().map(|k| k.entry.key.as_str()).collect();
        let list = if keys.is_empty() {
            "none: no installed member declares settings".to_owned()
        } else {
            keys.join(", ")
        };
        let mut f = Failure::new(
            ErrorCode::FamilySettingsUnknownKey,
            format!("unknown settings key '{key}'; the known keys are: {list}"),
            "use one of the known keys (`aw family settings list` shows them), or pass --from \
             <skill-dir> to read another member's keys",
        )
        .with_details(json!({ "key": key, "known": keys }));
        f.exit = 2;
        f
    }

    fn setting(&self, k: &KnownKey<'_>, file: Option<&SettingsFile>) -> Value {
        let e = k.entry;
        let env = env_value(&e.key);
        let in_file = file.and_then(|f| f.value(&e.key));
        let rule = env_rule(&e.key, e.kind == SettingKind::Enum);
        let eff: Effective = resolve(env.as_deref(), rule, in_file, e.default.as_deref(), &|v| {
            e.accepts(v)
        });
        let mut v = json!({
            "key": e.key,
            "member": k.member.name(),
            "memberDir": k.member.dir.to_string_lossy(),
            "kind": e.kind,
            "allowed": e.allowed_label(),
            "default": e.default,
            "retired": e.retired,
            "effect": e.effect,
            "appliesTo": e.applies_to,
            "env": env,
            "file": in_file,
            "value": eff.value,
            "source": eff.source,
            "ignored": eff.ignored,
        });
        if !e.values.is_empty() {
            v["values"] = json!(e.values);
        }
        if e.min.is_some() || e.max.is_some() {
            v["min"] = json!(e.min);
            v["max"] = json!(e.max);
        }
        v
    }

    fn head(&self, state: &FileState) -> Value {
        let mut v = json!({
            "file": self.path.to_string_lossy(),
            "exists": !matches!(state, FileState::Absent),
            "fileState": state.name(),
            "malformed": state.file().map(SettingsFile::malformed).unwrap_or_default(),
        });
        match state {
            FileState::Unusable(why) => {
                v["warning"] = json!(format!(
                    "the settings file cannot be read ({why}); the wrappers ignore it and their \
                 built-in values apply"
                ))
            }
            FileState::Present { utf8: false, .. } => {
                v["warning"] = json!(
                    "the settings file is not UTF-8 throughout; its other lines still count, but aw \
                 will not rewrite it"
                )
            }
            _ => {}
        }
        v
    }

    fn list(&self) -> Result<Value, Failure> {
        let state = self.state();
        let mut v = self.head(&state);
        // Which manifests were read, so a member whose manifest is not VALID (and so adds no
        // keys) is visible rather than silently missing.
        v["members"] = self
            .members
            .iter()
            .map(|m| {
                json!({
                    "name": m.name(),
                    "dir": m.dir.to_string_lossy(),
                    "class": m.report.class,
                    "keys": m.settings.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(),
                })
            })
            .collect();
        v["settings"] = self
            .known
            .iter()
            .map(|k| self.setting(k, state.file()))
            .collect();
        Ok(v)
    }

    fn get(&self, key: &str) -> Result<Value, Failure> {
        let k = self.find(key)?;
        let state = self.state();
        let mut v = self.head(&state);
        v["setting"] = self.setting(k, state.file());
        Ok(v)
    }

    fn set(&self, config: &Path, key: &str, value: &str) -> Result<Value, Failure> {
        let k = self.find(key)?;
        if let Some(why) = &k.entry.retired {
            let mut f = Failure::new(
                ErrorCode::FamilySettingsRetired,
                format!("{key} is retired and arms nothing: {why}"),
                format!("leave it unset (`aw family settings unset {key}` removes it)"),
            )
            .with_details(json!({ "key": key, "retired": why }));
            f.exit = 2;
            return Err(f);
        }
        if !writable_value(value) || !k.entry.accepts(value) {
            let allowed = k.entry.allowed_label();
            let mut f = Failure::new(
                ErrorCode::FamilySettingsInvalidValue,
                format!("{key} does not accept '{value}'; allowed: {allowed}"),
                format!("give {key} a value of the form {allowed}"),
            )
            .with_details(json!({ "key": key, "value": value, "allowed": allowed }));
            f.exit = 2;
            return Err(f);
        }
        let (previous, changed) = edit(config, |f| {
            let previous = f.value(key).map(str::to_owned);
            (previous, f.set(key, value))
        })?;
        let state = self.state();
        let mut v = self.head(&state);
        v["key"] = json!(key);
        v["previous"] = json!(previous);
        v["changed"] = json!(changed);
        v["setting"] = self.setting(k, state.file());
        Ok(v)
    }

    fn unset(&self, config: &Path, key: &str) -> Result<Value, Failure> {
        // A key no member declares may still be removed when the file holds it: that is how a
        // line `reconcile` calls unknown is cleaned up.
        let known = self.known.iter().find(|k| k.entry.key == key);
        let before = self.state();
        if known.is_none() && before.file().is_none_or(|f| f.value(key).is_none()) {
            return Err(self.unknown(key));
        }
        // Nothing to remove without a file: no folder, lock or file is made just to say so.
        let removed = match before {
            FileState::Absent => 0,
            _ => edit(config, |f| f.unset(key))?,
        };
        let state = self.state();
        let mut v = self.head(&state);
        v["key"] = json!(key);
        v["removed"] = json!(removed);
        v["setting"] = known.map_or(Value::Null, |k| self.setting(k, state.file()));
        Ok(v)
    }

    fn reconcile(&self) -> Result<Value, Failure> {
        let state = self.state();
        let mut v = self.head(&state);
        let classes = state.file().map_or_else(Vec::new, |f| {
            reconcile(
                f,
                &|key| match self.known.iter().find(|k| k.entry.key == key) {
                    None => Known::No,
                    Some(k) if k.entry.retired.is_some() => Known::Retired,
                    Some(_) => Known::Current,
                },
            )
        });
        let count = |c: KeyClass| classes.iter().filter(|(_, x)| *x == c).count();
        v["outcome"] = json!(match state {
            FileState::Absent => FileOutcome::Absent,
            FileState::Unusable(_) => FileOutcome::Unusable,
            FileState::Present { .. } => outcome(&classes),
        });
        v["counts"] = json!({
            "current": count(KeyClass::Current),
            "unknown": count(KeyClass::Unknown),
            "retired": count(KeyClass::Retired),
            "duplicate": count(KeyClass::Duplicate),
        });
        v["allCurrent"] = json!(classes.iter().all(|(_, c)| *c == KeyClass::Current));
        v["keys"] = classes
            .iter()
            .map(|(e, class)| {
                let k = self.known.iter().find(|k| k.entry.key == e.key);
                json!({
                    "key": e.key,
                    "value": e.value,
                    "line": e.line,
                    "class": class,
                    "valid": k.map(|k| k.entry.accepts(&e.value)),
                    "retired": k.and_then(|k| k.entry.retired.clone()),
                })
            })
            .collect();
        Ok(v)
    }
}

fn s(v: &Value) -> String {
    clean(v.as_str().unwrap_or_default()).into_owned()
}

/// One setting as `KEY = value [source]`, then its member, allowed form and effect.
fn setting_lines(v: &Value) -> String {
    let value = match v["value"].as_str() {
        Some(x) => escaped(x).into_owned(),
        None => "(unset: the wrapper's built-in value applies)".to_owned(),
    };
    let mut out = format!("{} = {value} [{}]\n", s(&v["key"]), s(&v["source"]));
    if v["retired"].is_string() {
        out.push_str(&format!("  RETIRED, arms nothing: {}\n", s(&v["retired"])));
    }
    for i in v["ignored"].as_array().into_iter().flatten() {
        let source = s(&i["source"]);
        let value = escaped(i["value"].as_str().unwrap_or_default()).into_owned();
        out.push_str(&match i["reason"].as_str() {
            Some("empty") => format!(
                "  {source} variable set but empty: the file's line is skipped and the built-in \
                 value applies\n"
            ),
            Some("refusesRun") => format!(
                "  {source} value '{value}' makes the wrapper refuse to run (allowed: {})\n",
                s(&v["allowed"])
            ),
            _ => format!(
                "  ignored {source} value '{value}' (not {})\n",
                s(&v["allowed"])
            ),
        });
    }
    out.push_str(&format!(
        "  {} · {} · {}\n",
        s(&v["member"]),
        s(&v["allowed"]),
        s(&v["effect"])
    ));
    out
}

fn human(verb: &Verb, v: &Value) -> String {
    let mut file = format!(
        "settings file: {}{}\n",
        s(&v["file"]),
        if v["exists"] == true { "" } else { " (absent)" }
    );
    if v["warning"].is_string() {
        file.push_str(&format!("warning: {}\n", s(&v["warning"])));
    }
    let malformed: Vec<String> = v["malformed"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|n| n.to_string())
        .collect();
    if !malformed.is_empty() {
        file.push_str(&format!(
            "malformed lines, which the wrappers skip (a setting is KEY=value from the first \
             column): {}\n",
            malformed.join(", ")
        ));
    }
    match verb {
        Verb::List => {
            let items = v["settings"].as_array().cloned().unwrap_or_default();
            let mut out = file;
            for m in v["members"].as_array().into_iter().flatten() {
                if m["class"] != "valid" {
                    out.push_str(&format!(
                        "skipped {} ({}): its manifest is {}; `aw manifest validate` says why\n",
                        s(&m["name"]),
                        s(&m["dir"]),
                        s(&m["class"])
                    ));
                }
            }
            if items.is_empty() {
                out.push_str("no member declares settings\n");
            }
            for i in &items {
                out.push_str(&setting_lines(i));
            }
            out
        }
        Verb::Get { .. } => file + &setting_lines(&v["setting"]),
        Verb::Set { .. } => {
            let what = if v["changed"] == true {
                "set"
            } else {
                "already set"
            };
            format!("{file}{what}: ") + &setting_lines(&v["setting"])
        }
        Verb::Unset { .. } => {
            let mut out = format!(
                "{file}removed {} line(s) of {}\n",
                v["removed"],
                s(&v["key"])
            );
            if v["setting"].is_object() {
                out.push_str(&setting_lines(&v["setting"]));
            }
            out
        }
        Verb::Reconcile => {
            let mut out = file;
            for k in v["keys"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "line {}: {} {}\n",
                    k["line"],
                    s(&k["key"]),
                    s(&k["class"])
                ));
            }
            out.push_str(match v["outcome"].as_str() {
                Some("absent") => "no settings file: every key has its built-in value\n",
                Some("unusable") => "the settings file cannot be used; nothing to classify\n",
                Some("ok") => "all current\n",
                Some("duplicates") => {
                    "a key is set twice and the last line wins: `aw family settings set KEY \
                     VALUE` folds the lines into one\n"
                }
                _ => "some keys need attention: unset them (`aw family settings unset KEY`)\n",
            });
            out
        }
    }
}
