//! The agent-workflow family `capability.json` validator.
//!
//! [`validate`] is a pure function over the manifest bytes and a read-only view of the skill
//! folder ([`SkillFiles`]), so the CLI, the demo and every later consumer share one
//! implementation. The checks, their order and their counts follow the family's reference
//! validator; the messages are our own and always name the offending field first.

#![forbid(unsafe_code)]

pub mod js;
pub mod memory;
mod report;

pub mod catalog;
mod detect;
mod gate;
mod links_view;
mod network;
mod paths;
mod posture;
mod roles;
mod sandbox_view;
mod set;
mod setting_entry;
mod settings;
mod skill_md;
mod summary;
mod top;
pub mod value;
mod version;
mod writable;

pub use links_view::{RoleWrapper, role_wrappers, role_wrappers_of};
pub use report::{Class, Finding, Report};
pub use sandbox_view::{SandboxView, WritableDirView, sandbox_view, sandbox_view_of};
pub use setting_entry::{SettingEntry, SettingKind, setting_entries};
pub use settings::{SETTING_KINDS, setting_value_valid};
pub use skill_md::{skill_md_field, skill_md_frontmatter, skill_md_metadata};
pub use summary::{Posture, PostureBlock, Summary, summary};
pub use version::{
    AuthoritativeVersion, VersionSource, read_authoritative_version, skill_md_version,
};

use std::fmt::Write as _;
use value::{Map, Value};

/// The schema number this validator understands.
pub const SUPPORTED_SCHEMA: f64 = 1.0;
/// The only accepted `family`.
pub const FAMILY: &str = "agent-workflow";
/// The accepted `kind`s.
pub const KINDS: [&str; 4] = [
    "memory-substrate",
    "methodology-engine",
    "execution-backend",
    "composition-root",
];
/// The role vocabulary of `provides` and `roles`.
pub const ROLE_VOCAB: [&str; 6] = [
    "context",
    "plan",
    "execute",
    "review",
    "probe",
    "synthesize",
];
/// The longest one-line catalog string, in UTF-16 code units.
pub const CATALOG_LINE_MAX: usize = 200;

/// What reading one file of the skill folder gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRead {
    /// Nothing exists at that path (a broken symlink counts as nothing).
    Absent,
    /// Something exists but could not be read as a file (a folder, no permission).
    Unreadable(String),
    /// The file's bytes.
    Bytes(Vec<u8>),
}

/// A read-only view of one skill folder. Paths are relative to the folder, as written in the
/// manifest; implementations join and normalise them.
pub trait SkillFiles {
    /// Whether the path names anything that exists, following symlinks.
    fn exists(&self, rel: &str) -> bool;
    /// Reads a file.
    fn read(&self, rel: &str) -> FileRead;
}

/// The deepest JSON nesting accepted. The reference's recursive walk handles a few hundred
/// levels; a cap keeps our stack bounded whatever the input.
pub const MAX_DEPTH: usize = aw_json::MAX_DEPTH;

/// Validates one skill folder.
///
/// `manifest` is the content of `capability.json`, or `None` when it could not be read;
/// `skill_dir` is the resolved folder path, used only in the not-found message.
pub fn validate(manifest: Option<&[u8]>, skill_dir: &str, files: &dyn SkillFiles) -> Report {
    // Bytes that are valid UTF-8 (nearly all) are read in place; the tree borrows from the text.
    let text = match gate::decode(manifest, skill_dir) {
        Ok(text) => text,
        Err(report) => return report,
    };
    let root = match gate::parse(&text) {
        Ok(root) => root,
        Err(why) => return gate::malformed(&why),
    };
    let Some(obj) = root.as_object() else {
        return gate::not_an_object();
    };
    if let Some(report) = gate::schema(obj) {
        return report;
    }
    let mut cx = Ctx::new(obj, files);
    top::check(&mut cx);
    detect::check(&mut cx);
    roles::check(&mut cx);
    settings::check(&mut cx);
    network::check(&mut cx);
    writable::check(&mut cx);
    catalog::check(&mut cx);
    posture::check(&mut cx);
    if !cx.stub {
        version::check(&mut cx);
    }
    Report {
        class: if cx.errors.is_empty() {
            Class::Valid
        } else {
            Class::Invalid
        },
        name: obj.get("name").map(Value::to_json),
        kind: obj.get("kind").map(Value::to_json),
        available: Some(!cx.stub),
        errors: cx.errors,
    }
}

/// The state shared by the section checks of one run.
pub(crate) struct Ctx<'a> {
    /// The manifest root.
    pub root: &'a Map<'a>,
    /// The skill folder.
    pub files: &'a dyn SkillFiles,
    /// `available === false`: existence and version checks are skipped.
    pub stub: bool,
    /// `roles` when it is a plain object; an empty map otherwise (the reference treats an invalid
    /// `roles` as `{}` everywhere after T6).
    pub roles: &'a Map<'a>,
    /// Findings so far, in evaluation order.
    pub errors: Vec<Finding>,
}

static EMPTY: Map<'static> = Map::new();

impl<'a> Ctx<'a> {
    fn new(root: &'a Map<'a>, files: &'a dyn SkillFiles) -> Self {
        Ctx {
            root,
            files,
            stub: matches!(root.get("available"), Some(Value::Bool(false))),
            roles: root
                .get("roles")
                .and_then(Value::as_object)
                .unwrap_or(&EMPTY),
            errors: Vec::new(),
        }
    }

    /// Records a failed check. `path` is the field (a [`Path`] is only rendered here, once a
    /// check has failed); `text` is the rest of the sentence, which follows the backticked path.
    pub fn fail(&mut self, rule: &'static str, path: impl Into<String>, text: impl AsRef<str>) {
        let path = path.into();
        let message = format!("`{path}` {}", text.as_ref());
        self.errors.push(Finding {
            path,
            rule,
            message,
        });
    }
}

/// A JS-style access path that is rendered only when a finding needs it: every field is checked
/// but few fail, so building each path eagerly would format strings that are thrown away.
///
/// A path is a chain of links on the checking code's stack, each borrowing its parent.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Path<'p> {
    /// A path written out in full (a top-level field, say).
    Name(&'p str),
    /// `parent.key`, or `parent["odd key"]` for a key that is not a plain identifier.
    Field(&'p Path<'p>, &'p str),
    /// `parent[i]`.
    Index(&'p Path<'p>, usize),
}

impl<'p> Path<'p> {
    /// The path of a field below this one.
    pub fn field(&'p self, key: &'p str) -> Path<'p> {
        Path::Field(self, key)
    }

    /// The path of an item below this one.
    pub fn index(&'p self, i: usize) -> Path<'p> {
        Path::Index(self, i)
    }

    fn render(&self, out: &mut String) {
        match *self {
            Path::Name(name) => out.push_str(name),
            Path::Field(parent, key) => {
                parent.render(out);
                push_field(out, key);
            }
            Path::Index(parent, i) => {
                parent.render(out);
                // Writing to a String cannot fail.
                let _ = write!(out, "[{i}]");
            }
        }
    }
}

impl From<Path<'_>> for String {
    fn from(path: Path<'_>) -> String {
        let mut out = String::new();
        path.render(&mut out);
        out
    }
}

impl From<&Path<'_>> for String {
    fn from(path: &Path<'_>) -> String {
        String::from(*path)
    }
}

/// Appends `.key` to a path (just `key` at the root), or `["odd key"]` for keys that are not
/// plain identifiers.
fn push_field(out: &mut String, key: &str) {
    let plain = !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$');
    if plain {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
    } else {
        out.push('[');
        out.push_str(&js::quote_str(key));
        out.push(']');
    }
}

/// Builds a JS-style access path: `base.key`, or `base["odd key"]` for keys that are not plain
/// identifiers.
pub(crate) fn field(base: &str, key: &str) -> String {
    let mut out = base.to_owned();
    push_field(&mut out, key);
    out
}
