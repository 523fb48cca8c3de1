//! Binding a row's action to a session, and the `docs/` write boundary of its flow.
//!
//! `{session}` and `{code}` both bind to the session folder. (The reference bound `{code}` to
//! the bare numeric prefix, which is ambiguous once a legacy `sessionNNN-` folder shares the
//! number; it fixed that later the same way.) `{slug}` binds to the folder without its number
//! and without its trailing `-<flow>`; a folder of another shape leaves it unbound. Binding
//! happens before sealing, displaying and comparing, so all three see the same strings.

use super::registry::{Action, Text};

/// Why an action cannot be emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindError {
    /// A placeholder survived binding (a typo such as `{sesion}`).
    Unbound(String),
    /// The action writes into a `docs/` folder its flow may not write.
    DocsCrossed(String),
}

/// The slug of a run's folder: `(session)?NNN-<slug>-<flow>` gives `<slug>`; `None` for a
/// folder of another shape.
pub fn slug_of(folder: &str, flow: &str) -> Option<String> {
    let rest = folder.strip_prefix("session").unwrap_or(folder);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits < 3 {
        return None;
    }
    let slug = rest[digits..]
        .strip_prefix('-')?
        .strip_suffix(flow)?
        .strip_suffix('-')?;
    (!slug.is_empty()).then(|| slug.to_owned())
}

/// The action of a row, bound to session folder `folder` of a `flow` run: placeholders replaced
/// in args, target and input, and no placeholder left in program, args or target.
pub fn bind_action(action: &Action, folder: &str, flow: &str) -> Result<Action, BindError> {
    let slug = slug_of(folder, flow);
    let bind = |s: &str| {
        let s = s.replace("{session}", folder).replace("{code}", folder);
        match &slug {
            Some(slug) => s.replace("{slug}", slug),
            None => s,
        }
    };
    let mut bound = action.clone();
    bound.invocation.args = action
        .invocation
        .args
        .iter()
        .map(|a| Text::from(bind(a)))
        .collect();
    bound.invocation.target = bind(&action.invocation.target).into();
    bound.invocation.input = action.invocation.input.as_deref().map(|i| bind(i).into());
    let inv = &bound.invocation;
    let fields = std::iter::once(&inv.program)
        .chain(inv.args.iter())
        .chain(std::iter::once(&inv.target));
    for f in fields {
        if let Some(p) = placeholder_in(f) {
            return Err(BindError::Unbound(p));
        }
    }
    Ok(bound)
}

/// [`bind_action`], then the `docs/` boundary check over the bound args and target.
pub fn emit_action(
    action: &Action,
    folder: &str,
    flow: &str,
    allowed: &[String],
) -> Result<Action, BindError> {
    let bound = bind_action(action, folder, flow)?;
    if let Some(crossed) = docs_breach(&bound, allowed) {
        return Err(BindError::DocsCrossed(crossed));
    }
    Ok(bound)
}

/// The first `{name}` (name of `a-z`, `_`, `-`) in a string.
fn placeholder_in(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            let len = b[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_lowercase() || **c == b'_' || **c == b'-')
                .count();
            if len > 0 && b.get(i + 1 + len) == Some(&b'}') {
                return Some(s[i..i + len + 2].to_owned());
            }
        }
        i += 1;
    }
    None
}

/// The first `docs/<segment>` written by the action outside the allowed folders. An occurrence
/// counts when it starts the string or follows whitespace, a quote, `=`, `(` or `,`.
pub fn docs_breach(action: &Action, allowed: &[String]) -> Option<String> {
    let inv = &action.invocation;
    inv.args
        .iter()
        .chain(std::iter::once(&inv.target))
        .flat_map(|s| docs_paths(s))
        .find(|p| !allowed.iter().any(|a| a == p))
}

fn docs_paths(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = s[i..].find("docs/") {
        let at = i + off;
        let starts = at == 0
            || matches!(
                b[at - 1],
                b' ' | b'\t'
                    | b'\n'
                    | b'\r'
                    | b'\x0b'
                    | b'\x0c'
                    | b'"'
                    | b'\''
                    | b'='
                    | b'('
                    | b','
            );
        let seg_len = b[at + 5..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
            .count();
        if starts && seg_len > 0 {
            out.push(s[at..at + 5 + seg_len].to_owned());
        }
        i = at + 5;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::registry::Invocation;

    fn action(args: &[&str], target: &str) -> Action {
        Action {
            invocation: Invocation {
                program: "aw".into(),
                args: args.iter().map(|a| Text::from((*a).to_owned())).collect(),
                target: target.to_owned().into(),
                input: None,
            },
            execution: None,
            evidence: vec!["e".into()].into(),
            idempotent: true,
            recovery: "run it again".into(),
        }
    }

    #[test]
    fn the_slug_is_the_folder_between_its_number_and_its_flow() {
        assert_eq!(
            slug_of("007-tramo-x-plan-new", "plan-new").as_deref(),
            Some("tramo-x")
        );
        assert_eq!(
            slug_of("session007-y-plan-new", "plan-new").as_deref(),
            Some("y")
        );
        assert_eq!(slug_of("001-foo", "plan-new"), None);
        assert_eq!(slug_of("01-foo-plan-new", "plan-new"), None);
        assert_eq!(slug_of("001-plan-new", "plan-new"), None);
        let a = action(
            &["next-number", "docs/plans", "--claim", "plan-{slug}.md"],
            ".",
        );
        let b = bind_action(&a, "003-auth-plan-new", "plan-new").unwrap();
        assert_eq!(b.invocation.args[3], "plan-auth.md");
        assert_eq!(
            bind_action(&a, "003-foo", "plan-new"),
            Err(BindError::Unbound("{slug}".into()))
        );
    }

    #[test]
    fn placeholders_bind_to_the_folder() {
        let a = action(&["session-artifacts", "--code", "{code}"], "{session}");
        let b = bind_action(&a, "007-tramo-quick-quick", "quick").unwrap();
        assert_eq!(b.invocation.args[2], "007-tramo-quick-quick");
        assert_eq!(b.invocation.target, "007-tramo-quick-quick");
        let typo = action(&["x", "{sesion}"], ".");
        assert_eq!(
            bind_action(&typo, "f", "quick"),
            Err(BindError::Unbound("{sesion}".into()))
        );
        assert_eq!(placeholder_in("{A}x{}{a_b-c}"), Some("{a_b-c}".into()));
    }

    #[test]
    fn docs_boundary() {
        let plans = vec!["docs/plans".to_owned()];
        assert_eq!(docs_breach(&action(&[], "."), &plans), None);
        assert_eq!(docs_breach(&action(&[], "docs/plans"), &plans), None);
        assert_eq!(
            docs_breach(&action(&[], "docs/manuals"), &plans),
            Some("docs/manuals".into())
        );
        assert_eq!(
            docs_breach(&action(&["--out", "docs/manuals"], "."), &plans),
            Some("docs/manuals".into())
        );
        assert_eq!(
            docs_breach(&action(&["--out=docs/manuals/x.md"], "."), &plans),
            Some("docs/manuals".into())
        );
        assert_eq!(docs_breach(&action(&["mydocs/manuals"], "."), &plans), None);
        assert_eq!(
            docs_breach(&action(&[], "docs/plans"), &[]),
            Some("docs/plans".into())
        );
    }
}
