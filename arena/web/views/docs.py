"""Documentation pages rendered from docs/*.md ("write your first bot" and friends)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from arena.web.docs import DOC_LABELS, DOCS, doc_render
from engine.botpackages import requirements
from engine.registry import GAMES

__all__ = ["doc"]


def doc(request: HttpRequest, slug: str) -> HttpResponse:
    """One document of docs/ (a fixed list: the slug never becomes a path by itself)."""
    rendered = doc_render(slug)
    if rendered is None:
        raise Http404(f"There is no document {slug!r}.")
    pages = [
        (name, DOC_LABELS.get(name, name))
        for name in DOCS
        if name != slug and doc_render(name) is not None
    ]
    # "Write a bot" starts with the downloads it tells the author to get.
    kits = [
        (name, game.title)
        for name, game in GAMES.items()
        if slug == "bot-api" and "starter" in game.builtin_bots()
    ]
    return render(
        request,
        "arena/docs/page.html",
        {"doc": rendered, "slug": slug, "pages": pages, "kits": kits, "bot_pins": requirements()},
    )
