"""Bots and their versions: ``/api/bots/...``.

Who sees what: bots are public. A version's number, status and dates are public; its file
name, hash, logs and source are its owner's only (``null`` in the versions' JSON for
everyone else, 403 for the source). Staff use the admin for the rest.

Ratings are per version: a bot lists each version's rating and record, a version shows its
own with its rating history (see docs/api.md, "Ratings, per version").
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from arena.api.challenges import ChallengeSummarySerializer
from arena.api.fields import GameField, StrictCharField
from arena.api.filtering import FilterBackend
from arena.api.negotiation import AnyAcceptNegotiation
from arena.api.pagination import Pagination
from arena.api.parsers import JSONParser
from arena.api.schema import errors
from arena.api.serializers import RatingRecordSerializer
from arena.http.requests import SignedInApiRequest
from arena.http.throttles import UploadRateThrottle
from arena.models import Bot, BotVersion, Rating
from arena.models.bots import BOT_NAME
from arena.selectors.bots import (
    RATING_HISTORY_CAP,
    bot_get,
    bot_list,
    bot_version_get,
    bot_version_list,
    version_rating,
    version_rating_history,
    version_source,
)
from arena.selectors.challenges import version_comparison
from arena.selectors.filters import BotFilter
from arena.selectors.stats import RECENT_MATCHES, version_stats
from arena.services.bots import bot_create, bot_deactivate, bot_update, bot_version_upload

TAGS = ["bots"]


class BotOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    game = serializers.CharField()
    description = serializers.CharField()
    is_active = serializers.BooleanField(help_text="False once deactivated: off the ladder.")
    is_builtin = serializers.BooleanField()
    active_version = serializers.IntegerField(
        source="active_version.number",
        allow_null=True,
        help_text="Number of the version it plays with (the latest valid one).",
    )
    paused = serializers.SerializerMethodField(
        help_text="Its active version is paused from the ladder for its faults "
        "(see pause_reason); a new upload brings it back."
    )
    pause_reason = serializers.SerializerMethodField(
        help_text="Why the active version is paused, or null."
    )
    created = serializers.DateTimeField()

    def get_paused(self, bot: Bot) -> bool:
        return bool(bot.active_version and bot.active_version.is_paused)

    def get_pause_reason(self, bot: Bot) -> str | None:
        version = bot.active_version
        return version.pause_reason if version is not None and version.is_paused else None


class VersionRatingSerializer(RatingRecordSerializer):
    """One version's rating and record (ratings are per version)."""

    LEADING = ("version", "current")

    version = serializers.IntegerField(source="version.number", help_text="The version's number.")
    current = serializers.BooleanField(
        help_text="The bot's ladder entry: the rating of the version it plays with."
    )


class ComparisonSerializer(serializers.Serializer):
    """A version against its bot's last valid, unpaused earlier version: "v3 vs v1"."""

    challenge = serializers.IntegerField(
        source="challenge.pk", help_text="The comparison's id under /api/challenges/ (owner)."
    )
    version = serializers.IntegerField(help_text="The new version's number.")
    previous = serializers.IntegerField(
        help_text="The number of the version it played: the bot's last valid, unpaused "
        "version before it."
    )
    summary = ChallengeSummarySerializer()


class VersionStatsSerializer(serializers.Serializer):
    """A version's statistics over its finished matches (rated or not)."""

    matches = serializers.IntegerField(help_text="Finished matches, rated or not.")
    faults = serializers.DictField(
        child=serializers.IntegerField(), help_text="Matches lost by its own fault, by kind."
    )
    fault_rate = serializers.FloatField(allow_null=True)
    mean_place = serializers.FloatField(allow_null=True, help_text="Mean place, 1 = first.")
    first_places = serializers.IntegerField()
    decision_ms_mean = serializers.FloatField(allow_null=True)
    decision_ms_p95 = serializers.FloatField(allow_null=True)
    decision_ms_max = serializers.FloatField(allow_null=True)
    decisions = serializers.IntegerField(help_text="Decisions the times were measured on.")
    game_stats = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="The game's own numbers (its `stats`), mean per match.",
    )
    sample = serializers.IntegerField(
        help_text=f"Its last matches (at most {RECENT_MATCHES}) the times and game stats "
        "were read from."
    )


def _comparison(version: BotVersion | None) -> dict[str, Any] | None:
    found = version_comparison(version=version) if version is not None else None
    return ComparisonSerializer(found).data if found is not None else None


class BotDetailOutputSerializer(BotOutputSerializer):
    ratings = VersionRatingSerializer(
        many=True,
        help_text="Each rated version's rating and record, newest version first. A new "
        "version's rating starts from the previous version's, its interval reset to the "
        "widest.",
    )
    comparison = serializers.SerializerMethodField(
        help_text="The active version against the previous one (unrated matches), or null."
    )

    @extend_schema_field(ComparisonSerializer(allow_null=True))
    def get_comparison(self, bot: Bot) -> dict[str, Any] | None:
        return _comparison(bot.active_version)


class BotListCreateApi(ListAPIView):
    """Bots, by name; filter by ``game``, ``owner`` (username), ``is_active``; ``search``."""

    serializer_class = BotOutputSerializer
    pagination_class = Pagination
    filter_backends = [FilterBackend]
    filterset_class = BotFilter

    class BotCreateSerializer(serializers.Serializer):
        name = StrictCharField(max_length=48, validators=[BOT_NAME])
        game = GameField()
        description = StrictCharField(max_length=2000, allow_blank=True, default="")

    def get_queryset(self) -> Any:
        return bot_list()

    @extend_schema(
        tags=TAGS,
        summary="List bots",
        responses={200: BotOutputSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Create a bot",
        request=BotCreateSerializer,
        responses={201: BotDetailOutputSerializer, **errors(400, 401, 409)},
    )
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(self.BotCreateSerializer, request)
        bot = bot_create(owner=request.user, **data)
        return Response(BotDetailOutputSerializer(bot_get(bot_id=bot.pk)).data, status=201)


class BotDetailApi(APIView):
    # JSON only: every field of the PATCH is optional, so a form body the parser cannot
    # read (and reads as empty) would pass as {}; a JSON body that is not an object is a 400.
    parser_classes = [JSONParser]

    class BotUpdateSerializer(serializers.Serializer):
        description = StrictCharField(max_length=2000, allow_blank=True, required=False)

    @extend_schema(
        tags=TAGS, summary="A bot", responses={200: BotDetailOutputSerializer, **errors(404)}
    )
    def get(self, request: Request, bot_id: int) -> Response:
        return Response(BotDetailOutputSerializer(bot_get(bot_id=bot_id)).data)

    @extend_schema(
        tags=TAGS,
        summary="Edit a bot's description (owner)",
        request=BotUpdateSerializer,
        responses={200: BotDetailOutputSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, bot_id: int) -> Response:
        data = _valid(self.BotUpdateSerializer, request)
        bot = bot_get(bot_id=bot_id)
        # A partial update: {} changes nothing (but is still refused to anyone but the owner).
        description = data.get("description", bot.description)
        bot = bot_update(bot=bot, user=request.user, description=description)
        return Response(BotDetailOutputSerializer(bot_get(bot_id=bot.pk)).data)


class BotDeactivateApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Deactivate a bot (owner)",
        description="Takes the bot off the ladder for good; its versions and matches stay. "
        "Idempotent.",
        request=None,
        responses={200: BotDetailOutputSerializer, **errors(401, 403, 404)},
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_deactivate(bot=bot_get(bot_id=bot_id), user=request.user)
        return Response(BotDetailOutputSerializer(bot_get(bot_id=bot.pk)).data)


class VersionRecordSerializer(RatingRecordSerializer):
    """A version's rating and record, as its own endpoints show it."""

    LEADING = ("current",)

    current = serializers.BooleanField(help_text="Its bot's ladder entry (the active version).")


class RatingPointSerializer(serializers.Serializer):
    """A version's ratings right after one rated match."""

    match = serializers.IntegerField(source="match_id", help_text="The rated match.")
    rating = serializers.FloatField(
        allow_null=True,
        help_text="The displayed rating as the first refit after the match gave it (null for "
        "a few seconds, until that refit).",
    )
    rating_sigma = serializers.FloatField(allow_null=True)
    mu = serializers.FloatField(help_text="The live TrueSkill rating the match left.")
    sigma = serializers.FloatField()
    created = serializers.DateTimeField()


class VersionOutputSerializer(serializers.Serializer):
    """A version; the owner-only fields are ``null`` for anyone but the bot's owner."""

    PRIVATE: tuple[str, ...] = ("filename", "sha256")

    id = serializers.IntegerField(help_text="The version's id (the match list's `version` filter).")
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=BotVersion.Status.choices)
    kind = serializers.ChoiceField(choices=BotVersion.Kind.choices)
    size = serializers.IntegerField(help_text="Bytes, as uploaded.")
    created = serializers.DateTimeField()
    validated_at = serializers.DateTimeField(allow_null=True)
    is_active = serializers.SerializerMethodField(help_text="Whether the bot plays with it.")
    paused_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When it was paused from the ladder for its faults (null: not paused).",
    )
    pause_reason = serializers.CharField(help_text="Why it was paused ('' when not).")
    filename = serializers.CharField(allow_null=True, help_text="Owner only.")
    sha256 = serializers.CharField(allow_null=True, help_text="Owner only.")
    rating = serializers.SerializerMethodField(
        help_text="The version's own rating and record; null until it has one (a version "
        "gets its rating when it first plays or becomes active)."
    )

    def get_is_active(self, version: BotVersion) -> bool:
        return version.bot.active_version_id == version.pk

    @extend_schema_field(VersionRecordSerializer(allow_null=True))
    def get_rating(self, version: BotVersion) -> dict[str, Any] | None:
        rating = self._rating(version)
        return VersionRecordSerializer(rating).data if rating is not None else None

    def _rating(self, version: BotVersion) -> Rating | None:
        # Selected with the version (a reverse one-to-one: missing reads as no attribute).
        return getattr(version, "rating", None)

    def to_representation(self, instance: BotVersion) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not self.context.get("is_owner", False):  # private unless told otherwise
            data.update(dict.fromkeys(self.PRIVATE))
        return data


class VersionDetailOutputSerializer(VersionOutputSerializer):
    PRIVATE = (*VersionOutputSerializer.PRIVATE, "validation_log", "error_output")

    validation_log = serializers.CharField(allow_null=True, help_text="Owner only.")
    error_output = serializers.CharField(
        allow_null=True, help_text="What the bot printed while validated. Owner only."
    )
    rating_history = serializers.SerializerMethodField(
        help_text=f"The rating after each of its last {RATING_HISTORY_CAP} rated matches, "
        "oldest first (every match of a version: the match list's `version` filter)."
    )

    comparison = serializers.SerializerMethodField(
        help_text="This version against the previous one (unrated matches), or null."
    )
    stats = serializers.SerializerMethodField(help_text="Its statistics; null until it is valid.")

    @extend_schema_field(RatingPointSerializer(many=True))
    def get_rating_history(self, version: BotVersion) -> list[dict[str, Any]]:
        # many=True makes a ListSerializer, whose data is a list: the stubs see one Serializer.
        return RatingPointSerializer(self.context["rating_history"], many=True).data  # type: ignore[return-value]

    @extend_schema_field(ComparisonSerializer(allow_null=True))
    def get_comparison(self, version: BotVersion) -> dict[str, Any] | None:
        return _comparison(version)

    @extend_schema_field(VersionStatsSerializer(allow_null=True))
    def get_stats(self, version: BotVersion) -> dict[str, Any] | None:
        if version.status != BotVersion.Status.VALID:
            return None
        return VersionStatsSerializer(version_stats(version=version)).data

    def _rating(self, version: BotVersion) -> Rating | None:
        return self.context["rating"]  # the view reads it (a version alone has none joined)


class BotVersionListUploadApi(ListAPIView):
    """The bot's versions, newest first; its owner uploads new ones here."""

    serializer_class = VersionOutputSerializer
    filter_backends = []  # not the settings' search and ordering: no such parameters here
    pagination_class = Pagination
    parser_classes = [MultiPartParser]

    class VersionUploadSerializer(serializers.Serializer):
        file = serializers.FileField(
            allow_empty_file=True,  # an empty .py is refused by read_bot, with its reason
            help_text="A .py file, or a .zip with bot.py at its root; at most "
            "ARENA_UPLOAD_MAX_BYTES (1 MiB by default).",
        )

    def get_throttles(self) -> list[BaseThrottle]:
        return [UploadRateThrottle()] if self.request.method == "POST" else []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the view
            return BotVersion.objects.none()
        self.bot = bot_get(bot_id=self.kwargs["bot_id"])
        return bot_version_list(bot=self.bot)

    def get_serializer_context(self) -> dict[str, Any]:
        bot = getattr(self, "bot", None)
        is_owner = bot is not None and _is_owner(self.request, bot)
        return {**super().get_serializer_context(), "is_owner": is_owner}

    @extend_schema(
        tags=TAGS,
        summary="List a bot's versions",
        responses={200: VersionOutputSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        summary="Upload a new version (owner)",
        description="Stores the file as the next version (1, 2, 3...) and queues its "
        "validation; `status` is `pending` until a worker has run it. Rejections carry the "
        "problem in `code`: `bad_type`, `bad_zip`, `unsafe_path`, `symlink`, `too_many_files`, "
        "`zip_bomb`, `no_bot_py`, `not_utf8`, `syntax_error` (message names the line), "
        "`no_entry_point`, `one_file` (two `file` parts) (400); `too_large` (413, also a "
        "chunked body as soon as it runs past the limit); `length_required` (411: a chunked "
        "body to a server that cannot read one, e.g. `runserver`); "
        "`duplicate_version` (409: the same bytes as the latest version).",
        request={"multipart/form-data": VersionUploadSerializer},
        responses={
            201: VersionDetailOutputSerializer,
            **errors(400, 401, 403, 404, 409, 411, 413, 429),
        },
    )
    def post(self, request: Request, bot_id: int) -> Response:
        if len(request.FILES.getlist("file")) > 1:  # the serializer would keep the last one
            raise serializers.ValidationError(
                {"file": ["One file per upload: put several files in a .zip with bot.py."]},
                code="one_file",
            )
        data = _valid(self.VersionUploadSerializer, request)
        version = bot_version_upload(
            bot=bot_get(bot_id=bot_id), user=request.user, upload=data["file"]
        )
        # Nothing played yet.
        context: dict[str, Any] = {"is_owner": True, "rating": None, "rating_history": []}
        body = VersionDetailOutputSerializer(version, context=context).data
        return Response(body, status=status.HTTP_201_CREATED)


class BotVersionDetailApi(APIView):
    @extend_schema(
        tags=TAGS,
        summary="A version, its rating and rating history; its logs for the owner",
        responses={200: VersionDetailOutputSerializer, **errors(404)},
    )
    def get(self, request: Request, bot_id: int, number: int) -> Response:
        version = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
        context = {
            "is_owner": _is_owner(request, version.bot),
            "rating": version_rating(version=version),
            "rating_history": version_rating_history(version=version),
        }
        return Response(VersionDetailOutputSerializer(version, context=context).data)


_CONTENT_TYPES: dict[str, str] = {
    BotVersion.Kind.PY: "text/x-python; charset=utf-8",
    BotVersion.Kind.ZIP: "application/zip",
}


class BotVersionSourceApi(APIView):
    permission_classes = [IsAuthenticated]
    content_negotiation_class = AnyAcceptNegotiation

    @extend_schema(
        tags=TAGS,
        summary="Download a version's file (owner)",
        responses={
            (200, "text/x-python"): OpenApiResponse(
                OpenApiTypes.BINARY, description="A .py upload."
            ),
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="A .zip upload."
            ),
            **errors(401, 403, 404),
        },
    )
    def get(self, request: Request, bot_id: int, number: int) -> HttpResponse:
        version = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
        data = version_source(version=version, user=request.user)
        response = HttpResponse(data, content_type=_CONTENT_TYPES[version.kind])
        # Django quotes the name (or RFC 5987-encodes it), so no file name breaks the header.
        response["Content-Disposition"] = content_disposition_header(True, version.filename)
        return response


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _is_owner(request: Request, bot: Bot) -> bool:
    return request.user.is_authenticated and bot.owner_id == request.user.pk
