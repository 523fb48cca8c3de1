//! The `[docs]` table of `skills.toml` (the reference v22's docs canon): where each documents
//! category lives. aw keeps the canonical layout, as the reference does for the categories its
//! flows, retirement and designs read (`research`, `spec`, `plan`, `decision`): a table that
//! relocates one of them, names a category that does not exist, or points anywhere but a safe
//! folder of the workspace is refused, so no flow runs against a layout it would not write.

use crate::capability::paths::unsafe_relative;
use toml_edit::{DocumentMut, Item};

/// Every category and its folder.
pub const CATEGORIES: [(&str, &str); 8] = [
    ("research", "docs/research"),
    ("spec", "docs/specs"),
    ("plan", "docs/plans"),
    ("decision", "docs/decisions"),
    ("diagrams", "docs/diagrams"),
    ("manuals", "docs/manuals"),
    ("reports", "docs/reports"),
    ("scripts", "docs/scripts"),
];

/// The categories that may not move.
const FIXED: [&str; 4] = ["research", "spec", "plan", "decision"];

/// Why the `[docs]` table of a `skills.toml` (`shown` names the file) cannot be used, if it
/// cannot: the text is not TOML, `[docs]` is not a table, or one of its entries names no
/// category, is not a path, is not a safe relative path, points into a hidden folder, or moves
/// a category that may not move.
pub fn refusal(shown: &str, text: &str) -> Option<String> {
    // Every flow call asks: a file that never names the table is not parsed. (A file that does
    // not read as TOML at all is the bindings' own warning, not a canon.)
    if !text.contains("docs") {
        return None;
    }
    let doc: DocumentMut = match text.parse() {
        Ok(d) => d,
        Err(e) => {
            let e: toml_edit::TomlError = e;
            return Some(format!(
                "{shown} does not read as TOML ({})",
                e.message().trim_end_matches('.')
            ));
        }
    };
    let table = match doc.get("docs") {
        None => return None,
        Some(Item::Table(t)) => t
            .iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect::<Vec<_>>(),
        Some(Item::Value(toml_edit::Value::InlineTable(t))) => t
            .iter()
            .map(|(k, v)| (k.to_owned(), Item::Value(v.clone())))
            .collect(),
        Some(_) => return Some(format!("{shown}: [docs] is not a table")),
    };
    for (category, item) in table {
        let Some(default) = CATEGORIES
            .iter()
            .find(|(c, _)| *c == category)
            .map(|(_, d)| *d)
        else {
            let names: Vec<&str> = CATEGORIES.iter().map(|(c, _)| *c).collect();
            return Some(format!(
                "{shown}: [docs] has no category '{category}'; the categories are {}",
                names.join(", ")
            ));
        };
        let Some(dir) = item.as_str() else {
            return Some(format!("{shown}: [docs].{category} must be a path (text)"));
        };
        let dir = dir.trim_end_matches('/');
        if let Some(why) = unsafe_relative(dir) {
            return Some(format!("{shown}: [docs].{category} = '{dir}' {why}"));
        }
        if dir.starts_with('.') {
            return Some(format!(
                "{shown}: [docs].{category} = '{dir}' points into a hidden folder: documents \
                 are published there, never into a tool's own state"
            ));
        }
        if FIXED.contains(&category.as_str()) && dir != default {
            return Some(format!(
                "{shown}: [docs].{category} cannot be moved from {default} yet: the flows, \
                 retirement and designs read the canonical layout"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_canonical_layout_of_the_core_categories_is_accepted() {
        assert_eq!(refusal("s", ""), None);
        assert_eq!(refusal("s", "[skills]\ndesign = \"design\"\n"), None);
        assert_eq!(refusal("s", "[docs]\nplan = \"docs/plans\"\n"), None);
        assert_eq!(refusal("s", "[docs]\nplan = \"docs/plans/\"\n"), None);
        assert_eq!(refusal("s", "[docs]\nreports = \"out/reports\"\n"), None);
        assert_eq!(refusal("s", "docs = { manuals = \"man\" }\n"), None);
        for (text, why) in [
            ("[docs]\nplan = \"knowledge/plans\"\n", "cannot be moved"),
            ("[docs]\ndecision = \"notes\"\n", "cannot be moved"),
            ("[docs]\nwiki = \"docs/wiki\"\n", "no category 'wiki'"),
            ("[docs]\nreports = 3\n", "must be a path"),
            ("[docs]\nreports = \"../out\"\n", "'..'"),
            ("[docs]\nreports = \"/abs\"\n", "absolute"),
            (
                "[docs]\nreports = \".workflow/sessions\"\n",
                "hidden folder",
            ),
            ("docs = 1\n", "not a table"),
            ("[docs\n", "does not read as TOML"),
        ] {
            let r = refusal("skills.toml", text).unwrap_or_else(|| panic!("{text}"));
            assert!(r.starts_with("skills.toml"), "{r}");
            assert!(r.contains(why), "{text}: {r}");
        }
    }
}
