"""The small interface between the match runner and a game's rules.

Nothing here assumes two players or cards: a game deals a state from a seed, says whose
turn it is, builds each seat's observation, checks and applies JSON actions, and scores
itself. A game's *match rules* (how games add up to a match) are a separate object, so a
game like Liar's Dice with several players and lives fits the same runner.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "Game",
    "GameOutcome",
    "GameState",
    "MatchDecision",
    "MatchRules",
    "derive_seed",
]

_SEED_BITS = 53  # seeds stay exact as JSON numbers in JavaScript (the replay viewer)


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


class GameState(Protocol):
    """One game in progress."""

    def to_act(self) -> int | None:
        """The seat that must move, or None when the game is over."""

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now, as a fresh JSON-able dict."""

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[str]:
        """Check and play an action; raise ``IllegalMove`` (a ValueError) when it is not legal.

        Returns the names of the bot hooks the move fired (e.g. ``on_hand_end``).
        """

    def scores(self) -> list[int]:
        """Game points per seat so far."""

    def location(self) -> dict[str, Any]:
        """Where play stands (hand, phase), for error reports."""

    def record(self) -> dict[str, Any]:
        """The spectator's record of the game so far (every card), for the replay."""

    def reveal(self) -> dict[str, Any]:
        """What every player is shown at game end (for ``on_game_end``)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What one finished game means for the match."""

    winner: int | None  # None for a tied game
    awarded: tuple[int, ...]  # match points per seat
    ends_match: bool = False  # e.g. a Lie 21 sweep
    label: str = ""  # "sweep", "double", "win", "tie"


@dataclass(frozen=True, slots=True)
class MatchDecision:
    winner: int | None  # None for a drawn match
    reason: str  # "match_points", "sweep", "game_cap", "error"


class MatchRules(Protocol):
    """How games add up to a match."""

    def options(self) -> dict[str, Any]:
        """The rule options in force, recorded in every replay."""

    def dealer_of(self, game_number: int, first_dealer: int, num_players: int) -> int:
        """Who deals game ``game_number`` (1-based)."""

    def game_outcome(self, scores: Sequence[int]) -> GameOutcome:
        """Turn a finished game's scores into match points."""

    def decide(
        self, match_points: Sequence[int], games_played: int, last: GameOutcome
    ) -> MatchDecision | None:
        """The match result once it is decided, else None."""


class Game(Protocol):
    """A game the arena can host, registered by name in ``engine.registry``."""

    name: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, *, seed: int, dealer: int, num_players: int) -> GameState:
        """Deal a new game from a seed."""

    def match_rules(self, options: Mapping[str, Any] | None = None) -> MatchRules:
        """The match rules, with caller options over the defaults."""

    def builtin_bots(self) -> dict[str, Path]:
        """Built-in bots by name: each is an ordinary bot file."""
