//! `aw family modes <skill-dir>`: a member's mode catalog, rendered (manifest-spec §5.9).
//!
//! The family describes this renderer but ships none. The view comes from aw-manifest's typed
//! catalog reader, so forms are composed by reference from `roles.<role>.contract` exactly as the
//! validator resolves them.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::clean_lines;
use crate::views::View;
use aw_core::wire::family::FamilyModes;
use aw_manifest::Class;
use aw_manifest::catalog::catalog_view_of;
use clap::Args;

// Arguments of `aw family modes`.
#[derive(Debug, Args)]
#[command(
    long_about = "Render a family member's mode catalog (the `modeCatalog` block of its \
capability.json): per mode its key, kind, role and submode, purpose, when to use it and when not, \
the invocation forms (composed from the role's driving contract; a form with operand slots left \
to fill is a template and names its required operands), the guardrails with their enforcement \
and condition, and the custom hooks. A member without the block predates the catalog.\n\n\
JSON (when piped): {skillDir, valid, catalog: {state: absent|malformed|present, modes?}}. `valid` \
is false when the manifest does not pass `aw manifest validate`; the catalog is then rendered as \
far as it reads."
)]
pub struct ModesArgs {
    /// The member's skill folder (the folder that holds capability.json).
    #[arg(value_name = "SKILL_DIR")]
    pub dir: String,
}

/// Runs `aw family modes`.
pub fn run(args: &ModesArgs, cx: &Ctx<'_>) -> Result<Outcome, Failure> {
    let style = cx.default_style()?;
    let m = member(&args.dir)?;
    let view = catalog_view_of(&m.text).map_err(|why| malformed(&m, &why))?;
    let model = FamilyModes {
        skill_dir: m.dir.root().to_string_lossy().into_owned(),
        valid: m.validate().class == Class::Valid,
        catalog: &view,
    };
    Ok(match style.format {
        Format::Json => Outcome::json(&model),
        Format::Human => Outcome::text(clean_lines(&model.text(&style)).into_owned()),
    })
}
