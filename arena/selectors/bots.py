"""Reads of bots and their versions, including the owner-only source file."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, QuerySet

from arena.models import Bot, BotVersion, Rating
from arena.selectors.filters import BotFilter, apply_filters
from arena.services.errors import Forbidden, NotFound

__all__ = ["bot_get", "bot_list", "bot_version_get", "bot_version_list", "version_source"]

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
    """One bot with its owner, active version and ratings (prefetched), or NotFound."""
    bot = (
        bot_list()
        .prefetch_related(Prefetch("ratings", queryset=Rating.objects.order_by("game")))
        .filter(pk=bot_id)
        .first()
    )
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    return bot


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    """The bot's versions, newest first, without their (owner-only, long) logs."""
    return BotVersion.objects.filter(bot=bot).defer(*VERSION_PRIVATE_TEXT).order_by("-number")


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
