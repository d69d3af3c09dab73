"""Documentation pages rendered from docs/*.md ("write your first bot" and friends)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from arena.web.docs import DOC_LABELS, DOCS, doc_render

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
    return render(
        request,
        "arena/docs/page.html",
        {"doc": rendered, "slug": slug, "pages": pages},
    )
