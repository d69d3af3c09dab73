"""Tournaments: ``/api/tournaments/...`` (list, create, start, cancel, sign-ups).

Anyone reads tournaments; organisers (staff and the "organisers" group) create, start and
cancel them; owners sign their bots up. Standings and exports: ``arena.api.standings``;
schedules: ``arena.api.schedules``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.fields import GameField, StrictCharField, StrictIntegerField
from arena.api.filtering import FilterBackend
from arena.api.pagination import Pagination
from arena.api.permissions import IsOrganiser, IsOrganiserOrReadOnly
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.api.tournament_options import TournamentOptionsSerializer
from arena.models import Tournament, TournamentSignup
from arena.selectors.accounts import is_organiser
from arena.selectors.filters import MAX_ID, TournamentFilter
from arena.selectors.tournaments import tournament_get, tournament_list, tournament_signups
from arena.services.tournaments import (
    tournament_cancel,
    tournament_create,
    tournament_signup,
    tournament_start,
    tournament_withdraw,
)

TAGS = ["tournaments"]


def _valid(serializer: serializers.Serializer) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    rounds = serializers.IntegerField(
        allow_null=True,
        help_text="Swiss: the number of rounds (null before the start: ceil(log2 N) + 1).",
    )
    table_size = serializers.IntegerField(
        allow_null=True, help_text="Seats at each table (fewer when fewer bots play)."
    )
    matches_per_pairing = serializers.IntegerField(
        help_text="Matches each pairing (each table of a round) plays; each is a whole match "
        "of the game."
    )
    duplicate = serializers.BooleanField(
        help_text="Each match's deals are played once per seat rotation."
    )
    rated = serializers.BooleanField(help_text="Whether its matches count for the ratings.")
    move_timeout_s = serializers.FloatField(
        allow_null=True,
        help_text="CPU seconds per move of its matches (null: the arena's setting).",
    )
    time_bank_s = serializers.FloatField(
        allow_null=True,
        help_text="CPU time bank per match of its matches (null: the arena's setting).",
    )
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    seed = serializers.SerializerMethodField(
        help_text="Null for all but organisers until the tournament starts: the participants' "
        "versions are frozen at the start, and a seed known earlier would let an author build "
        "a bot around the decks it deals."
    )
    schedule = serializers.IntegerField(source="schedule_id", allow_null=True)
    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    entries = serializers.IntegerField(source="entry_count", help_text="Participants.")
    entry = serializers.ChoiceField(
        choices=Tournament.Entry.choices,
        help_text="Who plays: every bot of the game (all), the bots signed up before the "
        "deadline (signup), or the top entry_limit of the ladder (top).",
    )
    entry_limit = serializers.IntegerField(allow_null=True)
    signup_deadline = serializers.DateTimeField(
        allow_null=True, help_text="signup: when sign-up closes and the tournament starts."
    )
    signups = serializers.IntegerField(source="signup_count", help_text="Bots signed up.")
    created = serializers.DateTimeField()
    scheduled_for = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seed(self, tournament: Tournament) -> int | None:
        request = self.context.get("request")
        organiser = request is not None and is_organiser(request.user)
        if tournament.status == Tournament.Status.PENDING and not organiser:
            return None
        return tournament.seed


def _tournament_response(request: Request, tournament_id: int) -> Response:
    tournament = tournament_get(tournament_id=tournament_id)
    return Response(TournamentOutputSerializer(tournament, context={"request": request}).data)


class TournamentListCreateApi(ListAPIView):
    """Tournaments, newest first; filter by ``status`` and ``game``."""

    serializer_class = TournamentOutputSerializer
    pagination_class = Pagination
    permission_classes = [IsOrganiserOrReadOnly]
    filter_backends = [FilterBackend]
    filterset_class = TournamentFilter

    class TournamentCreateSerializer(TournamentOptionsSerializer):
        name = StrictCharField(max_length=100)
        game = GameField()
        seed = StrictIntegerField(
            min_value=0,
            max_value=MAX_ID,
            required=False,
            allow_null=True,
            help_text="Fixes the pairings' seeds; random when left out.",
        )
        signup_deadline = serializers.DateTimeField(
            required=False,
            allow_null=True,
            help_text="signup: when sign-up closes and the tournament starts (in the future).",
        )

    def get_queryset(self) -> Any:
        return tournament_list()

    @extend_schema(
        tags=TAGS,
        summary="List tournaments",
        responses={200: TournamentOutputSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Create a tournament (organisers)",
        request=TournamentCreateSerializer,
        responses={201: TournamentOutputSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = _valid(self.TournamentCreateSerializer(data=request.data))
        tournament = tournament_create(created_by=request.user, **data)
        body = TournamentOutputSerializer(
            tournament_get(tournament_id=tournament.pk), context={"request": request}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="A tournament",
        responses={200: TournamentOutputSerializer, **errors(404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return _tournament_response(request, tournament_id)


class TournamentStartApi(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        tags=TAGS,
        summary="Start a pending tournament (organisers)",
        description="Freezes the participants (each active bot's active valid version) and "
        "queues its matches (a round robin's all, else the first round's). 409 when it is not "
        "pending, its sign-up is still open, or too few bots can take part.",
        request=None,
        responses={200: TournamentOutputSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)  # 404 before the service's own checks
        tournament_start(tournament_id=tournament_id)
        return _tournament_response(request, tournament_id)


class TournamentCancelApi(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        tags=TAGS,
        summary="Cancel a tournament (organisers)",
        description="Stops a pending or running tournament; its queued matches are not "
        "played. 409 when it is already finished or cancelled.",
        request=None,
        responses={200: TournamentOutputSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)
        tournament_cancel(tournament_id=tournament_id)
        return _tournament_response(request, tournament_id)


class _SignupSerializer(serializers.Serializer):
    bot = BotRefSerializer()
    created = serializers.DateTimeField()


class TournamentSignupListCreateApi(ListAPIView):
    """A sign-up tournament's entrants; bot owners sign their bots up before the deadline.

    Paged like every list: a popular tournament can hold every bot of its game.
    """

    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = Pagination
    filter_backends = []  # no search or ordering parameters here
    serializer_class = _SignupSerializer

    class SignupInputSerializer(serializers.Serializer):
        bot = StrictIntegerField(min_value=1, max_value=MAX_ID, help_text="One of your bots.")

    @extend_schema(
        tags=TAGS,
        summary="The bots signed up",
        responses={200: _SignupSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return TournamentSignup.objects.none()
        tournament = tournament_get(tournament_id=self.kwargs["tournament_id"])
        return tournament_signups(tournament=tournament)

    @extend_schema(
        tags=TAGS,
        summary="Sign a bot up (its owner; organisers: built-in bots too)",
        description="Until the deadline, for a pending tournament with signup entry; the "
        "bot's active version is frozen when it starts. Its owner signs a bot up; an "
        "organiser may also sign up the built-in bots. Signing up again is a 200 with the "
        "first sign-up. 409 when sign-up is closed or the bot has no valid active version.",
        request=SignupInputSerializer,
        responses={
            201: _SignupSerializer,
            200: _SignupSerializer,
            **errors(400, 401, 403, 404, 409),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)
        data = _valid(self.SignupInputSerializer(data=request.data))
        signup, created = tournament_signup(
            tournament_id=tournament_id, bot_id=data["bot"], user=request.user
        )
        return Response(
            _SignupSerializer(signup).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TournamentSignupDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Withdraw a bot (its owner; organisers: built-in bots too)",
        description="Until the deadline. 404 when the bot is not signed up.",
        responses={204: None, **errors(401, 403, 404, 409)},
    )
    def delete(self, request: Request, tournament_id: int, bot_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)
        tournament_withdraw(tournament_id=tournament_id, bot_id=bot_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
