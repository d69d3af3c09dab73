"""The hosted games: ``/api/games/`` and ``/api/games/{name}/``.

Everything here is what the game declares in the engine (``engine.registry``): a client can
discover the games, their seat counts, options, hooks and action schema without knowing any
game in advance.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.links import absolute
from arena.api.pagination import Pagination
from arena.api.schema import errors
from arena.selectors.games import GameInfo, game_get, game_list
from engine.registry import GAMES

TAGS = ["games"]


class GameOutputSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The game's id, used by every `game` field and filter.")
    title = serializers.CharField()
    summary = serializers.CharField()
    min_players = serializers.IntegerField(help_text="Fewest seats a match of it has.")
    max_players = serializers.IntegerField(help_text="Most seats a match of it has.")
    rules_version = serializers.IntegerField(
        help_text="Bumped when a rule changes meaning; recorded in every replay."
    )
    options = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Every match option with its default value (what the arena plays with).",
    )
    lists_legal_actions = serializers.BooleanField(
        help_text="Whether each observation carries `legal_actions`."
    )
    late_moves_allowed = serializers.IntegerField(
        help_text="Moves per game a bot may run over its time and get the game's default "
        "move instead; 0: running over is a fault at once."
    )
    supports_duplicate = serializers.BooleanField(
        help_text="Whether a deal can be replayed with the seats rotated (duplicate play)."
    )
    hooks = serializers.ListField(
        child=serializers.CharField(),
        help_text="Every function a bot may define besides `act`, called as the match goes.",
    )
    action_schema = serializers.SerializerMethodField(
        help_text="JSON Schema (draft 7) of one action: a malformed action is refused with "
        "the schema's message before the rules see it."
    )
    rules_url = serializers.SerializerMethodField(help_text="The rules page on the site.")
    ladder_url = serializers.SerializerMethodField(help_text="The game's ladder in this API.")

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_action_schema(self, game: GameInfo) -> dict[str, Any]:
        return game.action_schema

    def get_rules_url(self, game: GameInfo) -> str:
        return absolute(self.context.get("request"), f"/games/{game.name}/rules/")

    def get_ladder_url(self, game: GameInfo) -> str:
        return absolute(self.context.get("request"), f"/api/ladder/{game.name}/")


class GameListApi(ListAPIView):
    """Every hosted game, in display order."""

    serializer_class = GameOutputSerializer
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    pagination_class = Pagination

    def get_queryset(self) -> Any:
        return game_list()

    @extend_schema(
        tags=TAGS,
        summary="The hosted games",
        responses={200: GameOutputSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class GameDetailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="One game",
        parameters=[OpenApiParameter("name", str, OpenApiParameter.PATH, enum=list(GAMES))],
        responses={200: GameOutputSerializer, **errors(404)},
    )
    def get(self, request: Request, name: str) -> Response:
        game = game_get(name=name)
        return Response(GameOutputSerializer(game, context={"request": request}).data)
