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

from arena.models import BotVersion, Challenge, Match, MatchSeat
from arena.selectors.matches import match_list
from arena.services.challenges import ChallengeSummary, challenge_summary
from arena.services.errors import NotFound

__all__ = [
    "ChallengeView",
    "Comparison",
    "challenge_get",
    "challenge_list",
    "challenge_rivals",
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


@dataclass(frozen=True, slots=True)
class Comparison:
    """A version against its bot's previous version: "v2 vs v1: 58% ± 6%"."""

    challenge: Challenge
    version: int  # the new version's number
    previous: int  # the earlier version's number
    summary: ChallengeSummary

    @property
    def margin(self) -> float | None:
        """Half the width of the 95% interval (the "± 6%")."""
        s = self.summary
        if s.low is None or s.high is None:
            return None
        return (s.high - s.low) / 2


def version_comparison(*, version: BotVersion) -> Comparison | None:
    """The version's comparison with the previous one, or None if it has none (yet)."""
    challenge = (
        Challenge.objects.filter(kind=Challenge.Kind.COMPARISON, version=version)
        .order_by("-created")
        .first()
    )
    if challenge is None or not challenge.opponents:
        return None
    previous = BotVersion.objects.filter(pk=challenge.opponents[0]).values_list("number", flat=True)
    return Comparison(
        challenge=challenge,
        version=version.number,
        previous=previous.first() or 0,
        summary=challenge_summary(challenge=challenge),
    )
