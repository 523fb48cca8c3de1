//! `aw family …`: the output of each verb (status, posture, settings, sandbox, links, modes),
//! and the details its failures carry.

use crate::family::State;
use crate::family::bridge_settings::{Counts, Ignored, KeyClass, Outcome, Source};
use crate::family::links::{Action, Found as LinkFound};
use crate::family::resolve::{Found, Freshness, Via};
use crate::family::wiring::Wiring;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw family status`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FamilyStatus {
    /// The skill roots searched, in order.
    pub roots: Vec<String>,
    /// A folder named on the command line that is not a folder.
    pub warnings: Vec<String>,
    /// Each roster member, in roster order.
    pub members: Vec<StatusMember>,
}

/// One member as `aw family status` finds it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusMember {
    /// Its name.
    pub name: &'static str,
    /// Its kind (`execution-backend`, …).
    pub kind: &'static str,
    /// Its rung on the detection ladder.
    pub state: State,
    /// Why it is on that rung (`null` for ok).
    pub reason: Option<String>,
    /// The folder that speaks for it, or `null`.
    pub dir: Option<String>,
    /// Its authoritative version, as written, or `null`.
    pub version: Option<serde_json::Value>,
    /// Where that version came from, or `null`.
    pub version_from: Option<&'static str>,
    /// Where `detect.installed` points.
    pub installed: Installed,
    /// The bundled copy compared with (`--bundled`, bridges only), or `null`.
    pub bundled: Option<Bundled>,
    /// Its deployment marker in the project (`--project`), or `null`.
    pub deployed: Option<Deployed>,
    /// Every folder that holds its marker file.
    pub copies: Vec<StatusCopy>,
}

impl StatusMember {
    /// The version when the manifest writes it as text (a person reads nothing else).
    pub fn version_text(&self) -> Option<&str> {
        self.version.as_ref().and_then(serde_json::Value::as_str)
    }
}

/// Where `detect.installed` points.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Installed {
    /// The environment variable.
    pub env: &'static str,
    /// Its value, or `null` when unset.
    pub env_value: Option<String>,
    /// The default folder, as written.
    pub default: &'static str,
    /// Which of the two chose the folder.
    pub via: Via,
    /// The folder, or `null`.
    pub path: Option<String>,
    /// A remark on how it was read, or `null`.
    pub note: Option<String>,
}

/// A bundled copy of a bridge.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bundled {
    /// Its folder.
    pub dir: String,
    /// Whether its manifest is there.
    pub present: bool,
    /// Why it cannot be read, or `null`.
    pub error: Option<String>,
    /// Its version, or `null`.
    pub version: Option<String>,
    /// How the installed copy compares with it.
    pub freshness: Freshness,
}

/// A member's deployment marker.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployed {
    /// The marker file, relative to the project.
    pub file: &'static str,
    /// The marker's path.
    pub path: String,
    /// Whether it is there with a stamp.
    pub present: bool,
    /// Its stamp, or `null`.
    pub stamp: Option<String>,
}

/// One folder that holds a member's marker file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusCopy {
    /// The folder.
    pub dir: String,
    /// Why it was looked at.
    pub found: Found,
    /// Its rung.
    pub state: State,
    /// Why, or `null`.
    pub reason: Option<String>,
    /// Its version (ok copies only), or `null`.
    pub version: Option<serde_json::Value>,
    /// Where that version came from (ok copies only), or `null`.
    pub version_from: Option<&'static str>,
}

/// The output of `aw family posture`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FamilyPosture {
    /// The posture line, or `null` when nothing is configured or a source is malformed.
    pub line: Option<String>,
    /// What each backend contributes, codex first.
    pub backends: Vec<PostureBackend>,
}

/// One backend's posture.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PostureBackend {
    /// The member's name.
    pub name: &'static str,
    /// Its label on the line (`codex`, `agy`).
    pub label: &'static str,
    /// The folder read, or `null`.
    pub dir: Option<String>,
    /// `pinned`, `absent`, `invalid`, `unreadable` or `not-installed`.
    pub state: &'static str,
    /// The installed copy's rung, or `null` (bundled copies, nothing installed).
    pub ladder: Option<&'static str>,
    /// The pins, or `null`.
    pub posture: Option<PosturePins>,
    /// Why the posture block is malformed.
    pub errors: Vec<String>,
}

/// A backend's pins.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PosturePins {
    /// The model.
    pub model: String,
    /// The effort, or `null`.
    pub effort: Option<String>,
    /// The tier, or `null`.
    pub tier: Option<String>,
}

/// The output of `aw family links`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FamilyLinks {
    /// The member's skill folder.
    pub skill_dir: String,
    /// The folder the links go in.
    pub bin_dir: String,
    /// `plan`, `apply` or `remove`.
    pub mode: &'static str,
    /// One row per wrapper link.
    pub links: Vec<LinkRow>,
}

/// One wrapper link.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkRow {
    /// The command name (the link's name).
    pub cmd: String,
    /// The roles that name it.
    pub roles: Vec<String>,
    /// Its source, relative to the skill folder.
    pub source: String,
    /// The path the link points at.
    pub target: String,
    /// What is found where the link goes.
    pub found: LinkFound,
    /// What to do.
    pub action: Action,
    /// Why the source cannot be linked, or `null`.
    pub problem: Option<String>,
    /// Whether this run did it.
    pub done: bool,
}

/// The output of `aw family modes`; `C` is the mode catalog as the manifest reader views it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FamilyModes<C> {
    /// The member's skill folder.
    pub skill_dir: String,
    /// Whether the manifest passes `aw manifest validate`.
    pub valid: bool,
    /// The catalog: `{state: absent|malformed|present, modes?}`.
    pub catalog: C,
}

/// The output of `aw family sandbox`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FamilySandbox {
    /// The project root writable dirs resolve against.
    pub project_root: String,
    /// `wired` or `all` (`--all`).
    pub scope: &'static str,
    /// Each bridge read.
    pub members: Vec<SandboxMember>,
    /// Bridges passed over, with why.
    pub skipped: Vec<SandboxSkipped>,
    /// Claude settings files passed over, with why.
    pub settings_skipped: Vec<SettingsSkipped>,
    /// The recipe's egress hosts.
    pub hosts: Vec<String>,
    /// The recipe's writable dirs.
    pub dirs: Vec<String>,
    /// The recipe fingerprint, or `null` when no bridge counts.
    pub fingerprint: Option<String>,
    /// Whether the recipe is acknowledged, or `null` when that cannot be known.
    pub acknowledged: Option<bool>,
    /// The file that acknowledges it, or `null`.
    pub ack_source: Option<&'static str>,
    /// Why the acknowledgement cannot be known, or `null`.
    pub ack_error: Option<String>,
}

/// One bridge's sandbox needs.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SandboxMember {
    /// Its folder.
    pub dir: String,
    /// Its manifest name, or `null`.
    pub name: Option<String>,
    /// Its review wrapper (`roles.review.cmd`), or `null`.
    pub review_cmd: Option<String>,
    /// How that wrapper is wired into the project, or `null` without one.
    pub wiring: Option<Wiring>,
    /// Whether it counts towards the recipe.
    pub counted: bool,
    /// Its egress hosts.
    pub hosts: Vec<String>,
    /// Its writable dirs, resolved.
    pub dirs: Vec<SandboxDir>,
}

/// One writable dir, resolved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SandboxDir {
    /// The environment variable that overrides it, or `null`.
    pub env: Option<String>,
    /// The default, as written.
    pub default: String,
    /// The folder it resolves to.
    pub resolved: String,
    /// `env` or `default`.
    pub from: &'static str,
}

/// A bridge passed over.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SandboxSkipped {
    /// Its folder.
    pub dir: String,
    /// Why.
    pub reason: String,
}

/// A Claude settings file passed over.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsSkipped {
    /// The file.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// Which `aw family settings` verb made a [`FamilySettings`] (not printed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SettingsVerb {
    /// `list`.
    #[default]
    List,
    /// `get`.
    Get,
    /// `set`.
    Set,
    /// `unset`.
    Unset,
    /// `reconcile`.
    Reconcile,
}

/// The output of `aw family settings`: the file's state, then what the verb adds (`list`:
/// members and settings; `get`: setting; `set`: key, previous, changed, setting; `unset`: key,
/// removed, setting; `reconcile`: outcome, counts, allCurrent, keys).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FamilySettings<'a> {
    /// The verb (not printed).
    #[serde(skip)]
    #[schemars(skip)]
    pub verb: SettingsVerb,
    /// The settings file.
    pub file: String,
    /// Whether it exists.
    pub exists: bool,
    /// `absent`, `present` or `unusable`.
    pub file_state: &'static str,
    /// The numbers of the lines the wrappers skip.
    pub malformed: Vec<usize>,
    /// Why the file is not used, or not rewritten.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// `list`: the members whose manifests were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<SettingsMember<'a>>>,
    /// `list`: every known key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settings: Option<Vec<Setting<'a>>>,
    /// `set`, `unset`: the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<&'a str>,
    /// `set`: the file's value before, or `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Option<String>>,
    /// `set`: whether the file changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<bool>,
    /// `unset`: how many lines were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<usize>,
    /// `get`, `set`: the key; `unset`: the key, or `null` when no member declares it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setting: Option<Option<Setting<'a>>>,
    /// `reconcile`: the file's verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// `reconcile`: how many keys of each class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// `reconcile`: whether every key is current.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_current: Option<bool>,
    /// `reconcile`: each key line of the file, classified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<ClassifiedKey<'a>>>,
}

/// A member whose manifest was read for keys.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsMember<'a> {
    /// Its manifest name, or `null`.
    pub name: Option<&'a str>,
    /// Its folder.
    pub dir: String,
    /// The validator's class: `valid`, `invalid` or `unsupported`.
    pub class: &'static str,
    /// The keys it declares.
    pub keys: Vec<&'a str>,
}

/// One known key, with its effective value.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Setting<'a> {
    /// The key.
    pub key: &'a str,
    /// The member that declares it first, or `null` when it has no name.
    pub member: Option<&'a str>,
    /// That member's folder.
    pub member_dir: String,
    /// Its kind: `enum`, `integer`, `duration` or `boolean`.
    pub kind: &'static str,
    /// Its allowed form, in words.
    pub allowed: String,
    /// Its default, or `null`.
    pub default: Option<&'a str>,
    /// Why it is retired, or `null`.
    pub retired: Option<&'a str>,
    /// What it does.
    pub effect: &'a str,
    /// The wrappers that read it.
    pub applies_to: &'a [String],
    /// The environment variable's value, or `null`.
    pub env: Option<String>,
    /// The file's value, or `null`.
    pub file: Option<String>,
    /// The effective value, or `null`.
    pub value: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// Values set above it that are not in effect, and why.
    pub ignored: Vec<Ignored>,
    /// The allowed values (enum keys).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<&'a [String]>,
    /// The lower bound (integer keys with a bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Option<i64>>,
    /// The upper bound (integer keys with a bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Option<i64>>,
}

/// One key line of the settings file, classified.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassifiedKey<'a> {
    /// The key.
    pub key: String,
    /// Its value.
    pub value: String,
    /// Its line number.
    pub line: usize,
    /// Its class.
    pub class: KeyClass,
    /// Whether its kind accepts the value, or `null` for an unknown key.
    pub valid: Option<bool>,
    /// Why it is retired, or `null`.
    pub retired: Option<&'a str>,
}

/// `error.details` of an unknown settings key.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnknownKeyDetails {
    /// The key asked for.
    pub key: String,
    /// The known keys.
    pub known: Vec<String>,
}

/// `error.details` of a retired settings key.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetiredKeyDetails {
    /// The key.
    pub key: String,
    /// Why it is retired.
    pub retired: String,
}

/// `error.details` of a value a settings key refuses.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InvalidValueDetails {
    /// The key.
    pub key: String,
    /// The value refused.
    pub value: String,
    /// The allowed form.
    pub allowed: String,
}
