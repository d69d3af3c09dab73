"""The playground: ``/api/playground/...`` (docs/api.md, "Playground").

What the site's playground page does, for editors and scripts: save a draft per game, run it
(``POST /api/playground/runs/``: the source is checked as an upload is, then 1-10 unrated
matches are queued on the playground queue), poll the run, read each match's replay and the
draft's output. Everything here is the author's alone: another user's draft or run is a 404.
"""

from __future__ import annotations

import math
from typing import Any, Never

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ErrorDetail, Throttled
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from arena.api.challenges import IdListField
from arena.api.fields import GameField, StrictCharField, StrictIntegerField
from arena.api.pagination import Pagination
from arena.api.schema import errors
from arena.http.throttles import PlaygroundCheckThrottle
from arena.models import PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from arena.selectors.filters import MAX_ID
from arena.selectors.playground import (
    MatchView,
    draft_get,
    draft_list,
    opponent_search,
    playground_match_get,
    playground_replay,
    run_get,
    run_list,
    run_view,
)
from arena.services.playground import (
    MAX_MATCHES,
    MAX_OPPONENTS_NAMED,
    draft_save,
    run_create,
    source_size_check,
)
from engine.registry import GAMES

__all__ = [
    "DraftDetailApi",
    "DraftListSaveApi",
    "OpponentSearchApi",
    "RunDetailApi",
    "RunListCreateApi",
    "RunMatchReplayApi",
]

TAGS = ["playground"]
#: A draft's source as sent: the upload limit in characters (its bytes are checked too).
SOURCE_MAX_CHARS = settings.ARENA_UPLOAD_MAX_BYTES


class SourceField(StrictCharField):
    """A draft's source: longer than an upload may be is the upload's own answer, ``413
    too_large`` (as docs/api.md says), not the field's ``400 max_length``. The schema keeps
    ``maxLength`` (no longer source can be accepted: a character is at least a byte)."""

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, str) and len(data) > SOURCE_MAX_CHARS:
            source_size_check(data)  # raises TooLarge, with the size in bytes
        return super().to_internal_value(data)


def _source_field(**kwargs: Any) -> SourceField:
    return SourceField(
        max_length=SOURCE_MAX_CHARS,
        trim_whitespace=False,
        allow_blank=True,
        help_text="The bot's Python source (bot.py), at most ARENA_UPLOAD_MAX_BYTES bytes in "
        "UTF-8 (over it: 413 `too_large`).",
        **kwargs,
    )


# --- drafts -----------------------------------------------------------------------------------


class PlaygroundDraftSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlaygroundDraft
        fields = ["id", "game", "source", "created", "updated"]


class DraftListSaveApi(ListAPIView):
    """Your drafts (one per game), and saving one."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    filter_backends = []
    serializer_class = PlaygroundDraftSerializer

    class DraftSaveSerializer(serializers.Serializer):
        game = GameField()
        # A field named like Field.source: DRF takes declared fields off the class.
        source = _source_field()  # type: ignore[assignment]

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return PlaygroundDraft.objects.none()
        return draft_list(user=self.request.user)

    @extend_schema(
        tags=TAGS,
        summary="List your playground drafts",
        responses={200: PlaygroundDraftSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Save your draft of a game",
        description="Keeps `source` as your draft of `game` (one draft per game: saving again "
        "replaces it). A draft may be unfinished: it is checked when it runs. Over the upload "
        "limit: 413 `too_large`, nothing kept.",
        request=DraftSaveSerializer,
        responses={200: PlaygroundDraftSerializer, **errors(400, 401, 413)},
    )
    def post(self, request: Request) -> Response:
        serializer = self.DraftSaveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        draft = draft_save(user=request.user, **serializer.validated_data)
        return Response(PlaygroundDraftSerializer(draft).data)


class DraftDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="One of your drafts",
        description="Another user's draft is a 404, like one that does not exist.",
        responses={200: PlaygroundDraftSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, draft_id: int) -> Response:
        return Response(
            PlaygroundDraftSerializer(draft_get(user=request.user, draft_id=draft_id)).data
        )


# --- opponents ----------------------------------------------------------------------------------


class PlaygroundOpponentChoiceSerializer(serializers.Serializer):
    ref = serializers.CharField(
        help_text="What a run names it by, in `opponents`: `version:<id>` or `bot:<id>`."
    )
    # A field named like Field.label: DRF takes declared fields off the class.
    label = serializers.CharField(help_text="`owner/name vN` (your own: `name vN`).")  # type: ignore[assignment]
    group = serializers.CharField(help_text="`Your versions` or `On the ladder`.")


class OpponentPagination(Pagination):
    page_size = 20


class OpponentSearchApi(ListAPIView):
    """Whom a run of a game may seat besides its built-in bots (``GET /api/games/{name}/``
    lists those): your valid versions, then the other bots on its ladder, by name."""

    permission_classes = [IsAuthenticated]
    pagination_class = OpponentPagination
    filter_backends = []
    serializer_class = PlaygroundOpponentChoiceSerializer

    class QuerySerializer(serializers.Serializer):
        game = GameField()
        search = StrictCharField(max_length=100, required=False, allow_blank=True, default="")

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return PlaygroundRun.objects.none()
        query = self.QuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return opponent_search(user=self.request.user, **query.validated_data)

    @extend_schema(
        tags=TAGS,
        summary="Find opponents for a playground run",
        description="Your valid versions of the game, then the other bots on its ladder, by "
        "name, 20 a page; each `ref` goes into a run's `opponents` as it is.",
        parameters=[
            OpenApiParameter(
                "game", str, required=True, enum=list(GAMES), description="The game of the run."
            ),
            OpenApiParameter(
                "search",
                str,
                description="Words that must all be in the bot's name or its owner's username "
                "(at most 100 characters).",
            ),
        ],
        responses={200: PlaygroundOpponentChoiceSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# --- runs -------------------------------------------------------------------------------------


class PlaygroundRunMatchSerializer(serializers.Serializer):
    """One match of a run, from the draft's side."""

    number = serializers.IntegerField(source="match.number", help_text="1, 2, ... in the run.")
    status = serializers.ChoiceField(
        source="match.status",
        choices=PlaygroundMatch.Status.choices,
        help_text="`failed`: the platform could not play it (not your draft's fault).",
    )
    seats = serializers.ListField(
        child=serializers.CharField(), help_text="Who sat where, in seat order."
    )
    draft_seat = serializers.IntegerField(
        source="match.draft_seat", help_text="Your draft's seat (0 = first to act)."
    )
    result = serializers.CharField(
        help_text="`win`, `draw` (first place shared) or `loss`; empty until played."
    )
    place = serializers.CharField(help_text="Your draft's place: `1st`, `=1st`, `2nd`, ...")
    placings = serializers.ListField(
        source="match.placings",
        child=serializers.IntegerField(),
        help_text="Each seat's placing: how many seats finished strictly ahead of it (0 = "
        "first, ties share it); its place is placing + 1.",
    )
    scores = serializers.ListField(
        source="match.scores", child=serializers.IntegerField(), help_text="Match points."
    )
    reason = serializers.CharField(source="match.reason")
    games_played = serializers.IntegerField(source="match.games_played")
    duration_s = serializers.FloatField(source="match.duration_s", allow_null=True)
    fault = serializers.CharField(
        source="match.fault", help_text="Your draft's fault kind (`crash`, ...), or empty."
    )
    fault_detail = serializers.CharField(source="match.fault_detail")
    fault_link = serializers.CharField(
        source="match.fault_link",
        help_text="Where the viewer shows the fault: `game=1&step=4` (append it as the page's "
        "`#` fragment), or empty.",
    )
    waiting_s = serializers.FloatField(
        allow_null=True,
        help_text="A queued match: the seconds it has waited for a worker; null otherwise.",
    )
    waiting_for_worker = serializers.BooleanField(
        help_text="Queued, and waited more than a minute for a worker (said in the run's "
        "`message` too)."
    )
    output = serializers.CharField(source="match.output", help_text="What your draft printed.")
    traceback = serializers.CharField(source="match.traceback")
    replay = serializers.SerializerMethodField(help_text="The replay's URL once played, or null.")
    page = serializers.SerializerMethodField(help_text="The match in the site's viewer.")

    def get_replay(self, view: MatchView) -> str | None:
        match = view.match
        if match.status != PlaygroundMatch.Status.DONE:
            return None
        return reverse("api-playground-replay", args=[match.run_id, match.number])

    def get_page(self, view: MatchView) -> str | None:
        match = view.match
        if match.status != PlaygroundMatch.Status.DONE:
            return None
        return reverse("playground-match", args=[match.run.game, match.run_id, match.number])


class PlaygroundOpponentSerializer(serializers.Serializer):
    ref = serializers.CharField(help_text="As it was named: `random`, `version:12`, `bot:7`.")
    # A field named like Field.label: DRF takes declared fields off the class.
    label = serializers.CharField()  # type: ignore[assignment]


class PlaygroundRunSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="run.pk")
    game = serializers.CharField(source="run.game")
    created = serializers.DateTimeField(source="run.created")
    status = serializers.ChoiceField(
        choices=["queued", "running", "done"],
        help_text="`queued` (no match started), `running`, `done` (no match left to play).",
    )
    message = serializers.CharField(help_text="The run's progress in one sentence.")
    waiting_for_worker = serializers.BooleanField(
        help_text="One of its queued matches has waited more than a minute for a worker, "
        "whatever the others are doing (each match says whether it has)."
    )
    opponents = PlaygroundOpponentSerializer(source="run.opponents", many=True)
    matches_requested = serializers.IntegerField(source="run.matches_requested")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    faults = serializers.IntegerField(help_text="Matches your draft lost by its own fault.")
    failed = serializers.IntegerField(help_text="Matches the platform could not play.")
    sha256 = serializers.CharField(source="run.sha256", help_text="Of the source as it ran.")
    matches = PlaygroundRunMatchSerializer(many=True)


class RunListCreateApi(ListAPIView):
    """Your playground runs, newest first; and starting one."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    filter_backends = []
    serializer_class = PlaygroundRunSerializer

    class RunCreateSerializer(serializers.Serializer):
        game = GameField()
        # A field named like Field.source: DRF takes declared fields off the class.
        source = _source_field(required=False)  # type: ignore[assignment]
        draft = StrictIntegerField(
            required=False,
            min_value=1,
            max_value=MAX_ID,
            help_text="Instead of `source`: the id of your saved draft of the game.",
        )
        opponents = IdListField(
            child=StrictCharField(max_length=40),
            min_length=1,
            max_length=MAX_OPPONENTS_NAMED,
            help_text="The other seats, in order: a built-in bot's name (`random`), "
            "`version:<id>` (your own valid version, or a ladder bot's active one) or "
            "`bot:<id>` (a bot on the ladder). As many as the game's table needs.",
        )
        matches = StrictIntegerField(
            min_value=1, max_value=MAX_MATCHES, help_text="How many matches (1-10)."
        )

    def get_throttles(self) -> list[BaseThrottle]:
        # Every run asked for costs a source check, a refused one too.
        return [PlaygroundCheckThrottle()] if self.request.method == "POST" else []

    def throttled(self, request: Request, wait: float | None) -> Never:
        seconds = max(1, math.ceil(wait or 60))
        refused = Throttled(wait=seconds)
        refused.detail = ErrorDetail(
            f"too many playground runs asked for (refused ones count too, each is checked): "
            f"the next one in {seconds} s",
            code="throttled",
        )
        raise refused

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return PlaygroundRun.objects.none()
        return run_list(user=self.request.user, game=None)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        views = [run_view(run=run) for run in page or ()]  # None only without a paginator
        return self.get_paginated_response(PlaygroundRunSerializer(views, many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="List your playground runs",
        responses={200: PlaygroundRunSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Run a draft: unrated matches in the sandbox",
        description="Checks the source exactly as an upload is checked, then queues `matches` "
        "unrated matches against the opponents on the playground queue (served before "
        "validations and ladder work). Poll `GET /api/playground/runs/{id}/` until `status` is "
        "`done`. Refusals store and run nothing: a bad source (`syntax_error`, "
        "`forbidden_import`, `no_entry_point`, `too_complex`, `not_utf8`, with the `line` "
        "where there is one), `unknown_opponent`, `bad_opponent`, `game_mismatch`, "
        "`opponent_not_available`, `bad_table`, `source` (400); too large (413); a draft or "
        "opponent that does not exist, and alike what you may not see (another user's draft, a "
        "stranger's bot or version off the ladder) (404); more than "
        "`ARENA_PLAYGROUND_RUNS_PER_HOUR` runs in an hour, `quota` (429, `Retry-After`); more "
        "than `ARENA_THROTTLE_PLAYGROUND_CHECKS` runs asked for, refused ones included (each "
        "is checked), `throttled` (429, `Retry-After`).",
        request=RunCreateSerializer,
        responses={201: PlaygroundRunSerializer, **errors(400, 401, 404, 413, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = self.RunCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        run = run_create(
            user=request.user,
            game=data["game"],
            source=data.get("source"),
            draft_id=data.get("draft"),
            opponents=data["opponents"],
            matches=data["matches"],
        )
        view = run_view(run=run_get(user=request.user, run_id=run.pk))
        return Response(PlaygroundRunSerializer(view).data, status=status.HTTP_201_CREATED)


class RunDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="A playground run: progress, results, each match's output",
        description="Poll this until `status` is `done`. Another user's run is a 404.",
        responses={200: PlaygroundRunSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, run_id: int) -> Response:
        return Response(
            PlaygroundRunSerializer(run_view(run=run_get(user=request.user, run_id=run_id))).data
        )


class RunMatchReplayApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="A playground match's replay",
        description="The replay document (docs/replay-format.md), as the viewer reads it; "
        "404 until the match is played.",
        responses={
            200: OpenApiResponse(description="The replay document (JSON)."),
            **errors(401, 404),
        },
    )
    def get(self, request: Request, run_id: int, number: int) -> Response:
        match = playground_match_get(user=request.user, run_id=run_id, number=number)
        return Response(playground_replay(match=match))
