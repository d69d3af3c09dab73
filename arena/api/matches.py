"""Matches, their replays and the bots' own logs: ``/api/matches/...``.

A match has any number of seats; each seat says who sat there (bot and version), how it
placed (0 = first, ties share a rank), its score, its fault if any, and what the match did
to its version's rating. The winner is derived from the placings, never stored.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
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
from arena.api.links import link_base
from arena.api.negotiation import AnyAcceptNegotiation
from arena.api.pagination import Pagination, RowsPagination
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.http.compression import accepts_gzip
from arena.models import Match, MatchLog, MatchSeat
from arena.selectors.filters import MatchFilter
from arena.selectors.matches import (
    match_detail_row,
    match_get,
    match_ids_list,
    match_log_list,
    replay_bytes,
    replay_exists,
)
from engine import winner_of

TAGS = ["matches"]


class BlankAsNullCharField(serializers.CharField):
    """A text column where ``""`` means "none": written out as ``null``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)

    # DRF writes out what this returns, None as null; the stubs say a CharField's is a str.
    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]
        return super().to_representation(value) or None


class SeatRatingSerializer(serializers.Serializer):
    """What the match did to the seat's version's live TrueSkill rating (each match updates
    it as it is recorded; the displayed rating is refitted over all matches instead, see
    the version's ``rating``); every field null until it is rated (and for matches that are
    not ranked)."""

    mu_before = serializers.FloatField(allow_null=True)
    sigma_before = serializers.FloatField(allow_null=True)
    mu_after = serializers.FloatField(allow_null=True)
    sigma_after = serializers.FloatField(allow_null=True)
    mu_delta = serializers.FloatField(allow_null=True, help_text="mu_after - mu_before.")
    score_delta = serializers.FloatField(
        allow_null=True,
        help_text="Change of the live rating's conservative score mu - 3 sigma.",
    )


class MatchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 .. seat_count - 1, in playing order.")
    bot = BotRefSerializer()
    version = serializers.IntegerField(
        source="version.number", help_text="The number of the bot's version that sat here."
    )
    placing = serializers.IntegerField(
        allow_null=True,
        help_text="Rank in the match, 0 = first; seats that tie share a rank (0, 0, 2). "
        "Null until the match is done.",
    )
    score = serializers.SerializerMethodField(
        help_text="The seat's match points (the game's own count); null until placed."
    )
    fault = BlankAsNullCharField(
        help_text="The fault that put this seat out (timeout, crash, illegal_move, ...), or "
        "null. The bot's own traceback is in its owner's logs, never here."
    )
    fault_detail = BlankAsNullCharField(help_text="The platform's public sentence about it.")
    rating = SeatRatingSerializer(source="*")

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_score(self, seat: MatchSeat) -> int | None:
        return seat.score if seat.placing is not None else None


class MatchOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    kind = serializers.ChoiceField(choices=Match.Kind.choices)
    ranked = serializers.BooleanField(help_text="Whether the result counts for the ratings.")
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    seat_count = serializers.IntegerField()
    seats = MatchSeatSerializer(many=True, help_text="One per seat, in seat order.")
    winner = serializers.SerializerMethodField(
        help_text="The seat alone in first place; null for a shared first place or "
        "until the match is done."
    )
    reason = BlankAsNullCharField(
        help_text="How it ended, in the game's words (e.g. match_points), or fault; null "
        "until done."
    )
    games_played = serializers.IntegerField()
    totals = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The game's own per-seat totals over the match, each a list in seat order "
        "(see the game's rules).",
    )
    created = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    replay = serializers.SerializerMethodField(
        help_text="The replay document's URL, or null while the match has none."
    )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_winner(self, match: Match) -> int | None:
        return _winner(list(match.seats.all()))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_replay(self, match: Match) -> str | None:
        if not getattr(match, "has_replay", False):
            return None
        return f"{self._link_base}/api/matches/{match.pk}/replay/"

    @cached_property
    def _link_base(self) -> str:
        # Once per list, not per row: the list's rows share one serializer.
        return link_base(self.context.get("request"))

    @cached_property
    def _when(self) -> Callable[[datetime | None], str | None]:
        """DRF's DateTimeField output (ISO 8601 in the current time zone, ``Z`` for UTC),
        with the time zone looked up once per list instead of three times a row."""
        field = self.fields["created"]
        assert isinstance(field, serializers.DateTimeField)  # declared above
        zone = getattr(field, "timezone", None) or field.default_timezone()

        def when(value: datetime | None) -> str | None:
            if value is None:
                return None
            if zone is None:  # naive datetimes (USE_TZ off): DRF's own path
                return field.to_representation(value)
            text = value.astimezone(zone).isoformat()
            return text[:-6] + "Z" if text.endswith("+00:00") else text

        return when

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        """A match of the list, from its plain row (``match_rows``): the list's hot path.

        DRF's field-by-field path over models costs more than the page's queries for 50
        rows. The declared fields still define the shape (and the schema); a test holds
        this equal to what DRF's generic path gives for the same match's model.
        """
        when = self._when
        seats = row["seats"]
        placings = [seat["placing"] for seat in seats]
        base = self._link_base
        return {
            "id": row["id"],
            "game": row["game"],
            "kind": row["kind"],
            "ranked": row["ranked"],
            "tournament": row["tournament_id"],
            "status": row["status"],
            "seat_count": row["seat_count"],
            "seats": [_seat_row(seat) for seat in seats],
            "winner": _winner_of(placings),
            "reason": row["reason"] or None,
            "games_played": row["games_played"],
            "totals": row["totals"],
            "created": when(row["created"]),
            "started_at": when(row["started_at"]),
            "finished_at": when(row["finished_at"]),
            "replay": f"{base}/api/matches/{row['id']}/replay/" if row["has_replay"] else None,
        }


def _winner(seats: list[MatchSeat]) -> int | None:
    return _winner_of([seat.placing for seat in seats])


def _winner_of(placings: list[int | None]) -> int | None:
    known = [placing for placing in placings if placing is not None]
    if not placings or len(known) < len(placings):
        return None
    return winner_of(known)


def _seat_row(seat: dict[str, Any]) -> dict[str, Any]:
    mu_before, sigma_before = seat["mu_before"], seat["sigma_before"]
    mu_after, sigma_after = seat["mu_after"], seat["sigma_after"]
    rated = None not in (mu_before, sigma_before, mu_after, sigma_after)
    return {
        "seat": seat["seat"],
        "bot": {
            "id": seat["bot_id"],
            "name": seat["bot__name"],
            "owner": seat["bot__owner__username"],
        },
        "version": seat["version__number"],
        "placing": seat["placing"],
        "score": seat["score"] if seat["placing"] is not None else None,
        "fault": seat["fault"] or None,
        "fault_detail": seat["fault_detail"] or None,
        "rating": {
            "mu_before": mu_before,
            "sigma_before": sigma_before,
            "mu_after": mu_after,
            "sigma_after": sigma_after,
            "mu_delta": None if None in (mu_before, mu_after) else mu_after - mu_before,
            "score_delta": (
                (mu_after - 3 * sigma_after) - (mu_before - 3 * sigma_before) if rated else None
            ),
        },
    }


class MatchDetailOutputSerializer(MatchOutputSerializer):
    seed = serializers.IntegerField(help_text="Every deal of the match derives from it.")
    options = serializers.DictField(
        child=serializers.JSONField(),
        help_text="The game's options set for this match "
        "(empty: the game's defaults, see /api/games/).",
    )
    rated = serializers.BooleanField(help_text="Whether the ratings have taken it in.")
    duration_s = serializers.FloatField(allow_null=True)

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        """One match from its plain row (``match_detail_row``): the list's row and these
        fields, as DRF's generic path over the match's model writes them (a test holds the
        two equal)."""
        data = super().to_representation(row)
        data["seed"] = row["seed"]
        data["options"] = {str(key): value for key, value in (row["options"] or {}).items()}
        data["rated"] = row["rated"]
        data["duration_s"] = None if row["duration_s"] is None else float(row["duration_s"])
        return data


class MatchListApi(ListAPIView):
    """Matches, newest first, each with all its seats; filter by ``game``, ``bot`` (in any
    seat), ``version`` (a version's id), ``tournament``, ``status`` and ``kind``."""

    serializer_class = MatchOutputSerializer
    pagination_class = RowsPagination
    filter_backends = [FilterBackend]
    filterset_class = MatchFilter

    def get_queryset(self) -> Any:
        # Filtered and paged by id; the page's rows are read by match_rows (RowsPagination).
        return match_ids_list()

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
        row = match_detail_row(match_id=match_id)
        return Response(MatchDetailOutputSerializer(row, context={"request": request}).data)


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


class LogStepSerializer(serializers.Serializer):
    """What the bot printed during one call, filed by where the match stood."""

    game = serializers.IntegerField(
        help_text="The game of the match, from 1 (0: the match's start, `on_match_start`)."
    )
    step = serializers.IntegerField(
        allow_null=True,
        help_text="The step of that game the call made or followed: its index (from 0) in "
        "the replay's `games[game - 1].steps` (a move that faulted: the index it would "
        "have had). Null when no step applies (the match's start, the game's end).",
    )
    phase = serializers.CharField(help_text='What the bot was asked: "act", a hook\'s name...')
    text = serializers.CharField()
    where = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="Where play stood, in the game's own words (when the game says).",
    )


class MatchLogOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    bot = BotRefSerializer()
    output = serializers.CharField(help_text="What the bot printed (capped).")
    traceback = serializers.CharField(help_text="The exception it raised, if any.")
    steps = LogStepSerializer(
        many=True,
        help_text="The same output filed by game and step, to read beside the replay.",
    )


class MatchLogListApi(ListAPIView):
    """What your own bots printed and raised in this match, by seat (staff: every seat)."""

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
