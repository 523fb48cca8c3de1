//! What `aw persist prepare` asks of the agent, and how `validate` reads the answer.
//!
//! The request reuses the capability protocol's [`SemanticRequest`] (operation, input digest,
//! allowed destinations, limits, contract). The answer has the semantic envelope of capability
//! answers (`version`, `operation`, `input_digest`, `state`, `reason`) with `items` in place of
//! `artifacts`: the agent names each document's kind, slug and title and writes its text, and aw
//! chooses the number and the file name. The envelope is the capability protocol's own check
//! (`capability::answer::check_envelope`); only the items are read here.
//!
//! The reference's answer is read too (its agents answer it): `decisions {category, slug, mode}`
//! and exactly one artifact `{path, content}` whose `NNN-<kind>-<slug>.md` number is only a
//! suggestion. It becomes one item (the title is the content's first `# ` heading, else the
//! slug); `mode: "update"`, which replaces an existing document, is refused: aw's persist only
//! adds documents.

use super::inventory::{Inventory, title_of};
use crate::capability::answer::{ANSWER_VERSION, EnvelopeActions, SemanticRequest, check_envelope};
use crate::capability::error::{CapabilityError, CapabilityResult};
use crate::documents::names::{DocKind, parse_name};
use crate::error_code::ErrorCode;
use aw_json::js::js_trim;
use serde_json::{Map, Value, json};

/// The answer's `operation`.
pub const OPERATION: &str = "persist";
/// The longest slug, in bytes.
pub const MAX_SLUG: usize = 80;
/// The longest title, in chars.
pub const MAX_TITLE: usize = 200;

/// One document the agent drafted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Research, spec or plan.
    pub kind: DocKind,
    /// `[a-z0-9]+(-[a-z0-9]+)*`: the file name's last part.
    pub slug: String,
    /// The title, trimmed: the content's first `# ` heading.
    pub title: String,
    /// The whole Markdown text.
    pub content: String,
}

/// Whether `slug` is a file-name slug: lower-case ASCII letters and digits in runs joined by
/// single hyphens, at most [`MAX_SLUG`] bytes. Such a slug reads back whole through the docs
/// grammar and needs no escaping anywhere a path is shown.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= MAX_SLUG
        && slug.split('-').all(|run| {
            !run.is_empty()
                && run
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The contract: what the agent must author for an inventory of `kinds`.
pub fn contract(kinds: &[DocKind]) -> String {
    let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
    format!(
        "Classify each finished piece of this conversation's work as {} and draft it as one \
document. Answer {{\"version\": 1, \"operation\": \"persist\", \"input_digest\": <quote it as \
given>, \"state\": \"proposed\", \"items\": [{{\"kind\", \"slug\", \"title\", \"content\"}}]}}: \
kind is one of {}; slug is lower-case letters and digits joined by single hyphens (at most {MAX_SLUG} \
bytes); content is the whole Markdown document, whose first `# ` heading is the title. Do not \
number the documents or name their files: aw assigns the next free number of each folder. Do not \
draft a document that the inventory already holds (same kind and slug, or the same title): \
extend the existing one by hand instead. Answer \"state\": \"ambiguous\" with a \"reason\" when \
it is unclear what is finished or which kind it is, and \"unsupported\" when there is nothing to \
persist.",
        or_list(&words),
        words.join(", ")
    )
}

fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The semantic request for `inventory`: operation `persist`, the inventory's digest, its
/// folders as the allowed destinations, the standard limits and the contract.
pub fn request(inventory: &Inventory) -> SemanticRequest {
    let kinds = inventory.doc_kinds();
    SemanticRequest::new(
        OPERATION.to_owned(),
        inventory.digest(),
        kinds.iter().map(|k| k.folder().to_owned()).collect(),
        contract(&kinds),
    )
}

/// The smallest valid answer, with placeholders where the agent writes.
pub fn skeleton(request: &SemanticRequest, kinds: &[DocKind]) -> Value {
    let kind = kinds.first().map_or("spec", |k| k.word());
    json!({
        "version": ANSWER_VERSION,
        "operation": OPERATION,
        "input_digest": request.input_digest,
        "state": "proposed",
        "items": [{
            "kind": kind,
            "slug": "<slug>",
            "title": "<title>",
            "content": "# <title>\n\n<text>",
        }],
    })
}

/// The actions of a persist answer's refusals.
const PERSIST: EnvelopeActions = EnvelopeActions {
    fix: "fix the answer so it follows the contract printed by 'aw persist prepare', and send it again",
    stale: "run 'aw persist prepare' again and check the drafts against the new inventory",
    ambiguous: "settle with the person what is finished and which kind it is, then prepare again",
    unsupported: "nothing to do; prepare again once some work is finished",
};

fn invalid(message: impl Into<String>) -> CapabilityError {
    CapabilityError::new(
        ErrorCode::SemanticResponseInvalid,
        message,
        "fix the answer so it follows the contract printed by 'aw persist prepare', and send it again",
    )
}

/// Reads the agent's answer against the request (first failure wins): the envelope (version,
/// operation, `input_digest` → `SEMANTIC_STALE`, state → `SEMANTIC_AMBIGUOUS` /
/// `SEMANTIC_UNSUPPORTED`), then the items (`SEMANTIC_RESPONSE_INVALID`): a non-empty array within
/// the limits, each with a kind the request covers, a slug of the grammar, a title, and a content
/// whose first `# ` heading is that title.
pub fn parse(
    answer: &Value,
    request: &SemanticRequest,
    kinds: &[DocKind],
) -> CapabilityResult<Vec<Item>> {
    let obj = check_envelope(answer, request, &PERSIST)?;
    if !obj.contains_key("items") && obj.contains_key("decisions") {
        return reference_item(obj, request, kinds).map(|item| vec![item]);
    }
    items(obj, request, kinds)
}

/// The items of an answer as `validate` read them when the answer was current: against
/// `request`, but with the digest the answer quotes. With that digest, when the answer reads
/// so; `None` otherwise. For an apply that finds the answer stale, to recognise an answer that
/// was applied before.
pub fn parse_as_quoted(
    answer: &Value,
    request: &SemanticRequest,
    kinds: &[DocKind],
) -> Option<(Vec<Item>, String)> {
    let quoted = answer.get("input_digest")?.as_str()?.to_owned();
    let mut then = request.clone();
    then.input_digest = quoted.clone();
    parse(answer, &then, kinds)
        .ok()
        .map(|items| (items, quoted))
}

/// The reference's answer (`decisions` and one artifact) as one item: the category a kind the
/// request covers, the slug of the grammar, `mode` `new` (`update` is refused: aw never
/// replaces a document), exactly one artifact whose path is `<folder>/NNN-<kind>-<slug>.md`
/// (its number is the reference's "advisory" one: aw numbers the document), and a content
/// within the limits.
fn reference_item(
    obj: &Map<String, Value>,
    request: &SemanticRequest,
    kinds: &[DocKind],
) -> CapabilityResult<Item> {
    let Some(Value::Object(decisions)) = obj.get("decisions") else {
        return Err(invalid("the answer's \"decisions\" must be an object"));
    };
    let field = |k: &str| decisions.get(k).and_then(Value::as_str);
    let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
    let category = field("category").unwrap_or("");
    let Some(kind) = DocKind::from_word(category).filter(|k| kinds.contains(k)) else {
        return Err(invalid(format!(
            "decisions.category '{category}' is not one of {}",
            words.join(", ")
        )));
    };
    let slug = field("slug").unwrap_or("");
    if !is_valid_slug(slug) {
        return Err(invalid(format!(
            "decisions.slug '{slug}' must be lower-case letters and digits joined by single hyphens, at most {MAX_SLUG} bytes"
        )));
    }
    match field("mode") {
        Some("new") => {}
        Some("update") => {
            let target = field("target")
                .map_or_else(|| "the existing document".to_owned(), |t| format!("'{t}'"));
            return Err(CapabilityError::new(
                ErrorCode::SemanticResponseInvalid,
                format!(
                    "decisions.mode 'update' asks to replace {target}, and aw persist only adds documents; nothing was validated"
                ),
                format!(
                    "edit {target} in place (it is a Markdown file of the workspace) and show the person the change, or answer mode 'new' to add this text as a document of its own"
                ),
            ));
        }
        other => {
            return Err(invalid(format!(
                "decisions.mode '{}' is not 'new'",
                other.unwrap_or("")
            )));
        }
    }
    let artifact = match obj.get("artifacts") {
        Some(Value::Array(list)) if list.len() == 1 => &list[0],
        _ => {
            return Err(invalid(
                "the answer's \"artifacts\" must hold exactly one {\"path\", \"content\"}",
            ));
        }
    };
    let (Some(path), Some(content)) = (
        artifact.get("path").and_then(Value::as_str),
        artifact.get("content").and_then(Value::as_str),
    ) else {
        return Err(invalid(
            "the artifact needs string \"path\" and \"content\"",
        ));
    };
    // The reference's grammar for this path is case-sensitive: `NNN-spec-<slug>.md` exactly.
    let named = path
        .strip_prefix(kind.folder())
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|name| {
            parse_name(kind, name)
                .is_some_and(|n| n.slug == slug && kind.file_name(&n.number, slug) == name)
        });
    if !named {
        return Err(invalid(format!(
            "the artifact's path '{path}' is not {}/NNN-{}-{slug}.md",
            kind.folder(),
            kind.word()
        )));
    }
    if js_trim(content).is_empty() {
        return Err(invalid(format!("the artifact '{path}' has no content")));
    }
    if content.len() > request.limits.max_artifact_bytes {
        return Err(invalid(format!(
            "the artifact '{path}' holds {} bytes; at most {} are allowed",
            content.len(),
            request.limits.max_artifact_bytes
        )));
    }
    let title = title_of(content)
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| slug.to_owned());
    Ok(Item {
        kind,
        slug: slug.to_owned(),
        title,
        content: content.to_owned(),
    })
}

fn items(
    obj: &Map<String, Value>,
    request: &SemanticRequest,
    kinds: &[DocKind],
) -> CapabilityResult<Vec<Item>> {
    let list = match obj.get("items") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        _ => return Err(invalid("the answer's \"items\" must be a non-empty array")),
    };
    if list.len() > request.limits.max_artifacts {
        return Err(invalid(format!(
            "the answer carries {} items; at most {} are allowed",
            list.len(),
            request.limits.max_artifacts
        )));
    }
    let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
    list.iter()
        .enumerate()
        .map(|(i, v)| item(i + 1, v, request, kinds, &words))
        .collect()
}

fn item(
    n: usize,
    v: &Value,
    request: &SemanticRequest,
    kinds: &[DocKind],
    words: &[&str],
) -> CapabilityResult<Item> {
    let field = |k: &str| v.get(k).and_then(Value::as_str);
    let (Some(kind), Some(slug), Some(title), Some(content)) = (
        field("kind"),
        field("slug"),
        field("title"),
        field("content"),
    ) else {
        return Err(invalid(format!(
            "item {n} needs string \"kind\", \"slug\", \"title\" and \"content\""
        )));
    };
    let Some(kind) = DocKind::from_word(kind).filter(|k| kinds.contains(k)) else {
        return Err(invalid(format!(
            "item {n}'s kind '{kind}' is not one of {}",
            words.join(", ")
        )));
    };
    if !is_valid_slug(slug) {
        return Err(invalid(format!(
            "item {n}'s slug '{slug}' must be lower-case letters and digits joined by single hyphens, at most {MAX_SLUG} bytes"
        )));
    }
    let title = js_trim(title);
    if title.is_empty() || title.chars().count() > MAX_TITLE || title.chars().any(char::is_control)
    {
        return Err(invalid(format!(
            "item {n} ('{slug}') needs a one-line title of at most {MAX_TITLE} characters"
        )));
    }
    if js_trim(content).is_empty() {
        return Err(invalid(format!("item {n} ('{slug}') has no content")));
    }
    if content.len() > request.limits.max_artifact_bytes {
        return Err(invalid(format!(
            "item {n} ('{slug}') holds {} bytes; at most {} are allowed",
            content.len(),
            request.limits.max_artifact_bytes
        )));
    }
    if title_of(content).as_deref() != Some(title) {
        return Err(invalid(format!(
            "item {n} ('{slug}'): the content's first `# ` heading must be its title, '# {title}'"
        )));
    }
    Ok(Item {
        kind,
        slug: slug.to_owned(),
        title: title.to_owned(),
        content: content.to_owned(),
    })
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
