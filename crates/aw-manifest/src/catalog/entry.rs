//! An entry's identity and texts: the key (E2–E5), the kind (E6), `purpose`, `whenToUse` and
//! `whenNotTo`.

use super::super::value::Value;
use super::super::{Ctx, Path, js};
use super::{Catalog, Entry, Fields, Kind, line};

/// `^[A-Za-z][A-Za-z0-9._-]*$`, ASCII only.
fn is_token(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// E2–E5. A key is remembered as seen only once it passed the token and length rules, so a bad
/// key never makes a later good one a duplicate.
pub(super) fn key<'a>(cx: &mut Ctx, catalog: &mut Catalog<'a>, at: &Path, fields: &Fields<'a>) {
    let path = at.field("key");
    let Some(key) = fields
        .get("key")
        .and_then(Value::as_str)
        .filter(|k| is_token(k))
    else {
        cx.fail(
            "catalog.key-token",
            path,
            "must be a bare token: a letter, then letters, digits, `.`, `_` or `-`",
        );
        return;
    };
    // The token rule already excludes control characters, so only the length can fail here.
    if !line::one_line(cx, path, fields.get("key")) {
        return;
    }
    if !catalog.seen_keys.insert(key) {
        cx.fail(
            "catalog.key-duplicate",
            path,
            format!(
                "repeats {}, which an earlier entry already uses; every key must be unique",
                js::quote_str(key)
            ),
        );
        return;
    }
    if super::is_env_hook(fields.obj) && !js::is_upper_snake(key) {
        cx.fail(
            "catalog.hook-key-env",
            path,
            format!(
                "is {}, but an env-hook's key is the name of its environment variable and must be \
                 UPPER_SNAKE_CASE",
                js::quote_str(key)
            ),
        );
    }
}

/// E6: the kind, or `None` when it is unknown (the rest of the entry is then skipped, since every
/// later rule depends on it).
pub(super) fn kind(cx: &mut Ctx, at: &Path, fields: &Fields) -> Option<Kind> {
    let kind = Kind::of(fields.get("kind"));
    if kind.is_none() {
        cx.fail(
            "catalog.kind",
            at.field("kind"),
            format!(
                "is {}; it must be one of \"primary\", \"continuation\" or \"env-hook\"",
                line::show(fields.get("kind"))
            ),
        );
    }
    kind
}

/// `purpose` (one line), `whenToUse` (a list of lines) and, when declared, `whenNotTo`.
pub(super) fn texts(cx: &mut Ctx, e: &Entry) {
    line::one_line(cx, e.path("purpose"), e.get("purpose"));
    line::string_list(cx, e.path("whenToUse"), e.get("whenToUse"));
    if e.has("whenNotTo") {
        line::string_list(cx, e.path("whenNotTo"), e.get("whenNotTo"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_grammar() {
        for ok in ["a", "Z", "a.b_c-d9", "HOOK_X"] {
            assert!(is_token(ok), "{ok}");
        }
        for bad in ["", "9a", "_a", "a b", "a\n", "ä", "a/b", "-a"] {
            assert!(!is_token(bad), "{bad}");
        }
    }
}
