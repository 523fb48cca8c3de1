//! `aw family modes <skill-dir>`: a member's mode catalog, rendered (manifest-spec §5.9).
//!
//! The family describes this renderer but ships none. The view comes from aw-manifest's typed
//! catalog reader, so forms are composed by reference from `roles.<role>.contract` exactly as the
//! validator resolves them.

use super::read::{malformed, member};
use crate::context::Ctx;
use crate::failure::Failure;
use crate::output::{Format, Outcome};
use crate::style::{clean, clean_lines};
use aw_manifest::Class;
use aw_manifest::catalog::{CatalogView, ModeView, catalog_view_of};
use clap::Args;
use serde_json::json;

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
    let valid = m.validate().class == Class::Valid;
    let dir = m.dir.root().to_string_lossy().into_owned();
    Ok(match style.format {
        Format::Json => Outcome::json(&json!({
            "skillDir": dir,
            "valid": valid,
            "catalog": view,
        })),
        Format::Human => Outcome::text(clean_lines(&human(&dir, valid, &view)).into_owned()),
    })
}

fn human(dir: &str, valid: bool, view: &CatalogView) -> String {
    let mut out = String::new();
    if !valid {
        out.push_str(&format!(
            "warning: this manifest does not validate; what follows is read as far as it goes \
             (run `aw manifest validate {dir}`)\n\n"
        ));
    }
    match view {
        CatalogView::Absent => out.push_str("no catalog — this member predates it\n"),
        CatalogView::Malformed => {
            out.push_str("the modeCatalog block is not a non-empty array of modes\n")
        }
        CatalogView::Present { modes } => {
            for (i, mode) in modes.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                render_mode(&mut out, mode);
            }
        }
    }
    out
}

/// One mode's block. Every manifest string is shown on one line (control and bidirectional
/// characters removed), so a value cannot add a line of its own.
fn render_mode(out: &mut String, m: &ModeView) {
    let c = |s: &str| clean(s).into_owned();
    let cs = |items: &[String]| items.iter().map(|i| c(i)).collect::<Vec<_>>();
    let mut head = vec![c(m.kind.as_deref().unwrap_or("?"))];
    if let Some(role) = &m.role {
        head.push(format!("role {}", c(role)));
    }
    if let Some(sub) = &m.submode {
        head.push(format!("submode {}", c(sub)));
    }
    if !m.parents.is_empty() {
        head.push(format!("modifies {}", cs(&m.parents).join(", ")));
    }
    out.push_str(&format!("{} ({})\n", c(&m.key), head.join(", ")));
    if let Some(p) = &m.purpose {
        out.push_str(&format!("  {}\n", c(p)));
    }
    list(out, "use when", &m.when_to_use);
    list(out, "not when", &m.when_not_to);
    if !m.forms.is_empty() || !m.unresolved.is_empty() {
        out.push_str("  invocation:\n");
        for u in &m.unresolved {
            out.push_str(&format!("    (unresolved: {})\n", c(u)));
        }
        for f in &m.forms {
            let label = match (f.template, f.required.is_empty()) {
                (false, _) => String::new(),
                (true, true) => "  [template]".to_owned(),
                (true, false) => format!("  [template; required: {}]", cs(&f.required).join(" ")),
            };
            out.push_str(&format!("    {}{label}\n", c(&f.text)));
        }
    }
    if !m.operands.is_empty() {
        out.push_str("  operands:\n");
        for o in &m.operands {
            let need = if o.required { "required" } else { "optional" };
            let what = c(o.description.as_deref().unwrap_or(""));
            out.push_str(&format!("    {} ({need}): {what}\n", c(&o.slot)));
        }
    }
    if !m.guardrails.is_empty() {
        out.push_str("  guardrails:\n");
        for g in &m.guardrails {
            let how = c(g.enforcement.as_deref().unwrap_or("?"));
            out.push_str(&format!("    - [{how}] {}\n", c(&g.value)));
            if let Some(cond) = &g.condition {
                out.push_str(&format!("      only when: {}\n", c(cond)));
            }
            if let Some(src) = &g.source {
                out.push_str(&format!("      source: {}\n", c(src)));
            }
        }
    }
    if !m.custom_hooks.is_empty() {
        out.push_str(&format!("  hooks: {}\n", cs(&m.custom_hooks).join(", ")));
    }
}

fn list(out: &mut String, label: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("  {label}:\n"));
    for it in items {
        out.push_str(&format!("    - {}\n", clean(it)));
    }
}
