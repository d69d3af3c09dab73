"""Challenges and version comparisons: ``/api/challenges/...``.

An owner challenges any bot on the ladder of the same game (its active version) or its own
earlier versions to N unrated matches; the verdict is the challenger's score against its
rivals with a 95% confidence interval. Only the challenger, the rivals' owners and staff see
a challenge (anyone else gets a 404). Quota: ``ARENA_CHALLENGE_MATCHES_PER_DAY`` matches per
user in any rolling day, a 429 with ``Retry-After`` beyond it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.fields import StrictIntegerField
from arena.api.pagination import Pagination
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.models import Challenge
from arena.selectors.challenges import (
    challenge_get,
    challenge_list,
    challenge_rows,
    challenge_view,
)
from arena.selectors.filters import MAX_ID
from arena.services.challenges import MAX_MATCHES, challenge_create

__all__ = [
    "ChallengeDetailApi",
    "ChallengeListCreateApi",
    "ChallengeSummarySerializer",
    "VersionRefSerializer",
]

TAGS = ["challenges"]


class IdListField(serializers.ListField):
    """A list of ids whose errors are a flat list of messages ("item 2: ..."), the one error
    shape's ``fields``, not DRF's ``{index: [messages]}``."""

    def run_child_validation(self, data: list[Any]) -> list[Any]:
        try:
            return super().run_child_validation(data)
        except serializers.ValidationError as exc:
            detail = exc.detail if isinstance(exc.detail, dict) else {0: exc.detail}
            raise serializers.ValidationError(
                [
                    f"item {index}: {message}"
                    for index, messages in detail.items()
                    for message in messages
                ]
            ) from None


class VersionRefSerializer(serializers.Serializer):
    """A version as other objects mention it: its id, number and bot."""

    id = serializers.IntegerField(help_text="The version's id.")
    number = serializers.IntegerField()
    bot = BotRefSerializer()


class ChallengeSummarySerializer(serializers.Serializer):
    """The challenger's score against its rivals so far (see docs/api.md, "Challenges")."""

    played = serializers.IntegerField(help_text="Finished matches counted.")
    open = serializers.IntegerField(help_text="Matches queued or running.")
    failed = serializers.IntegerField(help_text="Matches the platform could not play.")
    done = serializers.BooleanField(help_text="No match left to play.")
    score = serializers.FloatField(
        allow_null=True,
        help_text="Share of rivals placed behind, 0..1 (a level rival counts one half); "
        "null before any result.",
    )
    low = serializers.FloatField(
        allow_null=True,
        help_text="Low end of the score's 95% interval (docs/api.md, \"Score shares and their "
        'intervals"); null before any result.',
    )
    high = serializers.FloatField(
        allow_null=True, help_text="High end of the score's 95% interval; null before any result."
    )
    significant = serializers.BooleanField(help_text="The interval leaves out 0.5.")
    units = serializers.IntegerField(
        help_text="Independent units the interval is drawn from: single matches, or duplicate "
        "sets (each weighted by the matches of it played)."
    )
    wins = serializers.IntegerField(help_text="Matches ahead of every rival.")
    draws = serializers.IntegerField(help_text="Matches neither ahead of all nor behind all.")
    losses = serializers.IntegerField(help_text="Matches behind every rival.")


class ChallengeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="challenge.pk")
    kind = serializers.ChoiceField(
        source="challenge.kind",
        choices=Challenge.Kind.choices,
        help_text="`challenge` (asked for by a user) or `comparison` (a new version against "
        "its bot's previous one, started by the platform).",
    )
    game = serializers.CharField(source="challenge.game")
    created = serializers.DateTimeField(source="challenge.created")
    created_by = serializers.CharField(source="challenge.created_by.username", allow_null=True)
    version = VersionRefSerializer(source="challenge.version", help_text="The challenger.")
    rivals = VersionRefSerializer(
        many=True,
        help_text="The other seats in the order chosen (seats the chosen rivals leave empty "
        "are filled with the game's built-in random bot).",
    )
    matches_requested = serializers.IntegerField(source="challenge.matches_requested")
    summary = ChallengeSummarySerializer()
    matches = serializers.SerializerMethodField(
        help_text="The challenge's match ids, newest first."
    )

    def get_matches(self, view: Any) -> list[int]:
        return [match.pk for match in view.matches]


def _body(challenge: Challenge) -> dict[str, Any]:
    return ChallengeOutputSerializer(challenge_view(challenge=challenge)).data


class ChallengeListCreateApi(ListAPIView):
    """The challenges the user may see (its own and those its bots were challenged to)."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    filter_backends = []  # no search or ordering parameters here
    serializer_class = ChallengeOutputSerializer

    class ChallengeCreateSerializer(serializers.Serializer):
        version = StrictIntegerField(
            min_value=1, max_value=MAX_ID, help_text="Your version's id (the challenger)."
        )
        rivals = IdListField(
            child=StrictIntegerField(min_value=1, max_value=MAX_ID),
            min_length=1,
            max_length=16,
            help_text="Version ids to face: bots on the ladder (their active version) or "
            "your own bot's earlier versions, of the same game.",
        )
        matches = StrictIntegerField(min_value=1, max_value=MAX_MATCHES)

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Challenge.objects.none()
        return challenge_list(user=self.request.user)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        views = challenge_rows(challenges=list(page or ()))  # None only without a paginator
        return self.get_paginated_response(ChallengeOutputSerializer(views, many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="List the challenges you may see",
        responses={200: ChallengeOutputSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Challenge rivals to unrated matches",
        description="Queues `matches` unrated matches of your version against the rivals "
        "(in duplicate sets where the game deals them). Errors: `version_not_valid`, "
        "`bad_rivals`, `game_mismatch`, `rival_not_available`, `too_many_rivals`, "
        "`too_few_rivals` (400); not your version (403); no such version (404); the daily "
        "quota spent, `quota` (429, with `Retry-After`).",
        request=ChallengeCreateSerializer,
        responses={201: ChallengeOutputSerializer, **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = self.ChallengeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        challenge = challenge_create(
            user=request.user,
            version_id=data["version"],
            rival_version_ids=data["rivals"],
            matches=data["matches"],
        )
        body = _body(challenge_get(challenge_id=challenge.pk, user=request.user))
        return Response(body, status=status.HTTP_201_CREATED)


class ChallengeDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="A challenge: its table, score with confidence interval, and matches",
        responses={200: ChallengeOutputSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        return Response(_body(challenge_get(challenge_id=challenge_id, user=request.user)))
