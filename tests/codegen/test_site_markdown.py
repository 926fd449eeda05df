"""The Markdown subset that puts CONTRIBUTING.md on the docs site."""

from __future__ import annotations

from codegen.site_markdown import to_html


def test_blocks() -> None:
    source = (
        "# Adding a tool\n\nOne paragraph\nover two lines.\n\n1. first\n   continued\n2. second\n"
        "- a bullet\n\n```sh\nmake new-tool NAME=<x>\n```\n"
    )
    assert to_html(source) == (
        '<h1 id="adding-a-tool">Adding a tool</h1>\n'
        "<p>One paragraph over two lines.</p>\n"
        "<ol><li>first continued</li><li>second</li></ol>\n"
        "<ul><li>a bullet</li></ul>\n"
        "<pre><code>make new-tool NAME=&lt;x&gt;</code></pre>\n"
    )


def test_inline_markup_is_escaped_and_code_stays_literal() -> None:
    assert to_html("Use `a <b>` and ``c`` with **care** & <i>no html</i>.") == (
        "<p>Use <code>a &lt;b&gt;</code> and <code>c</code> with <strong>care</strong> "
        "&amp; &lt;i&gt;no html&lt;/i&gt;.</p>\n"
    )
