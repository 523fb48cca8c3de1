//! `aw next-number`: the next correlative of a docs folder, and the slot a claim took.

use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw next-number`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NextNumber {
    /// The folder, workspace-relative with `/`.
    pub directory: String,
    /// Whether the folder existed before the command.
    pub exists: bool,
    /// Whether the command created it.
    pub created: bool,
    /// The highest number found: a number when it fits in 64 bits, else its digits.
    pub current_max: Correlative,
    /// The next number, zero-padded to at least three digits.
    pub next: String,
    /// The names that carry a number.
    pub files: Vec<String>,
    /// The slot claimed (`--claim`), or `null`.
    pub claimed_path: Option<String>,
    /// The session that owns the claim (`--code`), or `null`.
    pub claimed_owner: Option<String>,
    /// Whether the claim returned a slot the session already held.
    pub claim_reused: bool,
    /// What the human view names: the claimed slot, else the folder, workspace-relative.
    #[serde(skip)]
    #[schemars(skip)]
    pub shown: String,
    /// The highest number found, zero-padded (for the human view).
    #[serde(skip)]
    #[schemars(skip)]
    pub highest: String,
}

/// A correlative on the wire: a JSON number when it fits in 64 bits, else its digits.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Correlative {
    /// It fits.
    Number(u64),
    /// It does not: the digits as written.
    Digits(String),
}

impl Correlative {
    /// The wire form of a correlative.
    pub fn of(c: &crate::vocab::correlative::Correlative) -> Correlative {
        match c.as_u64() {
            Some(n) => Correlative::Number(n),
            None => Correlative::Digits(c.digits().to_owned()),
        }
    }
}
