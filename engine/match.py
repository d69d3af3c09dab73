"""Playing one match between bots: the loop that joins a game, its match rules and players.

The runner is the only code that talks to players. It hands each one observations built by
the game for that seat, checks every action through the game's rules, and turns any fault
of a bot (a :class:`BotFault` from the player, or an illegal move) into a lost match with
the reason recorded in the replay. It never lets a bot's failure escape as an exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.game import Game, GameOutcome, MatchDecision, derive_seed
from engine.players import BotFault, FaultKind, Player
from engine.registry import get_game
from engine.replay import REPLAY_FORMAT

__all__ = ["REPLAY_CHECKS", "MatchError", "MatchResult", "play_match"]

#: Functions called with every replay this process produces. Empty in production; the test
#: suite adds a JSON Schema validator, so every replay any test produces is checked.
REPLAY_CHECKS: list[Callable[[dict[str, Any]], None]] = []


@dataclass(frozen=True, slots=True)
class MatchError:
    """The fault that ended a match: who, where and why."""

    seat: int
    kind: str
    detail: str  # public, written by the platform
    game: int  # 0 when the bot failed before the first game
    location: dict[str, Any] = field(default_factory=dict)
    private: str = ""  # the bot's own traceback/output: owner only, never in the replay

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "detail": self.detail,
            "game": self.game,
            **self.location,
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    players: tuple[str, ...]
    seed: int
    winner: int | None  # None for a drawn match
    reason: str  # match_points | sweep | game_cap | error
    match_points: tuple[int, ...]
    game_wins: tuple[int, ...]
    points: tuple[int, ...]  # game points summed over finished games
    sweeps: tuple[int, ...]
    games_played: int
    error: MatchError | None
    replay: dict[str, Any]
    duration_s: float


_SEED_LIMIT = 1 << 53  # seeds stay exact as JSON numbers


def _is_seed(value: object) -> bool:
    return type(value) is int and 0 <= value < _SEED_LIMIT


class _SeatFault(Exception):
    def __init__(self, seat: int, fault: BotFault, location: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.fault = fault
        self.location = location  # set when the fault came from a hook, not a move


def _wants(player: Player, hook: str) -> bool:
    hooks = getattr(player, "hooks", None)
    return hooks is None or hook in hooks


class _Tally:
    """Running totals of a match, per seat."""

    def __init__(self, seats: int) -> None:
        self.match_points = [0] * seats
        self.game_wins = [0] * seats
        self.points = [0] * seats
        self.sweeps = [0] * seats
        self.summaries: list[dict[str, Any]] = []  # public results of finished games

    def add(self, number: int, scores: Sequence[int], outcome: GameOutcome) -> None:
        for seat, awarded in enumerate(outcome.awarded):
            self.match_points[seat] += awarded
            self.points[seat] += scores[seat]
        if outcome.winner is not None:
            self.game_wins[outcome.winner] += 1
            if outcome.label == "sweep":
                self.sweeps[outcome.winner] += 1
        self.summaries.append(
            {
                "number": number,
                "scores": list(scores),
                "winner": outcome.winner,
                "awarded": list(outcome.awarded),
                "result": outcome.label,
            }
        )


def play_match(
    game: str | Game,
    players: Sequence[Player],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    limits: Mapping[str, Any] | None = None,
    record_timing: bool = True,
    bot_seeds: Sequence[int] | None = None,
) -> MatchResult:
    """Play one match and return its result and replay. Closes every player at the end.

    ``options`` are the game's match options (for Lie 21: ``target``, ``game_cap``...);
    ``limits`` describes the time limits in force, recorded in the replay and told to bots.
    With ``record_timing=False`` the replay holds no wall-clock times, so the same seed and
    deterministic bots give a byte-identical replay.

    ``bot_seeds`` are the seeds each bot is given for its own random choices. By default
    they are derived from the match seed, which is reproducible but guessable: a bot that
    tries every small match seed can find one that gives its own seed, and with it every
    deck of the match. Where bots are adversaries (the arena), pass seeds the bots cannot
    work back from, e.g. keyed with a secret; the replay records them either way.
    """
    game = get_game(game) if isinstance(game, str) else game
    seats = len(players)
    if not game.min_players <= seats <= game.max_players:
        raise ValueError(f"{game.title} needs {game.min_players}-{game.max_players} players")
    if not _is_seed(seed):
        raise ValueError("the match seed must be an integer from 0 to 2**53 - 1")
    if bot_seeds is None:
        bot_seeds = [derive_seed(seed, "bot", seat) for seat in range(seats)]
    if len(bot_seeds) != seats or not all(_is_seed(s) for s in bot_seeds):
        raise ValueError("bot_seeds needs one integer from 0 to 2**53 - 1 per player")
    rules = game.match_rules(options)
    rule_options = rules.options()
    first_dealer = derive_seed(seed, "dealer") % seats
    tally = _Tally(seats)
    records: list[dict[str, Any]] = []
    error: MatchError | None = None
    decision: MatchDecision | None = None
    started = time.perf_counter()
    number = 0
    state = None
    dealer = game_seed = 0
    move_ms: list[float] = []
    try:
        for seat, player in enumerate(players):
            info = {
                "game": game.name,
                "seat": seat,
                "players": seats,
                "seed": bot_seeds[seat],
                "options": rule_options,
                "limits": dict(limits or {}),
            }
            _call(seat, player.start, info)
        while decision is None:
            number += 1
            dealer = rules.dealer_of(number, first_dealer, seats)
            game_seed = derive_seed(seed, "game", number)
            state = game.new_game(seed=game_seed, dealer=dealer, num_players=seats)
            move_ms = []
            context = {
                "game_number": number,
                "match_points": list(tally.match_points),
                "games": list(tally.summaries),
            }
            _play_game(state, players, context, move_ms if record_timing else None)
            scores = state.scores()
            outcome = rules.game_outcome(scores)
            tally.add(number, scores, outcome)
            decision = rules.decide(tally.match_points, number, outcome)
            records.append(_game_record(state, number, dealer, game_seed, outcome, tally, move_ms))
            # The game is complete and counted: a fault in its closing hooks loses the match
            # but does not undo the game.
            finished, state = state, None
            _close_game(finished, players, tally, context, match_over=decision is not None)
    except _SeatFault as exc:
        if exc.location is not None:
            location = dict(exc.location)
        else:
            location = state.location() if state is not None else {"phase": "start"}
        error = MatchError(
            seat=exc.seat,
            kind=str(exc.fault.kind),
            detail=exc.fault.detail,
            game=number,
            location=location,
            private=exc.fault.private,
        )
        if state is not None:
            records.append(_error_record(state, number, dealer, game_seed, tally, move_ms))
        # The offender loses at once; in a game of more players the rest share the win.
        others = [seat for seat in range(seats) if seat != exc.seat]
        decision = MatchDecision(others[0] if len(others) == 1 else None, "error")
    finally:
        for player in players:
            player.close()
    assert decision is not None
    result_json = {
        "winner": decision.winner,
        "reason": decision.reason,
        "match_points": list(tally.match_points),
        "game_wins": list(tally.game_wins),
        "points": list(tally.points),
        "sweeps": list(tally.sweeps),
        "games_played": len(tally.summaries),
        "error": error.to_json() if error else None,
    }
    replay = {
        "format": REPLAY_FORMAT,
        "game": game.name,
        "seed": seed,
        "players": [player.name for player in players],
        "bot_seeds": list(bot_seeds),
        "options": rule_options,
        "limits": dict(limits or {}),
        "first_dealer": first_dealer,
        "games": records,
        "result": result_json,
    }
    for check in REPLAY_CHECKS:
        check(replay)
    return MatchResult(
        players=tuple(player.name for player in players),
        seed=seed,
        winner=decision.winner,
        reason=decision.reason,
        match_points=tuple(tally.match_points),
        game_wins=tuple(tally.game_wins),
        points=tuple(tally.points),
        sweeps=tuple(tally.sweeps),
        games_played=len(tally.summaries),
        error=error,
        replay=replay,
        duration_s=time.perf_counter() - started,
    )


def _close_game(
    state: Any,
    players: Sequence[Player],
    tally: _Tally,
    context: dict[str, Any],
    *,
    match_over: bool,
) -> None:
    """The hooks after a game's last move: ``on_hand_end`` for its last hand, then
    ``on_game_end`` with every card of the game shown.

    They run once the game is recorded, so a fault here loses the match without undoing the
    game; and once the match is decided, a fault here changes nothing.
    """
    last_hand = state.location().get("hand")
    for seat, bot in enumerate(players):
        if _wants(bot, "on_hand_end"):
            view = state.observation(seat)
            view.update(_fresh(context))
            where = {"hand": last_hand, "phase": "on_hand_end"}
            _deliver(seat, bot, "on_hand_end", view, where, match_over)
    listeners = [seat for seat, bot in enumerate(players) if _wants(bot, "on_game_end")]
    if not listeners:
        return
    reveal = {
        **state.reveal(),
        **tally.summaries[-1],
        "match_points": list(tally.match_points),
        "match_over": match_over,
    }
    for seat in listeners:
        where = {"hand": last_hand, "phase": "on_game_end"}
        _deliver(seat, players[seat], "on_game_end", reveal, where, match_over)


def _deliver(
    seat: int,
    player: Player,
    hook: str,
    payload: dict[str, Any],
    location: dict[str, Any],
    match_over: bool,
) -> None:
    try:
        player.notify(hook, payload)
    except BotFault as fault:
        if not match_over:  # a result that has been reached is not taken back
            raise _SeatFault(seat, fault, location) from None


def _fresh(context: dict[str, Any]) -> dict[str, Any]:
    """The match part of one observation, built anew each time.

    Sandboxed bots get their own copy anyway (JSON); in-process bots get fresh objects too,
    so one bot mutating what it was given cannot change what the other one sees.
    """
    return {
        "game_number": context["game_number"],
        "match_points": list(context["match_points"]),
        "games": [
            {**game, "scores": list(game["scores"]), "awarded": list(game["awarded"])}
            for game in context["games"]
        ],
    }


def _call(seat: int, method: Any, *args: Any) -> Any:
    try:
        return method(*args)
    except BotFault as fault:
        raise _SeatFault(seat, fault, {"phase": "start"}) from None


def _play_game(
    state: Any,
    players: Sequence[Player],
    context: dict[str, Any],
    move_ms: list[float] | None,
) -> None:
    """Play one game to its last move, appending each move's wall time in ms to ``move_ms``.

    This loop runs thousands of times a second in benchmarks and ladders, so it binds what
    it calls to locals and keeps the per-move work to the observation, the call and apply.
    The hooks after the game's last move are :func:`_close_game`'s.
    """
    listeners = [seat for seat, bot in enumerate(players) if _wants(bot, "on_hand_end")]
    clock = time.perf_counter
    observe, apply = state.observation, state.apply
    acts = [player.act for player in players]
    seat = state.to_act()
    while seat is not None:
        observation = observe(seat)
        observation.update(_fresh(context))
        try:
            if move_ms is None:
                action = acts[seat](observation)
            else:
                begin = clock()
                action = acts[seat](observation)
                move_ms.append(round((clock() - begin) * 1000, 3))
        except BotFault as fault:
            raise _SeatFault(seat, fault) from None
        try:
            hooks = apply(seat, action)
        except ValueError as exc:  # the game's IllegalMove
            raise _SeatFault(seat, BotFault(FaultKind.ILLEGAL_MOVE, str(exc))) from None
        if listeners and hooks == ["on_hand_end"]:  # not the last hand: see _close_game
            where = {"hand": state.location()["hand"] - 1, "phase": "on_hand_end"}
            for other in listeners:
                view = observe(other)
                view.update(_fresh(context))
                _deliver(other, players[other], "on_hand_end", view, where, match_over=False)
        seat = state.to_act()


def _game_record(
    state: Any,
    number: int,
    dealer: int,
    game_seed: int,
    outcome: GameOutcome,
    tally: _Tally,
    move_ms: list[float],
) -> dict[str, Any]:
    record = {
        "number": number,
        "dealer": dealer,
        "seed": game_seed,
        **state.record(),
        "winner": outcome.winner,
        "result": outcome.label,
        "awarded": list(outcome.awarded),
        "match_points": list(tally.match_points),
        "end": "complete",
    }
    if move_ms:
        record["move_ms"] = move_ms
    return record


def _error_record(
    state: Any,
    number: int,
    dealer: int,
    game_seed: int,
    tally: _Tally,
    move_ms: list[float],
) -> dict[str, Any]:
    """The unfinished game in which a bot failed: the hands played so far."""
    record = {
        "number": number,
        "dealer": dealer,
        "seed": game_seed,
        **state.record(),
        "winner": None,
        "result": "error",
        "awarded": [0] * len(tally.match_points),
        "match_points": list(tally.match_points),
        "end": "error",
    }
    if move_ms:
        record["move_ms"] = move_ms
    return record
