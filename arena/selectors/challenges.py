"""Reads of challenges and version comparisons, and who may see them.

A challenge is seen by the user who asked for it, the owners of the rivals' bots (their bots
played it) and staff; to anyone else it does not exist (a 404, so its id reveals nothing).
A comparison ("v2 vs v1") is the bot's own business on the same terms, but its verdict is
public on the bot and version pages, like the ratings the same matches could have moved.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from arena.algorithms.intervals import score_share
from arena.errors import NotFound
from arena.models import Bot, BotVersion, Challenge, Match, MatchSeat
from arena.selectors.matches import match_list
from engine.registry import get_game

__all__ = [
    "ChallengeChoice",
    "ChallengeChoices",
    "ChallengeSummary",
    "ChallengeView",
    "Comparison",
    "challenge_choices",
    "challenge_get",
    "challenge_list",
    "challenge_rivals",
    "challenge_rows",
    "challenge_summaries",
    "challenge_summary",
    "challenge_view",
    "version_comparison",
    "version_game",
]


# --- a challenge's verdict (its score share against the rivals, with its interval) ---------


@dataclass(frozen=True, slots=True)
class ChallengeSummary:
    played: int
    open: int  # queued or running
    failed: int
    score: float | None  # the challenger's share against its rivals, 0..1
    low: float | None  # 95% interval of the score (arena.algorithms.intervals)
    high: float | None
    significant: bool  # the interval leaves out one half
    wins: int  # matches it placed ahead of every rival
    draws: int
    losses: int
    units: int = 0  # independent units the interval is drawn from (matches, or duplicate sets)

    @property
    def done(self) -> bool:
        return self.open == 0

    @property
    def verdict(self) -> str:
        """``better``, ``worse`` (the interval leaves out one half on that side) or ``unsure``."""
        if not self.significant or self.low is None or self.high is None:
            return "unsure"
        return "better" if self.low > 0.5 else "worse"


def challenge_summary(*, challenge: Challenge) -> ChallengeSummary:
    """The challenger's score so far, with its 95% interval (two queries)."""
    return challenge_summaries(challenges=[challenge])[challenge.pk]


def challenge_summaries(*, challenges: Sequence[Challenge]) -> dict[int, ChallengeSummary]:
    """:func:`challenge_summary` of each challenge, by id, in two queries for them all."""
    ids = [challenge.pk for challenge in challenges]
    matches: dict[int, dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for row in Match.objects.filter(challenge_id__in=ids).values(
        "id", "status", "duplicate_key", "challenge_id"
    ):
        matches[row["challenge_id"]][row["id"]] = row
    by_match: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for seat in MatchSeat.objects.filter(match__challenge_id__in=ids).values(
        "match_id", "version_id", "placing"
    ):
        by_match[seat["match_id"]].append(seat)
    return {
        challenge.pk: _summarize(challenge.version_id, matches[challenge.pk], by_match)
        for challenge in challenges
    }


def _summarize(
    version_id: int,
    matches: dict[int, Mapping[str, Any]],
    by_match: dict[int, list[Mapping[str, Any]]],
) -> ChallengeSummary:
    """Score and interval by :func:`arena.algorithms.intervals.score_share`: a unit is a
    duplicate set (its matches share their deals) or a single match, weighted by the matches
    of it that were played, so a set cut short counts for what was played."""
    units: dict[str, list[float]] = defaultdict(list)  # by duplicate set (or by match)
    wins = draws = losses = 0
    for match_id, match in matches.items():
        if match["status"] != Match.Status.DONE:
            continue
        table = by_match[match_id]
        mine = [s for s in table if s["version_id"] == version_id]
        rivals = [s for s in table if s["version_id"] != version_id]
        if not mine or not rivals or mine[0]["placing"] is None:
            continue
        placing = mine[0]["placing"]
        points = [
            1.0 if placing < r["placing"] else 0.5 if placing == r["placing"] else 0.0
            for r in rivals
            if r["placing"] is not None
        ]
        if not points:
            continue
        units[match["duplicate_key"] or f"match-{match_id}"].append(sum(points) / len(points))
        wins += all(p == 1.0 for p in points)
        losses += all(p == 0.0 for p in points)
        draws += not all(p == 1.0 for p in points) and not all(p == 0.0 for p in points)
    share = score_share((statistics.fmean(scores), len(scores)) for scores in units.values())
    open_count = sum(
        m["status"] in (Match.Status.QUEUED, Match.Status.RUNNING) for m in matches.values()
    )
    failed = sum(m["status"] == Match.Status.FAILED for m in matches.values())
    return ChallengeSummary(
        played=int(share.matches),
        open=open_count,
        failed=failed,
        score=share.score,
        low=share.low,
        high=share.high,
        significant=share.significant,
        wins=wins,
        draws=draws,
        losses=losses,
        units=share.units,
    )


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
    # Keyed by challenge_id: a nullable column, set on every match read here.
    matches: dict[int | None, list[Match]] = {challenge.pk: [] for challenge in challenges}
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


@dataclass(frozen=True, slots=True)
class ChallengeChoice:
    """A version a challenge form offers, as challenger or as rival."""

    version_id: int
    label: str  # "marvin v3 · alice", "mybot v2 (yours)"
    game: str
    bot_id: int
    current: bool  # the bot's version on the ladder (a challenger's own is left out as rival)


@dataclass(frozen=True, slots=True)
class ChallengeChoices:
    """What a challenge form offers ``user`` for one game: its valid versions of that game,
    and the rivals of that game (the ladder's bots at their current version, and the user's
    own valid versions); ``games`` are the games it has a valid version of."""

    game: str | None
    games: list[tuple[str, str]]  # (name, title)
    versions: list[ChallengeChoice]
    rivals: list[ChallengeChoice]


def version_game(*, version_id: int) -> str | None:
    """The game a version plays (None for an unknown id)."""
    return BotVersion.objects.filter(pk=version_id).values_list("bot__game", flat=True).first()


def challenge_choices(*, user: Any, game: str | None = None) -> ChallengeChoices:
    """The challenge form's choices for ``game`` (default: the game of the user's newest
    valid version). Rivals never include another game's bots: a challenge is one game."""
    own = list(
        BotVersion.objects.filter(bot__owner=user, status=BotVersion.Status.VALID)
        .select_related("bot")
        .order_by("bot__name", "-number")
    )
    games = sorted({version.bot.game for version in own}, key=lambda name: get_game(name).title)
    if game not in games:
        newest = max(own, key=lambda version: version.pk, default=None)
        game = newest.bot.game if newest is not None else None
    if game is None:
        return ChallengeChoices(None, [], [], [])
    ladder = (
        Bot.objects.filter(game=game, is_active=True, active_version__isnull=False)
        .select_related("owner", "active_version")
        .order_by("name")
    )
    rivals, offered = [], set()
    for bot in ladder:  # the user's own bots on the ladder too: they are public
        mine = " (yours)" if bot.owner_id == user.pk else ""
        version = bot.active_version
        assert version is not None  # the query asks for one
        label = f"{bot.name} v{version.number} · {bot.owner.username}{mine}"
        rivals.append(ChallengeChoice(version.pk, label, game, bot.pk, True))
        offered.add(version.pk)
    mine_here = [version for version in own if version.bot.game == game]
    for version in mine_here:  # and its own earlier versions
        if version.pk not in offered:
            label = f"{version.bot.name} v{version.number} (yours)"
            current = version.bot.active_version_id == version.pk
            rivals.append(ChallengeChoice(version.pk, label, game, version.bot_id, current))
    versions = [
        ChallengeChoice(
            version.pk,
            f"{version.bot.name} v{version.number}"
            + (" (current)" if version.bot.active_version_id == version.pk else ""),
            game,
            version.bot_id,
            version.bot.active_version_id == version.pk,
        )
        for version in mine_here
    ]
    return ChallengeChoices(
        game, [(name, get_game(name).title) for name in games], versions, rivals
    )
