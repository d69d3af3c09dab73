"""Tournaments run to the end with made-up results, written as the recording would write them
(the services' own round creation between rounds), for tests that need finished ones fast."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from arena.models import Bot, Match, MatchSeat, Tournament
from arena.services.tournaments import tournament_finish
from tests.arena.factories import BotVersionFactory


def bots(count: int, *, game: str = "lie21", owner=None) -> list[Bot]:
    """``count`` active bots of ``game`` with a valid version each."""
    extra = {"bot__owner": owner} if owner is not None else {}
    return [BotVersionFactory(bot__game=game, **extra).bot for _ in range(count)]


def play_open(tournament: Tournament, rng: random.Random) -> int:
    """A result for every queued match: a random order of its seats, match points by place."""
    matches = list(Match.objects.filter(tournament=tournament, status="queued"))
    seats = list(MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat"))
    by_match: dict[int, list[MatchSeat]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    now = timezone.now()
    with transaction.atomic():
        for match in matches:
            table = by_match[match.pk]
            order = list(range(len(table)))
            rng.shuffle(order)
            for place, index in enumerate(order):
                table[index].placing = place
                table[index].score = len(table) - place
            match.status, match.reason = "done", "match_points"
            match.started_at = match.finished_at = now
            match.duration_s = 1.0
        MatchSeat.objects.bulk_update(seats, ["placing", "score"])
        Match.objects.bulk_update(
            matches, ["status", "reason", "started_at", "finished_at", "duration_s"]
        )
    return len(matches)


def run_to_end(tournament: Tournament, *, seed: int = 0, limit: int = 500) -> Tournament:
    """Play every round until the tournament finishes (its next rounds created as the workers'
    ``finish_tournament`` would)."""
    rng = random.Random(seed)
    for _ in range(limit):
        play_open(tournament, rng)
        tournament = tournament_finish(tournament_id=tournament.pk)
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
    raise AssertionError("the tournament did not finish")
