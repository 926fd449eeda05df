"""CONTRIBUTING.md on the docs site: CommonMark, escaped HTML, heading ids, offline links."""

from __future__ import annotations

from codegen.site_markdown import to_html


def test_blocks() -> None:
    source = (
        "# Adding a tool\n\nOne paragraph\nover two lines.\n\n1. first\n   continued\n2. second\n\n"
        "- a bullet\n\n```sh\nmake new-tool NAME=<x>\n```\n"
    )
    assert to_html(source) == (
        '<h1 id="adding-a-tool">Adding a tool</h1>\n'
        "<p>One paragraph\nover two lines.</p>\n"
        "<ol>\n<li>first\ncontinued</li>\n<li>second</li>\n</ol>\n"
        "<ul>\n<li>a bullet</li>\n</ul>\n"
        '<pre><code class="language-sh">make new-tool NAME=&lt;x&gt;\n</code></pre>\n'
    )


def test_inline_markup_is_escaped_and_code_stays_literal() -> None:
    assert to_html("Use `a <b>` and ``c`` with **care** & <i>no html</i>.") == (
        "<p>Use <code>a &lt;b&gt;</code> and <code>c</code> with <strong>care</strong> "
        "&amp; &lt;i&gt;no html&lt;/i&gt;.</p>\n"
    )


def test_a_link_to_a_repository_file_names_the_path_and_web_links_stay() -> None:
    assert to_html("See [the design](docs/architecture.md), [MCP](https://modelcontextprotocol.io), [up](#top).") == (
        "<p>See the design (<code>docs/architecture.md</code>), "
        '<a href="https://modelcontextprotocol.io">MCP</a>, <a href="#top">up</a>.</p>\n'
    )
