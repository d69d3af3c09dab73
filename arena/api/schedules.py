"""Organisers' schedules of recurring tournaments: ``/api/schedules/...`` (organisers only).

The services keep each schedule's beat PeriodicTask in step; the options are the
tournaments' own (``arena.api.tournament_options``), checked by the same function.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.algorithms.tournament_options import DEFAULTS, MAX_ROUNDS
from arena.api.fields import GameField, StrictBooleanField, StrictCharField, StrictIntegerField
from arena.api.pagination import Pagination
from arena.api.parsers import JSONParser
from arena.api.permissions import IsOrganiser
from arena.api.schema import errors
from arena.api.tournament_options import TournamentOptionsSerializer
from arena.crontabs import crontab_describe, next_due_times
from arena.models import Tournament, TournamentSchedule
from arena.models.tournaments import SCHEDULE_ENTRIES
from arena.selectors.schedules import schedule_get, schedule_list
from arena.services.schedules import schedule_create, schedule_delete, schedule_update

__all__ = ["ScheduleDetailApi", "ScheduleListCreateApi"]


def _valid(serializer: serializers.Serializer) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


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
    table_size = serializers.IntegerField(
        allow_null=True, help_text="Null: the game's smallest table at each run."
    )
    matches_per_pairing = serializers.IntegerField()
    duplicate = serializers.BooleanField()
    rated = serializers.BooleanField()
    entry = serializers.ChoiceField(choices=SCHEDULE_ENTRIES)
    entry_limit = serializers.IntegerField(allow_null=True)
    move_timeout_s = serializers.FloatField(allow_null=True)
    time_bank_s = serializers.FloatField(allow_null=True)
    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    created = serializers.DateTimeField()
    described = serializers.SerializerMethodField(
        help_text="The crontab in words (server time, UTC)."
    )
    next_runs = serializers.SerializerMethodField(
        help_text="The next three due times (UTC); empty while paused."
    )

    def get_described(self, schedule: TournamentSchedule) -> str:
        return crontab_describe(schedule.crontab)

    def get_next_runs(self, schedule: TournamentSchedule) -> list[str]:
        if not schedule.enabled:
            return []
        return [t.isoformat() for t in next_due_times(schedule.crontab, after=timezone.now())]


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
        default=DEFAULTS.entry,
        help_text="all (default) or top (needs entry_limit); signup is refused: a scheduled "
        "tournament starts at its due time.",
    )


class ScheduleListCreateApi(ListAPIView):
    """Recurring tournaments (organisers only)."""

    serializer_class = ScheduleOutputSerializer
    pagination_class = Pagination
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    permission_classes = [IsOrganiser]

    def get_queryset(self) -> Any:
        return schedule_list()

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="List schedules (organisers)",
        responses={200: ScheduleOutputSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="Create a schedule (organisers)",
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

    permission_classes = [IsOrganiser]

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="A schedule (organisers)",
        responses={200: ScheduleOutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, schedule_id: int) -> Response:
        return Response(ScheduleOutputSerializer(schedule_get(schedule_id=schedule_id)).data)

    @extend_schema(
        tags=SCHEDULE_TAGS,
        summary="Change a schedule (organisers)",
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
        summary="Delete a schedule (organisers)",
        description="Its past tournaments stay.",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, schedule_id: int) -> Response:
        schedule_delete(schedule=schedule_get(schedule_id=schedule_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
