"""Model Markdown → safe HTML (``smart_docgemma.web.markup``).

The answer text is untrusted (the model read chart notes and web abstracts), yet
it is put in the page as is. So: the formatting a clinician needs (bold, lists,
tables, small headings) renders; raw HTML shows as text; only http(s)/mailto
links survive, opening in a new tab without a referrer; and a source URL is used
only when it is http(s).
"""
from __future__ import annotations

import pytest
from markupsafe import Markup, escape
from smart_docgemma.web.markup import markdown_html, safe_url


def html(text):
    return str(markdown_html(text))


def test_result_is_markup_and_not_escaped_again():
    out = markdown_html("**K+ 5.6**")
    assert isinstance(out, Markup)
    assert escape(out) == out  # a template prints it as HTML, not as &lt;strong&gt;


def test_empty_answer_is_empty():
    assert markdown_html(None) == Markup("") and markdown_html("") == Markup("")


def test_emphasis_and_lists():
    assert html("**Stop** ramipril, *recheck* K+") == \
        "<p><strong>Stop</strong> ramipril, <em>recheck</em> K+</p>\n"
    out = html("- potassium\n- eGFR\n\n1. hold ACE inhibitor\n2. repeat in 48 h")
    assert "<ul>\n<li>potassium</li>\n<li>eGFR</li>\n</ul>" in out
    assert "<ol>\n<li>hold ACE inhibitor</li>\n<li>repeat in 48 h</li>\n</ol>" in out


def test_tables_render():
    out = html("| Lab | Value |\n|---|---|\n| K+ | 5.6 |")
    assert "<table>" in out and "<th>Lab</th>" in out and "<td>5.6</td>" in out


def test_code_and_quotes():
    out = html("> noted\n\n`x < 3`")
    assert "<blockquote>" in out and "<code>x &lt; 3</code>" in out


@pytest.mark.parametrize("raw", ["<script>alert(1)</script>", '<img src=x onerror="alert(1)">',
                                 "<a href='javascript:alert(1)'>x</a>", '<iframe src="https://evil"></iframe>'])
def test_raw_html_stays_text(raw):
    out = html(f"before {raw} after")
    assert "<script" not in out and "<img" not in out and "<iframe" not in out and "<a " not in out
    assert f"<p>before {raw.replace('<', '&lt;').replace('>', '&gt;')} after</p>" in out  # shown, inert


@pytest.mark.parametrize("link", ["[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))",
                                  "[x](data:text/html;base64,PHNjcmlwdD4=)", "[x](vbscript:msgbox)",
                                  "[x](ftp://files.example/a)", "[x][r]\n\n[r]: javascript:alert(1)"])
def test_unsafe_links_lose_their_href(link):
    out = html(link)
    assert "href" not in out
    assert "x" in out  # the text is not lost


def test_web_links_open_in_a_new_tab_without_referrer():
    out = html("See [PubMed](https://pubmed.ncbi.nlm.nih.gov/123/ \"abstract\") and [NICE](http://nice.org.uk)")
    assert out.count('target="_blank"') == 2 and out.count('rel="noopener noreferrer"') == 2
    assert 'href="https://pubmed.ncbi.nlm.nih.gov/123/"' in out and 'title="abstract"' in out
    assert 'href="http://nice.org.uk"' in out


def test_mailto_links_survive():
    assert 'href="mailto:pharmacy@example.org"' in html("[pharmacy](mailto:pharmacy@example.org)")


def test_images_are_not_loaded():
    assert "<img" not in html("![chart](https://tracker.example/pixel.png)")


def test_headings_are_demoted():
    out = html("# Summary\n## Plan\n### Detail\n#### Minor")
    assert out == "<h3>Summary</h3>\n<h4>Plan</h4>\n<h4>Detail</h4>\n<h4>Minor</h4>\n"
    assert "<h1" not in out and "<h2" not in out


@pytest.mark.parametrize("url", ["https://pubmed.ncbi.nlm.nih.gov/1/", "http://example.org/x",
                                 "HTTPS://EXAMPLE.ORG"])
def test_safe_url_keeps_web_links(url):
    assert safe_url(url) == url


@pytest.mark.parametrize("url", [None, "", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x",
                                 "/relative/path", "ftp://example.org", "httpx://example.org"])
def test_safe_url_rejects_the_rest(url):
    assert safe_url(url) is None
