"""The ladder of one game: ``/api/ladder/{game}/``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from arena.api.pagination import Pagination
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.models import Rating
from arena.selectors.ladder import ladder_for_game
from engine.registry import GAMES


class LadderRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the best; counted over the whole ladder.")
    bot = BotRefSerializer()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    score = serializers.FloatField(help_text="mu - 3 sigma, the conservative skill it sorts by.")
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="wins / matches; null before any.")


class LadderApi(ListAPIView):
    """Active bots of the game ranked by conservative TrueSkill score (mu - 3 sigma)."""

    serializer_class = LadderRowSerializer
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    pagination_class = Pagination

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the view
            return Rating.objects.none()
        return ladder_for_game(game=self.kwargs["game"])

    @extend_schema(
        tags=["ladder"],
        summary="A game's ladder",
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH, enum=sorted(GAMES))],
        responses={200: LadderRowSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
