//! `aw workspace-migrate [--apply]`: the preview of what the migrations would change, or what
//! `--apply` changed, in the reference's keys.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw workspace-migrate`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum WorkspaceMigrate {
    /// Without `--apply`: nothing written.
    Preview(MigratePreview),
    /// With `--apply`.
    Applied(MigrateApplied),
}

/// What the migrations would change.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MigratePreview {
    /// Always `preview`.
    #[schemars(extend("const" = "preview"))]
    pub action: &'static str,
    /// The workspace root.
    pub workspace: String,
    /// Hub files whose block markers would be renamed.
    pub markers: Vec<MarkerRename>,
    /// Legacy folders that would get their `.closed`, with their HISTORY row's date.
    pub sentinels: Vec<SentinelSeed>,
    /// Legacy folders that would get a HISTORY row.
    pub rows: Vec<RowSeed>,
    /// What is left untouched, and why.
    pub conflicts: Vec<MigrateConflict>,
    /// The legacy session folders found (`session<NNN>-<name>`).
    pub legacy: Vec<String>,
    /// The number the next session takes.
    pub next_correlative: String,
    /// How many changes are pending.
    pub pending: usize,
    /// The command that applies them.
    pub next: &'static str,
}

/// A hub file's markers renamed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerRename {
    /// The file, relative to the workspace (`CLAUDE.md`, `AGENTS.md`).
    pub file: String,
    /// The old prefix.
    pub from: String,
    /// This namespace's prefix.
    pub to: String,
    /// Whether an empty block of this namespace is cut out first.
    pub drops_duplicate: bool,
}

/// A `.closed` a legacy folder lacks while its row says closed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SentinelSeed {
    /// The folder.
    pub folder: String,
    /// Its row's date.
    pub date: String,
}

/// A HISTORY row a legacy folder lacks.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RowSeed {
    /// The folder.
    pub folder: String,
    /// `active` or `closed`, from its `.closed`.
    pub state: String,
    /// Its own date, or `—`.
    pub date: String,
}

/// Something the migration leaves untouched.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MigrateConflict {
    /// The hub file (relative in a preview, absolute after `--apply`) or the session folder.
    pub subject: String,
    /// `marcadores_ambiguos`, `bloque_ilegible`, `duplicado_con_contenido`,
    /// `numero_compartido`, `estado_ilegible` or `estado_divergente` (the reference's ids).
    #[schemars(extend("enum" = ["marcadores_ambiguos", "bloque_ilegible", "duplicado_con_contenido",
        "numero_compartido", "estado_ilegible", "estado_divergente"]))]
    pub reason: &'static str,
    /// What was found and what to do, in English.
    pub detail: String,
}

/// What `--apply` changed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MigrateApplied {
    /// Always `apply`.
    #[schemars(extend("const" = "apply"))]
    pub action: &'static str,
    /// The workspace root.
    pub workspace: String,
    /// Hub files whose markers were renamed (absolute).
    pub markers_renamed: Vec<String>,
    /// Of those, the ones an empty block was cut out of.
    pub duplicates_dropped: Vec<String>,
    /// Folders that got `.closed`.
    pub sentinels_seeded: Vec<String>,
    /// Folders that got a HISTORY row.
    pub rows_seeded: Vec<String>,
    /// Of those, the rows written with no date (`—`).
    pub rows_without_date: Vec<String>,
    /// What was left untouched.
    pub conflicts: Vec<MigrateConflict>,
    /// The number the next session takes.
    pub next_correlative: String,
}
