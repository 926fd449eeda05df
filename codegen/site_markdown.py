"""CONTRIBUTING.md on the docs site, so the guide exists once: CommonMark by markdown-it-py.

Raw HTML in the Markdown is escaped, never passed through. Headings get ids (``#adding-a-tool``)
so the site can link into the guide. The site works offline and carries no repository files,
so a link to a file of the repository (``docs/architecture.md``) keeps its text and names the
path as code; links to the web and to anchors stay links.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.anchors import anchors_plugin


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _is_repository_file(href: str) -> bool:
    return not re.match(r"^(?:[a-z]+:|#)", href)


def _link_open(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    if _is_repository_file(str(tokens[idx].attrGet("href"))):
        return ""
    return renderer.renderToken(tokens, idx, options, env)


def _link_close(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    opening = next(token for token in reversed(tokens[:idx]) if token.type == "link_open")
    href = str(opening.attrGet("href"))
    if _is_repository_file(href):
        return f" (<code>{escapeHtml(href)}</code>)"
    return renderer.renderToken(tokens, idx, options, env)


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).use(anchors_plugin, max_level=4, slug_func=slug)
_MARKDOWN.add_render_rule("link_open", _link_open)
_MARKDOWN.add_render_rule("link_close", _link_close)


def to_html(markdown: str) -> str:
    return str(_MARKDOWN.render(markdown))
