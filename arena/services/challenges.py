"""Challenges and version comparisons: unrated matches an author asks for, and their verdict.

* A **challenge**: an owner seats one of its versions against chosen rivals (any public bot of
  the same game: an active bot's valid version, or one of the owner's own earlier versions)
  for N unrated matches. Each user may queue at most ``ARENA_CHALLENGE_MATCHES_PER_DAY``
  challenge matches in any rolling day (default 200; beyond it :class:`TooManyRequests`, a
  429 with ``Retry-After``) and at most :data:`MAX_MATCHES` per challenge.
* A **comparison**: when a new version becomes active, it plays
  ``ARENA_COMPARISON_MATCHES`` (default 20) unrated matches against its bot's last valid,
  unpaused earlier version (a paused or invalid one says nothing about progress), started by
  the platform, so the bot page can say "v5 vs v3: 58%, 95% interval 47%-68%".

For games whose deals are best played in duplicate (``Game.duplicate_helps``), matches come in
duplicate sets (the same deal once per seat rotation), which cancels the luck of the deal.
Tables larger than the chosen versions are filled with the game's built-in ``random`` bot.
The verdict (a read: ``arena.selectors.challenges.challenge_summary``) is the challenger's
**score** against the rivals: per match, 1 for each rival it placed ahead of, 1/2 per rival
level, divided by the rivals; reported as a share with a 95% interval by the arena's one
method for score shares (:func:`arena.algorithms.intervals.score_share`; docs/api.md, "Score
shares and their intervals"): a duplicate set is one unit weighted by the matches of it that
were played, and the verdict is significant when the interval leaves out 50%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from arena.errors import Forbidden, InvalidInput, NotFound, TooManyRequests
from arena.models import Bot, BotVersion, Challenge, Match
from arena.services.matches import duplicate_create, match_create, seconds_setting
from engine.registry import get_game

__all__ = [
    "MAX_MATCHES",
    "challenge_create",
    "challenge_quota_left",
    "comparison_baseline",
    "comparison_start",
]

#: Most matches one challenge may ask for.
MAX_MATCHES = 100


def matches_per_day() -> int:
    return int(seconds_setting("ARENA_CHALLENGE_MATCHES_PER_DAY", 200))


def comparison_matches() -> int:
    return int(seconds_setting("ARENA_COMPARISON_MATCHES", 20))


def challenge_quota_left(*, user: Any) -> int:
    """Challenge matches ``user`` may still ask for in the rolling day."""
    since = timezone.now() - timedelta(days=1)
    used = (
        Challenge.objects.filter(
            created_by=user, kind=Challenge.Kind.CHALLENGE, created__gte=since
        ).aggregate(total=Sum("matches_requested"))["total"]
        or 0
    )
    return max(0, matches_per_day() - used)


def _quota_frees_in(user: Any) -> int:
    """Seconds until the oldest challenge of the window leaves it (at least 1)."""
    since = timezone.now() - timedelta(days=1)
    oldest = (
        Challenge.objects.filter(created_by=user, kind=Challenge.Kind.CHALLENGE, created__gte=since)
        .order_by("created")
        .values_list("created", flat=True)
        .first()
    )
    if oldest is None:
        return 1
    return max(1, math.ceil((oldest + timedelta(days=1) - timezone.now()).total_seconds()))


def _filler(game: str) -> BotVersion | None:
    """The platform's built-in random bot of ``game``, to fill a table's empty seats."""
    from arena.services.builtins import ARENA_USERNAME, builtin_name

    bot = (
        Bot.objects.filter(owner__username=ARENA_USERNAME, name=builtin_name(game, "random"))
        .select_related("active_version__bot")
        .first()
    )
    return bot.active_version if bot is not None else None


def _table(version: BotVersion, rivals: Sequence[BotVersion]) -> list[BotVersion]:
    rules = get_game(version.bot.game)
    table = [version, *rivals]
    if len(table) > rules.max_players:
        raise InvalidInput(
            f"{rules.title} seats at most {rules.max_players} bots: choose at most "
            f"{rules.max_players - 1} rivals",
            code="too_many_rivals",
        )
    while len(table) < rules.min_players:
        filler = _filler(rules.name)
        if filler is None or filler in table:
            raise InvalidInput(
                f"{rules.title} needs {rules.min_players} bots: choose more rivals",
                code="too_few_rivals",
            )
        table.append(filler)
    return table


def _create_matches(challenge: Challenge, table: Sequence[BotVersion], matches: int) -> int:
    """Queue ``matches`` unrated matches (whole duplicate sets where the game allows)."""
    rules = get_game(challenge.game)
    kind = (
        Match.Kind.CHALLENGE
        if challenge.kind == Challenge.Kind.CHALLENGE
        else (Match.Kind.COMPARISON)
    )
    same_bot = len({v.bot_id for v in table}) < len(table)
    created = 0
    while created < matches:
        if getattr(rules, "duplicate_helps", False) and matches - created >= len(table):
            created += len(
                duplicate_create(
                    versions=table,
                    kind=kind,
                    challenge=challenge,
                    ranked=False,
                    same_bot=same_bot,
                )
            )
        else:
            shift = created % len(table)  # seats still turn round the table
            order = [table[(seat - shift) % len(table)] for seat in range(len(table))]
            match_create(
                versions=order, kind=kind, challenge=challenge, ranked=False, same_bot=same_bot
            )
            created += 1
    return created


def challenge_create(
    *, user: Any, version_id: int, rival_version_ids: Sequence[int], matches: int
) -> Challenge:
    """Challenge: the user's version against the rivals, ``matches`` unrated matches."""
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None:
        raise NotFound(f"There is no version {version_id}.")
    if version.bot.owner_id != user.pk:
        raise Forbidden("You can only challenge with your own bot's versions.")
    if version.status != BotVersion.Status.VALID:
        raise InvalidInput("only a valid version can play", code="version_not_valid")
    if not 1 <= matches <= MAX_MATCHES:
        raise InvalidInput(f"ask for 1 to {MAX_MATCHES} matches", code="bad_matches")
    if len(set(rival_version_ids)) != len(rival_version_ids) or version_id in rival_version_ids:
        raise InvalidInput("name each rival once, and not the challenger", code="bad_rivals")
    rivals = list(BotVersion.objects.select_related("bot").filter(pk__in=list(rival_version_ids)))
    by_id = {rival.pk: rival for rival in rivals}
    ordered = []
    for rival_id in rival_version_ids:
        rival = by_id.get(rival_id)
        if rival is None:
            raise NotFound(f"There is no version {rival_id}.")
        own = rival.bot.owner_id == user.pk and rival.bot_id == version.bot_id
        public = rival.bot.is_active and rival.bot.active_version_id == rival.pk
        if rival.bot.game != version.bot.game:
            raise InvalidInput("a rival must play the same game", code="game_mismatch")
        if rival.status != BotVersion.Status.VALID or not (own or public):
            raise InvalidInput(
                f"version {rival_id} cannot be challenged: only bots on the ladder (their "
                "active version) or your own earlier versions",
                code="rival_not_available",
            )
        ordered.append(rival)
    with transaction.atomic():
        # The user's row is locked, so two requests at once cannot both spend the last of it.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        left = challenge_quota_left(user=user)
        if matches > left:
            raise TooManyRequests(
                f"your challenge quota is {matches_per_day()} matches a day; {left} left",
                code="quota",
                retry_after=_quota_frees_in(user),
            )
        table = _table(version, ordered)
        challenge = Challenge.objects.create(
            kind=Challenge.Kind.CHALLENGE,
            game=version.bot.game,
            created_by=user,
            version=version,
            opponents=[v.pk for v in table[1:]],
            matches_requested=matches,
        )
        _create_matches(challenge, table, matches)
    return challenge


def comparison_baseline(*, version: BotVersion) -> BotVersion | None:
    """The version a new one is measured against: the bot's latest earlier version that is
    valid and not paused for its faults. Beating a version that crashes half its matches
    says nothing about progress, and would read as "significantly better"."""
    return (
        BotVersion.objects.filter(
            bot_id=version.bot_id,
            number__lt=version.number,
            status=BotVersion.Status.VALID,
            paused_at__isnull=True,
        )
        .select_related("bot")
        .order_by("-number")
        .first()
    )


def comparison_start(*, version_id: int) -> Challenge | None:
    """A new version against its bot's last valid, unpaused earlier version (once; None if
    there is none)."""
    version = BotVersion.objects.select_related("bot__owner").filter(pk=version_id).first()
    if version is None or version.status != BotVersion.Status.VALID:
        return None
    previous = comparison_baseline(version=version)
    count = comparison_matches()
    if previous is None or count < 1:
        return None
    with transaction.atomic():
        if Challenge.objects.filter(kind=Challenge.Kind.COMPARISON, version=version).exists():
            return None  # a redelivered task
        table = _table(version, [previous])
        challenge = Challenge.objects.create(
            kind=Challenge.Kind.COMPARISON,
            game=version.bot.game,
            created_by=version.bot.owner,
            version=version,
            opponents=[v.pk for v in table[1:]],
            matches_requested=count,
        )
        _create_matches(challenge, table, count)
    return challenge
