"""``{% load arena_tags %}``: the pages' tags live with the pages, in arena/web/templatetags."""

from arena.web.templatetags.arena_tags import register

__all__ = ["register"]
