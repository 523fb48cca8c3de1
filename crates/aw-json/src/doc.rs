//! A JSON text edited as a document: the parsed tree keeps each value's byte span, and an edit
//! replaces only the bytes of what it changes. Every number, string escape, blank, key order and
//! duplicate key outside the edited part stays byte for byte, which no round trip through a
//! value tree (`serde_json::Value` reads `1.10` as `1.1` and keeps one of two equal keys) can
//! promise.
//!
//! The text is first checked by [`crate::parse_bounded`] (valid JSON, bounded depth); the span
//! scan then only has to find where each value starts and ends.

use crate::parse_bounded;
use serde_json::Value;

/// One value of the document and where it lies in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The byte offset of its first character.
    pub start: usize,
    /// The byte offset just past its last character.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
}

/// The kinds of value the editor tells apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An object's members, in the order of the text (a repeated key is kept twice).
    Object(Vec<Member>),
    /// An array's elements.
    Array(Vec<Node>),
    /// A string, decoded.
    Str(String),
    /// A number, `true`, `false` or `null` (its bytes are its span).
    Scalar,
}

/// One `"key": value` of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The key, decoded.
    pub key: String,
    /// The byte offset of the key's opening quote.
    pub start: usize,
    /// The value.
    pub value: Node,
}

impl Member {
    /// The member's span: from its key to the end of its value.
    pub fn end(&self) -> usize {
        self.value.end
    }
}

impl Node {
    /// The members of an object (empty for any other kind).
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(m) => m,
            _ => &[],
        }
    }

    /// The elements of an array (empty for any other kind).
    pub fn elements(&self) -> &[Node] {
        match &self.kind {
            Kind::Array(e) => e,
            _ => &[],
        }
    }

    /// The members of an object named `key` (two or more when the text repeats it).
    pub fn get_all<'n>(&'n self, key: &str) -> Vec<&'n Member> {
        self.members().iter().filter(|m| m.key == key).collect()
    }

    /// The value of `key` when the object names it exactly once.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self.get_all(key).as_slice() {
            [one] => Some(&one.value),
            _ => None,
        }
    }

    /// The decoded string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self.kind, Kind::Object(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self.kind, Kind::Array(_))
    }

    /// The node's bytes in `text`.
    pub fn raw<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// A parsed document: the text and its root value.
#[derive(Debug, Clone)]
pub struct Doc<'t> {
    /// The whole text.
    pub text: &'t str,
    /// The root value.
    pub root: Node,
    /// One level of indentation as the text uses it (two spaces when it shows none), or `None`
    /// when the text is on one line (new parts are then written compact too).
    pub unit: Option<String>,
}

/// Parses `text` (valid JSON, bounded depth, else the parser's reason).
pub fn parse(text: &str) -> Result<Doc<'_>, String> {
    parse_bounded::<serde::de::IgnoredAny>(text)?;
    let mut s = Scan {
        b: text.as_bytes(),
        text,
        at: 0,
    };
    s.blank();
    let root = s.value();
    let unit = indent_unit(text, &root);
    Ok(Doc { text, root, unit })
}

struct Scan<'t> {
    b: &'t [u8],
    text: &'t str,
    at: usize,
}

impl Scan<'_> {
    fn blank(&mut self) {
        while self.at < self.b.len() && matches!(self.b[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Node {
        let start = self.at;
        let kind = match self.b.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                loop {
                    self.blank();
                    match self.b.get(self.at) {
                        Some(b'}') | None => {
                            self.at += 1;
                            break;
                        }
                        Some(b',') => {
                            self.at += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let key_start = self.at;
                    let key = self.string();
                    self.blank();
                    self.at += 1; // the colon
                    self.blank();
                    let value = self.value();
                    members.push(Member {
                        key,
                        start: key_start,
                        value,
                    });
                }
                Kind::Object(members)
            }
            Some(b'[') => {
                self.at += 1;
                let mut elements = Vec::new();
                loop {
                    self.blank();
                    match self.b.get(self.at) {
                        Some(b']') | None => {
                            self.at += 1;
                            break;
                        }
                        Some(b',') => {
                            self.at += 1;
                            continue;
                        }
                        _ => elements.push(self.value()),
                    }
                }
                Kind::Array(elements)
            }
            Some(b'"') => Kind::Str(self.string()),
            _ => {
                while self.at < self.b.len()
                    && !matches!(
                        self.b[self.at],
                        b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.at += 1;
                }
                Kind::Scalar
            }
        };
        Node {
            start,
            end: self.at,
            kind,
        }
    }

    /// A string starting at its opening quote; the text is valid JSON, so decoding it alone
    /// cannot fail.
    fn string(&mut self) -> String {
        let start = self.at;
        self.at += 1;
        while self.at < self.b.len() {
            match self.b[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        serde_json::from_str(&self.text[start..self.at.min(self.b.len())]).unwrap_or_default()
    }
}

/// The indentation step the text uses: the blanks before the root's first member or element on
/// its own line; `None` for a text on one line.
fn indent_unit(text: &str, root: &Node) -> Option<String> {
    if !text.trim_end().contains('\n') {
        return None;
    }
    let first = match &root.kind {
        Kind::Object(m) => m.first().map(|m| m.start),
        Kind::Array(e) => e.first().map(|e| e.start),
        _ => None,
    };
    let lead = first
        .map(|f| &text[root.start + 1..f])
        .and_then(|l| l.rsplit_once('\n').map(|(_, i)| i.to_owned()))
        .filter(|i| !i.is_empty() && i.chars().all(|c| c == ' ' || c == '\t'));
    Some(lead.unwrap_or_else(|| "  ".to_owned()))
}

/// The blanks that open the line `at` is on.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..at];
    let n = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..n]
}

impl Doc<'_> {
    /// `value` as new text for a place whose lines are indented by `indent`: pretty, with the
    /// document's indentation step, or compact in a one-line document.
    pub fn render(&self, value: &Value, indent: &str) -> String {
        let Some(unit) = &self.unit else {
            return serde_json::to_string(value).unwrap_or_default();
        };
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        if serde::Serialize::serialize(value, &mut ser).is_err() {
            return String::new();
        }
        String::from_utf8_lossy(&out).replace('\n', &format!("\n{indent}"))
    }

    /// The new text of the container `node` (an object or an array): of its original items,
    /// those given `Some(text)` kept (with that text, their own or edited), those given `None`
    /// left out, then `appended` added at its end (for an object, each a whole `"key": value`).
    /// The blanks before the first item and after the last, and the separators between kept
    /// neighbours, are the text's own; an appended item takes the separator the container
    /// already uses. `None` when nothing changes.
    pub fn splice(
        &self,
        node: &Node,
        items: &[Option<String>],
        appended: &[AppendItem],
    ) -> Option<String> {
        let spans: Vec<(usize, usize)> = match &node.kind {
            Kind::Object(m) => m.iter().map(|m| (m.start, m.end())).collect(),
            Kind::Array(e) => e.iter().map(|e| (e.start, e.end)).collect(),
            _ => return None,
        };
        let unchanged = appended.is_empty()
            && items
                .iter()
                .zip(&spans)
                .all(|(i, (s, e))| i.as_deref() == Some(&self.text[*s..*e]));
        if unchanged {
            return None;
        }
        let t = self.text;
        let open = &t[node.start..node.start + 1];
        let close = &t[node.end - 1..node.end];
        let own_indent = line_indent(t, node.start);
        let (lead, trail, sep) = match (spans.first(), spans.last()) {
            (Some(&(first, _)), Some(&(_, last))) => {
                let lead = &t[node.start + 1..first];
                let sep = if spans.len() > 1 {
                    t[spans[spans.len() - 2].1..spans[spans.len() - 1].0].to_owned()
                } else {
                    format!(",{lead}")
                };
                (lead.to_owned(), t[last..node.end - 1].to_owned(), sep)
            }
            _ => match &self.unit {
                Some(unit) => (
                    format!("\n{own_indent}{unit}"),
                    format!("\n{own_indent}"),
                    format!(",\n{own_indent}{unit}"),
                ),
                None => (String::new(), String::new(), ",".to_owned()),
            },
        };
        // A container written on one line gets its new items on one line too.
        let inline = !sep.contains('\n');
        let item_indent = sep.rsplit_once('\n').map_or("", |(_, i)| i).to_owned();
        let render = |v: &Value| {
            if inline {
                serde_json::to_string(v).unwrap_or_default()
            } else {
                self.render(v, &item_indent)
            }
        };
        let mut out = String::new();
        out.push_str(open);
        let mut body = String::new();
        let mut last_kept: Option<usize> = None;
        for (i, item) in items.iter().enumerate() {
            let Some(text) = item else { continue };
            if let Some(prev) = last_kept {
                body.push_str(&t[spans[prev].1..spans[prev + 1].0]);
            }
            body.push_str(text);
            last_kept = Some(i);
        }
        for a in appended {
            let text = match a {
                AppendItem::Element(v) => render(v),
                AppendItem::Member(k, v) => {
                    let colon = if self.unit.is_some() { ": " } else { ":" };
                    format!(
                        "{}{colon}{}",
                        serde_json::to_string(k).unwrap_or_default(),
                        render(v)
                    )
                }
                AppendItem::Raw(r) => r.clone(),
            };
            if !body.is_empty() {
                body.push_str(&sep);
            }
            body.push_str(&text);
        }
        if !body.is_empty() {
            out.push_str(&lead);
            out.push_str(&body);
            out.push_str(&trail);
        }
        out.push_str(close);
        Some(out)
    }
}

/// An item [`Doc::splice`] adds at the end of a container.
#[derive(Debug, Clone)]
pub enum AppendItem {
    /// An array element, rendered as the document writes.
    Element(Value),
    /// An object member, rendered as the document writes.
    Member(String, Value),
    /// Text already rendered.
    Raw(String),
}

/// `text` with the byte ranges of `edits` (sorted, not overlapping) replaced.
pub fn apply(text: &str, edits: &mut [(usize, usize, String)]) -> String {
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e, r) in edits.iter() {
        out.push_str(&text[at..*s]);
        out.push_str(r);
        at = *e;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keep_all(doc: &Doc<'_>, node: &Node) -> Vec<Option<String>> {
        match &node.kind {
            Kind::Object(m) => m
                .iter()
                .map(|m| Some(doc.text[m.start..m.end()].to_owned()))
                .collect(),
            Kind::Array(e) => e.iter().map(|e| Some(e.raw(doc.text).to_owned())).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn spans_cover_each_value_byte_for_byte() {
        let text = "{ \"n\": 123456789012345678901234567890, \"f\": 1.10, \"e\": 1e2,\n  \"s\": \"a\\\"b\", \"a\": [true, null, {}], \"n\": 2 }";
        let doc = parse(text).unwrap();
        let m = doc.root.members();
        assert_eq!(m.len(), 6);
        assert_eq!(m[0].value.raw(text), "123456789012345678901234567890");
        assert_eq!(m[1].value.raw(text), "1.10");
        assert_eq!(m[2].value.raw(text), "1e2");
        assert_eq!(m[3].value.as_str(), Some("a\"b"));
        assert_eq!(m[4].value.elements().len(), 3);
        assert_eq!(doc.root.get_all("n").len(), 2);
        assert!(
            doc.root.get("n").is_none(),
            "a repeated key is not one value"
        );
        assert!(parse("{ nope").is_err());
    }

    #[test]
    fn appending_keeps_every_other_byte_and_follows_the_indentation() {
        let text = "{\n    \"x\": 1.10,\n    \"list\": [\n        1e2\n    ]\n}\n";
        let doc = parse(text).unwrap();
        assert_eq!(doc.unit.as_deref(), Some("    "));
        let list = &doc.root.members()[1].value;
        let new = doc
            .splice(
                list,
                &keep_all(&doc, list),
                &[AppendItem::Element(json!({"a": 1}))],
            )
            .unwrap();
        let out = apply(text, &mut [(list.start, list.end, new)]);
        assert_eq!(
            out,
            "{\n    \"x\": 1.10,\n    \"list\": [\n        1e2,\n        {\n            \"a\": 1\n        }\n    ]\n}\n"
        );
    }

    #[test]
    fn removing_an_item_keeps_its_neighbours_and_their_separators() {
        let text = "[1.0, 2.50,   3e0]";
        let doc = parse(text).unwrap();
        let items = vec![Some("1.0".to_owned()), None, Some("3e0".to_owned())];
        assert_eq!(
            doc.splice(&doc.root, &items, &[]).as_deref(),
            Some("[1.0, 3e0]")
        );
        let first_gone = vec![None, Some("2.50".to_owned()), Some("3e0".to_owned())];
        assert_eq!(
            doc.splice(&doc.root, &first_gone, &[]).as_deref(),
            Some("[2.50,   3e0]")
        );
        assert_eq!(
            doc.splice(&doc.root, &[None, None, None], &[]).as_deref(),
            Some("[]")
        );
        assert_eq!(doc.splice(&doc.root, &keep_all(&doc, &doc.root), &[]), None);
    }

    #[test]
    fn an_empty_container_gets_its_first_item_on_its_own_line() {
        let text = "{\n  \"hooks\": {}\n}";
        let doc = parse(text).unwrap();
        let hooks = &doc.root.members()[0].value;
        let new = doc
            .splice(hooks, &[], &[AppendItem::Member("E".into(), json!([1]))])
            .unwrap();
        assert_eq!(new, "{\n    \"E\": [\n      1\n    ]\n  }");
        let flat = parse("{\"a\":{}}").unwrap();
        let a = &flat.root.members()[0].value;
        assert_eq!(
            flat.splice(a, &[], &[AppendItem::Member("E".into(), json!([1]))])
                .as_deref(),
            Some("{\"E\":[1]}")
        );
    }
}
