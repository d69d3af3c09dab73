"""Matches, their replays and the bots' own logs: ``/api/matches/...``."""

from __future__ import annotations

import gzip
from typing import Any

from django.http import HttpResponse
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.filtering import FilterBackend
from arena.api.negotiation import AnyAcceptNegotiation
from arena.api.pagination import IdsFirstPagination, Pagination
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.models import Match, MatchLog
from arena.selectors.filters import MatchFilter
from arena.selectors.matches import (
    match_get,
    match_list,
    match_log_list,
    replay_bytes,
    replay_exists,
)

TAGS = ["matches"]


class _PairField(serializers.ListField):
    """Two per-seat numbers read from ``<name>_a`` and ``<name>_b``: ``[seat 0, seat 1]``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(), min_length=2, max_length=2, **kwargs)

    def get_attribute(self, instance: Match) -> list[int]:
        return [
            getattr(instance, f"{self.field_name}_a"),
            getattr(instance, f"{self.field_name}_b"),
        ]


class MatchOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    kind = serializers.ChoiceField(choices=Match.Kind.choices)
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    bot_a = BotRefSerializer(help_text="Seat 0.")
    bot_b = BotRefSerializer(help_text="Seat 1.")
    version_a = serializers.IntegerField(source="version_a.number")
    version_b = serializers.IntegerField(source="version_b.number")
    outcome = serializers.SerializerMethodField(help_text="a, b or draw; null until done.")
    winner = serializers.SerializerMethodField(help_text="The winning bot's id, if any.")
    reason = serializers.SerializerMethodField(
        help_text="How it ended: match_points, sweep, game_cap or error."
    )
    match_points = _PairField()
    created = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_outcome(self, match: Match) -> str | None:
        return match.outcome or None

    def get_winner(self, match: Match) -> int | None:
        return {"a": match.bot_a_id, "b": match.bot_b_id}.get(match.outcome)

    def get_reason(self, match: Match) -> str | None:
        return match.reason or None

    def to_representation(self, match: Match) -> dict[str, Any]:
        """The fields declared above, written out: the match list's hot path.

        DRF's field-by-field path costs more than the page's queries for 50 rows. The
        declared fields still define the shape (and the schema); a test holds this equal to
        what DRF's generic path gives.
        """
        when = self.fields["created"].to_representation
        return {
            "id": match.pk,
            "game": match.game,
            "kind": match.kind,
            "tournament": match.tournament_id,
            "status": match.status,
            "bot_a": _bot_ref(match.bot_a),
            "bot_b": _bot_ref(match.bot_b),
            "version_a": match.version_a.number,
            "version_b": match.version_b.number,
            "outcome": self.get_outcome(match),
            "winner": self.get_winner(match),
            "reason": self.get_reason(match),
            "match_points": [match.match_points_a, match.match_points_b],
            "created": when(match.created),
            "finished_at": when(match.finished_at),
        }


def _bot_ref(bot: Any) -> dict[str, Any]:
    return {"id": bot.pk, "name": bot.name, "owner": bot.owner.username}


class MatchErrorSerializer(serializers.Serializer):
    kind = serializers.CharField(source="error_kind", help_text="e.g. timeout, crash.")
    seat = serializers.IntegerField(source="error_seat", allow_null=True)
    detail = serializers.CharField(source="error_detail", help_text="Written by the platform.")


class MatchDetailOutputSerializer(MatchOutputSerializer):
    seed = serializers.IntegerField()
    rated = serializers.BooleanField()
    game_wins = _PairField()
    points = _PairField()
    sweeps = _PairField()
    games_played = serializers.IntegerField()
    error = serializers.SerializerMethodField(help_text="The bot fault that ended it, if one did.")
    duration_s = serializers.FloatField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    has_replay = serializers.BooleanField()

    @extend_schema_field(MatchErrorSerializer(allow_null=True))
    def get_error(self, match: Match) -> dict[str, Any] | None:
        return MatchErrorSerializer(match).data if match.error_kind else None

    def to_representation(self, match: Match) -> dict[str, Any]:
        # One match: DRF's generic path over every declared field, these and the list's.
        return serializers.Serializer.to_representation(self, match)


class MatchListApi(ListAPIView):
    """Matches, newest first; filter by ``bot`` (either seat), ``tournament``, ``status``,
    ``game`` and ``kind``."""

    serializer_class = MatchOutputSerializer
    pagination_class = IdsFirstPagination
    filter_backends = [FilterBackend]
    filterset_class = MatchFilter

    def get_queryset(self) -> Any:
        return match_list()

    @extend_schema(
        tags=TAGS,
        summary="List matches",
        responses={200: MatchOutputSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class MatchDetailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="A match and its result",
        responses={200: MatchDetailOutputSerializer, **errors(404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        return Response(MatchDetailOutputSerializer(match_get(match_id=match_id)).data)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (``gzip;q=0`` refuses it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("gzip;q=0"), accepts_gzip("")
    (True, False, False)
    """
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.partition(";")
        if coding.strip() in ("gzip", "x-gzip"):
            quality = params.strip().removeprefix("q=")
            try:
                return not params.strip() or float(quality) > 0
            except ValueError:
                return False
    return False


class MatchReplayApi(APIView):
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="A match's replay",
        description="The replay document (docs/replay-format.md): every card of every hand, "
        "as a spectator sees it after the match; never a bot's own output. Sent "
        "gzip-compressed (`Content-Encoding: gzip`) to clients that accept it.",
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The replay document."),
            304: OpenApiResponse(
                description="Not modified: the client's copy (If-None-Match) is current."
            ),
            **errors(404),
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        # A replay is written once and never changes: its id is its validator, and a client
        # that has it is answered without reading the stored bytes.
        # Weak: the same document is sent gzip-encoded or not (Vary: Accept-Encoding).
        etag = f'W/"replay-{match_id}"'
        wanted = parse_etags(request.headers.get("If-None-Match", ""))
        if (etag in wanted or "*" in wanted) and replay_exists(match_id=match_id):
            response = HttpResponse(status=304)
            response["ETag"] = etag
            return response
        data = replay_bytes(match_id=match_id)
        compressed = data[:2] == b"\x1f\x8b"
        if compressed and accepts_gzip(request.headers.get("Accept-Encoding", "")):
            # Stored compressed: most clients get the bytes as they are, no work at all.
            response = HttpResponse(data, content_type="application/json")
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(
                gzip.decompress(data) if compressed else data, content_type="application/json"
            )
        response["Vary"] = "Accept-Encoding"
        response["ETag"] = etag
        response["Cache-Control"] = "public, no-cache"
        return response


class MatchLogOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    bot = BotRefSerializer()
    output = serializers.CharField(help_text="What the bot printed (capped).")
    traceback = serializers.CharField(help_text="The exception it raised, if any.")


class MatchLogListApi(ListAPIView):
    """What your own bots printed and raised in this match (staff: every seat)."""

    serializer_class = MatchLogOutputSerializer
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    pagination_class = Pagination
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the view
            return MatchLog.objects.none()
        match = match_get(match_id=self.kwargs["match_id"])
        return match_log_list(match=match, user=self.request.user)

    @extend_schema(
        tags=TAGS,
        summary="Your bots' logs from a match",
        responses={200: MatchLogOutputSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
