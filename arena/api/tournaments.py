"""Tournaments and organisers' schedules: ``/api/tournaments/...``, ``/api/schedules/...``.

Anyone reads tournaments and standings; staff create, start and cancel them and manage the
schedules (whose beat PeriodicTasks the services keep in step).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.fields import (
    GameField,
    StrictBooleanField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from arena.api.filtering import FilterBackend
from arena.api.negotiation import AnyAcceptNegotiation
from arena.api.pagination import Pagination
from arena.api.parsers import JSONParser
from arena.api.permissions import IsStaff, IsStaffOrReadOnly
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.models import Tournament, TournamentSchedule, TournamentSignup
from arena.selectors.filters import MAX_ID, TournamentFilter
from arena.selectors.matches import replays_of_tournament
from arena.selectors.tournaments import (
    schedule_get,
    schedule_list,
    standings_csv,
    tournament_get,
    tournament_list,
    tournament_signups,
)
from arena.services.schedules import schedule_create, schedule_delete, schedule_update
from arena.services.tournaments import (
    MAX_ENTRY_LIMIT,
    MAX_GAMES_PER_MATCH,
    MAX_MOVE_TIMEOUT_S,
    MAX_ROUNDS,
    MAX_TIME_BANK_S,
    MIN_MOVE_TIMEOUT_S,
    tournament_cancel,
    tournament_create,
    tournament_signup,
    tournament_standings,
    tournament_start,
    tournament_withdraw,
)
from arena.web.downloads import csv_response, replays_zip_response

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
    games_per_match = serializers.IntegerField(help_text="Matches each table plays per round.")
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
        help_text="Null for all but staff until the tournament starts: the participants' "
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
        organiser = request is not None and request.user.is_staff
        if tournament.status == Tournament.Status.PENDING and not organiser:
            return None
        return tournament.seed


def _tournament_response(request: Request, tournament_id: int) -> Response:
    tournament = tournament_get(tournament_id=tournament_id)
    return Response(TournamentOutputSerializer(tournament, context={"request": request}).data)


MOVE_TIMEOUT_HELP = (
    f"CPU seconds per move of its matches, {MIN_MOVE_TIMEOUT_S:g}-{MAX_MOVE_TIMEOUT_S:g} "
    "(null: the arena's ARENA_MOVE_TIMEOUT_S); the wall-clock time per move follows it."
)
TIME_BANK_HELP = (
    f"CPU time bank per match, 0-{MAX_TIME_BANK_S:g} s (null: the arena's "
    "ARENA_TIME_BANK_S); the wall-clock bank follows it."
)


class TournamentOptionsSerializer(serializers.Serializer):
    """How a tournament is played: shared by tournaments and the schedules that create them
    (both checked by ``tournament_options_check``)."""

    format = serializers.ChoiceField(
        choices=Tournament.Format.choices,
        default=Tournament.Format.ROUND_ROBIN,
        help_text="round_robin, swiss, double_elimination (two-seat games only), or "
        "promotion (rounds of tables, the top half of each going through).",
    )
    rounds = StrictIntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        allow_null=True,
        help_text="Swiss only: how many rounds; ceil(log2 N) + 1 when left out.",
    )
    games_per_match = StrictIntegerField(
        min_value=1,
        max_value=MAX_GAMES_PER_MATCH,
        default=1,
        help_text="Matches each table plays per round, each with its own deals.",
    )
    duplicate = StrictBooleanField(
        default=False, help_text="Play each match's deals once per seat rotation."
    )
    rated = StrictBooleanField(default=True, help_text="Count the matches for the ratings.")
    entry = serializers.ChoiceField(
        choices=Tournament.Entry.choices,
        default=Tournament.Entry.ALL,
        help_text="all (default), signup (needs signup_deadline), top (needs entry_limit).",
    )
    entry_limit = StrictIntegerField(
        min_value=2,
        max_value=MAX_ENTRY_LIMIT,
        required=False,
        allow_null=True,
        help_text="top: how many of the ladder are invited.",
    )
    move_timeout_s = StrictFloatField(required=False, allow_null=True, help_text=MOVE_TIMEOUT_HELP)
    time_bank_s = StrictFloatField(required=False, allow_null=True, help_text=TIME_BANK_HELP)


class TournamentListCreateApi(ListAPIView):
    """Tournaments, newest first; filter by ``status`` and ``game``."""

    serializer_class = TournamentOutputSerializer
    pagination_class = Pagination
    permission_classes = [IsStaffOrReadOnly]
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
        summary="Create a tournament (staff)",
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
    permission_classes = [IsStaff]

    @extend_schema(
        tags=TAGS,
        summary="Start a pending tournament (staff)",
        description="Freezes the participants (each active bot's active valid version) and "
        "queues the round robin. 409 when it is not pending or has fewer than 2 participants.",
        request=None,
        responses={200: TournamentOutputSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)  # 404 before the service's own checks
        tournament_start(tournament_id=tournament_id)
        return _tournament_response(request, tournament_id)


class TournamentCancelApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        tags=TAGS,
        summary="Cancel a tournament (staff)",
        description="Stops a pending or running tournament; its queued matches are not "
        "played. 409 when it is already finished or cancelled.",
        request=None,
        responses={200: TournamentOutputSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)
        tournament_cancel(tournament_id=tournament_id)
        return _tournament_response(request, tournament_id)


class _CellSerializer(serializers.Serializer):
    """How the row bot fared against the column bot in the matches they played together."""

    matches = serializers.ListField(
        child=serializers.IntegerField(), help_text="The ids of those matches."
    )
    match = serializers.IntegerField(help_text="The last of them.")
    status = serializers.CharField(help_text="The last one's status.")
    ahead = serializers.IntegerField(help_text="Matches the row bot placed ahead of it.")
    level = serializers.IntegerField(help_text="Matches they placed level.")
    behind = serializers.IntegerField(help_text="Matches the row bot placed behind it.")
    score = serializers.FloatField(help_text="ahead + level / 2: the row bot's points from them.")
    result = serializers.ChoiceField(
        choices=["win", "loss", "draw"],
        allow_null=True,
        required=False,
        help_text="Two seats only: the row bot's result in the last match (null until done).",
    )
    match_points = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Two seats only: [row bot, column bot] match points of the last match, "
        "once done.",
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="95% confidence interval (Wilson) of the row bot's score share against the "
        "column bot: score / meetings lies in it with 95% confidence; null before they met.",
    )


class _CrosstableSerializer(serializers.Serializer):
    bots = serializers.ListField(child=serializers.IntegerField(), help_text="In rank order.")
    cells = serializers.DictField(
        child=_CellSerializer(),
        help_text='Keyed "<row bot id>-<column bot id>"; a pair that never met has no cell.',
    )


class _StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Bots level on every tie-break share a rank.")
    bot = BotRefSerializer()
    version = serializers.IntegerField(help_text="The version it entered with (frozen).")
    seed = serializers.IntegerField(
        allow_null=True,
        help_text="1 = best: by the entered version's rating at the start, then bot id.",
    )
    played = serializers.IntegerField()
    points = serializers.FloatField(
        help_text="Per match: 1 for each seat placed behind it, 1/2 for each placed level "
        "(two seats: a win 1, a draw 1/2)."
    )
    first_places = serializers.IntegerField(help_text="Matches placed first, alone or shared.")
    wins = serializers.IntegerField(help_text="First place alone.")
    draws = serializers.IntegerField(help_text="First place shared.")
    losses = serializers.IntegerField(help_text="Any other place.")
    mean_place = serializers.FloatField(
        allow_null=True, help_text="Mean place, 1 = first; null before any match."
    )
    match_points = serializers.IntegerField(help_text="The game's own match points, summed.")
    faults = serializers.IntegerField(help_text="Matches its own fault put it out of.")
    superiority_over_next = serializers.FloatField(
        allow_null=True,
        help_text="Likelihood that this bot is really ahead of the next row (share of "
        "bootstrap resamples of the matches that rank it ahead); null on the last row or "
        "before any match.",
    )
    buchholz = serializers.FloatField(
        required=False,
        help_text="Swiss only: its opponents' points summed (the first tie-break).",
    )
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Swiss and double elimination: the rounds it sat out. A Swiss bye is "
        "worth a win at every match of a full table that round.",
    )
    eliminated_in = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Eliminations only: the round it went out in (double elimination: its "
        "second loss); null while still in, and for the champion.",
    )
    exit_place = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Promotion only: its place (1 = first) at the table it went out from.",
    )


class _RoundTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    bracket = serializers.ChoiceField(
        choices=["winners", "losers", "final", "round"],
        allow_null=True,
        help_text="Double elimination: the bracket (final: the grand final and its reset). "
        "Promotion: round, or final (the last table). Swiss: null.",
    )
    bots = serializers.ListField(child=serializers.IntegerField(), help_text="In seat order.")
    matches = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(
        child=serializers.FloatField(), help_text="Each bot's points from these matches."
    )
    open = serializers.BooleanField(help_text="A match of it is still to be played.")
    winner = serializers.IntegerField(
        allow_null=True,
        help_text="Eliminations: the table's best (more points; level: the better seed).",
    )
    through = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Eliminations: who went on from this table (empty until it is decided).",
    )


class _RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    tables = _RoundTableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    seats = serializers.IntegerField(help_text="Seats per match (the largest table).")
    status = serializers.CharField()
    matches_total = serializers.IntegerField()
    matches_done = serializers.IntegerField(help_text="Matches over: played or failed.")
    rows = _StandingRowSerializer(
        many=True,
        help_text="Round robin: by points, then first places, then (two seats) the results "
        "between the bots level so far, then mean placing, then match points. Swiss: by "
        "points, then Buchholz, then the results between the bots level on both, then seed. "
        "Double elimination and promotion: the champion, then by the round a bot went out "
        "in (latest first), then (promotion) its place at that table, then points, then seed.",
    )
    crosstable = _CrosstableSerializer()
    rounds = _RoundSerializer(
        many=True, required=False, help_text="Swiss and double elimination: the rounds so far."
    )
    rounds_planned = serializers.IntegerField(
        required=False, allow_null=True, help_text="Swiss: the rounds it will play."
    )
    champion = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Eliminations: the champion's bot id once decided.",
    )


class TournamentStandingsApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="A tournament's standings and crosstable",
        responses={200: StandingsSerializer, **errors(404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get(tournament_id=tournament_id)
        return Response(tournament_standings(tournament=tournament))


class TournamentStandingsCsvApi(APIView):
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="A tournament's standings as CSV",
        description="One row per bot in rank order; the columns are listed in docs/api.md.",
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The standings."),
            **errors(404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = tournament_get(tournament_id=tournament_id)
        return standings_csv_response(tournament)


def standings_csv_response(tournament: Tournament) -> HttpResponse:
    """The CSV download of a tournament's standings (the API's and the page's)."""
    body = standings_csv(tournament_standings(tournament=tournament))
    return csv_response(body, f"tournament-{tournament.pk}-standings.csv")


class TournamentReplaysZipApi(APIView):
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="Every finished match's replay, as one zip",
        description=(
            "One `match-<id>.json.gz` per finished match of the tournament, in match order, "
            "each the stored gzip replay as `/api/matches/{id}/replay/` serves it (the "
            "spectator's view). Streamed; `python -m engine replay` opens each file."
        ),
        responses={
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The replays."
            ),
            **errors(404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> StreamingHttpResponse:
        tournament = tournament_get(tournament_id=tournament_id)
        replays = replays_of_tournament(tournament=tournament)
        return replays_zip_response(replays, f"tournament-{tournament.pk}-replays.zip")


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
        summary="Sign a bot up (its owner)",
        description="Until the deadline, for a pending tournament with signup entry; the "
        "bot's active version is frozen when it starts. Signing up again is a 200 with the "
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
        summary="Withdraw a bot (its owner)",
        description="Until the deadline. 404 when the bot is not signed up.",
        responses={204: None, **errors(401, 403, 404, 409)},
    )
    def delete(self, request: Request, tournament_id: int, bot_id: int) -> Response:
        tournament_get(tournament_id=tournament_id)
        tournament_withdraw(tournament_id=tournament_id, bot_id=bot_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


SCHEDULE_TAGS = ["schedules"]


class ScheduleOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    crontab = serializers.CharField()
    enabled = serializers.BooleanField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    rounds = serializers.IntegerField(
        allow_null=True, help_text="Swiss: rounds (null: ceil(log2 N) + 1 at each start)."
    )
    games_per_match = serializers.IntegerField()
    duplicate = serializers.BooleanField()
    rated = serializers.BooleanField()
    entry = serializers.ChoiceField(choices=TournamentSchedule._meta.get_field("entry").choices)
    entry_limit = serializers.IntegerField(allow_null=True)
    move_timeout_s = serializers.FloatField(allow_null=True)
    time_bank_s = serializers.FloatField(allow_null=True)
    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    created = serializers.DateTimeField()


class ScheduleWriteSerializer(TournamentOptionsSerializer):
    """The tournament options are the tournament API's fields, checked by the same service
    function; sign-up entry is refused (a scheduled tournament starts at its due time)."""

    name = StrictCharField(max_length=100)
    game = GameField()
    crontab = StrictCharField(
        max_length=100,
        help_text="minute hour day-of-month month day-of-week, e.g. '0 3 * * *' (03:00 UTC).",
    )
    enabled = StrictBooleanField(default=True)
    rounds = StrictIntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        allow_null=True,
        help_text="Swiss only: how many rounds; ceil(log2 N) + 1 at each start when left out.",
    )
    entry = serializers.ChoiceField(
        choices=Tournament.Entry.choices,
        default=Tournament.Entry.ALL,
        help_text="all (default) or top (needs entry_limit); signup is refused: a scheduled "
        "tournament starts at its due time.",
    )


class ScheduleListCreateApi(ListAPIView):
    """Recurring tournaments (staff only)."""

    serializer_class = ScheduleOutputSerializer
    pagination_class = Pagination
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    permission_classes = [IsStaff]

    def get_queryset(self) -> Any:
        return schedule_list()

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="List schedules (staff)",
        responses={200: ScheduleOutputSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="Create a schedule (staff)",
        request=ScheduleWriteSerializer,
        responses={201: ScheduleOutputSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = _valid(ScheduleWriteSerializer(data=request.data))
        schedule = schedule_create(created_by=request.user, **data)
        body = ScheduleOutputSerializer(schedule_get(schedule_id=schedule.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


class ScheduleDetailApi(APIView):
    # JSON only: every field of the PATCH is optional, so a form body the parser cannot
    # read (and reads as empty) would pass as {}; a JSON body that is not an object is a 400.
    parser_classes = [JSONParser]

    permission_classes = [IsStaff]

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="A schedule (staff)",
        responses={200: ScheduleOutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, schedule_id: int) -> Response:
        return Response(ScheduleOutputSerializer(schedule_get(schedule_id=schedule_id)).data)

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="Change a schedule (staff)",
        request=ScheduleWriteSerializer(partial=True),
        responses={200: ScheduleOutputSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, schedule_id: int) -> Response:
        schedule = schedule_get(schedule_id=schedule_id)
        data = _valid(ScheduleWriteSerializer(data=request.data, partial=True))
        schedule_update(schedule=schedule, **data)
        return Response(ScheduleOutputSerializer(schedule_get(schedule_id=schedule_id)).data)

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="Delete a schedule (staff)",
        description="Its past tournaments stay.",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, schedule_id: int) -> Response:
        schedule_delete(schedule=schedule_get(schedule_id=schedule_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
