//! The persist plan: the duplicate rule, the numbering, the durable plan, and what `apply` checks
//! on a plan it is handed.
//!
//! A persist plan is a capability [`DurablePlan`] with `capability` `aw` and `operation`
//! `persist`, so its approval digest is the protocol's (`plan::approval_digest` over
//! `aw.persist`, the inventory digest and each file's path and content digest). There is no
//! capability request: both `request_digest` and `semantic_inputs_digest` carry the inventory
//! digest the answer quoted. A persist plan never replaces a file, needs no other approval and has
//! no base.
//!
//! The approval digest is a checksum anyone can compute, not a signature, so `apply` trusts
//! nothing the plan says: it re-seals it, re-reads every path through the docs grammar, and then,
//! under the workspace lock, checks the numbers and the duplicate rule against the folders as they
//! are at that moment ([`check_fresh`]).

use super::answer::{Item, OPERATION, is_valid_slug};
use super::inventory::{Inventory, normalized_title, title_of};
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::capability::plan::{
    Artifact, DurablePlan, approval_digest, check_destinations, check_seal, preview_of,
};
use crate::documents::names::{DocKind, parse_name};
use crate::error_code::ErrorCode;
use crate::vocab::correlative::Correlative;

/// The plan's `capability`: aw itself.
pub const PLAN_CAPABILITY: &str = "aw";

/// The folders a persist plan may write in: one per kind.
pub fn allowed_destinations() -> Vec<String> {
    DocKind::ALL.iter().map(|k| k.folder().to_owned()).collect()
}

/// One document of a plan, as its path and content say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// Its kind (the folder).
    pub kind: DocKind,
    /// The number its file name carries.
    pub number: Correlative,
    /// The slug its file name carries.
    pub slug: String,
    /// Its content's first `# ` heading.
    pub title: Option<String>,
    /// The workspace-relative path.
    pub path: String,
}

fn duplicate(message: String, action: &str) -> CapabilityError {
    CapabilityError::new(ErrorCode::PersistDuplicate, message, action)
}

/// The duplicate rule: no drafted document may share its slug (compared without regard to ASCII
/// case, as the file-name grammar is read) or its normalized title (see
/// [`normalized_title`]) with an existing document of its kind, nor with an earlier draft of its
/// kind. Drafts are `(kind, slug, title)`, in answer order; the first clash wins, naming the
/// existing file (`PERSIST_DUPLICATE`).
pub fn check_duplicates(
    drafts: &[(DocKind, &str, Option<&str>)],
    inventory: &Inventory,
) -> CapabilityResult<()> {
    for (i, (kind, slug, title)) in drafts.iter().enumerate() {
        let norm = title.map(normalized_title);
        if let Some(folder) = inventory.folder(*kind) {
            for doc in &folder.documents {
                let same_slug = doc.slug.eq_ignore_ascii_case(slug);
                let same_title =
                    norm.is_some() && doc.title.as_deref().map(normalized_title) == norm;
                if same_slug || same_title {
                    let what = if same_slug { "slug" } else { "title" };
                    return Err(duplicate(
                        format!(
                            "the {} '{slug}' has the same {what} as {}/{}",
                            kind.word(),
                            folder.folder,
                            doc.file
                        ),
                        "drop that item and extend the existing document instead, or give the new one its own slug and title; then send the answer again",
                    ));
                }
            }
        }
        for (other_kind, other_slug, other_title) in &drafts[..i] {
            if other_kind != kind {
                continue;
            }
            let same_slug = other_slug.eq_ignore_ascii_case(slug);
            let same_title = norm.is_some() && other_title.map(normalized_title) == norm;
            if same_slug || same_title {
                return Err(duplicate(
                    format!(
                        "two {} items share a {}: '{other_slug}' and '{slug}'",
                        kind.word(),
                        if same_slug { "slug" } else { "title" }
                    ),
                    "merge them into one document, or tell them apart; then send the answer again",
                ));
            }
        }
    }
    Ok(())
}

/// Numbers the drafts: each folder's next free number, then consecutive ones for further drafts
/// of the same kind, in answer order; returns each draft's path.
pub fn assign(items: &[Item], inventory: &Inventory) -> Vec<String> {
    let mut next: Vec<(DocKind, Correlative)> = inventory
        .folders
        .iter()
        .filter_map(|f| {
            let kind = DocKind::from_word(f.kind)?;
            Some((kind, Correlative::from_digits(&f.next)?))
        })
        .collect();
    items
        .iter()
        .map(|item| {
            let slot = next.iter_mut().find(|(k, _)| *k == item.kind);
            let number = match slot {
                Some((_, n)) => {
                    let this = n.clone();
                    *n = n.succ();
                    this
                }
                // The parser only lets through kinds the inventory covers.
                None => Correlative::zero().succ(),
            };
            format!(
                "{}/{}",
                item.kind.folder(),
                item.kind.file_name(&number.padded(), &item.slug)
            )
        })
        .collect()
}

/// The durable plan of parsed items against `inventory` (the one whose digest the answer quoted):
/// the duplicate rule, then the numbering, then the plan sealed with the protocol's approval
/// digest.
pub fn build(items: &[Item], inventory: &Inventory) -> CapabilityResult<DurablePlan> {
    let drafts: Vec<(DocKind, &str, Option<&str>)> = items
        .iter()
        .map(|i| (i.kind, i.slug.as_str(), Some(i.title.as_str())))
        .collect();
    check_duplicates(&drafts, inventory)?;
    let artifacts = artifacts_of(items, assign(items, inventory));
    let digest = inventory.digest();
    Ok(DurablePlan {
        capability: PLAN_CAPABILITY.to_owned(),
        operation: OPERATION.to_owned(),
        request_digest: digest.clone(),
        semantic_inputs_digest: digest.clone(),
        preview: preview_of(&artifacts),
        approval_digest: approval_digest(PLAN_CAPABILITY, OPERATION, &digest, &artifacts),
        artifacts,
        requires_approval: Vec::new(),
        base: None,
    })
}

/// The plan's files: each item's content at its path.
fn artifacts_of(items: &[Item], paths: Vec<String>) -> Vec<Artifact> {
    paths
        .into_iter()
        .zip(items)
        .map(|(path, item)| Artifact {
            path,
            content: item.content.clone(),
            overwrite: None,
        })
        .collect()
}

/// The approval digest of the plan `items` give when numbered as `paths` against an inventory
/// whose digest is `digest`: what a person approved for them, recomputed.
pub fn approval_at(items: &[Item], paths: &[String], digest: &str) -> String {
    let artifacts = artifacts_of(items, paths.to_vec());
    approval_digest(PLAN_CAPABILITY, OPERATION, digest, &artifacts)
}

fn mismatch(message: impl Into<String>) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::CapabilityApprovalMismatch,
        message,
        "run 'aw persist validate' again, show the new preview, and apply with its approval_digest",
    )
}

fn rejected(path: &str, why: &str) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::SemanticPathRejected,
        format!("destination not allowed ('{path}'): {why}"),
        "run 'aw persist validate' again: aw names every file it writes",
    )
}

/// The checks on a carried plan that need no disk, first failure wins: the seal (recomputed from
/// the artifacts, equal to the plan's `approval_digest` and to `approved`; the preview the
/// artifacts give) and the plan's shape (`aw.persist`, one digest in both digest keys, nothing
/// to approve beyond the files, no base, no file replaced) → `CAPABILITY_APPROVAL_MISMATCH`;
/// every path a safe path inside one of the three folders, directly, named by the folder's
/// grammar with a slug of the persist grammar → `SEMANTIC_PATH_REJECTED`; no number given twice
/// in one folder → `PERSIST_NUMBER_TAKEN`. Returns what each artifact is.
pub fn check_carried(plan: &DurablePlan, approved: &str) -> CapabilityResult<Vec<Planned>> {
    check_seal(
        plan,
        approved,
        "run 'aw persist validate' again, show the new preview, and apply with its approval_digest",
    )?;
    if plan.capability != PLAN_CAPABILITY
        || plan.operation != OPERATION
        || plan.request_digest != plan.semantic_inputs_digest
        || !plan.requires_approval.is_empty()
        || plan.base.is_some()
    {
        return Err(mismatch(format!(
            "this is not a plan 'aw persist validate' issues (it is for '{}.{}')",
            plan.capability, plan.operation
        )));
    }
    if let Some(a) = plan.artifacts.iter().find(|a| a.overwrite == Some(true)) {
        return Err(mismatch(format!(
            "'{}' may replace an existing file, and aw persist never replaces one",
            a.path
        )));
    }
    check_destinations(plan, &allowed_destinations())?;
    let mut out: Vec<Planned> = Vec::with_capacity(plan.artifacts.len());
    for a in &plan.artifacts {
        let planned = planned_of(a)?;
        if let Some(twin) = out
            .iter()
            .find(|p| p.kind == planned.kind && p.number == planned.number)
        {
            return Err(CapabilityError::new(
                ErrorCode::PersistNumberTaken,
                format!(
                    "'{}' and '{}' have the same number",
                    twin.path, planned.path
                ),
                "run 'aw persist validate' again: aw numbers each document once",
            ));
        }
        out.push(planned);
    }
    Ok(out)
}

fn planned_of(a: &Artifact) -> CapabilityResult<Planned> {
    let not_ours = || rejected(&a.path, "it is not a document name aw persist writes");
    let (folder, file) = a.path.rsplit_once('/').ok_or_else(not_ours)?;
    let kind = DocKind::ALL
        .into_iter()
        .find(|k| k.folder() == folder)
        .ok_or_else(not_ours)?;
    let name = parse_name(kind, file).ok_or_else(not_ours)?;
    if !is_valid_slug(&name.slug) || kind.file_name(&name.correlative.padded(), &name.slug) != file
    {
        return Err(not_ours());
    }
    Ok(Planned {
        kind,
        number: name.correlative,
        slug: name.slug,
        title: title_of(&a.content),
        path: a.path.clone(),
    })
}

/// The checks made under the workspace lock against the folders as they are now (`inventory`,
/// read while the lock is held, covering every kind): each number is still free — no entry of
/// its folder has it and it is above the folder's highest number, since numbers are never reused
/// (`PERSIST_NUMBER_TAKEN`, naming the entry that took it) — and the duplicate rule still holds
/// (`PERSIST_DUPLICATE`).
pub fn check_fresh(planned: &[Planned], inventory: &Inventory) -> CapabilityResult<()> {
    for p in planned {
        let Some(folder) = inventory.folder(p.kind) else {
            continue;
        };
        if let Some((_, name)) = folder.numbered.iter().find(|(n, _)| *n == p.number) {
            if p.path.rsplit('/').next() == Some(name.as_str()) {
                return Err(CapabilityError::new(
                    ErrorCode::PersistNumberTaken,
                    format!(
                        "'{}/{name}' is there already, with other text than this plan's: either this plan was applied before and the document was edited since, or another plan took the same name first; nothing was written",
                        folder.folder
                    ),
                    "if this plan was applied before, nothing is left to do (its documents are in place); otherwise run 'aw persist prepare' and 'validate' again to number the documents anew, then apply the new plan",
                ));
            }
            return Err(CapabilityError::new(
                ErrorCode::PersistNumberTaken,
                format!(
                    "number {} in {} was taken by '{name}' after the plan was made; nothing was written",
                    p.number.padded(),
                    folder.folder
                ),
                "run 'aw persist prepare' and 'validate' again to number the documents anew, then apply the new plan",
            ));
        }
        if p.number <= folder.highest {
            return Err(CapabilityError::new(
                ErrorCode::PersistNumberTaken,
                format!(
                    "number {} is below {}'s highest number {}, and numbers are never reused; nothing was written",
                    p.number.padded(),
                    folder.folder,
                    folder.highest.padded()
                ),
                "run 'aw persist prepare' and 'validate' again to number the documents anew, then apply the new plan",
            ));
        }
    }
    let drafts: Vec<(DocKind, &str, Option<&str>)> = planned
        .iter()
        .map(|p| (p.kind, p.slug.as_str(), p.title.as_deref()))
        .collect();
    check_duplicates(&drafts, inventory)
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
