"""The ladder of one game: ``/api/ladder/{game}/``.

Ratings are per bot version; the ladder shows each active bot once, with the rating of
the version it plays with (``Rating.current``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from arena.api.pagination import Pagination
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer, RatingRecordSerializer
from arena.models import Rating
from arena.models.ratings import PROVISIONAL_SIGMA, Z95
from arena.selectors.ladder import ladder_count, ladder_rows
from engine.registry import GAMES


class LadderRowSerializer(RatingRecordSerializer):
    """A bot's ladder entry: its active version's rating and that version's record."""

    LEADING = ("rank", "bot", "version", "paused")

    rank = serializers.IntegerField(help_text="1 for the best; counted over the whole ladder.")
    bot = BotRefSerializer()
    version = serializers.IntegerField(
        source="version.number", help_text="The number of the version the entry rates."
    )
    paused = serializers.SerializerMethodField(
        help_text="The version is paused from ladder play for its faults (see the bot)."
    )

    def get_paused(self, rating: Rating) -> bool:
        return rating.version.is_paused

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        """An entry from its plain row (``ladder_rows``): the ladder's hot path.

        The declared fields define the shape and the schema; a test holds this equal to
        DRF's generic path over the same entry's model.
        """
        rating, spread, matches = row["rating"], row["rating_sigma"], row["matches"]
        return {
            "rank": row["rank"],
            "bot": {
                "id": row["bot_id"],
                "name": row["bot__name"],
                "owner": row["bot__owner__username"],
            },
            "version": row["version__number"],
            "paused": row["version__paused_at"] is not None,
            "rating": rating,
            "rating_sigma": spread,
            "rating_low": rating - Z95 * spread,
            "rating_high": rating + Z95 * spread,
            "provisional": spread > PROVISIONAL_SIGMA,
            "mu": row["mu"],
            "sigma": row["sigma"],
            "matches": matches,
            "wins": row["wins"],
            "draws": row["draws"],
            "losses": row["losses"],
            "first_places": row["first_places"],
            "mean_place": 1 + row["placing_sum"] / matches if matches else None,
            "faults": row["faults"],
            "fault_rate": row["faults"] / matches if matches else None,
            "win_rate": row["wins"] / matches if matches else None,
        }


class _Ladder:
    """The game's ladder as the paginator reads a list: its length, and slices of rows."""

    def __init__(self, game: str) -> None:
        self.game = game

    def count(self) -> int:
        return ladder_count(game=self.game)

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[dict[str, Any]]:
        start = window.start or 0
        return ladder_rows(game=self.game, offset=start, limit=window.stop - start)


class LadderApi(ListAPIView):
    """Active bots of the game, one entry each (its active version's rating), ranked by
    the displayed rating: a whole-history fit (TrueSkill Through Time) of every rated match,
    refitted as results arrive."""

    serializer_class = LadderRowSerializer
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    pagination_class = Pagination

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the view
            return Rating.objects.none()
        game = self.kwargs["game"]
        ladder_count(game=game)  # an unknown game is a 404 before any page is read
        return _Ladder(game)

    @extend_schema(
        tags=["ladder"],
        summary="A game's ladder",
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH, enum=sorted(GAMES))],
        responses={200: LadderRowSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
