//! The projections `render` writes for one revision of a package: the portable HTML page a
//! person opens to review the design, and the handoff bundle for the other registered
//! profiles. A projection is a view of the sealed `DESIGN.md`, never normative and never sealed
//! (it is not in the manifest): the digest it names says which bytes it shows.
//!
//! The page is self-contained on purpose. A design is reviewed from a file on disk, often one
//! an agent wrote from material nobody vetted, so the page must not be able to reach anything:
//! no script, no stylesheet link, no remote image, no `url(` in its CSS, and a Content Security
//! Policy that blocks whatever might still slip through. Raw HTML in `DESIGN.md` is shown as
//! text, images are shown as their alt text, and a link whose address has a scheme other than
//! `http`, `https` or `mailto` loses its address. The output is a function of the view alone,
//! byte for byte.

use super::manifest::Baseline;
use super::review::{Review, is_approved};
use super::sources::{AttainedMaturity, DesignSource};
use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The folder, inside a package, that holds every projection.
pub const RENDERS_DIR: &str = "renders";
/// The profile whose projection is the HTML page (the others get a handoff bundle).
pub const PORTABLE_HTML: &str = "portable-html";
/// The `schema` of a handoff bundle.
pub const BUNDLE_SCHEMA: &str = "workline.design-render-bundle/v1";

/// What a projection is made from: one revision of a package, as the integration reads it from
/// the package (the manifest, `DESIGN.md`, the review files). Borrowed: a render reads, it owns
/// nothing.
#[derive(Debug, Clone, Copy)]
pub struct PackageView<'a> {
    /// The package identity (`DES-001`).
    pub id: &'a str,
    /// Its title (the manifest's).
    pub title: &'a str,
    /// The revision rendered.
    pub revision: u64,
    /// `sha256:<hex>` of `design_md`'s bytes, as the manifest seals it.
    pub digest: &'a str,
    /// The text of `DESIGN.md` at that revision.
    pub design_md: &'a str,
    /// What became of each declared source (the manifest's `sources`).
    pub sources: &'a [DesignSource],
    /// The maturity reached and what holds it back (the manifest's `attained` and `gaps`).
    pub maturity: &'a AttainedMaturity,
    /// Every revision and its digest, oldest first (the manifest's `history`).
    pub history: &'a [Baseline],
    /// The package's review files, in the order the integration lists them (by revision).
    pub reviews: &'a [Review],
}

/// The package-relative path of the HTML page of `revision`:
/// `renders/portable-html/DESIGN-rNNN.html`.
pub fn portable_html_path(revision: u64) -> String {
    format!("{RENDERS_DIR}/{PORTABLE_HTML}/DESIGN-r{revision:03}.html")
}

/// The package-relative path of `profile`'s handoff bundle for `revision`:
/// `renders/<profile>/bundle-rNNN.json`. `profile` must already be a registered adapter id
/// (the floor checks it): it becomes a folder name as given.
pub fn bundle_path(profile: &str, revision: u64) -> String {
    format!("{RENDERS_DIR}/{profile}/bundle-r{revision:03}.json")
}

/// Where `profile`'s projection of `revision` lands: the HTML page for `portable-html`, a
/// bundle for any other profile.
pub fn render_path(profile: &str, revision: u64) -> String {
    if profile == PORTABLE_HTML {
        portable_html_path(revision)
    } else {
        bundle_path(profile, revision)
    }
}

/// The handoff bundle for `profile` (`workline.design-render-bundle/v1`, keys in emission
/// order). aw talks to no provider: the bundle names the revision and the artifacts, each with
/// its digest, so whoever hands it over can prove which bytes they sent.
pub fn handoff_bundle(view: &PackageView<'_>, profile: &str, artifacts: &[(&str, &str)]) -> Value {
    let artifacts: Vec<Value> = artifacts
        .iter()
        .map(|(path, digest)| json!({"path": path, "digest": digest}))
        .collect();
    json!({
        "schema": BUNDLE_SCHEMA,
        "profile": profile,
        "id": view.id,
        "revision": view.revision,
        "digest": view.digest,
        "artifacts": artifacts,
        "note": format!("aw sends nothing; hand this bundle to {profile}"),
    })
}

/// The page's style: system fonts, a readable measure, nothing fetched.
const STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#ffffff;--line:#d1d9e0;--soft:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--soft:#151b23}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:42rem;padding:2rem 1.25rem 4rem;color:var(--fg);background:var(--bg);font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;font-size:1.0625rem;line-height:1.6}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:2rem 0 .75rem}
h1{font-size:2rem;margin-top:.25rem}
h2{font-size:1.45rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.2rem}
p,ul,ol,table,pre,blockquote,dl{margin:0 0 1rem}
a{color:#0969da}
@media (prefers-color-scheme:dark){a{color:#4493f8}}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"Liberation Mono\",monospace;font-size:.9em}
code{padding:.1em .3em;background:var(--soft);border-radius:4px}
pre{padding:.75rem 1rem;overflow:auto;background:var(--soft);border-radius:6px;line-height:1.45}
pre code{padding:0;background:none}
blockquote{padding:0 1rem;color:var(--muted);border-left:.25rem solid var(--line)}
table{display:block;width:100%;overflow-x:auto;border-collapse:collapse;font-size:.95rem}
th,td{padding:.4rem .6rem;border:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--soft)}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.kicker{margin:0;color:var(--muted);font-size:.9rem;letter-spacing:.02em}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:.95rem}
.meta dt{color:var(--muted)}
.meta dd{margin:0}
.digest{word-break:break-all}
.image-alt{color:var(--muted);font-style:italic}
.design{margin-top:2rem}
footer{margin-top:3rem;color:var(--muted);font-size:.85rem}
";

/// Escapes text for an HTML text node or a double-quoted attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Whether a link address may stay a link: a relative address or a fragment (no scheme), or
/// one whose scheme is `http`, `https` or `mailto`. Read as a browser reads it: leading
/// control characters and spaces, and tabs and line breaks anywhere, do not count, and the
/// scheme is case-insensitive — so `java\tscript:` and ` JavaScript:` are what they are.
fn is_safe_link(address: &str) -> bool {
    let cleaned: String = address
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let end = cleaned.find([':', '/', '?', '#']);
    let Some(end) = end.filter(|&i| cleaned[i..].starts_with(':')) else {
        return true;
    };
    let scheme = &cleaned[..end];
    let is_scheme = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme {
        // Not a scheme a browser would recognise; nothing a design needs looks like this, so
        // it is not kept as a link either.
        return false;
    }
    matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "mailto"
    )
}

/// The plain text of events (an image's alt text, a heading's words).
fn plain_text(events: &[Event<'_>]) -> String {
    let mut text = String::new();
    for event in events {
        match event {
            Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                text.push_str(t);
            }
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    text
}

/// The index of the event that closes the element opened at `start` (same nesting depth; the
/// last event if the stream is cut short, which the parser never does).
fn closing(events: &[Event<'_>], start: usize) -> usize {
    let mut depth = 0usize;
    for (i, event) in events.iter().enumerate().skip(start) {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    events.len().saturating_sub(1)
}

/// `DESIGN.md` as HTML with nothing that can reach out or run. `title` is the page's own
/// heading: a first `# <title>` that repeats it is left out, so the page has one title.
fn design_body(design_md: &str, title: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events: Vec<Event<'_>> = Parser::new_ext(design_md, options).collect();
    let mut safe: Vec<Event<'_>> = Vec::with_capacity(events.len());
    // For every open link, whether its anchor was kept (links do not nest in CommonMark, but
    // the stack costs nothing and never mismatches an end).
    let mut links: Vec<bool> = Vec::new();
    let mut i = 0;
    if let Some(Event::Start(Tag::Heading {
        level: HeadingLevel::H1,
        ..
    })) = events.first()
    {
        let end = closing(&events, 0);
        if plain_text(events.get(1..end).unwrap_or_default()).trim() == title.trim() {
            i = end + 1;
        }
    }
    while i < events.len() {
        let event = &events[i];
        match event {
            // Raw HTML is shown, not obeyed: a block as code, inline as text.
            Event::Start(Tag::HtmlBlock) => {
                safe.push(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)));
            }
            Event::End(TagEnd::HtmlBlock) => safe.push(Event::End(TagEnd::CodeBlock)),
            Event::Html(html) | Event::InlineHtml(html) => safe.push(Event::Text(html.clone())),
            // An image would be a request: its alt text stands in for it.
            Event::Start(Tag::Image { dest_url, .. }) => {
                let end = closing(&events, i);
                let alt = plain_text(events.get(i + 1..end).unwrap_or_default());
                let shown = if alt.trim().is_empty() {
                    dest_url.to_string()
                } else {
                    alt
                };
                safe.push(Event::InlineHtml(CowStr::from(format!(
                    "<span class=\"image-alt\">[image: {}]</span>",
                    escape(&shown)
                ))));
                i = end;
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                let keep = is_safe_link(dest_url);
                links.push(keep);
                if keep {
                    safe.push(event.clone());
                }
            }
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(true) {
                    safe.push(event.clone());
                }
            }
            _ => safe.push(event.clone()),
        }
        i += 1;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, safe.into_iter());
    html
}

fn push_row(out: &mut String, cells: &[String]) {
    out.push_str("<tr>");
    for cell in cells {
        let _ = write!(out, "<td>{cell}</td>");
    }
    out.push_str("</tr>\n");
}

fn push_head(out: &mut String, headings: &[&str]) {
    out.push_str("<table>\n<thead><tr>");
    for h in headings {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
}

fn digest_cell(digest: &str) -> String {
    format!("<code class=\"digest\">{}</code>", escape(digest))
}

fn maturity_section(out: &mut String, view: &PackageView<'_>) {
    out.push_str("<section id=\"maturity\">\n<h2>Maturity and gaps</h2>\n");
    let _ = writeln!(
        out,
        "<p>This revision reaches <strong>{}</strong>.</p>",
        view.maturity.attained.as_str()
    );
    if view.maturity.gaps.is_empty() {
        out.push_str("<p>Nothing holds it below the maturity it claims.</p>\n");
    } else {
        out.push_str("<ul>\n");
        for gap in &view.maturity.gaps {
            let _ = writeln!(out, "<li>{}</li>", escape(gap));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

fn sources_section(out: &mut String, view: &PackageView<'_>) {
    out.push_str("<section id=\"sources\">\n<h2>Sources</h2>\n");
    if view.sources.is_empty() {
        out.push_str("<p>No source was declared.</p>\n");
    } else {
        push_head(
            out,
            &[
                "Source",
                "Kind",
                "Locator",
                "Disposition",
                "Essential",
                "Reason",
            ],
        );
        for s in view.sources {
            push_row(
                out,
                &[
                    escape(&s.name),
                    s.kind.as_str().to_owned(),
                    format!("<code>{}</code>", escape(&s.locator)),
                    s.disposition.as_str().to_owned(),
                    if s.essential { "yes" } else { "no" }.to_owned(),
                    s.reason.as_deref().map(escape).unwrap_or_default(),
                ],
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
}

fn revisions_section(out: &mut String, view: &PackageView<'_>) {
    out.push_str("<section id=\"revisions\">\n<h2>Revision history</h2>\n");
    if view.history.is_empty() {
        out.push_str("<p>The package records no revision history.</p>\n");
    } else {
        push_head(out, &["Revision", "Digest", "On this page"]);
        for b in view.history {
            let shown = if b.revision == view.revision && b.digest == view.digest {
                "yes"
            } else {
                ""
            };
            push_row(
                out,
                &[
                    format!("r{:03}", b.revision),
                    digest_cell(&b.digest),
                    shown.to_owned(),
                ],
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
}

fn reviews_section(out: &mut String, view: &PackageView<'_>) {
    out.push_str("<section id=\"reviews\">\n<h2>Decision history</h2>\n");
    let standing = if is_approved(view.reviews, view.revision, view.digest) {
        "is approved"
    } else {
        "is not approved"
    };
    let _ = writeln!(
        out,
        "<p>Revision {} with these bytes <strong>{standing}</strong>: the latest decision on that revision and digest decides.</p>",
        view.revision
    );
    if view.reviews.is_empty() {
        out.push_str("<p>No decision has been recorded.</p>\n");
    } else {
        push_head(
            out,
            &[
                "Revision",
                "Decision",
                "Recorded at",
                "Judged bytes",
                "Note",
            ],
        );
        for r in view.reviews {
            let judged = if r.revision != view.revision {
                digest_cell(&r.digest)
            } else if r.digest == view.digest {
                "the bytes shown here".to_owned()
            } else {
                format!("other bytes: {}", digest_cell(&r.digest))
            };
            push_row(
                out,
                &[
                    format!("r{:03}", r.revision),
                    r.decision.as_str().to_owned(),
                    escape(&r.recorded_at),
                    judged,
                    r.note.as_deref().map(escape).unwrap_or_default(),
                ],
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
}

/// The HTML page of one revision: a complete HTML5 document with its style inline, the
/// package's identity, revision, digest and maturity at the top, `DESIGN.md` rendered safely
/// (see the module's rules), then the gaps, the sources table, the revision history and the
/// decision history, in that order. The same view always gives the same bytes.
pub fn portable_html(view: &PackageView<'_>) -> String {
    let mut out = String::with_capacity(view.design_md.len() * 2 + STYLE.len() + 4096);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n",
    );
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        out,
        "<title>{} r{:03} — {}</title>",
        escape(view.id),
        view.revision,
        escape(view.title)
    );
    let _ = write!(out, "<style>\n{STYLE}</style>\n</head>\n<body>\n");

    out.push_str("<header>\n");
    let _ = writeln!(
        out,
        "<p class=\"kicker\">{} · revision {}</p>",
        escape(view.id),
        view.revision
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(view.title));
    out.push_str("<dl class=\"meta\">\n");
    let _ = writeln!(out, "<dt>Identity</dt><dd>{}</dd>", escape(view.id));
    let _ = writeln!(out, "<dt>Revision</dt><dd>{}</dd>", view.revision);
    let _ = writeln!(out, "<dt>Digest</dt><dd>{}</dd>", digest_cell(view.digest));
    let _ = writeln!(
        out,
        "<dt>Maturity</dt><dd>{}{}</dd>",
        view.maturity.attained.as_str(),
        match view.maturity.gaps.len() {
            0 => String::new(),
            1 => " (1 gap)".to_owned(),
            n => format!(" ({n} gaps)"),
        }
    );
    out.push_str("</dl>\n</header>\n<main>\n<article class=\"design\">\n");
    out.push_str(&design_body(view.design_md, view.title));
    out.push_str("</article>\n");
    maturity_section(&mut out, view);
    sources_section(&mut out, view);
    revisions_section(&mut out, view);
    reviews_section(&mut out, view);
    out.push_str("</main>\n<footer>\n");
    let _ = writeln!(
        out,
        "<p>A projection of {} revision {} ({}), made by aw. It is a view, not the sealed document: the digest names the bytes it shows.</p>",
        escape(view.id),
        view.revision,
        digest_cell(view.digest)
    );
    out.push_str("</footer>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
