//! The PreCompact hold: when `checkpoint-write --can-pause` holds a host's compaction (exit 2),
//! and the one command that lifts it.
//!
//! A held compaction is only useful when the agent can lift it: the hold asks it to bind the
//! conversation to its session, after which every later hook call resolves through the binding.
//! So a compaction is held only when a binding settles the choice (several active sessions, none
//! bound to this conversation) and the conversation has an id the command can name. A choice no
//! binding settles (a number two folders share, an ambiguous `--code` in the hook's own command
//! line) or a conversation without an id would hold every compaction until somebody edits the
//! workspace by hand, which is the stall the hold must never cause: those degrade instead.

use crate::session::resolve::{Refusal, RefusalKind};

/// A held compaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    /// The next action (the failure envelope's `data.action`): the binding command.
    pub action: String,
    /// The line for stderr, which is all a host shows of a blocked hook; ends with `\n`.
    pub notice: String,
}

/// The command that binds the conversation `context_id` to one of the refusal's candidates, as
/// the next action, when a binding settles the refusal and the id can be written on a command
/// line; `None` otherwise. `program` is how the command runs aw (`aw`, or its path when `aw` on
/// `PATH` is not this program).
pub fn bind_action(refusal: &Refusal, context_id: Option<&str>, program: &str) -> Option<String> {
    if refusal.kind != RefusalKind::Unbound {
        return None;
    }
    let id = shell_word(context_id?)?;
    let folders: Vec<String> = refusal
        .candidates
        .iter()
        .map(|c| shell_word(&c.folder).unwrap_or_else(|| c.folder.escape_default().to_string()))
        .collect();
    Some(format!(
        "Bind this conversation to its session: run `AW_CONTEXT_ID={id} {program} checkpoint-write --code <folder>` with <folder> one of {}; later hook calls then find the session through the binding.",
        folders.join(" | ")
    ))
}

/// Whether a pausable host's compaction is held for `refusal`, and the words that say why and
/// how to lift it.
pub fn pre_compact(refusal: &Refusal, context_id: Option<&str>, program: &str) -> Option<Hold> {
    let action = bind_action(refusal, context_id, program)?;
    let notice = format!(
        "aw: compaction held: {} {action} Then compact again.\n",
        refusal.message.trim_end()
    );
    Some(Hold { action, notice })
}

/// `s` as one POSIX shell word: bare when it holds only characters no shell treats specially,
/// else single-quoted. `None` for text with a control character, which no one-line command can
/// carry.
pub fn shell_word(s: &str) -> Option<String> {
    if s.is_empty() || s.chars().any(char::is_control) {
        return None;
    }
    let bare = s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.:@%+=,/-".contains(c));
    Some(if bare {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::folder::SessionState;
    use crate::session::resolve::Candidate;

    fn refusal(kind: RefusalKind) -> Refusal {
        Refusal {
            kind,
            message:
                "There are 2 active sessions and this conversation is not bound to any of them."
                    .to_owned(),
            action: "Say which one with --code <folder>.".to_owned(),
            candidates: ["001-one-quick", "002-two quick"]
                .iter()
                .map(|f| Candidate {
                    folder: (*f).to_owned(),
                    code: None,
                    state: SessionState::Active,
                })
                .collect(),
        }
    }

    #[test]
    fn holds_only_what_a_binding_settles() {
        let hold = pre_compact(&refusal(RefusalKind::Unbound), Some("conv-C"), "aw").unwrap();
        assert!(hold.action.contains(
            "run `AW_CONTEXT_ID=conv-C aw checkpoint-write --code <folder>` with <folder> one of 001-one-quick | '002-two quick'"
        ));
        assert!(
            hold.notice
                .starts_with("aw: compaction held: There are 2 active sessions")
        );
        assert!(hold.notice.ends_with("Then compact again.\n"));
        assert_eq!(hold.notice.matches('\n').count(), 1, "one line");
        // No id to bind, or a choice no binding settles: nothing to hold.
        assert_eq!(
            pre_compact(&refusal(RefusalKind::Unbound), None, "aw"),
            None
        );
        assert_eq!(
            pre_compact(&refusal(RefusalKind::Ambiguous), Some("conv-C"), "aw"),
            None
        );
        assert_eq!(
            pre_compact(&refusal(RefusalKind::Unbound), Some("a\nb"), "aw"),
            None
        );
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_word("conv-A").as_deref(), Some("conv-A"));
        assert_eq!(
            shell_word("9f1c2e4a-0b1d-4c3e-8f5a-2b6c7d8e9f00").as_deref(),
            Some("9f1c2e4a-0b1d-4c3e-8f5a-2b6c7d8e9f00")
        );
        assert_eq!(shell_word("a b").as_deref(), Some("'a b'"));
        assert_eq!(shell_word("it's").as_deref(), Some(r"'it'\''s'"));
        assert_eq!(shell_word("$(x)").as_deref(), Some("'$(x)'"));
        assert_eq!(shell_word("a\tb"), None);
        assert_eq!(shell_word(""), None);
    }
}
