"""Reads of bots and their versions, including the owner-only source file."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, QuerySet

from arena.errors import Forbidden, NotFound
from arena.models import Bot, BotVersion, Rating, RatingHistory
from arena.selectors.filters import BotFilter, apply_filters

__all__ = [
    "RATING_HISTORY_CAP",
    "bot_get",
    "bot_list",
    "bot_version_get",
    "bot_version_list",
    "version_rating",
    "version_rating_history",
    "version_source",
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
