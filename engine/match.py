"""Playing one match: the loop that joins a game, its match rules and the players at the table.

The runner is the only code that talks to players. It hands each seat the observation the
game builds for it, checks every action (the game's JSON Schema for untrusted players, then
the rules), logs the events each move causes, and turns any fault of a bot (a
:class:`BotFault` from the player, a malformed or illegal action) into a recorded outcome:

* with two seats, the faulting seat loses the match at once;
* with more, it is out of the match and shares last place with any other faulting seat;
  the others play on while the game allows (:meth:`GameState.eliminate`), else the match
  ends and they are ranked by the standing at that moment.

It never lets a bot's failure escape as an exception, and never makes everyone draw
because one bot failed. Nothing here knows a game: hooks, events and legality come from
the game's own declarations.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import action_problem
from engine.game import (
    MATCH_HOOKS,
    Event,
    Game,
    GameOutcome,
    GameState,
    MatchDecision,
    Tally,
    derive_seed,
    ranks_from_scores,
    winner_of,
)
from engine.players import BotFault, FaultKind, Player
from engine.registry import get_game
from engine.replay import REPLAY_FORMAT

__all__ = ["REPLAY_CHECKS", "MatchError", "MatchResult", "play_match"]

#: Functions called with every replay this process produces. Empty in production; the test
#: suite adds a JSON Schema validator, so every replay any test produces is checked.
REPLAY_CHECKS: list[Callable[[dict[str, Any]], None]] = []


@dataclass(frozen=True, slots=True)
class MatchError:
    """A fault that put a seat out of the match: who, where and why."""

    seat: int
    kind: str
    detail: str  # public, written by the platform
    game: int  # 0 when the bot failed before the first game
    phase: str  # what the bot was asked: "start", "act", or a hook ("on_game_end" ...)
    step: int | None = None  # index into that game's steps (the move that failed), if any
    location: dict[str, Any] = field(default_factory=dict)  # the game's own (hand, phase ...)
    private: str = ""  # the bot's own traceback/output: owner only, never in the replay

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "detail": self.detail,
            "game": self.game,
            "phase": self.phase,
            "step": self.step,
            "where": dict(self.location),
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    game: str
    players: tuple[str, ...]
    seed: int
    placings: tuple[int, ...]  # rank per seat, 0 = first, ties share a rank
    scores: tuple[int, ...]  # match points per seat
    reason: str  # the match rules' word, or "fault" for a match a fault cut short
    totals: dict[str, tuple[int, ...]]  # the game's per-seat totals (Lie 21: game_wins ...)
    games_played: int
    faults: tuple[MatchError, ...]
    replay: dict[str, Any]
    duration_s: float
    #: Per seat, what the bot printed, filed by game and step (``collect_logs=True``):
    #: ``{"game", "step", "phase", "text"}``; private to the bot's owner, never in the replay.
    logs: tuple[list[dict[str, Any]], ...] = ()

    @property
    def winner(self) -> int | None:
        """The seat alone in first place (None for a shared first place)."""
        return winner_of(self.placings)

    @property
    def error(self) -> MatchError | None:
        """The first fault of the match, if any."""
        return self.faults[0] if self.faults else None

    @property
    def match_points(self) -> tuple[int, ...]:
        return self.scores

    def total(self, key: str) -> tuple[int, ...]:
        return self.totals.get(key, (0,) * len(self.players))


_SEED_LIMIT = 1 << 53  # seeds stay exact as JSON numbers


def _is_seed(value: object) -> bool:
    return type(value) is int and 0 <= value < _SEED_LIMIT


def _wants(player: Player, hook: str) -> bool:
    hooks = getattr(player, "hooks", None)
    return hooks is None or hook in hooks


def _copy_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """The action as the replay keeps it: a trusted in-process bot may reuse its dict."""
    return _fresh(action)


def _fresh(part: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a dict with copies of the lists in it: what one seat gets of a shared part
    (a copy and a few replaced values cost less than a comprehension over every item)."""
    copy = dict(part)
    for key, value in copy.items():
        if type(value) is list:
            copy[key] = value[:]  # an existing key: the dict's size and order do not change
    return copy


class _Game:
    """One game of the match being played: its state, its steps and how it ended."""

    __slots__ = (
        "dealer",
        "end",
        "number",
        "pending",
        "rotation",
        "seed",
        "setup",
        "start",
        "state",
        "steps",
    )

    def __init__(
        self,
        number: int,
        state: GameState,
        seed: int,
        dealer: int,
        rotation: int,
        setup: dict[str, Any],
    ) -> None:
        self.number = number
        self.state = state
        self.seed = seed
        self.dealer = dealer
        self.rotation = rotation
        self.setup = setup
        self.start: list[Event] = state.start_events()
        self.steps: list[dict[str, Any]] = []
        self.end = "complete"
        #: Events of the game's last move: their hooks wait for :meth:`_Runner.close_game`.
        self.pending: list[Event] = []


class _Cut(Exception):
    """The match cannot go on (too few seats left, or the game cannot continue)."""


class _Runner:
    def __init__(
        self,
        game: Game,
        players: Sequence[Player],
        seed: int,
        options: Mapping[str, Any] | None,
        limits: Mapping[str, Any],
        record_timing: bool,
        bot_seeds: Sequence[int],
        collect_logs: bool = False,
    ) -> None:
        self.game = game
        self.players = players
        self.seats = len(players)
        self.seed = seed
        self.rules = game.match_rules(options)
        self.options = self.rules.options()
        self.limits = dict(limits)
        self.record_timing = record_timing
        self.bot_seeds = list(bot_seeds)
        self.first_dealer = derive_seed(seed, "dealer") % self.seats
        self.tally = Tally(self.seats)
        self.faults: list[MatchError] = []
        self.games: list[_Game] = []
        self.hooks = (*MATCH_HOOKS, *game.hooks)
        self.hook_events = dict(game.hook_events)
        self.late_allowed = game.late_moves_allowed
        self.trusted = [bool(getattr(p, "trusted", False)) for p in players]
        self.summaries: list[dict[str, Any]] = []  # public results of finished games
        self.logs: list[list[dict[str, Any]]] | None = (
            [[] for _ in players] if collect_logs else None
        )

    def note(
        self,
        seat: int,
        game: int,
        step: int | None,
        phase: str,
        where: Mapping[str, Any] | None = None,
        *,
        fault: bool = False,
    ) -> None:
        """File what the seat printed during its last call under that game and step
        (``fault``: the call that failed, so no step of that number was played)."""
        if self.logs is None:
            return
        take = getattr(self.players[seat], "take_output", None)
        text = take() if take is not None else ""
        if text:
            entry: dict[str, Any] = {"game": game, "step": step, "phase": phase, "text": text}
            if where:
                entry["where"] = dict(where)
            if fault:
                entry["fault"] = True
            self.logs[seat].append(entry)

    def note_decided(self, seat: int, game: int, phase: str, fault: BotFault) -> None:
        """File a failure that came after the match was decided: it costs the bot nothing,
        but its owner still reads what it printed and why it failed."""
        if self.logs is None:
            return
        before = len(self.logs[seat])
        self.note(seat, game, None, phase)
        printed = "".join(entry["text"] for entry in self.logs[seat][before:])
        text = f"{fault.kind}: {fault.detail} (after the match was decided: not a fault)\n"
        if fault.private.strip() and fault.private.strip() not in printed:
            text += fault.private.rstrip("\n") + "\n"  # the traceback, unless printed already
        self.logs[seat].append({"game": game, "step": None, "phase": phase, "text": text})

    # --- faults -------------------------------------------------------------------------

    def fault(
        self,
        seat: int,
        fault: BotFault,
        *,
        phase: str,
        current: _Game | None,
        step: int | None = None,
    ) -> None:
        """Put ``seat`` out of the match; raise :class:`_Cut` when the match cannot go on."""
        number = current.number if current is not None else len(self.games)
        self.faults.append(
            MatchError(
                seat=seat,
                kind=str(fault.kind),
                detail=fault.detail,
                game=number,
                phase=phase,
                step=step,
                location=current.state.location() if current is not None else {},
                private=fault.private,
            )
        )
        self.tally.faulted.add(seat)
        where = current.state.location() if current is not None else None
        self.note(seat, number, step, phase, where, fault=True)  # what it printed first
        self.players[seat].close()  # its process and files go now, not at the end
        if len(self.tally.live) < max(2, self.game.min_players):
            raise _Cut
        if current is None or current.state.to_act() is None:
            return  # no game in play: nothing to take the seat out of
        if not current.state.eliminate(seat):
            raise _Cut
        # A game may hand over the events the elimination caused (an optional method).
        take: Callable[[], list[Event]] | None = getattr(current.state, "take_events", None)
        events = take() if take is not None else []
        if events:  # what the elimination caused (a round voided...): the fault's own step
            current.steps.append(
                {"seat": seat, "action": None, "fault": str(fault.kind), "events": events}
            )

    # --- the match ----------------------------------------------------------------------

    def run(self) -> tuple[MatchDecision, float]:
        started = time.perf_counter()
        decision: MatchDecision | None = None
        current: _Game | None = None
        try:
            self.start_players()
            number = 0
            while decision is None:
                number += 1
                current = self.new_game(number)
                self.play(current)
                outcome = self.rules.game_outcome(current.state)
                self.tally.add(outcome)
                decision = self.rules.decide(self.tally)
                self.summaries.append(self.summary(current, outcome))
                finished, current = current, None
                self.close_game(finished, match_over=decision is not None)
        except _Cut:
            if current is not None:
                current.end = "fault"
            decision = MatchDecision(self.rules.standing(self.tally), "fault")
        finally:
            for player in self.players:
                player.close()
        return decision, time.perf_counter() - started

    def start_players(self) -> None:
        for seat, player in enumerate(self.players):
            info = {
                "game": self.game.name,
                "seat": seat,
                "players": self.seats,
                "seed": self.bot_seeds[seat],
                "options": json.loads(json.dumps(self.options)),  # a bot's own copy
                "limits": dict(self.limits),
            }
            try:
                player.start(info, hooks=self.hooks)
            except BotFault as fault:
                self.fault(seat, fault, phase="start", current=None)
                continue
            self.note(seat, 0, None, "start")

    def new_game(self, number: int) -> _Game:
        plan = self.rules.plan(number, self.first_dealer, self.seats)
        seed = derive_seed(self.seed, "game", plan.deal)
        state = self.game.new_game(
            seed=seed,
            dealer=plan.dealer,
            num_players=self.seats,
            rotation=plan.rotation,
            options=self.options,
            setup=dict(plan.setup),
        )
        for seat in sorted(self.tally.faulted):
            if not state.eliminate(seat):
                raise _Cut  # the game cannot be played without them: stop at the standing
        current = _Game(number, state, seed, plan.dealer, plan.rotation, dict(plan.setup))
        self.games.append(current)
        return current

    def context(self, number: int) -> dict[str, Any]:
        """The match part of one observation, built anew each time.

        Sandboxed bots get their own copy anyway (JSON); in-process bots get fresh objects
        too, so one bot mutating what it was given cannot change what another one sees.
        """
        return {
            "game_number": number,
            "match_points": list(self.tally.match_points),
            "games": [_fresh(s) for s in self.summaries],
        }

    def play(self, current: _Game) -> None:
        """Play one game to its last move. The hooks after that move are :meth:`close_game`'s.

        This loop runs thousands of times a second in benchmarks and ladders, so it binds
        what it calls to locals and keeps the per-move work to the observation, the call,
        the checks and apply.
        """
        state, players, game = current.state, self.players, self.game
        listeners = {
            hook: [s for s, p in enumerate(players) if _wants(p, hook)] for hook in game.hooks
        }
        clock = time.perf_counter
        timing = self.record_timing
        observe, apply, to_act = state.observation, state.apply, state.to_act
        lists = game.lists_legal_actions
        hook_events = self.hook_events if any(listeners.values()) else {}
        late = [0] * self.seats
        steps = current.steps
        number = current.number
        seat = to_act()
        while seat is not None:
            observation = observe(seat)
            observation.update(self.context(number))
            if lists:
                observation["legal_actions"] = state.legal_actions(seat)
            step: dict[str, Any] = {"seat": seat}
            where = state.location() if self.logs is not None else None
            try:
                begin = clock()
                action = players[seat].act(observation)
                took = clock() - begin
                if self.late_allowed and getattr(players[seat], "last_move_late", False):
                    late[seat] += 1
                    if late[seat] > self.late_allowed:
                        raise BotFault(
                            FaultKind.TIMEOUT,
                            f"ran over its move time {late[seat]} times in game {number} "
                            f"(the rules allow {self.late_allowed})",
                        )
                    action, step["late"] = state.default_action(seat), True
                step["action"] = _copy_action(action)
                step["events"] = self.apply(seat, action, apply)
                if timing:
                    step["ms"] = round(took * 1000, 3)
            except BotFault as fault:
                self.fault(seat, fault, phase="act", current=current, step=len(steps))
                seat = to_act()
                continue
            steps.append(step)
            if self.logs is not None:
                self.note(seat, number, len(steps) - 1, "act", where)
            if (seat := to_act()) is None:
                current.pending = step["events"]
            elif hook_events:
                self.fire_hooks(current, step["events"], listeners)

    def apply(self, seat: int, action: Any, apply: Callable[..., list[Event]]) -> list[Event]:
        """Check an action and play it; a malformed or illegal one is the bot's fault.

        An untrusted (sandboxed) player's action meets the game's JSON Schema before the
        rules see it. A trusted in-process player's goes straight to the rules, which is
        faster; only if the rules refuse it is the schema asked for a clearer message.
        """
        if not self.trusted[seat]:
            problem = action_problem(self.game, action)
            if problem is not None:
                raise BotFault(FaultKind.ILLEGAL_MOVE, problem)
            try:
                return apply(seat, action)
            except ValueError as exc:  # the game's IllegalMove
                raise BotFault(FaultKind.ILLEGAL_MOVE, str(exc)) from None
        try:
            return apply(seat, action)
        except Exception as exc:
            problem = action_problem(self.game, action)
            if problem is not None:
                raise BotFault(FaultKind.ILLEGAL_MOVE, problem) from None
            if isinstance(exc, ValueError):
                raise BotFault(FaultKind.ILLEGAL_MOVE, str(exc)) from None
            raise

    def fire_hooks(
        self, current: _Game, events: list[Event], listeners: Mapping[str, list[int]]
    ) -> None:
        """Deliver the hooks the events fire, to every live seat whose bot defines them."""
        for ev in events:
            hook = self.hook_events.get(ev["type"])
            if hook is None:
                continue
            for seat in listeners.get(hook, ()):
                if seat in self.tally.faulted:
                    continue
                view = current.state.observation(seat)
                view.update(self.context(current.number))
                try:
                    self.players[seat].notify(hook, view)
                except BotFault as fault:
                    self.fault(seat, fault, phase=hook, current=current, step=len(current.steps))
                    continue
                self.note(seat, current.number, len(current.steps) - 1, hook)

    def close_game(self, current: _Game, *, match_over: bool) -> None:
        """The hooks after a game's last move: the game's own (e.g. ``on_hand_end`` for its
        last hand), then ``on_game_end`` with everything about the game revealed.

        They run once the game is counted, so a fault here puts the seat out without undoing
        the game; once the match is decided, a fault here changes nothing.
        """
        state = current.state
        pending = [
            self.hook_events[e["type"]] for e in current.pending if e["type"] in self.hook_events
        ]
        for seat, player in enumerate(self.players):
            if seat in self.tally.faulted:
                continue
            phase = "on_game_end"
            try:
                for phase in pending:
                    if _wants(player, phase):
                        view = state.observation(seat)
                        view.update(self.context(current.number))
                        player.notify(phase, view)
                phase = "on_game_end"
                if _wants(player, phase):
                    # Every card of the game: costly, so built only for a seat that wants it,
                    # and for each such seat anew (one bot's copy is nobody else's).
                    reveal = {
                        **state.reveal(),
                        **_fresh(self.summaries[-1]),
                        "match_points": list(self.tally.match_points),
                        "match_over": match_over,
                    }
                    player.notify(phase, reveal)
            except BotFault as fault:
                if match_over:  # a result that has been reached is not taken back
                    self.note_decided(seat, current.number, phase, fault)
                else:
                    self.fault(seat, fault, phase=phase, current=None)
                continue
            self.note(seat, current.number, None, "on_game_end")

    def summary(self, current: _Game, outcome: GameOutcome) -> dict[str, Any]:
        return {
            "number": current.number,
            "placings": list(outcome.placings),
            "scores": list(current.state.scores()),
            "awarded": list(outcome.awarded),
            "result": outcome.label,
        }

    # --- the replay ---------------------------------------------------------------------

    def final_placings(self, decision: MatchDecision) -> tuple[int, ...]:
        """The rules' placings with every faulting seat last (sharing last place)."""
        faulted = self.tally.faulted
        if not faulted:
            return tuple(decision.placings)
        live = self.tally.live
        live_ranks = ranks_from_scores([decision.placings[s] for s in live], higher_is_better=False)
        placings = [len(live)] * self.seats
        for seat, rank in zip(live, live_ranks, strict=True):
            placings[seat] = rank
        return tuple(placings)

    def game_record(self, current: _Game, outcome: GameOutcome | None) -> dict[str, Any]:
        state = current.state
        record = {
            "number": current.number,
            "seed": current.seed,
            "dealer": current.dealer,
            "rotation": current.rotation,
            "start": current.start,
            "steps": current.steps,
            "end": current.end,
            "placings": list(outcome.placings) if outcome else None,
            "scores": list(state.scores()),
            "awarded": list(outcome.awarded) if outcome else [0] * self.seats,
            "result": outcome.label if outcome else current.end,
            "record": state.record(),
        }
        if current.setup:
            record["setup"] = current.setup
        return record

    def replay(
        self,
        decision: MatchDecision,
        placings: tuple[int, ...],
        seat_info: Sequence[Mapping[str, Any]],
    ) -> dict[str, Any]:
        games = []
        outcomes = iter(self.tally.outcomes)
        for current in self.games:
            finished = current.end == "complete" and current.state.to_act() is None
            games.append(self.game_record(current, next(outcomes) if finished else None))
        return {
            "format": REPLAY_FORMAT,
            "game": self.game.name,
            "rules_version": self.game.rules_version,
            "options": self.options,
            "limits": self.limits,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "seats": [
                {
                    "seat": seat,
                    "name": player.name,
                    "bot_seed": self.bot_seeds[seat],
                    **dict(seat_info[seat] if seat < len(seat_info) else {}),
                }
                for seat, player in enumerate(self.players)
            ],
            "placings": list(placings),
            "scores": list(self.tally.match_points),
            "reason": decision.reason,
            "games_played": self.tally.games_played,
            "totals": {key: list(values) for key, values in self.tally.totals.items()},
            "faults": [fault.to_json() for fault in self.faults],
            "games": games,
        }


def play_match(
    game: str | Game,
    players: Sequence[Player],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    limits: Mapping[str, Any] | None = None,
    record_timing: bool = True,
    bot_seeds: Sequence[int] | None = None,
    seat_info: Sequence[Mapping[str, Any]] = (),
    collect_logs: bool = False,
) -> MatchResult:
    """Play one match and return its result and replay. Closes every player at the end.

    ``options`` are the game's options (rules and match format), checked by the game;
    ``limits`` describes the time limits in force, recorded in the replay and told to bots.
    With ``record_timing=False`` the replay holds no wall-clock times, so the same seed and
    deterministic bots give a byte-identical replay. ``seat_info`` adds fields to each
    seat's entry in the replay (the arena puts the bot and version there).

    ``bot_seeds`` are the seeds each bot is given for its own random choices. By default
    they are derived from the match seed, which is reproducible but guessable: a bot that
    tries every small match seed can find one that gives its own seed, and with it every
    deal of the match. Where bots are adversaries (the arena), pass seeds the bots cannot
    work back from, e.g. keyed with a secret; the replay records them either way.

    With ``collect_logs`` the result's ``logs`` hold what each bot printed, filed under the
    game and step it printed it in (for its owner, beside the replay).
    """
    game = get_game(game) if isinstance(game, str) else game
    bot_seeds = _checked_seeds(game, len(players), seed, bot_seeds)
    runner = _Runner(
        game, players, seed, options, limits or {}, record_timing, bot_seeds, collect_logs
    )
    decision, duration = runner.run()
    placings = runner.final_placings(decision)
    replay = runner.replay(decision, placings, seat_info)
    for check in REPLAY_CHECKS:
        check(replay)
    return MatchResult(
        game=game.name,
        players=tuple(player.name for player in players),
        seed=seed,
        placings=placings,
        scores=tuple(runner.tally.match_points),
        reason=decision.reason,
        totals={key: tuple(values) for key, values in runner.tally.totals.items()},
        games_played=runner.tally.games_played,
        faults=tuple(runner.faults),
        replay=replay,
        duration_s=duration,
        logs=tuple(runner.logs) if runner.logs is not None else (),
    )


def _checked_seeds(
    game: Game, seats: int, seed: int, bot_seeds: Sequence[int] | None
) -> Sequence[int]:
    """The bots' seeds (derived from the match seed unless given), after refusing with a
    ValueError, before any bot runs, a table the game cannot seat or a seed a replay could
    not record exactly (JSON numbers are exact below 2**53)."""
    if not game.min_players <= seats <= game.max_players:
        raise ValueError(
            f"{game.title} is played by {game.min_players}-{game.max_players} bots, not {seats}"
        )
    if not _is_seed(seed):
        raise ValueError("the match seed must be an integer from 0 to 2**53 - 1")
    if bot_seeds is None:
        bot_seeds = [derive_seed(seed, "bot", seat) for seat in range(seats)]
    if len(bot_seeds) != seats or not all(_is_seed(s) for s in bot_seeds):
        raise ValueError("bot_seeds needs one integer from 0 to 2**53 - 1 per player")
    return bot_seeds
