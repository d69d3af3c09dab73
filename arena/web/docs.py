"""Project documents (``docs/*.md``) rendered as pages: Markdown, sanitized, cached.

The Markdown is ours, but sanitizing costs nothing and keeps a careless edit (raw HTML in a
doc) from becoming script on the site. Rendering happens once per file version: the cache
key holds the file's modification time and size, so an edited doc shows up at once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import markdown
import nh3
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from engine.registry import GAMES

__all__ = ["DOCS", "DOC_LABELS", "RenderedDoc", "doc_render", "doc_render_path"]

#: Documents served under /docs/<slug>/: slug -> file name in docs/. A game's rules are not
#: here: each game names its own file (``Game.docs_path()``, ``rules.md`` in its folder),
#: served at /games/<game>/rules/ (its replay schema beside it, as replay.schema.json).
DOCS = {
    "bot-api": "bot-api.md",
    "ratings": "ratings.md",
    "game-interface": "game-interface.md",
    "replay-format": "replay-format.md",
    "api": "api.md",
    "sandbox": "sandbox.md",
    "web": "web.md",
}
#: How the documentation pages link to each other.
DOC_LABELS = {
    "bot-api": "Write your first bot",
    "ratings": "Reading your rating",
    "game-interface": "Adding a game",
    "replay-format": "Replay format",
    "api": "REST API",
    "sandbox": "The sandbox",
    "web": "The web pages",
}
_EXTENSIONS = ["fenced_code", "tables", "toc", "sane_lists"]
_ATTRIBUTES = {
    **{f"h{level}": {"id"} for level in range(1, 7)},
    "a": {"href", "title"},
    "code": {"class"},
    "th": {"align", "style"},
    "td": {"align", "style"},
    "img": {"alt", "src", "title"},
}
# A doc links another as "ratings.md", "../docs/ratings.md" or, from a game's folder,
# "../../../docs/ratings.md"; a game's rules as "../engine/games/<game>/rules.md" (or, as
# before the rules moved into the game's folder, "games/<game>.md").
_LINK = re.compile(r'href="(?:\./|(?:\.\./)*docs/)?([a-z-]+)\.md(#[^"]*)?"')
_GAME_LINK = re.compile(
    r'href="(?:\./|\.\./)*(?:(?:engine/)?games/([a-z][a-z0-9_]*)/rules|(?:docs/)?games/'
    r'([a-z][a-z0-9_]*))\.md(#[^"]*)?"'
)


@dataclass(frozen=True, slots=True)
class RenderedDoc:
    title: str
    html: str


def doc_render(slug: str) -> RenderedDoc | None:
    """The document's title and safe HTML, or None when there is no such document."""
    name = DOCS.get(slug)
    if name is None:
        return None
    return doc_render_path(Path(settings.BASE_DIR) / "docs" / name)


def doc_render_path(path: Path) -> RenderedDoc | None:
    """A Markdown file's title and safe HTML (a game's rules: ``Game.docs_path()``), or None
    when the file is missing. The path comes from code (the registry), never from a URL."""
    if not path.is_file():
        return None
    stat = path.stat()
    digest = hashlib.blake2s(str(path.resolve()).encode(), digest_size=8).hexdigest()
    key = f"arena:doc:{digest}:{stat.st_mtime_ns}:{stat.st_size}"
    rendered = cache.get(key)
    if rendered is None:
        rendered = _render(path.read_text(encoding="utf-8"))
        cache.set(key, rendered, timeout=None)
    return rendered


def _render(text: str) -> RenderedDoc:
    html = markdown.markdown(text, extensions=_EXTENSIONS, output_format="html")
    html = _LINK.sub(_rewrite_link, html)
    html = _GAME_LINK.sub(_rewrite_game_link, html)
    safe = nh3.clean(
        html,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        filter_style_properties={"text-align"},
    )
    title = next(
        (line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")),
        "Documentation",
    )
    return RenderedDoc(title=title, html=safe)


def _rewrite_link(found: re.Match[str]) -> str:
    """Links between the docs point at their pages here; others keep the GitHub-style path."""
    slug, anchor = found.group(1), found.group(2) or ""
    if slug == "rules" and GAMES:
        # The old single rules file (docs/rules.md) became one rules page per game; a doc
        # still linking it means the first game's (link games/<game>.md to be explicit).
        return f'href="{reverse("game-rules", args=[next(iter(GAMES))])}{anchor}"'
    if slug not in DOCS:
        return found.group(0)
    return f'href="{reverse("doc", args=[slug])}{anchor}"'


def _rewrite_game_link(found: re.Match[str]) -> str:
    """A link to a game's rules file (``engine/games/<game>/rules.md``) points at its rules
    page."""
    game, anchor = found.group(1) or found.group(2), found.group(3) or ""
    if game not in GAMES:
        return found.group(0)
    return f'href="{reverse("game-rules", args=[game])}{anchor}"'
