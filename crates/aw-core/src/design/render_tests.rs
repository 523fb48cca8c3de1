use super::*;
use crate::capability::descriptor::Sensitivity;
use crate::design::review::Decision;
use crate::design::sources::{Disposition, Maturity, SourceKind};
use scraper::{ElementRef, Html, Selector};

const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
const D2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";

const DOC: &str = "# Checkout redesign\n\n## Objective\n\nShorter checkout.\n\n## Proposed design\n\nOne page, three blocks.\n\n| step | screen |\n|---|---|\n| 1 | cart |\n\n- [x] keep totals visible\n\n## Validation\n\nA usability test with five people.\n\n## Decisions\n\nDrop the *wizard*; see [the study](https://example.com/study) and `code`.\n";

struct Fixture {
    sources: Vec<DesignSource>,
    maturity: AttainedMaturity,
    history: Vec<Baseline>,
    reviews: Vec<Review>,
}

fn fixture() -> Fixture {
    Fixture {
        sources: vec![
            DesignSource {
                name: "sources".to_owned(),
                kind: SourceKind::Markdown,
                locator: "docs/brief.md".to_owned(),
                disposition: Disposition::Used,
                reason: None,
                derived: Vec::new(),
                sensitivity: Sensitivity::Public,
                essential: true,
            },
            DesignSource {
                name: "sources".to_owned(),
                kind: SourceKind::Pdf,
                locator: "docs/legal <draft>.pdf".to_owned(),
                disposition: Disposition::Unavailable,
                reason: Some("the file was not in the repository".to_owned()),
                derived: Vec::new(),
                sensitivity: Sensitivity::Public,
                essential: true,
            },
        ],
        maturity: AttainedMaturity {
            attained: Maturity::Outline,
            gaps: vec![
                "the essential source 'docs/legal <draft>.pdf' was left 'unavailable'".to_owned(),
            ],
        },
        history: vec![
            Baseline {
                revision: 1,
                digest: D2.to_owned(),
            },
            Baseline {
                revision: 2,
                digest: D1.to_owned(),
            },
        ],
        reviews: vec![
            Review {
                schema: crate::design::review::REVIEW_SCHEMA.to_owned(),
                id: "DES-004".to_owned(),
                revision: 1,
                digest: D2.to_owned(),
                decision: Decision::ChangesRequested,
                note: Some("cover the <legal> review".to_owned()),
                recorded_at: "2026-01-30T10:00:00Z".to_owned(),
            },
            Review {
                schema: crate::design::review::REVIEW_SCHEMA.to_owned(),
                id: "DES-004".to_owned(),
                revision: 2,
                digest: D1.to_owned(),
                decision: Decision::Approved,
                note: None,
                recorded_at: "2026-01-31T10:00:00Z".to_owned(),
            },
        ],
    }
}

fn view<'a>(f: &'a Fixture, design_md: &'a str) -> PackageView<'a> {
    PackageView {
        id: "DES-004",
        title: "Checkout redesign",
        revision: 2,
        digest: D1,
        design_md,
        sources: &f.sources,
        maturity: &f.maturity,
        history: &f.history,
        reviews: &f.reviews,
    }
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

/// Parses the page as a browser would; a page a browser has to repair is not well formed.
fn parse_clean(page: &str) -> Html {
    let doc = Html::parse_document(page);
    assert!(
        doc.errors.is_empty(),
        "parse errors: {:?}\n{page}",
        doc.errors
    );
    doc
}

fn texts(doc: &Html, css: &str) -> Vec<String> {
    doc.select(&sel(css))
        .map(|e| e.text().collect::<String>().trim().to_owned())
        .collect()
}

/// No element may fetch, run or navigate anywhere unsafe; no style may import or load.
fn assert_inert(doc: &Html) {
    for forbidden in [
        "script", "link", "img", "iframe", "object", "embed", "base", "form",
    ] {
        assert_eq!(
            doc.select(&sel(forbidden)).count(),
            0,
            "a <{forbidden}> element"
        );
    }
    for element in doc.select(&sel("*")) {
        for (name, value) in element.value().attrs() {
            assert!(!name.starts_with("on"), "event handler {name}={value}");
            assert_ne!(name, "src", "a src attribute: {value}");
            assert_ne!(name, "srcset", "a srcset attribute: {value}");
            let lower = value.to_ascii_lowercase();
            if name == "href" {
                let scheme_ok = !lower.contains(':')
                    || lower.starts_with("http://")
                    || lower.starts_with("https://")
                    || lower.starts_with("mailto:");
                assert!(scheme_ok, "an unsafe href: {value}");
            }
            if name == "style" {
                assert!(
                    !lower.contains("url(") && !lower.contains("@import"),
                    "{value}"
                );
            }
        }
    }
    for style in doc.select(&sel("style")) {
        let css: String = style.text().collect();
        assert!(!css.contains("url("), "url( in the stylesheet");
        assert!(!css.contains("@import"), "@import in the stylesheet");
    }
}

#[test]
fn the_structural_check_catches_a_broken_page() {
    // The check below leans on the parser's error list; prove it is not vacuous.
    let broken = "<!doctype html><html><head><title>x</title></head><body><div><p>a</span></div></body></html>";
    assert!(!Html::parse_document(broken).errors.is_empty());
}

#[test]
fn the_page_is_a_well_formed_self_contained_document() {
    let f = fixture();
    let page = portable_html(&view(&f, DOC));
    assert!(
        page.starts_with("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    );
    assert!(page.ends_with("</html>\n"));
    let doc = parse_clean(&page);
    assert_eq!(texts(&doc, "title"), ["DES-004 r002 — Checkout redesign"]);
    assert_inert(&doc);
    // The one external link the document has stays a plain anchor.
    let hrefs: Vec<&str> = doc
        .select(&sel("a"))
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert_eq!(hrefs, ["https://example.com/study"]);
    // The policy a browser enforces even if something slipped past the rendering.
    let csp = doc
        .select(&sel("meta[http-equiv=\"Content-Security-Policy\"]"))
        .filter_map(|m| m.value().attr("content"))
        .collect::<Vec<_>>();
    assert_eq!(csp.len(), 1);
    assert!(csp[0].starts_with("default-src 'none';"), "{}", csp[0]);
}

#[test]
fn the_header_names_identity_revision_digest_and_maturity() {
    let f = fixture();
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    assert_eq!(texts(&doc, "header h1"), ["Checkout redesign"]);
    assert_eq!(
        texts(&doc, "header dt"),
        ["Identity", "Revision", "Digest", "Maturity"]
    );
    assert_eq!(
        texts(&doc, "header dd"),
        ["DES-004", "2", D1, "outline (1 gap)"]
    );
}

#[test]
fn the_sections_come_in_order() {
    let f = fixture();
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    assert_eq!(
        texts(&doc, "h1, h2"),
        [
            "Checkout redesign",
            "Objective",
            "Proposed design",
            "Validation",
            "Decisions",
            "Maturity and gaps",
            "Sources",
            "Revision history",
            "Decision history",
        ]
    );
    // The document's own title is not repeated under the page's.
    assert_eq!(doc.select(&sel("h1")).count(), 1);
    // Markdown tables, task lists and inline markup render.
    assert_eq!(texts(&doc, "article table td"), ["1", "cart"]);
    assert_eq!(
        doc.select(&sel("article input[type=checkbox][disabled]"))
            .count(),
        1
    );
    assert_eq!(texts(&doc, "article em"), ["wizard"]);
}

#[test]
fn a_title_line_that_differs_from_the_title_is_kept() {
    let f = fixture();
    let page = portable_html(&view(&f, "# Something else\n\n## Objective\n\nx\n"));
    let doc = parse_clean(&page);
    assert_eq!(texts(&doc, "h1"), ["Checkout redesign", "Something else"]);
}

fn rows(doc: &Html, section: &str) -> Vec<Vec<String>> {
    doc.select(&sel(&format!("section#{section} tbody tr")))
        .map(|tr| {
            tr.select(&sel("td"))
                .map(|td: ElementRef<'_>| td.text().collect::<String>())
                .collect()
        })
        .collect()
}

#[test]
fn the_sources_table_has_kind_disposition_and_reason() {
    let f = fixture();
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    assert_eq!(
        texts(&doc, "section#sources th"),
        [
            "Source",
            "Kind",
            "Locator",
            "Disposition",
            "Essential",
            "Reason"
        ]
    );
    assert_eq!(
        rows(&doc, "sources"),
        [
            ["sources", "markdown", "docs/brief.md", "used", "yes", ""],
            [
                "sources",
                "pdf",
                "docs/legal <draft>.pdf",
                "unavailable",
                "yes",
                "the file was not in the repository"
            ],
        ]
    );
}

#[test]
fn the_gaps_revisions_and_decisions_are_listed() {
    let f = fixture();
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    assert_eq!(
        texts(&doc, "section#maturity li"),
        ["the essential source 'docs/legal <draft>.pdf' was left 'unavailable'"]
    );
    assert_eq!(
        rows(&doc, "revisions"),
        [["r001", D2, ""], ["r002", D1, "yes"]]
    );
    assert_eq!(
        rows(&doc, "reviews"),
        [
            [
                "r001",
                "changes-requested",
                "2026-01-30T10:00:00Z",
                D2,
                "cover the <legal> review"
            ],
            [
                "r002",
                "approved",
                "2026-01-31T10:00:00Z",
                "the bytes shown here",
                ""
            ],
        ]
    );
    let standing = texts(&doc, "section#reviews > p");
    assert!(standing[0].contains("is approved"), "{standing:?}");
}

#[test]
fn an_approval_of_other_bytes_is_not_shown_as_approval() {
    let mut f = fixture();
    f.reviews[1].digest = D2.to_owned();
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    let standing = texts(&doc, "section#reviews > p");
    assert!(standing[0].contains("is not approved"), "{standing:?}");
    assert!(rows(&doc, "reviews")[1][3].starts_with("other bytes: "));
}

#[test]
fn empty_sections_say_so() {
    let f = Fixture {
        sources: Vec::new(),
        maturity: AttainedMaturity {
            attained: Maturity::Handoff,
            gaps: Vec::new(),
        },
        history: Vec::new(),
        reviews: Vec::new(),
    };
    let doc = parse_clean(&portable_html(&view(&f, DOC)));
    assert_eq!(texts(&doc, "header dd")[3], "handoff");
    assert_eq!(doc.select(&sel("section table")).count(), 0);
    assert!(texts(&doc, "section#sources p")[0].contains("No source"));
    assert!(texts(&doc, "section#reviews p")[1].contains("No decision"));
}

const HOSTILE: &str = "# Checkout redesign\n\n## Objective\n\n<script>alert(1)</script>\n\nInline <script>alert(2)</script> and <img src=\"https://x/y.png\" onerror=\"alert(3)\">.\n\n<div onclick=\"alert(4)\"><iframe src=\"https://x/\"></iframe></div>\n\n![a remote picture](https://x/y.png) ![](//x/z.png) ![local](pic.png)\n\n[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](java\tscript:alert(1)) [d](&#106;avascript:alert(1)) [e](data:text/html,<script>alert(1)</script>) [f](vbscript:x)\n\n<javascript:alert(5)>\n\n[ok](https://example.com) [rel](../other.md#x) <mailto:a@b.c>\n\n<style>@import url(https://x/s.css);</style>\n\n<link rel=\"stylesheet\" href=\"https://x/s.css\">\n";

#[test]
fn hostile_markdown_neither_runs_nor_fetches() {
    let f = fixture();
    let page = portable_html(&view(&f, HOSTILE));
    let doc = parse_clean(&page);
    assert_inert(&doc);
    assert!(!page.to_ascii_lowercase().contains("javascript:alert(1)\""));
    let hrefs: Vec<&str> = doc
        .select(&sel("article a"))
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert_eq!(
        hrefs,
        ["https://example.com", "../other.md#x", "mailto:a@b.c"]
    );
    // What was refused is still visible as text, so a reviewer sees what the author wrote.
    let article: String = doc.select(&sel("article")).flat_map(|a| a.text()).collect();
    assert!(article.contains("<script>alert(1)</script>"), "{article}");
    assert!(
        article.contains("<img src=\"https://x/y.png\""),
        "{article}"
    );
    assert!(article.contains("[image: a remote picture]"), "{article}");
    assert!(article.contains("[image: //x/z.png]"), "{article}");
    assert!(article.contains("[image: local]"), "{article}");
    for label in ["a", "b", "c", "d", "e", "f"] {
        assert!(article.contains(label));
    }
    // A raw HTML block is shown as code.
    let code: Vec<String> = texts(&doc, "article pre code");
    assert!(
        code.iter()
            .any(|c| c.contains("<div onclick=\"alert(4)\">")),
        "{code:?}"
    );
}

#[test]
fn hostile_view_fields_are_escaped() {
    let mut f = fixture();
    f.sources[0].name = "<script>alert(1)</script>".to_owned();
    f.maturity.gaps = vec!["<img src=x onerror=alert(1)>".to_owned()];
    f.reviews[0].note = Some("</td></tr></table><script>alert(1)</script>".to_owned());
    let mut v = view(&f, DOC);
    v.title = "</title><script>alert(1)</script>";
    let doc = parse_clean(&portable_html(&v));
    assert_inert(&doc);
    assert_eq!(
        texts(&doc, "header h1"),
        ["</title><script>alert(1)</script>"]
    );
}

#[test]
fn the_same_view_gives_the_same_bytes() {
    let f = fixture();
    let g = fixture();
    assert_eq!(portable_html(&view(&f, DOC)), portable_html(&view(&g, DOC)));
    assert_eq!(
        portable_html(&view(&f, HOSTILE)),
        portable_html(&view(&f, HOSTILE))
    );
}

#[test]
fn link_addresses_are_read_as_a_browser_reads_them() {
    for safe in [
        "https://a/b",
        "HTTP://a",
        "mailto:x@y",
        "../x.md",
        "#section",
        "x/y:z",
        "?q=1",
        "",
    ] {
        assert!(is_safe_link(safe), "{safe:?}");
    }
    for unsafe_ in [
        "javascript:alert(1)",
        " \u{1}JavaScript:alert(1)",
        "java\tscript:x",
        "jav\nascript:x",
        "data:text/html,x",
        "vbscript:x",
        "file:///etc/passwd",
        "1x:y",
    ] {
        assert!(!is_safe_link(unsafe_), "{unsafe_:?}");
    }
}

#[test]
fn render_paths_pad_the_revision() {
    assert_eq!(
        portable_html_path(3),
        "renders/portable-html/DESIGN-r003.html"
    );
    assert_eq!(bundle_path("figma", 12), "renders/figma/bundle-r012.json");
    assert_eq!(
        bundle_path("stitch", 1000),
        "renders/stitch/bundle-r1000.json"
    );
    assert_eq!(
        render_path("portable-html", 1),
        "renders/portable-html/DESIGN-r001.html"
    );
    assert_eq!(
        render_path("claude-design", 1),
        "renders/claude-design/bundle-r001.json"
    );
}

#[test]
fn the_bundle_has_the_format_keys_in_order() {
    let f = fixture();
    let bundle = handoff_bundle(
        &view(&f, DOC),
        "figma",
        &[
            ("DESIGN.md", D1),
            ("renders/portable-html/DESIGN-r002.html", D2),
        ],
    );
    assert_eq!(
        serde_json::to_string(&bundle).unwrap(),
        format!(
            "{{\"schema\":\"workline.design-render-bundle/v1\",\"profile\":\"figma\",\"id\":\"DES-004\",\"revision\":2,\"digest\":\"{D1}\",\"artifacts\":[{{\"path\":\"DESIGN.md\",\"digest\":\"{D1}\"}},{{\"path\":\"renders/portable-html/DESIGN-r002.html\",\"digest\":\"{D2}\"}}],\"note\":\"aw sends nothing; hand this bundle to figma\"}}"
        )
    );
}
