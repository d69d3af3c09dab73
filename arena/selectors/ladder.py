"""The ladder: active bots of one game ranked by their conservative TrueSkill score."""

from __future__ import annotations

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber

from arena.models import Rating
from arena.services.errors import NotFound
from engine.registry import GAMES

__all__ = ["ladder_for_game"]


def ladder_for_game(*, game: str) -> QuerySet[Rating]:
    """Ratings of the game's active bots, best first, each annotated with its ``rank``.

    Sorted by ``score`` (mu - 3 sigma) so a new bot with few matches does not top the
    ladder on a lucky start. ``rank`` is counted by the database over the whole ladder, so
    it stays right on any page; the ``rating_ladder`` index serves the order. The bot and
    its owner come in the same query, so a page of N rows costs one query (plus the count).
    """
    if game not in GAMES:
        raise NotFound(f"There is no game {game!r}.", code="unknown_game")
    order = [F("score").desc(), F("id").asc()]
    return (
        Rating.objects.filter(game=game, bot__is_active=True)
        .select_related("bot__owner")
        .defer("bot__description")
        .annotate(rank=Window(RowNumber(), order_by=order))
        .order_by(*order)
    )
