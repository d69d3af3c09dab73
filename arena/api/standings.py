"""A tournament's standings, crosstable and exports: ``/api/tournaments/<id>/standings/``,
``standings.csv``, ``crosstable.csv``, ``notes.txt`` (what the CSVs' columns mean) and
``replays.zip``. Anyone may read them."""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.negotiation import AnyAcceptNegotiation
from arena.api.schema import errors
from arena.api.serializers import BotRefSerializer
from arena.http.downloads import csv_response, replays_zip_response, text_response
from arena.models import Tournament
from arena.selectors.matches import replays_of_tournament
from arena.selectors.standings import crosstable_csv, csv_notes, standings_csv
from arena.selectors.tournaments import tournament_get
from arena.services.tournaments import HOW_TO_READ, tournament_standings

__all__ = [
    "StandingsSerializer",
    "TournamentCrosstableCsvApi",
    "TournamentCsvNotesApi",
    "TournamentReplaysZipApi",
    "TournamentStandingsApi",
    "TournamentStandingsCsvApi",
    "standings_csv_response",
]

TAGS = ["tournaments"]


class _CellSerializer(serializers.Serializer):
    """How the row bot fared against the column bot over every match they shared."""

    matches = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The ids of all those matches, in order (the match list filters by pair: "
        "/api/matches/?tournament=<id>&bot=<row>&opponent=<col>).",
    )
    open = serializers.IntegerField(help_text="Of them, still to be played.")
    failed = serializers.IntegerField(help_text="Of them, not played (count for nobody).")
    ahead = serializers.IntegerField(help_text="Played matches the row bot placed ahead of it.")
    level = serializers.IntegerField(help_text="Played matches they placed level.")
    behind = serializers.IntegerField(help_text="Played matches the row bot placed behind it.")
    score = serializers.FloatField(help_text="ahead + level / 2: the row bot's points from them.")
    share = serializers.FloatField(
        allow_null=True, help_text="score / played matches: the row bot's score share (0-1)."
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="95% interval of the score share (the arena's one method, docs/api.md "
        '"Intervals"; a duplicate set counts as one draw); null before they played.',
    )
    result = serializers.ChoiceField(
        choices=["win", "loss", "draw"],
        allow_null=True,
        help_text="Over the played matches: win (ahead more often than behind), draw, loss; "
        "null before any is played.",
    )
    match_points = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Two seats only: [row bot, column bot] match points (the game's own score, "
        "e.g. Lie 21's games) over all their played matches.",
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
        "(two seats: a win 1, a draw 1/2); Swiss byes included."
    )
    points_interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="95% interval of its points if the same bots played again (its score "
        "share's interval over its matches, scaled to the points they could give); null "
        "before it played.",
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
        help_text="Likelihood of superiority over the next row: the share of bootstrap "
        "resamples of the tournament's matches (a duplicate set as one) in which it makes "
        "more points than that bot, level counting half; null on the last row or before "
        "any match.",
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
    byes = serializers.ListField(
        child=serializers.IntegerField(), help_text="The bots that sat this round out."
    )
    bye_brackets = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Eliminations: the bracket of each bye (winners, losers, round), in the "
        "order of byes; null in Swiss.",
    )


class StandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The shape of these standings (3).")
    tournament = serializers.IntegerField()
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    seats = serializers.IntegerField(help_text="Seats per match (the largest table).")
    matches_per_pairing = serializers.IntegerField()
    status = serializers.CharField()
    matches_total = serializers.IntegerField(help_text="Matches created so far.")
    matches_done = serializers.IntegerField(help_text="Matches over: played or failed.")
    matches_planned = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="[fewest, most] matches the whole tournament plays (rounds are created as "
        "it goes; a double elimination's grand final may be played again).",
    )
    how_to_read = serializers.CharField(help_text=HOW_TO_READ)
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
    body = standings_csv(tournament_standings(tournament=tournament), tournament=tournament)
    return csv_response(body, f"tournament-{tournament.pk}-standings.csv")


class TournamentCrosstableCsvApi(APIView):
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="A tournament's crosstable as CSV",
        description="One row per ordered pair of bots that shared a table (the bot, then "
        "the opponent, in rank order), summing every match of the pair as the standings' "
        "crosstable cell does; the columns are listed in docs/api.md and in `notes.txt`.",
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The crosstable."),
            **errors(404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = tournament_get(tournament_id=tournament_id)
        body = crosstable_csv(tournament_standings(tournament=tournament))
        return csv_response(body, f"tournament-{tournament.pk}-crosstable.csv")


class TournamentCsvNotesApi(APIView):
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="What a tournament's CSVs hold, as plain text",
        description="The tournament and its options, how to read the intervals (the "
        "standings' `how_to_read` and the crosstable's) and the meaning of every column of "
        "`standings.csv` and `crosstable.csv`.",
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The notes."),
            **errors(404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = tournament_get(tournament_id=tournament_id)
        body = csv_notes(tournament, how_to_read=HOW_TO_READ)
        return text_response(body, f"tournament-{tournament.pk}-notes.txt")


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
