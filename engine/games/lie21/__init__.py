"""Lie 21: the first game the arena hosts. See ``rules.md``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.game import GameDefaults, GameFolder, IllegalMove
from engine.games.lie21.cards import shuffled
from engine.games.lie21.legacy import upgrade_replay
from engine.games.lie21.match_rules import BestOfSeven
from engine.games.lie21.observe import game_reveal, observation
from engine.games.lie21.rules import Lie21State
from engine.games.lie21.stats import MEANING, seat_stats
from engine.games.lie21.transcript import transcript

__all__ = ["GAME", "IllegalMove", "Lie21", "Lie21Game"]

_HERE = Path(__file__).resolve().parent
_DEFAULT_RULES = BestOfSeven()

_CARD = {"type": "string", "pattern": "^([A2-7JQK][SHDC]|X[RB])$"}
#: The Liar sends ``cards`` and ``face_up``, The Judge ``cards`` and ``challenge``.
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Lie 21 action",
    "type": "object",
    "required": ["cards"],
    "additionalProperties": False,
    "properties": {
        "cards": {"type": "array", "items": _CARD, "minItems": 3, "maxItems": 3},
        "face_up": {"type": "integer", "minimum": 0, "maximum": 2},
        "challenge": {"type": "boolean"},
    },
}


class Lie21(Lie21State):
    """A Lie 21 game state with the observer and replay views the runner asks for."""

    __slots__ = ()

    # Bound straight to the observer's functions: one call less on every decision.
    observation = observation
    reveal = game_reveal

    def record(self) -> dict[str, Any]:
        return {
            "deck": list(self.deck),
            "trump_card": self.trump_card,
            "trump_suit": self.trump_suit,
            "deal": [list(cards) for cards in self.deal],
            "hands": [hand.to_json() for hand in self.log],
            "scores": self.scores(),
        }


class Lie21Game(GameDefaults, GameFolder):
    folder = _HERE
    bot_names = ("random", "greedy", "heuristic", "search", "starter")
    name = "lie21"
    title = "Lie 21"
    summary = (
        "Two bots bluff with three-card hands aiming at 21: lie with two cards face down, "
        "challenge or forfeit, best of seven."
    )
    #: What one match is (the game and tournament pages say it).
    match_summary = (
        "One match is best of seven games: a game won with 61-89 points gives one match "
        "point, 90 or more two, and 120 sweeps the match at once; the first to four match "
        "points wins."
    )
    position = 0
    min_players = 2
    max_players = 2
    hooks = ("on_hand_end",)
    hook_events = {"hand_end": "on_hand_end"}
    lists_legal_actions = True
    supports_duplicate = True
    #: Not here: duplicate sets do not cut the variance of a fixed table's result (ratio
    #: 1.11 in benchmarks/ranking_convergence.py).
    duplicate_helps = False
    #: The TrueSkill environment's draw probability: a drawn match needs equal match points
    #: at the 13-game cap; measured: 0 draws in 1,500 matches of the built-in bots.
    draw_probability = 0.001

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int = 2,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> Lie21:
        """Everything in Lie 21 is dealt relative to the dealer, so rotating the deal is
        handing the dealer's cards to the other seat: the dealer moves by ``rotation``."""
        if num_players != 2:
            raise ValueError("Lie 21 is a game for two players")
        dealer = (dealer - rotation) % 2
        return Lie21(shuffled(seed), dealer, check=False)  # a shuffle is a full deck

    def rebuild(
        self, game: Mapping[str, Any], *, num_players: int, options: Mapping[str, Any]
    ) -> Lie21:
        """A game dealt from its replay entry: the shuffle is the record's ``deck`` (top card
        first), the dealer as :meth:`new_game` turns it (a referee's re-play; no seed)."""
        if num_players != 2:
            raise ValueError("Lie 21 is a game for two players")
        return Lie21(game["record"]["deck"], (game["dealer"] - game.get("rotation", 0)) % 2)

    def match_rules(self, options: Mapping[str, Any] | None = None) -> BestOfSeven:
        return BestOfSeven.from_options(options) if options else _DEFAULT_RULES

    action_json_schema = ACTION_SCHEMA

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        return seat_stats(replay)

    #: Each stat's unit and meaning (see ``stats.MEANING``).
    stats_meaning = MEANING

    def transcript(self, replay: Mapping[str, Any]) -> str:
        """The match hand by hand, for ``python -m engine replay``."""
        return transcript(dict(replay))

    def upgrade_replay(self, replay: Mapping[str, Any]) -> dict[str, Any]:
        """Format-1 replays (Lie 21's own, before format 2) in today's format."""
        return upgrade_replay(replay)


GAME = Lie21Game()
