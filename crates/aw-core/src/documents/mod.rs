//! Spec and plan documents as aw reads them: their file names and the grammars of what they
//! declare.
//!
//! The grammars (§9 of the workspace spec) read the reference's Spanish keywords and our English
//! ones alike, folding case and accents; CRLF text reads like LF text; headings, state lines and
//! phase blocks inside fenced code never count (task checkboxes do, as in the reference).
//!
//! - [`names`]: `NNN-spec-<slug>.md` / `PPP-plan-<slug>.md` and the inventory order.
//! - [`frontmatter`], [`preamble`]: the parts of a document before its first section.
//! - [`spec`]: maturity and open questions.
//! - [`plan`], [`phases`], [`relation`], [`batches`]: a plan's three progress axes, its spec
//!   and its execution batches.
//! - [`design_refs`]: the design packages a spec or plan names (`DES-NNN[@rN]`).

pub mod baseline;
pub mod batches;
pub mod contract;
pub mod decisions;
pub mod design_refs;
pub mod frontmatter;
pub mod names;
pub mod phases;
pub mod plan;
pub mod preamble;
pub mod relation;
pub mod spec;
