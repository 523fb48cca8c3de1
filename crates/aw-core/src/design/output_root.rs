//! Where a directly invoked authoring operation writes (capability spec §10.2 step 1, §10.5).
//!
//! Inside a workspace the root defaults to `docs/designs`, and a declared one must be a safe
//! workspace-relative path. Outside a workspace there is no default: guessing (the folder the
//! process started in) is how a design ends up where nobody looks again, so the caller must
//! name the root. Only roots under `docs/designs` are indexable, which is what lets a spec or a
//! plan reference a directly created package later.

use super::failure::DesignFailure;
use crate::capability::paths::unsafe_relative;
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde::Serialize;

/// The home of packages inside a workspace (workspace-relative).
pub const DESIGNS_DIR: &str = "docs/designs";

/// The artifact an output-root failure names.
const ARTIFACT: &str = "design";

/// Where authored output lands (serialized as `{kind, root, declared?}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutputRoot {
    /// Inside a workspace, relative to it.
    Workspace {
        /// The root, workspace-relative.
        root: String,
        /// Whether the caller named it (`false`: the default, [`DESIGNS_DIR`]).
        declared: bool,
    },
    /// Outside a workspace: the caller's own absolute path, normalized (no `.`, `..` or empty
    /// segment); artifact paths are relative to it.
    Explicit {
        /// The root, as named (trimmed, without a trailing `/`).
        root: String,
    },
}

/// The kind of an output root, as the receipt fields name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RootKind {
    /// [`OutputRoot::Workspace`].
    Workspace,
    /// [`OutputRoot::Explicit`].
    Explicit,
}

impl OutputRoot {
    /// The root path.
    pub fn root(&self) -> &str {
        match self {
            OutputRoot::Workspace { root, .. } | OutputRoot::Explicit { root } => root,
        }
    }

    /// Its kind.
    pub fn kind(&self) -> RootKind {
        match self {
            OutputRoot::Workspace { .. } => RootKind::Workspace,
            OutputRoot::Explicit { .. } => RootKind::Explicit,
        }
    }

    /// Whether a package written under this root is found by the index: a workspace root
    /// whose leading segments (empty ones ignored) are `docs/designs`.
    pub fn is_indexable(&self) -> bool {
        let OutputRoot::Workspace { root, .. } = self else {
            return false;
        };
        let mut segments = root.split('/').filter(|s| !s.is_empty());
        DESIGNS_DIR.split('/').all(|d| segments.next() == Some(d))
    }
}

/// Decides the output root from whether there is a workspace and the target (see
/// [`requested_target`]). Outside a workspace a blank target is `DESIGN_OUTPUT_ROOT_REQUIRED`
/// and one that is not a normalized absolute path `DESIGN_OUTPUT_ROOT_UNSAFE` (quirk 6, fixed:
/// that root is then published into); inside one a declared target must be a safe relative
/// path, so an absolute path or `../x` is `DESIGN_OUTPUT_ROOT_UNSAFE`.
pub fn resolve_output_root(
    workspace: bool,
    target: Option<&str>,
) -> Result<OutputRoot, DesignFailure> {
    let trimmed = target.map(js_trim).filter(|t| !t.is_empty());
    let Some(target) = trimmed else {
        return if workspace {
            Ok(OutputRoot::Workspace {
                root: DESIGNS_DIR.to_owned(),
                declared: false,
            })
        } else {
            Err(DesignFailure::new(
                ErrorCode::DesignOutputRootRequired,
                ARTIFACT,
                "outside a workspace the package needs an explicit root",
                "pass 'target' (--target) with the path where the package should go",
            ))
        };
    };
    if !workspace {
        // Absolute, so every stage (prepare, validate, apply, each possibly run from another
        // folder) means the same folder; normalized, so containment inside it means something.
        let root = target.trim_end_matches('/');
        let why = match root.strip_prefix('/') {
            None => Some("is not absolute"),
            Some(rest) => unsafe_relative(rest),
        };
        if let Some(why) = why {
            return Err(DesignFailure::new(
                ErrorCode::DesignOutputRootUnsafe,
                ARTIFACT,
                format!("'{target}' cannot be the package's root outside a workspace: it {why}"),
                "name the root as a normalized absolute path, for example '/home/me/designs'",
            ));
        }
        return Ok(OutputRoot::Explicit {
            root: root.to_owned(),
        });
    }
    if let Some(why) = unsafe_relative(target) {
        return Err(DesignFailure::new(
            ErrorCode::DesignOutputRootUnsafe,
            ARTIFACT,
            format!("'{target}' is not a valid relative path inside the workspace: it {why}"),
            format!("use a path relative to the workspace, for example '{DESIGNS_DIR}'"),
        ));
    }
    Ok(OutputRoot::Workspace {
        root: target.to_owned(),
        declared: true,
    })
}

/// The refusal of an explicit root that lies inside the workspace at `ws`: a package there
/// belongs to that workspace, numbered against its index under its lock, so it is written from
/// inside it.
pub fn explicit_root_inside_workspace(root: &str, ws: &str) -> DesignFailure {
    DesignFailure::new(
        ErrorCode::DesignOutputRootUnsafe,
        ARTIFACT,
        format!(
            "'{root}' is inside the workspace at '{ws}'; a package there must be written from within that workspace"
        ),
        format!(
            "run the command from '{ws}' with a workspace-relative target (or none, for {DESIGNS_DIR})"
        ),
    )
}

/// The target an authoring request names: the `--target` flag (`context.target`) when it is not
/// blank, else its `target` input (the reference's `create` declares a required `target` input
/// and then ignores it; ours honours it when the flag is absent).
pub fn requested_target<'r>(
    context_target: Option<&'r str>,
    target_input: Option<&'r serde_json::Value>,
) -> Option<&'r str> {
    context_target
        .filter(|t| !js_trim(t).is_empty())
        .or_else(|| target_input.and_then(serde_json::Value::as_str))
}

#[cfg(test)]
#[path = "output_root_tests.rs"]
mod tests;
