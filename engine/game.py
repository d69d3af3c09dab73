"""The interface between the match runner and a game: everything a game must say about itself.

Nothing here assumes two seats, cards or one winner. A game is a folder (a package
exposing ``GAME``, an object of the :class:`Game` protocol, with its rules document, replay
schema, renderer and bots beside it), registered under the ``bluff_arena.games`` entry-point
group; ``engine.registry`` finds it there, and nothing above the engine names it. See
``docs/game-interface.md`` for the contract and a worked example.

The pieces:

* a :class:`GameState` is one game in progress: whose turn it is, each seat's observation,
  applying JSON actions (which yield :data:`Event` dicts, the game's log), placings and scores
  at the end, and what happens when a seat is eliminated for a fault;
* :class:`MatchRules` say how games add up to a match: the plan of each game (which deal,
  who deals, how seats are rotated), match points, when the match is decided, and the
  standing at any moment (for a match cut short);
* results are **placings**: a rank per seat, 0 for first, ties allowed (``(0, 1, 1, 3)``);
  a winner is derived (:func:`winner_of`), never stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

__all__ = [
    "MATCH_HOOKS",
    "Event",
    "Game",
    "GameDefaults",
    "GameFolder",
    "GameOutcome",
    "GamePlan",
    "GameState",
    "IllegalMove",
    "MatchDecision",
    "MatchRules",
    "Tally",
    "derive_seed",
    "event",
    "ranks_from_scores",
    "winner_of",
]

_SEED_BITS = 53  # seeds stay exact as JSON numbers in JavaScript (the replay viewer)

#: Hooks every game offers: the match starts (with the match info), a game ends (with
#: everything about it revealed). A game adds its own (Lie 21: ``on_hand_end``).
MATCH_HOOKS: tuple[str, ...] = ("on_match_start", "on_game_end")

#: One entry of a game's log: ``{"type": str, "public": {...}, "private": {"<seat>": {...}}}``.
#: ``public`` is seen by every seat; ``private`` maps a seat (as a decimal string, as JSON
#: writes it) to what only that seat sees. A spectator sees both. Replays store the events,
#: the viewer draws from them, and a seat's observation never holds more than its view of them.
Event = dict[str, Any]


class IllegalMove(ValueError):
    """A bot's action breaks the rules; the message says how (it goes into the public replay)."""


class Verifies:
    """``can_apply`` for a game state whose ``verify(seat, action)`` checks a move, raising
    :class:`IllegalMove`: a state class lists it among its bases (no slots of its own)."""

    __slots__ = ()

    def verify(self, seat: int, action: Mapping[str, Any]) -> object:
        raise NotImplementedError

    def can_apply(self, seat: int, action: Mapping[str, Any]) -> bool:
        """Whether ``verify`` takes the action (asks without raising)."""
        try:
            self.verify(seat, action)
        except IllegalMove:
            return False
        return True


def event(
    kind: str, public: Mapping[str, Any] | None = None, private: Mapping[int, Any] | None = None
) -> Event:
    """Build an event; ``private`` is keyed by seat number.

    >>> event("deal", {"trump": "7H"}, {0: {"hand": ["AS"]}})
    {'type': 'deal', 'public': {'trump': '7H'}, 'private': {'0': {'hand': ['AS']}}}
    """
    built: Event = {"type": kind, "public": dict(public or {})}
    if private:
        built["private"] = {str(seat): part for seat, part in private.items()}
    return built


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for one purpose (a game's shuffle, a bot's own RNG) derived from the match seed.

    Hashing keeps the derived seeds independent and stops a bot that is told its own seed
    from working back to the match seed, which would give away every shuffle.

    >>> derive_seed(7, "game", 1) == derive_seed(7, "game", 1) != derive_seed(7, "game", 2)
    True
    """
    text = ":".join([str(seed), *map(str, labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") % (1 << _SEED_BITS)


def ranks_from_scores(scores: Sequence[float], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranks (0 = first, equal scores share a rank, the next rank is skipped).

    >>> ranks_from_scores([3, 7, 7, 1])
    (2, 0, 0, 3)
    >>> ranks_from_scores([2, 5], higher_is_better=False)
    (0, 1)
    """
    sign = -1 if higher_is_better else 1
    keyed = [sign * s for s in scores]
    return tuple(sum(1 for other in keyed if other < mine) for mine in keyed)


def winner_of(placings: Sequence[int]) -> int | None:
    """The seat alone in first place, or None (a shared first place, an empty table).

    >>> winner_of((1, 0)), winner_of((0, 0)), winner_of((2, 0, 1))
    (1, None, 1)
    """
    firsts = [seat for seat, rank in enumerate(placings) if rank == 0]
    return firsts[0] if len(firsts) == 1 else None


class GameState(Protocol):
    """One game in progress. Seats are ``0 .. num_players - 1``."""

    def to_act(self) -> int | None:
        """The seat that must move, or None when the game is over."""

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now, as a new JSON-able dict.

        It shares nothing with another seat's observations nor with anything the rules read;
        it may hand the seat again its own copies of what cannot change once seen (a round's
        history, past hands), so a bot that changes what it was given changes only what it
        is shown later. It shows the seat no more than its view of the events so far (public
        parts and its own private parts). The runner adds the match part (game number, match
        points, past games) and, for a game with :attr:`Game.lists_legal_actions`,
        ``legal_actions``.
        """

    def start_events(self) -> list[Event]:
        """The events of the deal (hands, face-up cards), before the first move."""

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Check and play an action; raise :class:`IllegalMove` when it is not legal.

        Returns the events the move caused, in order. An event whose type is in
        :attr:`Game.hook_events` fires that hook for every seat whose bot defines it.
        """

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every legal action of ``seat`` now (games with ``lists_legal_actions``)."""

    def default_action(self, seat: int) -> dict[str, Any]:
        """An action that is always legal for the seat to move (an absent player's move)."""

    def eliminate(self, seat: int) -> bool:
        """Take ``seat`` out of the game for a fault; True when the others can play on.

        After True, :meth:`to_act` never returns the seat again and :meth:`placings` puts
        it last. False means the game cannot go on without it (the match then ends, ranked by
        its standing): two-seat games always answer False.
        """

    def placings(self) -> tuple[int, ...]:
        """Rank per seat once the game is over (0 = first, ties share a rank)."""

    def scores(self) -> list[int]:
        """Per-seat score of the game so far (what the game counts: points, cards, lives)."""

    def location(self) -> dict[str, Any]:
        """Where play stands (e.g. ``{"hand": 3, "phase": "answer"}``), for fault reports."""

    def record(self) -> dict[str, Any]:
        """The spectator's record of the game (every hidden card), for the replay."""

    def reveal(self) -> dict[str, Any]:
        """What every seat is shown at game end (the payload of ``on_game_end``), as new
        objects on every call: each seat that wants it is given its own."""


@dataclass(frozen=True, slots=True)
class GamePlan:
    """How one game of a match is set up.

    ``deal`` numbers the shuffle: the game's RNG seed is derived from (match seed, deal),
    never from who sits where, so two games with the same deal get the same cards.
    ``rotation`` shifts what the deal gives: seat ``s`` plays the hand that position
    ``(s + rotation) % n`` gets at rotation 0, so rotating a deal round the table gives every
    seat every hand (duplicate play). ``dealer`` is the seat that deals or starts.
    """

    deal: int
    dealer: int
    rotation: int = 0
    #: What the match tells the game about its place in the match, for games whose rules
    #: need it (Tieng Len: ``{"leader": seat}``, the previous game's winner leads); passed to
    #: ``new_game`` and recorded in the replay.
    setup: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What one finished game means for the match."""

    placings: tuple[int, ...]  # the game's ranks per seat
    awarded: tuple[int, ...]  # match points per seat
    label: str = ""  # the game's word for it: "sweep", "double", "win", "tie" ...
    ends_match: bool = False  # e.g. a Lie 21 sweep
    #: Per-seat numbers the match adds up (Lie 21: game_wins, points, sweeps).
    totals: Mapping[str, Sequence[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchDecision:
    placings: tuple[int, ...]  # rank per seat, 0 = first
    reason: str  # the rules' word: "match_points", "sweep", "game_cap", "games" ...


@dataclass(slots=True)
class Tally:
    """Running totals of a match, kept by the runner and read by the match rules."""

    seats: int
    match_points: list[int] = field(default_factory=list)
    totals: dict[str, list[int]] = field(default_factory=dict)
    outcomes: list[GameOutcome] = field(default_factory=list)
    #: Seats out of the match for a fault (they share last place).
    faulted: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.match_points:
            self.match_points = [0] * self.seats

    @property
    def games_played(self) -> int:
        return len(self.outcomes)

    @property
    def live(self) -> list[int]:
        return [seat for seat in range(self.seats) if seat not in self.faulted]

    def add(self, outcome: GameOutcome) -> None:
        self.outcomes.append(outcome)
        for seat, points in enumerate(outcome.awarded):
            self.match_points[seat] += points
        for key, values in outcome.totals.items():
            summed = self.totals.setdefault(key, [0] * self.seats)
            for seat, value in enumerate(values):
                summed[seat] += value


class GamesByPoints:
    """``decide`` and ``standing`` of match rules that play ``games`` games and rank the
    seats by their match points (Liars' ``games`` option, the tests' High Card): a match
    rules class lists it among its bases and sets ``games``."""

    __slots__ = ()
    games: int

    def decide(self, tally: Tally) -> MatchDecision | None:
        if tally.games_played < self.games:
            return None
        return MatchDecision(ranks_from_scores(tally.match_points), "games")

    def standing(self, tally: Tally) -> tuple[int, ...]:
        return ranks_from_scores(tally.match_points)


class MatchRules(Protocol):
    """How games add up to a match. Built by :meth:`Game.match_rules` from the options."""

    def options(self) -> dict[str, Any]:
        """Every option in force (defaults filled in), recorded in every replay."""

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        """The deal, dealer and rotation of game ``game_number`` (1-based)."""

    def game_outcome(self, state: GameState) -> GameOutcome:
        """Turn a finished game into match points and totals."""

    def decide(self, tally: Tally) -> MatchDecision | None:
        """The match result once it is decided, else None."""

    def standing(self, tally: Tally) -> tuple[int, ...]:
        """Ranks of every seat as things stand (for a match cut short by a fault)."""


class GameFolder:
    """The paths every game's folder holds, found from its ``folder``: a game's class
    inherits this and sets ``folder = Path(__file__).resolve().parent`` (and ``bot_names``)
    instead of writing the methods of :class:`Game` that point into it (``docs_path``,
    ``replay_schema_path``, ``renderer_path``, ``builtin_bots``) once more; a game whose
    files lie elsewhere overrides them."""

    #: The game's folder: its package directory, wherever pip put it.
    folder: Path
    #: Its built-in bots' names, in the order lists show them: each is ``bots/<name>_bot.py``
    #: in the folder (always ``random`` and ``starter``).
    bot_names: tuple[str, ...] = ("random", "starter")

    def builtin_bots(self) -> dict[str, Path]:
        """The folder's built-in bots by name (see :meth:`Game.builtin_bots`)."""
        return {name: self.folder / "bots" / f"{name}_bot.py" for name in self.bot_names}

    def docs_path(self) -> Path:
        """The folder's ``rules.md`` (see :meth:`Game.docs_path`)."""
        return self.folder / "rules.md"

    def replay_schema_path(self) -> Path:
        """The folder's ``replay.schema.json`` (see :meth:`Game.replay_schema_path`)."""
        return self.folder / "replay.schema.json"

    def renderer_path(self) -> Path:
        """The folder's ``renderer.js`` (see :meth:`Game.renderer_path`)."""
        return self.folder / "renderer.js"


class GameDefaults:
    """The facts of a game that says nothing else, written once here instead of in every
    game: the first version of its rules, no hooks of its own, no late moves, no duplicate
    sets in head-to-head comparisons. A game's class inherits this (beside
    :class:`GameFolder`), overrides the facts that differ, and declares its action schema as
    data (``action_json_schema``) that :meth:`action_schema` returns.

    ``new_game`` stays each game's own, its signature written out as :class:`Game` has it:
    a base class taking the keywords and handing them on would add a call to every deal."""

    #: See :attr:`Game.rules_version`: a game's rules start at version 1.
    rules_version: int = 1
    #: See :attr:`Game.hooks`: none besides :data:`MATCH_HOOKS`.
    hooks: tuple[str, ...] = ()
    #: See :attr:`Game.hook_events`: no event fires a hook of the game's own.
    hook_events: Mapping[str, str] = MappingProxyType({})
    #: See :attr:`Game.late_moves_allowed`: running over the time per move is never excused.
    late_moves_allowed: int = 0
    #: Whether head-to-head comparisons (challenges, a new version against the previous one)
    #: play the game's deals in duplicate sets (each deal once per seat rotation), because
    #: that cuts the variance of a fixed table's result: each game gives its
    #: ``duplicate_variance_ratio`` from ``benchmarks/ranking_convergence.py`` beside its
    #: value. False here, as the arena reads a game without the attribute. The ladder never
    #: plays sets (``arena.services.ladder``).
    duplicate_helps: bool = False
    #: The JSON Schema (draft 7) of an action (see :meth:`Game.action_schema`).
    action_json_schema: dict[str, Any]

    def action_schema(self) -> dict[str, Any]:
        """The class's ``action_json_schema`` (see :meth:`Game.action_schema`)."""
        return self.action_json_schema


class Game(Protocol):
    """A game the arena can host (``GAME`` in ``engine/games/<name>/__init__.py``)."""

    name: str  # the id: lower case, e.g. "lie21"
    title: str  # "Lie 21"
    summary: str  # one sentence for the games list
    match_summary: str  # what one match of it is, in a sentence or two (game pages)
    position: int  # order in lists (Lie 21 first)
    min_players: int
    max_players: int
    rules_version: int  # bumped when a rule changes meaning; recorded in replays
    #: Hooks of this game besides :data:`MATCH_HOOKS`, and the event type firing each.
    hooks: tuple[str, ...]
    hook_events: Mapping[str, str]
    #: Whether observations carry ``legal_actions`` (the set is finite and small to list).
    lists_legal_actions: bool
    #: Moves per game a seat may run over its per-move time and get ``default_action``
    #: instead (the game's rule for an absent player); 0: running over is a fault at once.
    late_moves_allowed: int
    #: Whether a deal can be replayed with the seats rotated (duplicate play).
    supports_duplicate: bool

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> GameState:
        """Deal a new game from its own seed (see :class:`GamePlan` for rotation and setup)."""

    def match_rules(self, options: Mapping[str, Any] | None = None) -> MatchRules:
        """The match rules, with caller options over the defaults (ValueError if invalid)."""

    def action_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 7) of an action: malformed actions are refused before
        the rules run, with the schema's message."""

    def builtin_bots(self) -> dict[str, Path]:
        """Built-in bots by name: each is an ordinary bot file. ``starter`` is the one a new
        author starts from."""

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        """Per-seat numbers a bot author cares about, computed from a replay."""

    def docs_path(self) -> Path:
        """The rules as the arena reads them, every reading marked (Markdown: the game
        folder's ``rules.md``): the site's rules page, the playground's, the kit's."""

    def replay_schema_path(self) -> Path:
        """The JSON Schema (2020-12) of the game's parts of a replay (its folder's
        ``replay.schema.json``), beside the envelope's ``engine/replay.schema.json``."""

    def renderer_path(self) -> Path:
        """The replay viewer's ES module that draws the game (its folder's ``renderer.js``,
        exporting ``render``): the site serves it as ``arena/games/<name>/renderer.js``
        and ``python -m engine replay --html`` inlines it."""
