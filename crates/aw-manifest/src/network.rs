//! N1–N3: `networkHosts`, the hosts a sandboxed member may reach.
//!
//! The grammar is ASCII-only and case-insensitive, but duplicates are compared exactly: the
//! reference does so, and matching it keeps the error count identical.

use super::{Ctx, Path, js, set::Seen};

pub(super) fn check(cx: &mut Ctx) {
    let Some(hosts) = cx.root.get("networkHosts").filter(|v| js::present(Some(v))) else {
        return;
    };
    let Some(items) = hosts.as_array().filter(|items| !items.is_empty()) else {
        cx.fail(
            "network.not-array",
            "networkHosts",
            format!(
                "must be a non-empty array of host names (found {})",
                js::describe(Some(hosts))
            ),
        );
        return;
    };
    let block = Path::Name("networkHosts");
    let mut seen = Seen::new();
    for (i, item) in items.iter().enumerate() {
        let Some(host) = item.as_str().filter(|h| is_host(h)) else {
            cx.fail(
                "network.host-format",
                block.index(i),
                format!(
                    "must be a bare host name with at least two labels, optionally behind `*.` (found {})",
                    js::describe(Some(item))
                ),
            );
            continue;
        };
        if !seen.insert(host) {
            cx.fail(
                "network.duplicate",
                block.index(i),
                format!("repeats {}, already listed earlier", js::quote_str(host)),
            );
        }
    }
}

/// `^(\*\.)?LABEL(\.LABEL)+$` where a label is ASCII letters, digits and inner hyphens: at least
/// two labels, so a single-label host (`localhost`) or a wildcard over a TLD (`*.com`) fails.
fn is_host(h: &str) -> bool {
    let name = h.strip_prefix("*.").unwrap_or(h);
    let mut labels = 0usize;
    for label in name.split('.') {
        let b = label.as_bytes();
        let edge_ok = |c: Option<&u8>| c.is_some_and(u8::is_ascii_alphanumeric);
        if !edge_ok(b.first())
            || !edge_ok(b.last())
            || !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        {
            return false;
        }
        labels += 1;
    }
    labels >= 2
}

#[cfg(test)]
mod tests {
    use super::is_host;

    #[test]
    fn host_grammar() {
        for ok in [
            "example.com",
            "EXAMPLE.com",
            "*.example.com",
            "1.2.3.4",
            "a-b.c",
            "x.y",
        ] {
            assert!(is_host(ok), "{ok}");
        }
        for bad in [
            "localhost",
            "*.com",
            "example.com.",
            "example.com:443",
            "https://example.com",
            "example.com/x",
            "a b.com",
            "a_b.com",
            "-a.com",
            "a-.com",
            "*a.com",
            "*.*.com",
            "ſ.com",
            "\u{212a}.com",
            "a.com\n",
            "",
            "a..com",
        ] {
            assert!(!is_host(bad), "{bad:?}");
        }
    }
}
