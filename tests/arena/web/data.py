"""Data for the page tests: bots with stored versions, and matches with real replays.

Matches are played by the engine in-process (built-in bots, a few milliseconds each) and
recorded through the arena's own recording code (``tests.arena.recorded.match_played``:
seats, placings, replay, logs, ratings), so the pages show real cards, results and logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engine
from arena.models import (
    Bot,
    BotVersion,
    Challenge,
    Match,
    MatchLog,
    Rating,
    RatingHistory,
    Tournament,
    TournamentSchedule,
)
from arena.services.ratings import rating_activate
from tests.arena.factories import BotFactory, BotVersionFactory, UserFactory
from tests.arena.recorded import match_played, match_queued

PASSWORD = "A-long-test-password-21"

VALID_BOT = """\
# A tiny bot: its three lowest cards, first one shown, never challenges.
def act(observation):
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""

SYNTAX_ERROR_BOT = """\
def act(observation):
    return {"cards": observation["hand"][:3], "face_up": 0

print("never")
"""


def user_make(username: str, *, password: str = PASSWORD, **fields: Any):
    user = UserFactory(username=username, **fields)
    user.set_password(password)
    user.save()
    return user


def bot_make(
    owner=None,
    *,
    name: str | None = None,
    game: str = "lie21",
    on_ladder: bool = False,
    **fields: Any,
) -> Bot:
    """A bot with one valid, active version (its file stored under MEDIA_ROOT).

    ``on_ladder`` gives the version its rating and makes it the bot's ladder entry, as a
    successful validation does.
    """
    kwargs: dict[str, Any] = {"owner": owner} if owner is not None else {}
    if name is not None:
        kwargs["name"] = name
    bot = BotFactory(game=game, **kwargs, **fields)
    version = BotVersionFactory(bot=bot)
    if on_ladder:
        rating_activate(version=version)
    bot.refresh_from_db()
    return bot


def engine_replay(
    names: Sequence[str],
    *,
    seed: int,
    bots: Sequence[str | Path] = ("heuristic", "random"),
    game: str = "lie21",
) -> dict[str, Any]:
    """The replay of a real match between bots (built-in names or bot file paths)."""
    players = [
        engine.InProcessPlayer(
            name, bot if isinstance(bot, Path) else engine.builtin_bot(game, bot)
        )
        for name, bot in zip(names, bots, strict=True)
    ]
    return engine.play_match(game, players, seed=seed).replay


def match_record(
    *bots: Bot,
    seed: int = 1,
    players: Sequence[str | Path] | None = None,
    status: str = Match.Status.DONE,
    logs: Sequence[tuple[str, str]] | None = None,
    **fields: Any,
) -> Match:
    """A match between the bots' active versions (seat i is ``bots[i]``); a finished one is
    played for real with ``players`` (built-in names or bot files; Lie 21 default: heuristic
    against random) and recorded as a worker records it.

    ``logs`` is ``[(output, traceback)]`` per seat: it replaces what the bots printed, to
    put known (secret) strings in the owner-only logs.
    """
    versions = [bot.active_version for bot in bots]
    if status != Match.Status.DONE:
        return match_queued(versions, seed=seed, status=status, **fields)
    if players is None and bots[0].game == "lie21":
        players = ("heuristic", "random")
    match = match_played(versions, seed=seed, bots=players, **fields)
    for seat, (output, traceback) in enumerate(logs or ()):
        step = {"game": 1, "step": 0, "phase": "act", "text": output}
        MatchLog.objects.filter(match=match, seat=seat).update(
            output=output, traceback=traceback, steps=[step] if output else []
        )
    return Match.objects.get(pk=match.pk)


def rate(match: Match, scores: Sequence[float]) -> None:
    """Each seat's version's displayed rating set to ``scores[seat]`` after ``match`` (and
    its live mu to 6 more), with its history row (what the rating and the refit write), so
    pages, charts and sparklines have known values."""
    for seat, score in zip(match.seats.order_by("seat"), scores, strict=True):
        rating, _ = Rating.objects.get_or_create(
            version=seat.version, defaults={"bot": seat.bot, "game": match.game}
        )
        rating.mu, rating.sigma, rating.score = score + 6, 2.0, score
        rating.rating, rating.rating_sigma = score, 2.0
        rating.current = True
        rating.save()
        RatingHistory.objects.update_or_create(
            match=match,
            version=seat.version,
            defaults={
                "bot": seat.bot,
                "game": match.game,
                "mu": score + 6,
                "sigma": 2.0,
                "score": score,
                "rating": score,
                "rating_sigma": 2.0,
            },
        )


def replay_with_forfeits_and_challenges(*, first_seed: int = 1) -> tuple[int, dict[str, Any]]:
    """A seed (and its replay) whose first game has both forfeited and challenged hands,
    with each seat The Liar of at least one forfeited hand: what the hidden-card checks need.
    """
    for seed in range(first_seed, first_seed + 200):
        replay = engine_replay(["a", "b"], seed=seed)
        hands = replay["games"][0]["record"]["hands"]
        forfeit_liars = {h["liar"] for h in hands if not h["challenge"]}
        if forfeit_liars == {0, 1} and any(h["challenge"] for h in hands):
            return seed, replay
    raise AssertionError("no seed in range gives both kinds of hands")


def version_of(bot: Bot) -> BotVersion:
    return BotVersion.objects.get(pk=bot.active_version_id)


def tournament_of_format(
    format: str,
    names: Sequence[str],
    *,
    name: str = "Open",
    rounds: int | None = None,
    play: int = 99,
) -> Any:
    """A started Swiss or double elimination of new bots, with ``play`` rounds decided
    (the bot listed earlier in ``names`` wins each match) through the real services."""
    from arena.models import MatchSeat, Tournament
    from arena.services.tournaments import tournament_create, tournament_finish, tournament_start

    bots = [bot_make(name=bot_name) for bot_name in names]
    strength = {bot.pk: index for index, bot in enumerate(bots)}
    tournament = tournament_create(
        name=name, game="lie21", created_by=bots[0].owner, seed=9, format=format, rounds=rounds
    )
    tournament_start(tournament_id=tournament.pk)
    for _ in range(play):
        open_matches = list(Match.objects.filter(tournament=tournament, status="queued"))
        if not open_matches:
            break
        for match in open_matches:
            seats = list(match.seats.all())
            best = min(strength[seat.bot_id] for seat in seats)
            Match.objects.filter(pk=match.pk).update(status="done", reason="match_points")
            for seat in seats:
                won = strength[seat.bot_id] == best
                MatchSeat.objects.filter(pk=seat.pk).update(
                    placing=0 if won else 1, score=3 if won else 1
                )
        tournament_finish(tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)


def organiser_urls(tournament: Tournament, schedule: TournamentSchedule) -> list[tuple[str, str]]:
    """Every organisers' page, (method, path)."""
    return [
        ("get", "/tournaments/new/"),
        ("post", "/tournaments/new/"),
        ("post", f"/tournaments/{tournament.pk}/start/"),
        ("post", f"/tournaments/{tournament.pk}/cancel/"),
        ("get", "/tournaments/schedules/new/"),
        ("post", "/tournaments/schedules/new/"),
        ("get", f"/tournaments/schedules/{schedule.pk}/edit/"),
        ("post", f"/tournaments/schedules/{schedule.pk}/edit/"),
        ("post", f"/tournaments/schedules/{schedule.pk}/pause/"),
        ("post", f"/tournaments/schedules/{schedule.pk}/resume/"),
        ("get", f"/tournaments/schedules/{schedule.pk}/delete/"),
        ("post", f"/tournaments/schedules/{schedule.pk}/delete/"),
    ]


def challenge_finish(challenge: Challenge, challenger_places: list[int]) -> None:
    """Results by hand (no worker runs here): the challenger placed ``challenger_places`` in
    its matches in turn."""
    matches = Match.objects.filter(challenge=challenge).order_by("id")
    for match, placing in zip(matches, challenger_places, strict=True):
        for seat in match.seats.all():
            seat.placing = placing if seat.version_id == challenge.version_id else 1 - placing
            seat.save()
        match.status = Match.Status.DONE
        match.save()
