"""Tieng Len, the Vietnamese climbing game, for 2 to 4 bots. See ``rules.md``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.game import GameDefaults, GameFolder, IllegalMove
from engine.games.tieng_len.cards import CODES, INDEX
from engine.games.tieng_len.match_rules import EightGames, TiengLenOptions
from engine.games.tieng_len.observe import game_reveal, observation
from engine.games.tieng_len.rules import TiengLenState
from engine.games.tieng_len.stats import MEANING, seat_stats

__all__ = ["ACTION_SCHEMA", "GAME", "IllegalMove", "TiengLen", "TiengLenGame"]

_HERE = Path(__file__).resolve().parent

CARD_PATTERN = "^[3-9TJQKA2][SCDH]$"
#: One object with either ``cards`` or ``pass``: the schema refuses every other shape, the
#: rules explain what is wrong with a well-formed play (not in hand, not a combination ...).
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Tieng Len action",
    "description": 'Play cards: {"cards": ["3S", "3H"]}; or pass: {"pass": true}.',
    "type": "object",
    "minProperties": 1,
    "maxProperties": 1,
    "additionalProperties": False,
    "properties": {
        "cards": {
            "type": "array",
            "items": {"type": "string", "pattern": CARD_PATTERN},
            "minItems": 1,
            "maxItems": 13,
            "uniqueItems": True,
        },
        "pass": {"const": True},
    },
}


class TiengLen(TiengLenState):
    """A Tieng Len game state with the observer and replay views the runner asks for."""

    __slots__ = ()

    # Bound straight to the observer's functions: one call less on every decision.
    observation = observation
    reveal = game_reveal

    def record(self) -> dict[str, Any]:
        """The spectator's record: the shuffled pack, every hand dealt, the cards left out,
        who led first, and how the game ended (the moves are the replay's steps)."""
        return {
            "deck": [CODES[c] for c in self.deck] if self.deck is not None else None,
            "hands": [[CODES[c] for c in hand] for hand in self.dealt],
            "out_of_play": [CODES[c] for c in self.out_of_play],
            "first_game": self.first_game,
            "leader": self.opener,
            "order": list(self.finished),
            "last": self.last,
            "eliminated": list(self.eliminated),
            "instant_wins": dict(sorted((str(s), k) for s, k in self.instant.items())),
            "points": self.scores(),
        }


class TiengLenGame(GameDefaults, GameFolder):
    folder = _HERE
    bot_names = ("random", "greedy", "search", "starter")
    name = "tieng_len"
    title = "Tieng Len"
    summary = (
        "The Vietnamese climbing game for 2-4 bots: beat the play on the table with a higher "
        "single, pair, triple or run, bomb the 2s, and be first to shed all 13 cards."
    )
    #: What one match is (the game and tournament pages say it).
    match_summary = (
        "One match is eight games at a table of 2-4 bots, each giving its places' points "
        "(3/2/1/0 at four seats); most points takes the match, then first places."
    )
    position = 30
    min_players = 2
    max_players = 4
    lists_legal_actions = True
    supports_duplicate = True
    #: Duplicate sets cut the variance of a fixed table's result (ratio 0.86 in
    #: benchmarks/ranking_convergence.py).
    duplicate_helps = True

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int = 4,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> TiengLen:
        """Deal a game. The first game of a match is led by the lowest card dealt; a later
        one by the last game's winner, which the match tells in ``setup["leader"]``; without
        it this deals a first game."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError("Tieng Len is played by 2 to 4 seats")
        instant = (options or {}).get("instant_wins", False)
        if type(instant) is not bool:
            raise ValueError("match option 'instant_wins' must be true or false")
        leader = (setup or {}).get("leader")
        if leader is not None and not (type(leader) is int and 0 <= leader < num_players):
            raise ValueError(f"setup 'leader' must be a seat, not {leader!r}")
        return TiengLen.deal(
            seed,
            num_players,
            dealer=dealer,
            rotation=rotation,
            leader=leader,
            instant_wins=instant,
        )

    def rebuild(
        self, game: Mapping[str, Any], *, num_players: int, options: Mapping[str, Any]
    ) -> TiengLen:
        """A game dealt from its replay entry: the pack as the record's ``deck`` has it (the
        first card dealt first), the entry's dealer, rotation and leader (a referee's
        re-play; no seed)."""
        deck = [INDEX[code] for code in game["record"]["deck"]]
        return TiengLen.from_deck(
            deck,
            num_players,
            dealer=game["dealer"],
            rotation=game.get("rotation", 0),
            leader=game.get("setup", {}).get("leader"),
            instant_wins=options.get("instant_wins", False),
        )

    def match_rules(self, options: Mapping[str, Any] | None = None) -> EightGames:
        """A new rules object for every match (it remembers who won the last game)."""
        return EightGames(TiengLenOptions.from_options(options))

    action_json_schema = ACTION_SCHEMA

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        return seat_stats(replay)

    #: Each stat's unit and meaning (see ``stats.MEANING``).
    stats_meaning = MEANING


GAME = TiengLenGame()
