"""Liars: poker dice for 2 to 6 bots, hidden dice under the cup, three lives each.

See ``rules.md`` for the rules as the arena plays them. ``hands.py`` orders the
announcements, ``rules.py`` plays a game, ``observe.py`` decides what each seat sees,
``match_rules.py`` adds games up to a match and ``stats.py`` reads a replay for bot authors.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.game import GameDefaults, GameFolder, IllegalMove
from engine.games.liars.match_rules import LiarsMatch
from engine.games.liars.observe import game_reveal, observation
from engine.games.liars.rules import LiarsState, RecordedDice, Variant
from engine.games.liars.stats import MEANING, seat_stats

__all__ = ["ACTION_SCHEMA", "GAME", "IllegalMove", "Liars", "LiarsGame"]

_HERE = Path(__file__).resolve().parent
_DEFAULT_RULES = LiarsMatch()

_INDEXES = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 4},
    "maxItems": 5,
    "uniqueItems": True,
}
#: One object shape for every decision; the rules say which keys fit the moment.
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Liars action",
    "description": (
        "One decision: {'refuse': true}, {'look': true}, {'throw': [dice], 'hide': [dice], "
        "'cover': [dice]} or {'announce': [five dice] or 'short form', 'direction': 1 | -1}."
    ),
    "type": "object",
    "minProperties": 1,
    "additionalProperties": False,
    "properties": {
        "refuse": {"const": True},
        "look": {"const": True},
        "throw": {**_INDEXES, "minItems": 1},
        "hide": _INDEXES,
        "cover": _INDEXES,
        "announce": {
            "type": ["array", "string"],
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 5,
            "maxItems": 5,
            "minLength": 1,
            "maxLength": 60,
        },
        "direction": {"enum": [1, -1]},
    },
}


class Liars(LiarsState):
    """A Liars game state with the observer and replay views the runner asks for."""

    __slots__ = ()

    observation = observation
    reveal = game_reveal

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Not listed for this game (``lists_legal_actions`` is False): the default move only,
        so a caller that asks still gets one legal action."""
        return [self.default_action(seat)] if seat == self.to_act() else []

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "rounds": self.record_rounds,
            "lives": self.scores(),
            "eliminated": list(self.elim),
            "faulted": [s for s in range(self.n) if self.faulted[s]],
        }
        if len(self.record_rounds) < self.round:  # a fault stopped the game mid-round
            record["unfinished"] = {"number": self.round, "throws": self.throw_log}
        return record


class LiarsGame(GameDefaults, GameFolder):
    folder = _HERE
    bot_names = ("random", "honest", "bayes", "starter")
    name = "liars"
    title = "Liars"
    summary = (
        "Poker dice for 2 to 6 bots: throw under the cup, announce a higher hand or call "
        "the liar; three lives, last survivor wins."
    )
    #: What one match is (the game and tournament pages say it).
    match_summary = (
        "One match is one game of Liars at a table of 2-6 bots, played until one bot is "
        "left with lives: the order they drop out in is the placing."
    )
    position = 20
    min_players = 2
    max_players = 6
    lists_legal_actions = False
    late_moves_allowed = 2
    supports_duplicate = False
    #: Sets of one seed, not one deal, per seat rotation: the dice are not dealt ahead (they
    #: part ways with the first different decision), but every seat starts each set once,
    #: which cuts the variance of a fixed table's result (ratio 0.78 in
    #: benchmarks/ranking_convergence.py).
    duplicate_helps = True

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> Liars:
        """``dealer`` starts the first round. Dice are thrown during play from the game's own
        RNG, so ``rotation`` has nothing to rotate."""
        return Liars(seed, dealer, num_players, Variant.from_options(options))

    def rebuild(
        self, game: Mapping[str, Any], *, num_players: int, options: Mapping[str, Any]
    ) -> Liars:
        """A game whose dice land as its replay entry's record says (each throw's values by
        die index, round by round): a referee's re-play, with no seed."""
        return Liars(
            None,
            game["dealer"],
            num_players,
            Variant.from_options(options),
            dice=RecordedDice(game["record"]),
        )

    def match_rules(self, options: Mapping[str, Any] | None = None) -> LiarsMatch:
        return LiarsMatch.from_options(options) if options else _DEFAULT_RULES

    action_json_schema = ACTION_SCHEMA

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        return seat_stats(replay)

    #: Each stat's unit and meaning (see ``stats.MEANING``).
    stats_meaning = MEANING


GAME = LiarsGame()
