"""Twenty One with trump cards: two bots, hush cards, a trump deck, bets that grow each round.

See ``rules.md`` for the rules as the arena plays them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.game import GameDefaults, GameFolder, IllegalMove
from engine.games.twenty_one.cards import TRUMP_ORDER
from engine.games.twenty_one.draws import RecordedDraws
from engine.games.twenty_one.match_rules import DEFAULT_MATCH, TwentyOneMatch
from engine.games.twenty_one.observe import game_reveal, observation
from engine.games.twenty_one.rules import TwentyOneState
from engine.games.twenty_one.stats import MEANING, seat_stats
from engine.games.twenty_one.transcript import transcript

__all__ = ["ACTION_SCHEMA", "GAME", "IllegalMove", "TwentyOne", "TwentyOneGame"]

_HERE = Path(__file__).resolve().parent

#: One object with optional parts: ``trumps`` played in order, then ``then`` (draw, pass,
#: or stop). Without ``then`` the turn goes on. The rules explain what is illegal.
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Twenty One action",
    "type": "object",
    "minProperties": 1,
    "additionalProperties": False,
    "properties": {
        "trumps": {
            "type": "array",
            "items": {"type": "string", "enum": list(TRUMP_ORDER)},
            "minItems": 1,
            "maxItems": 64,
        },
        "then": {"type": "string", "enum": ["draw", "pass", "stop"]},
    },
}


class TwentyOne(TwentyOneState):
    """A game state with the observer and replay views the runner asks for."""

    __slots__ = ()

    observation = observation
    reveal = game_reveal

    def record(self) -> dict[str, Any]:
        """Every round as a spectator saw it (decks, hush cards, cards put back, trumps
        switched), the first trump deck and every one shuffled from the discards: each random
        draw of the game (``rules.md``, "The replay")."""
        record: dict[str, Any] = {
            "trump_deck": list(self.trump_start),
            "trump_refills": [dict(refill) for refill in self.refills],
            "rounds": [dict(r) for r in self.rounds],
            "bets": list(self.bets),
            "rounds_won": list(self.rounds_won),
        }
        if self.round > len(self.rounds):  # a fault stopped the game mid-round
            record["unfinished"] = {
                "round": self.round,
                "deck": list(self.order),
                "put_back": [dict(entry) for entry in self.put_back],
                "switched": [names[:] for names in self.switched],
            }
        return record


class TwentyOneGame(GameDefaults, GameFolder):
    folder = _HERE
    bot_names = ("random", "basic", "exact", "starter")
    name = "twenty_one"
    title = "Twenty One"
    summary = (
        "Two bots draw from eleven cards toward 21 with a hidden hush card and a hand of "
        "trumps, betting more every round until one is out of bets."
    )
    #: What one match is (the game and tournament pages say it).
    match_summary = (
        "One match is four games, the second and fourth replaying the first and third "
        "with the seats swapped: most games won takes it, then the bets held."
    )
    position = 20
    min_players = 2
    max_players = 2
    hooks = ("on_round_end",)
    hook_events = {"round_end": "on_round_end"}
    lists_legal_actions = True
    supports_duplicate = True
    #: Not here: duplicate sets cut the variance of a fixed table's result too little to pay
    #: for them (ratio 0.92 in benchmarks/ranking_convergence.py).
    duplicate_helps = False

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int = 2,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> TwentyOne:
        """``dealer`` is the seat that starts round 1; seat s plays position
        (s + rotation) % 2 of the deal. The match plan makes the seat holding position 0
        the starter (ruling 1)."""
        if num_players != 2:
            raise ValueError("Twenty One is a game for two players")
        rules = _rules_for(options)
        return TwentyOne(
            seed,
            dealer,
            rotation,
            dealer_mode=rules.dealer_mode,
            starting_bets=rules.starting_bets,
            trumps=dict(rules.trumps),
        )

    def rebuild(
        self, game: Mapping[str, Any], *, num_players: int, options: Mapping[str, Any]
    ) -> TwentyOne:
        """A game whose every draw is read from its replay entry's record (trump decks,
        each round's deck, cards put back, Trump Switch discards): a referee's re-play, with
        no seed."""
        if num_players != 2:
            raise ValueError("Twenty One is a game for two players")
        rules = _rules_for(options)
        return TwentyOne(
            None,
            game["dealer"],
            game.get("rotation", 0),
            dealer_mode=rules.dealer_mode,
            starting_bets=rules.starting_bets,
            trumps=dict(rules.trumps),
            draws=RecordedDraws(game["record"]),
        )

    def match_rules(self, options: Mapping[str, Any] | None = None) -> TwentyOneMatch:
        return TwentyOneMatch.from_options(options) if options else DEFAULT_MATCH

    action_json_schema = ACTION_SCHEMA

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        return seat_stats(replay)

    #: Each stat's unit and meaning (see ``stats.MEANING``).
    stats_meaning = MEANING

    def transcript(self, replay: Mapping[str, Any]) -> str:
        """The match round by round, for ``python -m engine replay``."""
        return transcript(replay)


def _rules_for(options: Mapping[str, Any] | None) -> TwentyOneMatch:
    """The game's settings from the match options (checked again: a caller may deal a game
    without building match rules first).

    Every game of a match and every game of a benchmark deals from the same options
    object, and checking its trump deck costs some 75,000 instructions (2% of a game), so
    the last options checked are kept: the same object, still written the same (its
    ``repr``, which tells ``True`` from ``1`` and ``1.0`` where ``==`` does not), gives the
    same rules. Any other options are checked in full.
    """
    if not options:
        return DEFAULT_MATCH
    last = _LAST_CHECKED[0]
    if last is not None and options is last[0] and repr(options) == last[1]:
        return last[2]
    rules = TwentyOneMatch.from_options(options)
    # One tuple, replaced whole: a thread reading it sees an old entry or a new one.
    _LAST_CHECKED[0] = (options, repr(options), rules)
    return rules


#: The options :func:`_rules_for` checked last: (the object, its ``repr`` then, its rules).
_LAST_CHECKED: list[tuple[Mapping[str, Any], str, TwentyOneMatch] | None] = [None]


GAME = TwentyOneGame()
