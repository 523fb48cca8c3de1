//! `aw self install | uninstall | detect-hosts | doctor`: aw's own installation into agent hosts. Every
//! path is shown absolute (under HOME).

use schemars::JsonSchema;
use serde::Serialize;
use std::path::PathBuf;

/// The output of `aw self install`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelfInstall<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// HOME.
    pub home: String,
    /// The aw version installed.
    pub version: &'a str,
    /// The path the hooks run aw by.
    pub program: &'a str,
    /// One report per host.
    pub targets: Vec<InstallTarget<'a>>,
}

/// What an install did (or would do) on one host.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstallTarget<'a> {
    /// The host's id.
    pub target: &'a str,
    /// `installed`, `noop` or `dry-run`.
    pub status: &'static str,
    /// The `w` skill's folder.
    pub skill: String,
    /// Where the command files go and how the host invokes them, or `null` when this install
    /// writes none.
    pub commands: Option<InstallCommands<'a>>,
    /// Every file of the plan, with what happens to it.
    pub files: Vec<InstallFile>,
    /// Stale files of aw's removed.
    pub removed_stale: Vec<String>,
    /// What was moved aside, and where to.
    pub moved_aside: Vec<MovedAside>,
    /// Files that are not aw's, kept.
    pub kept_foreign: Vec<String>,
    /// Files of aw's edited since, kept (yours now).
    pub kept_edited: Vec<String>,
    /// The reference's install, replaced.
    pub reference: InstallReference,
    /// The folders created.
    pub created_folders: Vec<String>,
    /// What happened to the hooks.
    pub hooks: InstallHooks<'a>,
    /// The older settings backups deleted (the newest are kept).
    pub backups_removed: &'a [PathBuf],
}

/// The host's command files.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstallCommands<'a> {
    /// Their folder.
    pub dir: String,
    /// How the host invokes one (`/w:<n>`).
    pub invoked_as: &'a str,
}

/// One file of an install plan.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstallFile {
    /// The file.
    pub path: String,
    /// `create`, `update`, `noop`, `conflict`, `edited` or `reference`.
    pub action: &'static str,
}

/// A file or folder moved aside.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovedAside {
    /// Where it was.
    pub path: String,
    /// Where it is now.
    pub to: String,
    /// `reference`, `skill-folder`, `edited` or `entry`.
    pub kind: &'static str,
}

/// The reference's install on this host.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstallReference {
    /// Its files and folders in aw's places, replaced (kept aside).
    pub replaced: Vec<String>,
    /// Its settings file, when its hook entries were taken out, or `null`.
    pub config: Option<ReferenceConfig>,
    /// What it left outside the host's folder, named and not touched.
    pub outside: Vec<ReferenceOutside>,
}

/// The settings file the reference's hook entries were taken out of.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReferenceConfig {
    /// The file.
    pub file: String,
    /// Its backup, or `null`.
    pub backup: Option<String>,
}

/// Something of the reference's outside the host's folder.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReferenceOutside {
    /// Its path.
    pub path: String,
    /// What it is.
    pub note: &'static str,
}

/// The hooks of one host's install, by how the host carries them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum InstallHooks<'a> {
    /// Merged into the host's settings file.
    Settings(SettingsHooks<'a>),
    /// A plugin folder the user enables in the host.
    Plugin(PluginHooks<'a>),
    /// A module the host loads by itself.
    Module(ModuleHooks<'a>),
    /// The host carries no hooks.
    Unsupported(UnsupportedHooks<'a>),
    /// Not asked for (`--skill-only`, `--no-hooks`).
    Skipped(SkippedHooks),
}

/// Hooks not installed, as asked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkippedHooks {
    /// Always `skipped`.
    #[schemars(extend("const" = "skipped"))]
    pub status: &'static str,
}

/// Hooks the host cannot carry.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnsupportedHooks<'a> {
    /// Always `unsupported`.
    #[schemars(extend("const" = "unsupported"))]
    pub status: &'static str,
    /// Why.
    pub reason: &'a str,
}

/// Hooks as a module the host loads.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModuleHooks<'a> {
    /// `installed` or `noop`.
    pub status: &'static str,
    /// The module file.
    pub module: String,
    /// The path the hooks run aw by.
    pub program: &'a str,
    /// How the host picks it up.
    pub note: &'static str,
    /// The events the host cannot carry.
    pub missing_events: Vec<MissingEvent<'a>>,
}

/// Hooks as a plugin folder.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PluginHooks<'a> {
    /// `generated` or `noop`.
    pub status: &'static str,
    /// The plugin's folder.
    pub plugin: String,
    /// The path the hooks run aw by.
    pub program: &'a str,
    /// How the host arms it.
    pub note: &'static str,
    /// The events the host cannot carry.
    pub missing_events: Vec<MissingEvent<'a>>,
}

/// Hooks merged into the host's settings file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsHooks<'a> {
    /// `installed` or `noop`.
    pub status: &'static str,
    /// The settings file, or `null`.
    pub file: Option<String>,
    /// Its backup, or `null`.
    pub backup: Option<String>,
    /// The path the hooks run aw by.
    pub program: &'a str,
    /// The events aw's entries were added for.
    pub events_added: &'a [String],
    /// The events aw's entries were already there for.
    pub events_present: &'a [String],
    /// The events whose aw entry you edited (yours now).
    pub edited_kept: &'a [String],
    /// The events whose duplicate aw entry was taken out.
    pub duplicates_removed: &'a [String],
    /// The events whose reference entry was taken out.
    pub reference_events_removed: &'a [String],
    /// The reference's hooks taken out (`agent-workflow` not on PATH).
    pub reference_hooks_removed: Vec<NamedHook<'a>>,
    /// The reference's hooks kept (`agent-workflow` on PATH).
    pub reference_hooks_kept: Vec<NamedHook<'a>>,
    /// The events the host cannot carry.
    pub missing_events: Vec<MissingEvent<'a>>,
}

/// A hook entry by its event and command.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedHook<'a> {
    /// The event.
    pub event: &'a str,
    /// The command.
    pub command: &'a str,
}

/// An event the host cannot carry, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissingEvent<'a> {
    /// The event.
    pub event: &'a str,
    /// Why.
    pub reason: &'a str,
}

/// The output of `aw self uninstall`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelfUninstall<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether this was a dry run (nothing removed).
    pub dry_run: bool,
    /// HOME.
    pub home: String,
    /// One report per host.
    pub targets: Vec<UninstallTarget<'a>>,
    /// With `--target all`: that the shared agents folder is left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// What an uninstall did (or would do) on one host.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UninstallTarget<'a> {
    /// The host's id.
    pub target: &'a str,
    /// `removed`, `noop` or `dry-run`.
    pub status: &'static str,
    /// The files removed.
    pub removed: Vec<String>,
    /// Files that are not aw's, kept.
    pub kept_foreign: Vec<String>,
    /// Files of aw's edited since, kept (yours now).
    pub kept_edited: Vec<String>,
    /// The folders aw created, removed once empty.
    pub removed_folders: Vec<String>,
    /// The older settings backups deleted (the newest are kept).
    pub backups_removed: &'a [PathBuf],
    /// What happened to the hooks.
    pub hooks: UninstallHooks<'a>,
}

/// The hooks of one host's uninstall.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum UninstallHooks<'a> {
    /// aw's entries in the host's settings file.
    Settings(UninstallSettingsHooks<'a>),
    /// A plugin or module, none, or not asked for.
    Other(UninstallOtherHooks<'a>),
}

/// aw's entries taken out of the host's settings file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UninstallSettingsHooks<'a> {
    /// `removed` or `dry-run`.
    pub status: &'static str,
    /// The settings file.
    pub file: String,
    /// Whether the file itself goes (nothing but an empty object left of one aw created).
    pub file_removed: bool,
    /// Its backup, or `null`.
    pub backup: Option<String>,
    /// The events whose aw entries go.
    pub events: &'a [String],
    /// The events whose aw entry you edited (yours now, kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited_kept: Option<&'a [String]>,
}

/// The hooks of a host without a settings file of aw's to edit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UninstallOtherHooks<'a> {
    /// `removed`, `dry-run`, `noop` or `skipped`.
    pub status: &'static str,
    /// For a host whose hooks live in its settings: the events whose aw entry you edited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited_kept: Option<&'a [String]>,
}

/// The output of `aw self detect-hosts`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectHosts<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// HOME.
    pub home: String,
    /// Every host of the host table, and the shared agents folder.
    pub hosts: Vec<DetectedHost<'a>>,
    /// The ids of the hosts present.
    pub present: Vec<&'a str>,
}

/// One host of the host table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectedHost<'a> {
    /// Its id.
    pub id: &'a str,
    /// Whether it is an agent host (`false` for the shared agents folder).
    pub is_host: bool,
    /// Whether its folder exists.
    pub present: bool,
    /// Its folder.
    pub folder: String,
    /// The aw version that installed its `w` skill, or `null`.
    pub installed_version: Option<String>,
}

/// The `error.details` of a failure of `aw self install | uninstall`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum SelfFailureDetails {
    /// The argument refused (`--target`).
    Argument {
        /// Its flag.
        argument: String,
    },
    /// The settings file that cannot be merged.
    File {
        /// The file.
        file: String,
    },
    /// The path aw refuses to write through.
    Path {
        /// The path.
        path: String,
    },
    /// The paths that hold something aw did not install.
    Conflicts {
        /// Each path.
        conflicts: Vec<String>,
    },
}

/// The output of `aw self doctor`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelfDoctor<'a> {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// Whether an aw is on PATH, it is not the reference's, and no host is outdated.
    pub healthy: bool,
    /// This aw's version.
    pub version: &'a str,
    /// The path hooks would run this aw by.
    pub program: &'a str,
    /// The first `aw` on PATH, or `null`.
    pub aw_on_path: Option<String>,
    /// Which program that is (`this-aw`, `reference`, `other-native`, `other`), or `null`.
    pub aw_on_path_is: Option<&'a str>,
    /// Every `aw` on PATH, in PATH's order.
    pub aws_on_path: Vec<AwOnPath<'a>>,
    /// The reference's `agent-workflow` on PATH, or `null`.
    pub agent_workflow_on_path: Option<String>,
    /// HOME.
    pub home: String,
    /// Every host of the host table, and the shared agents folder.
    pub hosts: Vec<DoctorHost<'a>>,
}

/// An `aw` on PATH.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AwOnPath<'a> {
    /// Its path.
    pub path: String,
    /// Which program it is (`this-aw`, `reference`, `other-native`, `other`).
    pub program: &'a str,
}

/// One host, checked. The keys after `verdict` are there only for a host where aw is
/// installed (`problem`: only when its files could not be inspected).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoctorHost<'a> {
    /// Its id.
    pub id: &'a str,
    /// Whether its folder exists.
    pub present: bool,
    /// The aw version its marker names, or `null`.
    pub installed_version: Option<String>,
    /// What the reference's own install left in this host's places (not for an absent host).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<DoctorReference>,
    /// `ok`, `outdated`, `not-installed` or `absent`.
    pub verdict: &'static str,
    /// Why its files could not be inspected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Files aw would create.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
    /// Files aw would update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outdated: Option<Vec<String>>,
    /// Stale files of an older install.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale: Option<Vec<String>>,
    /// Files of aw's you edited since (yours, kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited: Option<Vec<String>>,
    /// Files of yours where aw would write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foreign_in_the_way: Option<Vec<String>>,
    /// Whether every hook entry of aw's is there (`null`: the host keeps no settings file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hooks_in_place: Option<Option<bool>>,
    /// Every program aw's hooks run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_programs: Option<Vec<String>>,
    /// Those that are no longer there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_programs_missing: Option<Vec<String>>,
    /// Each event whose hook would run twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_hooks: Option<Vec<String>>,
    /// Each pair of aw's handlers that fire for one trigger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_entries: Option<Vec<DuplicateEntry>>,
    /// Hooks of aw's whose command you edited (yours, no fault).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited_hooks: Option<Vec<EditedHook>>,
}

/// What the reference's own install left in a host's places.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoctorReference {
    /// Its files and folders in aw's places.
    pub files: Vec<String>,
    /// The events holding its hook entries.
    pub hooks: Vec<String>,
    /// What it left outside the host's folder.
    pub outside: Vec<ReferenceOutside>,
}

/// Two handlers of aw's that fire for one trigger.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuplicateEntry {
    /// The event.
    pub event: String,
    /// The two entries, in the file's order.
    pub entries: Vec<SurveyEntry>,
    /// `install` (both exact copies of aw's: install takes one out) or `by-hand`.
    pub fix: &'static str,
}

/// One hook entry of a settings file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SurveyEntry {
    /// Its group's place in the event's list, from 1.
    pub entry: usize,
    /// Its group's matcher, or `null`.
    pub matcher: Option<String>,
    /// Its command.
    pub command: String,
}

/// A hook of aw's whose command you edited.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditedHook {
    /// The event.
    pub event: String,
    /// The command.
    pub command: String,
}
