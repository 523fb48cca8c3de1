//! What `aw hook sql-mutation-guard` decides before a host runs an SQL tool of an MCP server:
//! a statement that changes the database (DML or DDL) is blocked, so a session never mutates a
//! database behind the person's back; they apply the change themselves from a script.
//!
//! - **On** only when the runtime settings name the two patterns ([`SqlPatterns`]) and both
//!   compile, and `AW_SQL_GUARD` is not `off`.
//! - **The tool**: `tool_name` must match `toolPattern`.
//! - **The server**: `serverPattern` applied to the tool name; its first group (else the whole
//!   match) is compared with `AW_SQL_GUARD_ALLOW` (a comma list), both sides lower-cased, so
//!   `AW_SQL_GUARD_ALLOW=dbcert` allows `mcp__DBCert__execute_sql` too (the reference lower-cased
//!   only the list, so a server named in capitals could never be allowed).
//! - **The statement**: the first non-blank string of `tool_input.sql`, `query`, `statement`,
//!   `command`; without comments (`/* … */` first, then `-- …` to the end of the line), its first
//!   word-bounded keyword of [`KEYWORDS`], in any case, blocks.

use super::pretool::{SqlPatterns, payload_object};
use regex::Regex;
use serde_json::Value;

/// The statements that change a database, in the order the reference lists them.
pub const KEYWORDS: [&str; 11] = [
    "INSERT", "UPDATE", "DELETE", "TRUNCATE", "MERGE", "CREATE", "ALTER", "DROP", "GRANT",
    "REVOKE", "COPY",
];

/// The keys of `tool_input` that may hold the statement, in the order they are tried.
pub const SQL_KEYS: [&str; 4] = ["sql", "query", "statement", "command"];

/// Why a call is blocked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The tool name.
    pub tool: String,
    /// What `serverPattern` matched in it (`?` when nothing).
    pub server: String,
    /// The keyword found, in capitals.
    pub keyword: &'static str,
}

/// The guard's verdict on a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the tool run (exit 0, nothing printed).
    Allow,
    /// Block it (exit 2, [`Blocked::advice`] on stderr).
    Block(Blocked),
}

/// The verdict on `payload` under `patterns`, with `allow` the value of `AW_SQL_GUARD_ALLOW`.
/// The `AW_SQL_GUARD=off` switch and the runtime settings are the caller's to check first.
pub fn judge(payload: &str, patterns: &SqlPatterns, allow: Option<&str>) -> Verdict {
    let Some(map) = payload_object(payload) else {
        return Verdict::Allow;
    };
    let (Ok(tool_re), Ok(server_re)) = (
        Regex::new(&patterns.tool_pattern),
        Regex::new(&patterns.server_pattern),
    ) else {
        return Verdict::Allow;
    };
    let tool = map.get("tool_name").and_then(Value::as_str).unwrap_or("");
    if !tool_re.is_match(tool) {
        return Verdict::Allow;
    }
    let (server, suffix) = match server_re.captures(tool) {
        Some(c) => {
            let whole = c.get(0).map_or("", |m| m.as_str());
            (whole, c.get(1).map_or(whole, |m| m.as_str()))
        }
        None => ("?", "?"),
    };
    if allowed(allow, suffix) {
        return Verdict::Allow;
    }
    let Some(sql) = statement(map.get("tool_input")) else {
        return Verdict::Allow;
    };
    match first_mutation(sql) {
        Some(keyword) => Verdict::Block(Blocked {
            tool: tool.to_owned(),
            server: server.to_owned(),
            keyword,
        }),
        None => Verdict::Allow,
    }
}

/// Whether `AW_SQL_GUARD_ALLOW` (a comma list, each entry trimmed) names the server, in any case.
pub fn allowed(allow: Option<&str>, server: &str) -> bool {
    let Some(list) = allow.filter(|l| !l.is_empty()) else {
        return false;
    };
    let server = server.to_lowercase();
    list.to_lowercase()
        .split(',')
        .any(|entry| aw_json::js::js_trim(entry) == server)
}

/// The statement: the first of [`SQL_KEYS`] holding a string that is not blank.
pub fn statement(input: Option<&Value>) -> Option<&str> {
    let input = input?.as_object()?;
    SQL_KEYS.iter().find_map(|k| {
        input
            .get(*k)?
            .as_str()
            .filter(|s| !aw_json::js::js_trim(s).is_empty())
    })
}

/// `sql` with its comments blanked: every `/* … */` (the shortest, across lines), then every
/// `-- …` to the end of its line, each replaced by one space. An unclosed `/*` stays.
pub fn strip_comments(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(open) = rest.find("/*") {
        let Some(close) = rest[open + 2..].find("*/") else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push(' ');
        rest = &rest[open + 2 + close + 2..];
    }
    out.push_str(rest);
    let mut lines = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(dash) = rest.find("--") {
        lines.push_str(&rest[..dash]);
        lines.push(' ');
        rest = &rest[dash..];
        rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
    }
    lines.push_str(rest);
    lines
}

/// The first keyword of [`KEYWORDS`] in `sql` once its comments are gone, as a whole word
/// (ASCII word characters bound it) in any ASCII case.
pub fn first_mutation(sql: &str) -> Option<&'static str> {
    let clean = strip_comments(sql);
    let bytes = clean.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = at == 0 || !word(bytes[at - 1]);
        if starts_word && word(bytes[at]) {
            let end = at + bytes[at..].iter().take_while(|&&b| word(b)).count();
            let found = KEYWORDS
                .iter()
                .find(|k| k.as_bytes().eq_ignore_ascii_case(&bytes[at..end]));
            if let Some(k) = found {
                return Some(k);
            }
            at = end;
        } else {
            at += 1;
        }
    }
    None
}

impl Blocked {
    /// What stderr says: what was blocked and why, what to do instead, and the two bypasses.
    /// `display` prefixes it (the runtime's `displayName`, else `aw`).
    pub fn advice(&self, display: &str) -> String {
        format!(
            "[{display} sql-mutation-guard] Blocked: this statement would change the database.\n\
             \x20 tool:    {}\n\
             \x20 server:  {}\n\
             \x20 keyword: {}\n\
             \n\
             A session does not change a database (DML or DDL) itself. Write the change as an\n\
             SQL script in the source's docs/scripts/ folder and ask the person to apply it.\n\
             \n\
             Only when the person hands you an exception:\n\
             \x20 AW_SQL_GUARD=off                 turns this guard off\n\
             \x20 AW_SQL_GUARD_ALLOW=<server>,...  lets these servers through (any case)\n",
            self.tool, self.server, self.keyword
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns() -> SqlPatterns {
        SqlPatterns {
            tool_pattern: "^mcp__.*__execute_sql$".into(),
            server_pattern: "^mcp__(.+?)__".into(),
        }
    }

    fn call(tool: &str, key: &str, sql: &str) -> String {
        serde_json::json!({"session_id": "s", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": {key: sql}})
        .to_string()
    }

    fn keyword(v: Verdict) -> Option<&'static str> {
        match v {
            Verdict::Block(b) => Some(b.keyword),
            Verdict::Allow => None,
        }
    }

    #[test]
    fn the_first_mutation_outside_comments_blocks() {
        let p = patterns();
        let t = "mcp__dbcert__execute_sql";
        let j = |sql: &str| keyword(judge(&call(t, "sql", sql), &p, None));
        assert_eq!(j("-- DELETE\nselect 1; update t set a = 1"), Some("UPDATE"));
        assert_eq!(j("/* DROP */ select 1"), None);
        assert_eq!(j("/* a\n DROP \n*/ select 1 -- truncate"), None);
        assert_eq!(j("select * from updates where created_at > 1"), None);
        assert_eq!(j("insert_log(); Drop table x"), Some("DROP"));
        assert_eq!(j("/* unclosed DELETE"), Some("DELETE"));
        assert_eq!(j("select 1"), None);
        assert_eq!(j("   "), None);
        assert_eq!(j("éDROP x"), Some("DROP"));
    }

    #[test]
    fn the_statement_is_the_first_non_blank_of_four_keys() {
        let p = patterns();
        let t = "mcp__db__execute_sql";
        for key in SQL_KEYS {
            assert_eq!(
                keyword(judge(&call(t, key, "grant x"), &p, None)),
                Some("GRANT")
            );
        }
        let both =
            r#"{"tool_name":"mcp__db__execute_sql","tool_input":{"sql":" ","query":"copy t"}}"#;
        assert_eq!(keyword(judge(both, &p, None)), Some("COPY"));
        let num = r#"{"tool_name":"mcp__db__execute_sql","tool_input":{"sql":1,"query":"select"}}"#;
        assert_eq!(keyword(judge(num, &p, None)), None);
        let none = r#"{"tool_name":"mcp__db__execute_sql","tool_input":"drop table x"}"#;
        assert_eq!(keyword(judge(none, &p, None)), None);
    }

    #[test]
    fn other_tools_garbage_and_bad_patterns_are_let_through() {
        let p = patterns();
        assert_eq!(
            judge(&call("Bash", "command", "drop x"), &p, None),
            Verdict::Allow
        );
        for text in ["", "nope", "[]", "{\"tool_name\":5}"] {
            assert_eq!(judge(text, &p, None), Verdict::Allow);
        }
        let bad = SqlPatterns {
            tool_pattern: "(".into(),
            server_pattern: "x".into(),
        };
        let drop = call("mcp__db__execute_sql", "sql", "drop x");
        assert_eq!(judge(&drop, &bad, None), Verdict::Allow);
    }

    #[test]
    fn the_allow_list_names_servers_in_any_case() {
        let p = patterns();
        let drop = |t: &str| call(t, "sql", "drop table x");
        let lower = drop("mcp__dbcert__execute_sql");
        assert_eq!(judge(&lower, &p, Some("other, dbcert")), Verdict::Allow);
        assert_eq!(judge(&lower, &p, Some("DBCERT")), Verdict::Allow);
        // The reference never allowed a server named in capitals; aw compares in one case.
        assert_eq!(
            judge(&drop("mcp__DBCert__execute_sql"), &p, Some("dbcert")),
            Verdict::Allow
        );
        let Verdict::Block(b) = judge(&lower, &p, Some("other")) else {
            panic!("blocked");
        };
        assert_eq!((b.server.as_str(), b.keyword), ("mcp__dbcert__", "DROP"));
        let text = b.advice("aw");
        assert!(text.contains("AW_SQL_GUARD=off") && text.contains("AW_SQL_GUARD_ALLOW"));
        assert!(text.starts_with("[aw sql-mutation-guard]"));
    }

    #[test]
    fn without_a_server_group_the_whole_match_is_the_server() {
        let p = SqlPatterns {
            tool_pattern: "execute_sql$".into(),
            server_pattern: "^[a-z]+".into(),
        };
        let call = call("postgres_execute_sql", "sql", "delete from t");
        assert_eq!(judge(&call, &p, Some("postgres")), Verdict::Allow);
        let Verdict::Block(b) = judge(&call, &p, None) else {
            panic!("blocked");
        };
        assert_eq!(b.server, "postgres");
    }
}
