"""Reads of challenges and version comparisons, and who may see them.

A challenge is seen by the user who asked for it, the owners of the rivals' bots (their bots
played it) and staff; to anyone else it does not exist (a 404, so its id reveals nothing).
A comparison ("v2 vs v1") is the bot's own business on the same terms, but its verdict is
public on the bot and version pages, like the ratings the same matches could have moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from arena.models import Bot, BotVersion, Challenge, Match, MatchSeat
from arena.selectors.matches import match_list
from arena.services.challenges import ChallengeSummary, challenge_summaries, challenge_summary
from arena.services.errors import NotFound
from engine.registry import get_game

__all__ = [
    "ChallengeView",
    "Comparison",
    "challenge_choices",
    "challenge_get",
    "challenge_list",
    "challenge_rivals",
    "challenge_rows",
    "challenge_view",
    "version_comparison",
]


def _visible(user: Any) -> QuerySet[Challenge]:
    challenges = Challenge.objects.select_related("version__bot__owner", "created_by")
    if not user.is_authenticated:
        return challenges.none()
    if user.is_staff:
        return challenges
    played = MatchSeat.objects.filter(bot__owner=user, match__challenge__isnull=False).values(
        "match__challenge_id"
    )
    return challenges.filter(Q(created_by=user) | Q(pk__in=played))


def challenge_list(*, user: Any) -> QuerySet[Challenge]:
    """The challenges ``user`` may see, newest first (none for an anonymous user)."""
    return _visible(user).order_by("-created", "-id")


def challenge_get(*, challenge_id: int, user: Any) -> Challenge:
    """One challenge, if ``user`` may see it; otherwise :class:`NotFound`."""
    challenge = _visible(user).filter(pk=challenge_id).first()
    if challenge is None:
        raise NotFound(f"There is no challenge {challenge_id}.")
    return challenge


def challenge_rivals(*, challenge: Challenge) -> list[BotVersion]:
    """The versions the challenger faced, in the order chosen (fillers included)."""
    by_id = BotVersion.objects.select_related("bot__owner").in_bulk(challenge.opponents)
    return [by_id[pk] for pk in challenge.opponents if pk in by_id]


@dataclass(frozen=True, slots=True)
class ChallengeView:
    challenge: Challenge
    rivals: list[BotVersion]
    summary: ChallengeSummary
    matches: list[Match]


def challenge_view(*, challenge: Challenge) -> ChallengeView:
    """Everything a challenge's page and API show: its table, verdict and matches."""
    return ChallengeView(
        challenge=challenge,
        rivals=challenge_rivals(challenge=challenge),
        summary=challenge_summary(challenge=challenge),
        matches=list(match_list().filter(challenge=challenge)),
    )


def challenge_rows(*, challenges: list[Challenge]) -> list[ChallengeView]:
    """A list page's rows: each challenge's table, verdict and matches (their ids only), in
    four queries however many rows."""
    summaries = challenge_summaries(challenges=challenges)
    matches: dict[int, list[Match]] = {challenge.pk: [] for challenge in challenges}
    for match in (
        Match.objects.filter(challenge__in=challenges).only("id", "challenge_id").order_by("-id")
    ):
        matches[match.challenge_id].append(match)
    wanted = {pk for challenge in challenges for pk in challenge.opponents}
    versions = BotVersion.objects.select_related("bot__owner").in_bulk(list(wanted))
    return [
        ChallengeView(
            challenge=challenge,
            rivals=[versions[pk] for pk in challenge.opponents if pk in versions],
            summary=summaries[challenge.pk],
            matches=matches[challenge.pk],
        )
        for challenge in challenges
    ]


@dataclass(frozen=True, slots=True)
class Comparison:
    """A version against its bot's last valid, unpaused earlier version: "v3 vs v1: 58%, 95%
    interval 47%-68%"."""

    challenge: Challenge
    version: int  # the new version's number
    previous: int  # the earlier version's number
    summary: ChallengeSummary
    skipped: str = ""  # the versions between them and why: "v2 (paused)"


def version_comparison(*, version: BotVersion) -> Comparison | None:
    """The version's comparison with the previous one, or None if it has none (yet)."""
    challenge = (
        Challenge.objects.filter(kind=Challenge.Kind.COMPARISON, version=version)
        .order_by("-created")
        .first()
    )
    if challenge is None or not challenge.opponents:
        return None
    previous = (
        BotVersion.objects.filter(pk=challenge.opponents[0])
        .values_list("number", flat=True)
        .first()
        or 0
    )
    between = BotVersion.objects.filter(
        bot_id=version.bot_id, number__gt=previous, number__lt=version.number
    ).order_by("number")
    skipped = ", ".join(
        f"v{other.number} ({'paused' if other.is_paused else other.get_status_display().lower()})"
        for other in between
    )
    return Comparison(
        challenge=challenge,
        version=version.number,
        previous=previous,
        summary=challenge_summary(challenge=challenge),
        skipped=skipped,
    )


def challenge_choices(*, user: Any) -> tuple[list[tuple[int, str]], list[tuple[str, list]]]:
    """What a challenge form offers ``user``: its valid versions, and the rivals by game (the
    ladder's bots at their current version, and the user's own valid versions)."""
    own = list(
        BotVersion.objects.filter(bot__owner=user, status=BotVersion.Status.VALID)
        .select_related("bot")
        .order_by("bot__name", "-number")
    )
    games = sorted({version.bot.game for version in own})
    ladder = (
        Bot.objects.filter(game__in=games, is_active=True, active_version__isnull=False)
        .select_related("owner", "active_version")
        .order_by("name")
    )
    rivals: dict[str, list[tuple[int, str]]] = {game: [] for game in games}
    offered = set()
    for bot in ladder:  # the user's own bots on the ladder too: they are public
        label = f"{bot.name} v{bot.active_version.number} · {bot.owner.username}"
        rivals[bot.game].append((bot.active_version_id, label))
        offered.add(bot.active_version_id)
    for version in own:  # and its own earlier versions (of the bot it challenges with)
        if version.pk not in offered:
            label = f"{version.bot.name} v{version.number} (yours)"
            rivals[version.bot.game].append((version.pk, label))
    versions = [
        (version.pk, f"{version.bot.name} v{version.number} ({get_game(version.bot.game).title})")
        for version in own
    ]
    return versions, [(get_game(game).title, rivals[game]) for game in games]
