//! Multi-root visibility for Codex: the external source folders listed in the workspace's
//! `.codex/config.toml` as `[sandbox_workspace_write] writable_roots` (absolute: what Codex
//! reads), and the workspace marked `[projects."<abs path>"] trust_level = "trusted"`. The
//! reference lists them instead in a top-level `additional_writable_roots` array, as typed
//! (`../api`), and reads only that; aw reads both and writes both, so each tool's doctor is
//! satisfied by the other's file.
//!
//! The file is edited in place (`toml_edit`): every other table, key, comment and blank line of
//! the user's stays as it was, in its order; only the array and the trust entry change.

use super::settings::{SettingsError, SettingsMerge, delta};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

/// The table Codex reads when `sandbox_mode = "workspace-write"`.
pub const SANDBOX_TABLE: &str = "sandbox_workspace_write";
/// The folders, besides the working folder, a sandboxed command may write.
pub const ROOTS_KEY: &str = "writable_roots";
/// The reference's top-level list of the same folders, as typed.
pub const REFERENCE_ROOTS_KEY: &str = "additional_writable_roots";
/// The table of per-folder settings, keyed by absolute path.
pub const PROJECTS_TABLE: &str = "projects";
/// A project's trust setting.
pub const TRUST_KEY: &str = "trust_level";
/// The trust value aw writes.
pub const TRUSTED: &str = "trusted";

fn parse(text: &str) -> Result<DocumentMut, SettingsError> {
    text.parse::<DocumentMut>()
        .map_err(|e| SettingsError::NotToml(e.message().trim().to_owned()))
}

fn roots_of(doc: &DocumentMut) -> Result<Vec<String>, SettingsError> {
    let Some(table) = doc.get(SANDBOX_TABLE) else {
        return Ok(Vec::new());
    };
    let table = table
        .as_table_like()
        .ok_or(SettingsError::Shape(SANDBOX_TABLE))?;
    let Some(roots) = table.get(ROOTS_KEY) else {
        return Ok(Vec::new());
    };
    let roots = roots.as_array().ok_or(SettingsError::Shape(
        "sandbox_workspace_write.writable_roots",
    ))?;
    Ok(roots
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect())
}

fn reference_roots_of(doc: &DocumentMut) -> Result<Vec<String>, SettingsError> {
    let Some(roots) = doc.get(REFERENCE_ROOTS_KEY) else {
        return Ok(Vec::new());
    };
    let roots = roots
        .as_array()
        .ok_or(SettingsError::Shape(REFERENCE_ROOTS_KEY))?;
    Ok(roots
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect())
}

/// What the file says about one project's trust.
fn trust_of(doc: &DocumentMut, project: &str) -> Result<Option<String>, SettingsError> {
    let Some(projects) = doc.get(PROJECTS_TABLE) else {
        return Ok(None);
    };
    let projects = projects
        .as_table_like()
        .ok_or(SettingsError::Shape(PROJECTS_TABLE))?;
    let Some(entry) = projects.get(project) else {
        return Ok(None);
    };
    let entry = entry
        .as_table_like()
        .ok_or(SettingsError::Shape("projects.<workspace>"))?;
    Ok(entry
        .get(TRUST_KEY)
        .map(|v| v.as_str().unwrap_or("").to_owned()))
}

/// The folders `writable_roots` lists (strings only, in order).
pub fn writable_roots(text: &str) -> Result<Vec<String>, SettingsError> {
    roots_of(&parse(text)?)
}

/// The folders the reference's top-level `additional_writable_roots` lists (strings only, in
/// order).
pub fn reference_roots(text: &str) -> Result<Vec<String>, SettingsError> {
    reference_roots_of(&parse(text)?)
}

/// The `trust_level` the file gives `project` (`None`: no entry; `Some("")`: not a string).
pub fn trust_level(text: &str, project: &str) -> Result<Option<String>, SettingsError> {
    trust_of(&parse(text)?, project)
}

/// Removes `removed` from `arr` and appends `added`, formatted like the values already there: a
/// one-line array stays on one line, a one-per-line array gets its new values on their own lines.
fn edit_array(arr: &mut Array, added: &[String], removed: &[String]) {
    let first_prefix = arr
        .get(0)
        .and_then(|v| v.decor().prefix())
        .and_then(|p| p.as_str())
        .map(str::to_owned);
    let gap = arr
        .iter()
        .last()
        .filter(|_| arr.len() > 1)
        .and_then(|v| v.decor().prefix())
        .and_then(|p| p.as_str())
        .map(str::to_owned)
        .or_else(|| first_prefix.clone().filter(|p| p.contains('\n')))
        .unwrap_or_else(|| " ".to_owned());
    // In an array without a trailing comma, the line break before `]` is the last value's
    // suffix: it moves to whichever value ends up last.
    let closing = arr
        .iter()
        .last()
        .and_then(|v| v.decor().suffix())
        .and_then(|s| s.as_str())
        .filter(|s| s.contains('\n'))
        .map(str::to_owned);
    let before = arr.get(0).and_then(Value::as_str).map(str::to_owned);
    arr.retain(|v| v.as_str().is_none_or(|s| !removed.iter().any(|r| r == s)));
    let after = arr.get(0).and_then(Value::as_str).map(str::to_owned);
    if before != after
        && let (Some(prefix), Some(first)) = (&first_prefix, arr.get_mut(0))
    {
        first.decor_mut().set_prefix(prefix.as_str());
    }
    for a in added {
        let mut v = Value::from(a.as_str());
        let prefix = if arr.is_empty() {
            first_prefix.clone().unwrap_or_default()
        } else {
            gap.clone()
        };
        v.decor_mut().set_prefix(prefix);
        v.decor_mut().set_suffix("");
        arr.push_formatted(v);
    }
    if let Some(closing) = closing {
        let n = arr.len();
        for (i, v) in arr.iter_mut().enumerate() {
            let last = i + 1 == n;
            let has = v.decor().suffix().and_then(|s| s.as_str()) == Some(closing.as_str());
            if last {
                v.decor_mut().set_suffix(closing.as_str());
            } else if has {
                v.decor_mut().set_suffix("");
            }
        }
    }
}

fn set_roots(
    doc: &mut DocumentMut,
    added: &[String],
    removed: &[String],
) -> Result<(), SettingsError> {
    let table = doc
        .entry(SANDBOX_TABLE)
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or(SettingsError::Shape(SANDBOX_TABLE))?;
    let roots = table
        .entry(ROOTS_KEY)
        .or_insert_with(|| Item::Value(Value::Array(Array::new())))
        .as_array_mut()
        .ok_or(SettingsError::Shape(
            "sandbox_workspace_write.writable_roots",
        ))?;
    edit_array(roots, added, removed);
    Ok(())
}

fn set_reference_roots(
    doc: &mut DocumentMut,
    added: &[String],
    removed: &[String],
) -> Result<(), SettingsError> {
    let roots = doc
        .entry(REFERENCE_ROOTS_KEY)
        .or_insert_with(|| Item::Value(Value::Array(Array::new())))
        .as_array_mut()
        .ok_or(SettingsError::Shape(REFERENCE_ROOTS_KEY))?;
    edit_array(roots, added, removed);
    // As the reference does, a list left empty goes: it only ever held the tools' folders.
    if roots.is_empty() {
        doc.remove(REFERENCE_ROOTS_KEY);
    }
    Ok(())
}

/// What the reference's list gains and loses (see [`merge_writable_roots`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct ReferenceEdit<'a> {
    /// Entries to add to `additional_writable_roots`.
    pub add: &'a [String],
    /// Entries to remove from it.
    pub remove: &'a [String],
}

/// Adds `trust_level = "trusted"` to the entry of `project`, creating the entry (as a
/// `[projects."<path>"]` table, without a bare `[projects]` header) when there is none.
fn set_trust(doc: &mut DocumentMut, project: &str) -> Result<(), SettingsError> {
    let projects = doc.entry(PROJECTS_TABLE).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    let trusted = Value::from(TRUSTED);
    match projects {
        Item::Table(t) => {
            let entry = t
                .entry(project)
                .or_insert_with(|| Item::Table(Table::new()))
                .as_table_like_mut()
                .ok_or(SettingsError::Shape("projects.<workspace>"))?;
            entry.insert(TRUST_KEY, Item::Value(trusted));
        }
        Item::Value(Value::InlineTable(t)) => {
            let entry = t
                .entry(project)
                .or_insert_with(|| Value::InlineTable(InlineTable::new()));
            let Value::InlineTable(entry) = entry else {
                return Err(SettingsError::Shape("projects.<workspace>"));
            };
            entry.insert(TRUST_KEY, trusted);
        }
        _ => return Err(SettingsError::Shape(PROJECTS_TABLE)),
    }
    Ok(())
}

/// Adds `add` to and removes `remove` (unless also in `add`) from `writable_roots`, does the
/// same to the reference's `additional_writable_roots` with `reference`, and, when `trust` names
/// the workspace, marks it trusted unless the file already says anything about its trust (a
/// user's explicit `untrusted` is theirs to change). `current` is the file's text (`None`:
/// absent; it is created only when there is something to add). `text` is `None` when nothing
/// changes, so a re-run keeps every byte; `added` and `removed` are `writable_roots`' changes.
pub fn merge_writable_roots(
    current: Option<&str>,
    add: &[String],
    remove: &[String],
    trust: Option<&str>,
    reference: ReferenceEdit<'_>,
) -> Result<SettingsMerge, SettingsError> {
    if current.is_none() && add.is_empty() && reference.add.is_empty() {
        return Ok(SettingsMerge::default());
    }
    let mut doc = parse(current.unwrap_or(""))?;
    let (added, removed) = delta(&roots_of(&doc)?, add, remove);
    let (ref_added, ref_removed) =
        delta(&reference_roots_of(&doc)?, reference.add, reference.remove);
    let trust = match trust {
        Some(project) if trust_of(&doc, project)?.is_none() => Some(project),
        _ => None,
    };
    let roots_change = !added.is_empty() || !removed.is_empty();
    let reference_change = !ref_added.is_empty() || !ref_removed.is_empty();
    if !roots_change && !reference_change && trust.is_none() {
        return Ok(SettingsMerge::default());
    }
    if reference_change {
        set_reference_roots(&mut doc, &ref_added, &ref_removed)?;
    }
    if roots_change {
        set_roots(&mut doc, &added, &removed)?;
    }
    if let Some(project) = trust {
        set_trust(&mut doc, project)?;
    }
    let mut text = doc.to_string();
    // The reference's list gone from the top leaves the blank line that separated it from the
    // first table: a file that did not start with one does not gain one.
    if !current.is_some_and(|c| c.starts_with(['\n', '\r'])) {
        text = text.trim_start_matches(['\n', '\r']).to_owned();
    }
    Ok(SettingsMerge {
        text: Some(text),
        added,
        removed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    const NONE: ReferenceEdit<'static> = ReferenceEdit {
        add: &[],
        remove: &[],
    };

    #[test]
    fn the_references_list_is_read_and_kept_beside_codexs_own() {
        // What the reference writes: a top-level list of typed paths and a trust entry per path.
        let reference = "additional_writable_roots = [\n  '../ext'\n]\n\n\n[projects.'../ext']\ntrust_level = \"trusted\"\n";
        assert_eq!(reference_roots(reference).unwrap(), v(&["../ext"]));
        assert!(writable_roots(reference).unwrap().is_empty());
        let add_ref = v(&["../api"]);
        let m = merge_writable_roots(
            Some(reference),
            &v(&["/abs/api", "/abs/ext"]),
            &[],
            Some("/ws"),
            ReferenceEdit {
                add: &add_ref,
                remove: &[],
            },
        )
        .unwrap();
        let text = m.text.unwrap();
        assert!(
            text.starts_with("additional_writable_roots = [\n  '../ext',\n  \"../api\"\n]\n"),
            "the reference's list stays first, where its reader looks: {text}"
        );
        assert_eq!(reference_roots(&text).unwrap(), v(&["../ext", "../api"]));
        assert_eq!(writable_roots(&text).unwrap(), v(&["/abs/api", "/abs/ext"]));
        let gone = v(&["../ext"]);
        let back = merge_writable_roots(
            Some(&text),
            &[],
            &v(&["/abs/ext"]),
            None,
            ReferenceEdit {
                add: &[],
                remove: &gone,
            },
        )
        .unwrap()
        .text
        .unwrap();
        assert_eq!(reference_roots(&back).unwrap(), v(&["../api"]));
        assert!(
            back.starts_with("additional_writable_roots = [\n  \"../api\"\n]\n"),
            "{back}"
        );
        assert_eq!(writable_roots(&back).unwrap(), v(&["/abs/api"]));
        assert!(matches!(
            reference_roots("additional_writable_roots = 1\n"),
            Err(SettingsError::Shape(_))
        ));
    }

    #[test]
    fn creates_the_file_with_roots_and_trust() {
        let m =
            merge_writable_roots(None, &v(&["/ext/a", "/ext/b"]), &[], Some("/ws"), NONE).unwrap();
        assert_eq!(m.added, v(&["/ext/a", "/ext/b"]));
        let text = m.text.unwrap();
        assert_eq!(
            text,
            "[sandbox_workspace_write]\nwritable_roots = [\"/ext/a\", \"/ext/b\"]\n\n[projects.\"/ws\"]\ntrust_level = \"trusted\"\n"
        );
        assert_eq!(writable_roots(&text).unwrap(), v(&["/ext/a", "/ext/b"]));
        assert_eq!(
            trust_level(&text, "/ws").unwrap().as_deref(),
            Some("trusted")
        );
        // Nothing to add and no file: nothing is created.
        assert_eq!(
            merge_writable_roots(None, &[], &v(&["/x"]), Some("/ws"), NONE).unwrap(),
            SettingsMerge::default()
        );
    }

    #[test]
    fn a_users_other_settings_and_comments_survive() {
        let user = "# my Codex settings\nmodel = \"o3\" # the model I like\nsandbox_mode = \"workspace-write\"\n\n[sandbox_workspace_write]\n# network stays off\nnetwork_access = false\nwritable_roots = [\"/mine\"]  # mine\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n";
        let m = merge_writable_roots(Some(user), &v(&["/ext"]), &[], Some("/ws"), NONE).unwrap();
        assert_eq!(m.added, v(&["/ext"]));
        assert_eq!(
            m.text.as_deref().unwrap(),
            "# my Codex settings\nmodel = \"o3\" # the model I like\nsandbox_mode = \"workspace-write\"\n\n[sandbox_workspace_write]\n# network stays off\nnetwork_access = false\nwritable_roots = [\"/mine\", \"/ext\"]  # mine\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n\n[projects.\"/ws\"]\ntrust_level = \"trusted\"\n"
        );
        // Withdrawing restores the user's bytes except the trust entry, which stays.
        let text = m.text.unwrap();
        let back = merge_writable_roots(Some(&text), &[], &v(&["/ext"]), None, NONE).unwrap();
        assert_eq!(back.removed, v(&["/ext"]));
        assert!(back.text.as_deref().unwrap().starts_with(user));
    }

    #[test]
    fn a_rerun_that_changes_nothing_keeps_every_byte() {
        let m =
            merge_writable_roots(Some("a = 1\n"), &v(&["/ext"]), &[], Some("/ws"), NONE).unwrap();
        let text = m.text.unwrap();
        for trust in [Some("/ws"), None] {
            assert_eq!(
                merge_writable_roots(Some(&text), &v(&["/ext"]), &v(&["/gone"]), trust, NONE)
                    .unwrap(),
                SettingsMerge::default()
            );
        }
    }

    #[test]
    fn one_per_line_arrays_keep_their_layout() {
        let user = "[sandbox_workspace_write]\nwritable_roots = [\n  \"/a\",\n  \"/b\",\n]\n";
        let m = merge_writable_roots(Some(user), &v(&["/c"]), &v(&["/a"]), None, NONE).unwrap();
        assert_eq!(
            m.text.unwrap(),
            "[sandbox_workspace_write]\nwritable_roots = [\n  \"/b\",\n  \"/c\",\n]\n"
        );
        let m = merge_writable_roots(
            Some("[sandbox_workspace_write]\nwritable_roots = [\"/a\", \"/b\"]\n"),
            &[],
            &v(&["/a"]),
            None,
            NONE,
        )
        .unwrap();
        assert_eq!(
            m.text.unwrap(),
            "[sandbox_workspace_write]\nwritable_roots = [\"/b\"]\n"
        );
    }

    #[test]
    fn an_explicit_trust_decision_is_left_alone() {
        let user = "[projects.\"/ws\"]\ntrust_level = \"untrusted\"\n";
        let m = merge_writable_roots(Some(user), &v(&["/ext"]), &[], Some("/ws"), NONE).unwrap();
        let text = m.text.unwrap();
        assert_eq!(
            trust_level(&text, "/ws").unwrap().as_deref(),
            Some("untrusted")
        );
        // An inline projects table gets an inline entry.
        let m = merge_writable_roots(
            Some("projects = { \"/other\" = { trust_level = \"trusted\" } }\n"),
            &v(&["/ext"]),
            &[],
            Some("/ws"),
            NONE,
        )
        .unwrap();
        let text = m.text.unwrap();
        assert_eq!(
            trust_level(&text, "/ws").unwrap().as_deref(),
            Some("trusted")
        );
        assert_eq!(
            trust_level(&text, "/other").unwrap().as_deref(),
            Some("trusted")
        );
    }

    #[test]
    fn refuses_what_it_cannot_merge() {
        assert!(matches!(
            merge_writable_roots(Some("a = "), &v(&["/a"]), &[], None, NONE),
            Err(SettingsError::NotToml(_))
        ));
        assert!(matches!(
            merge_writable_roots(
                Some("sandbox_workspace_write = 3\n"),
                &v(&["/a"]),
                &[],
                None,
                NONE
            ),
            Err(SettingsError::Shape(_))
        ));
        assert!(matches!(
            merge_writable_roots(
                Some("[sandbox_workspace_write]\nwritable_roots = \"/a\"\n"),
                &v(&["/a"]),
                &[],
                None,
                NONE
            ),
            Err(SettingsError::Shape(_))
        ));
        assert!(matches!(
            merge_writable_roots(Some("projects = 1\n"), &v(&["/a"]), &[], Some("/ws"), NONE),
            Err(SettingsError::Shape(_))
        ));
    }
}
