"""``{% load tournament_tags %}``: the tournament page's tables, with the pages' other tags in
arena/web/templatetags."""

from arena.web.templatetags.tournament_tags import register

__all__ = ["register"]
