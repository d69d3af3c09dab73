"""Reads of bots and their versions, including the owner-only source file, and what a bot's
page shows of them: its versions, rating history and the ladder's sparklines."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import F, Prefetch, QuerySet, Window
from django.db.models.functions import RowNumber

from arena.errors import Forbidden, NotFound
from arena.models import Bot, BotVersion, Rating, RatingHistory
from arena.selectors.filters import BotFilter, apply_filters

__all__ = [
    "RATING_HISTORY_CAP",
    "RatingPoint",
    "bot_brief",
    "bot_current_rating",
    "bot_get",
    "bot_list",
    "bot_page_get",
    "bot_rating_history",
    "bot_version_get",
    "bot_version_list",
    "bot_versions_for_page",
    "rating_sparklines",
    "version_rating",
    "version_rating_history",
    "version_source",
    "version_status",
]

log = logging.getLogger(__name__)

# Owner-only text that can be long: lists never load it.
VERSION_PRIVATE_TEXT = ("validation_log", "error_output")


def bot_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Bot]:
    """Bots by name with their owner and active version number, in a constant number of queries.

    ``filters`` takes the :class:`~arena.selectors.filters.BotFilter` parameters
    (``game``, ``owner``, ``is_active``, ``search``).
    """
    queryset = Bot.objects.select_related("owner", "active_version").defer(
        *(f"active_version__{name}" for name in VERSION_PRIVATE_TEXT)
    )
    return apply_filters(BotFilter, queryset, filters)


def bot_get(*, bot_id: int) -> Bot:
    """One bot with its owner, active version and its versions' ratings (prefetched, newest
    version first), or NotFound."""
    ratings = Rating.objects.select_related("version").order_by("-version__number")
    bot = (
        bot_list()
        .prefetch_related(
            Prefetch(
                "ratings",
                queryset=ratings.defer("version__validation_log", "version__error_output"),
            )
        )
        .filter(pk=bot_id)
        .first()
    )
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    return bot


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    """The bot's versions, newest first, each with its bot and its rating (``rating`` is
    missing on a version without one), without their (owner-only, long) logs: one query."""
    return (
        BotVersion.objects.filter(bot=bot)
        .select_related("bot", "rating")
        .defer(*VERSION_PRIVATE_TEXT, "bot__description")
        .order_by("-number")
    )


#: Most points of a version's rating history its page and API show.
RATING_HISTORY_CAP = 200


def version_rating(*, version: BotVersion) -> Rating | None:
    """The version's rating and record, or None before it has one."""
    return Rating.objects.filter(version=version).first()


def version_rating_history(
    *, version: BotVersion, limit: int = RATING_HISTORY_CAP
) -> list[RatingHistory]:
    """The version's rating after each of its last ``limit`` rated matches, oldest first
    (one query on the ``rating_history_version`` index)."""
    newest = RatingHistory.objects.filter(version=version).order_by("-created", "-id")
    fields = ("match", "rating", "rating_sigma", "mu", "sigma", "created")
    return list(reversed(newest.only(*fields)[:limit]))


def bot_version_get(*, bot: Bot, number: int) -> BotVersion:
    """Version ``number`` of ``bot`` (logs included: callers decide who sees them)."""
    version = BotVersion.objects.filter(bot=bot, number=number).select_related("bot").first()
    if version is None:
        raise NotFound(f"Bot {bot.pk} has no version {number}.")
    return version


def version_source(*, version: BotVersion, user: AbstractBaseUser | AnonymousUser) -> bytes:
    """The bytes the author uploaded, for the bot's owner only (anyone else: Forbidden).

    A bot's code is its author's edge on the ladder, so this is the one way out for it and
    the rule lives here rather than in each view. Files are at most ARENA_UPLOAD_MAX_BYTES,
    so they are read whole.
    """
    if not user.is_authenticated or version.bot.owner_id != user.pk:
        raise Forbidden("Only the bot's owner may download its source.")
    try:
        with version.file.open("rb") as handle:
            return handle.read()
    except FileNotFoundError:
        # The row outlived its file (a restored database, a wiped volume): say so plainly.
        log.warning("source of %s is missing from storage: %s", version, version.file.name)
        raise NotFound(
            f"The file of version {version.number} is missing.", code="source_missing"
        ) from None


# --- the bot page -------------------------------------------------------------------------


def bot_page_get(*, bot_id: int) -> Bot:
    """A bot with its owner and active version (without the version's owner-only logs), for
    its page: one query, or NotFound."""
    bot = (
        Bot.objects.select_related("owner", "active_version")
        .defer("active_version__validation_log", "active_version__error_output")
        .filter(pk=bot_id)
        .first()
    )
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    return bot


def bot_versions_for_page(
    *, bot: Bot, user: AbstractBaseUser | AnonymousUser
) -> QuerySet[BotVersion]:
    """The bot's versions, newest first, each with its rating (if it has one) in the same
    query; the owner-only logs are loaded for the owner only.

    Deferring the logs for everyone else keeps them out of memory (and out of any template
    mistake) on a page they must never appear on.
    """
    versions = BotVersion.objects.filter(bot=bot).select_related("rating").order_by("-number")
    if user.is_authenticated and user.pk == bot.owner_id:
        return versions
    return versions.defer("validation_log", "error_output")


def bot_current_rating(*, bot: Bot) -> Rating | None:
    """The rating of the bot's version on the ladder (its current one), or None."""
    return Rating.objects.select_related("version").filter(bot=bot, current=True).first()


def version_status(*, bot_id: int, number: int) -> dict[str, Any]:
    """A version's public validation state, for the upload page to poll (one small query)."""
    row = (
        BotVersion.objects.filter(bot_id=bot_id, number=number)
        .values("number", "status", "validated_at")
        .first()
    )
    if row is None:
        raise NotFound(f"Bot {bot_id} has no version {number}.")
    return {
        "number": row["number"],
        "status": row["status"],
        "done": row["status"] != BotVersion.Status.PENDING,
        "validated_at": row["validated_at"].isoformat() if row["validated_at"] else None,
    }


def bot_brief(*, bot_id: int) -> Bot | None:
    """A bot's name, game and owner only (the heading of its match list), or None."""
    return (
        Bot.objects.select_related("owner")
        .only("name", "game", "owner__username", "is_builtin")
        .filter(pk=bot_id)
        .first()
    )


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A point of a rating chart: the displayed rating after a rated match."""

    rating: float
    rating_sigma: float
    version: int  # the version's number


def bot_rating_history(
    *, bot: Bot, limit: int = 300, version_numbers: Mapping[int, int] | None = None
) -> list[RatingPoint]:
    """The displayed rating of each of the bot's versions after each of its last ``limit``
    rated matches that a refit has reached, oldest first (a chart draws one line).

    One read of the ``rating_history_bot`` index, which holds every value drawn (no table
    row is read); each point's version number comes from ``version_numbers`` (version id
    to number: the versions the page has already read), and those missing from it from one
    more small query."""
    rows = list(
        RatingHistory.objects.filter(bot=bot, rating__isnull=False)
        .order_by("-created", "-id")
        .values_list("rating", "rating_sigma", "version_id")[:limit]
    )
    numbers = dict(version_numbers or {})
    missing = {row[2] for row in rows} - numbers.keys()
    if missing:
        numbers.update(
            BotVersion.objects.filter(pk__in=missing).values_list("pk", "number").iterator()
        )
    return [
        RatingPoint(rating, sigma, numbers[version_id])
        for rating, sigma, version_id in reversed(rows)
        if rating is not None and sigma is not None  # the query asks for a rating
    ]


#: Each version's newest history points by the ``rating_history_version`` index (version,
#: created, id; it holds the rating): PostgreSQL reads exactly ``points`` index entries per
#: version, where numbering every version's whole history read all of it (a page of fifty
#: ladder bots with 200 matches each: 10,000 rows for 1,000 points).
_SPARKLINES_SQL = """
SELECT v.id, h.rating
FROM unnest(%(versions)s::bigint[]) AS v(id)
CROSS JOIN LATERAL (
    SELECT r.rating, r.created, r.id FROM {history} r
    WHERE r.version_id = v.id AND r.rating IS NOT NULL
    ORDER BY r.created DESC, r.id DESC
    LIMIT %(points)s
) AS h
ORDER BY v.id, h.created, h.id
"""


def rating_sparklines(*, version_ids: Sequence[int], points: int = 20) -> dict[int, list[float]]:
    """The displayed rating after each of the last ``points`` rated matches of each version
    (those a refit has reached), oldest first, in one query that reads at most ``points``
    rows per version, however long the histories are (:data:`_SPARKLINES_SQL`; elsewhere
    than on PostgreSQL, a window numbers each version's history and keeps its newest).
    """
    if not version_ids:
        return {}
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(RatingHistory._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                _SPARKLINES_SQL.format(history=table),
                {"versions": list(version_ids), "points": points},
            )
            rows = cursor.fetchall()
    else:
        rows = list(
            RatingHistory.objects.filter(version_id__in=list(version_ids), rating__isnull=False)
            .annotate(
                newest=Window(
                    RowNumber(),
                    partition_by=[F("version_id")],
                    order_by=[F("created").desc(), F("id").desc()],
                )
            )
            .filter(newest__lte=points)
            .order_by("version_id", "created", "id")
            .values_list("version_id", "rating")
        )
    series: dict[int, list[float]] = defaultdict(list)
    for version_id, rating in rows:
        series[version_id].append(rating)
    return dict(series)
