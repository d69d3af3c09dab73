"""High Card: a tiny three-seat game that exists only in the tests.

It proves that everything above ``engine/games/`` is game-neutral: registered by the test
suite (``tests/conftest.py``, and ``ARENA_EXTRA_GAMES`` for worker processes), it goes through
upload, validation, the ladder, tournaments, ratings with ranks, the API and the viewer. Its
folder is also a distribution of its own (``pyproject.toml``: a ``bluff_arena.games`` entry
point), which ``tests/engine/test_plugins.py`` installs to show a game plugs in as a package.

Rules: a deck of 13 cards (2..14). Each of the 2-4 seats is dealt one card, face down. In
turn from the dealer, each seat either keeps its card or swaps it for the top card of the
deck (the old card goes face up to everyone). When all have moved, cards are shown: the
highest card places first, and so on. A match is three games; the dealer rotates; each
game gives ``seats - 1 - placing`` points and the match is ranked by points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.game import (
    GameDefaults,
    GameFolder,
    GameOutcome,
    GamePlan,
    GamesByPoints,
    IllegalMove,
    ranks_from_scores,
)

__all__ = ["GAME", "HighCardGame"]

_HERE = Path(__file__).parent
ACTION_SCHEMA = {
    "type": "object",
    "required": ["swap"],
    "additionalProperties": False,
    "properties": {"swap": {"type": "boolean"}},
}


class HighCard:
    def __init__(
        self, seed: int | None, dealer: int, seats: int, rotation: int, deck: list | None = None
    ) -> None:
        if deck is None:  # a replay's record gives the shuffled deck (a referee's re-play)
            deck = list(range(2, 15))
            random.Random(seed).shuffle(deck)
        self.shuffled = list(deck)
        dealt = deck[:seats]  # by position; seat s plays position (s + rotation) % seats
        self.cards = [dealt[(s + rotation) % seats] for s in range(seats)]
        self.deck = deck[seats:]
        self.seats = seats
        self.order = [(dealer + k) % seats for k in range(seats)]
        self.turn = 0
        self.shown: list[int] = []  # cards swapped away, face up
        self.out: set[int] = set()

    def to_act(self) -> int | None:
        while self.turn < self.seats and self.order[self.turn] in self.out:
            self.turn += 1
        return self.order[self.turn] if self.turn < self.seats else None

    def observation(self, seat: int) -> dict[str, Any]:
        return {
            "game": "highcard",
            "seat": seat,
            "card": self.cards[seat],
            "shown": list(self.shown),
            "to_act": self.to_act(),
            "out": sorted(self.out),
        }

    def start_events(self) -> list[dict[str, Any]]:
        return [
            {
                "type": "deal",
                "public": {"order": list(self.order)},
                "private": {str(s): {"card": c} for s, c in enumerate(self.cards)},
            }
        ]

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        if seat != self.to_act():
            raise IllegalMove(f"it is not seat {seat}'s turn")
        swap = action.get("swap") if isinstance(action, dict) else None
        if type(swap) is not bool:
            raise IllegalMove("the action needs 'swap': true or false")
        self.turn += 1
        events: list[dict[str, Any]] = []
        if swap:
            old, self.cards[seat] = self.cards[seat], self.deck.pop(0)
            self.shown.append(old)
            events.append(
                {
                    "type": "swap",
                    "public": {"seat": seat, "discarded": old},
                    "private": {str(seat): {"card": self.cards[seat]}},
                }
            )
        else:
            events.append({"type": "keep", "public": {"seat": seat}})
        if self.to_act() is None:
            events.append(
                {
                    "type": "showdown",
                    "public": {"cards": list(self.cards), "placings": list(self.placings())},
                }
            )
        return events

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"swap": False}, {"swap": True}] if seat == self.to_act() else []

    def default_action(self, seat: int) -> dict[str, Any]:
        return {"swap": False}

    def eliminate(self, seat: int) -> bool:
        self.out.add(seat)
        return self.seats - len(self.out) >= 2

    def placings(self) -> tuple[int, ...]:
        values = [-1 if s in self.out else c for s, c in enumerate(self.cards)]
        return ranks_from_scores(values)

    def scores(self) -> list[int]:
        return [0 if s in self.out else c for s, c in enumerate(self.cards)]

    def location(self) -> dict[str, Any]:
        return {"turn": self.turn}

    def record(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "shown": list(self.shown), "deck": self.shuffled[:]}

    def reveal(self) -> dict[str, Any]:
        return {"cards": list(self.cards)}


class BestOfThree(GamesByPoints):
    games = 3

    def options(self) -> dict[str, Any]:
        return {"games": self.games}

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        return GamePlan(deal=game_number, dealer=(first_dealer + game_number - 1) % num_players)

    def game_outcome(self, state: HighCard) -> GameOutcome:
        placings = state.placings()
        seats = len(placings)
        return GameOutcome(
            placings=placings,
            awarded=tuple(seats - 1 - p for p in placings),
            label="showdown",
            totals={"firsts": tuple(int(p == 0) for p in placings)},
        )


class HighCardGame(GameDefaults, GameFolder):
    folder = _HERE
    bot_names = ("random", "starter")
    name = "highcard"
    title = "High Card (test game)"
    summary = "Keep your hidden card or swap it; the highest card wins. A test game."
    match_summary = "One match is three games; the most points takes it."
    position = 90
    min_players = 2
    max_players = 4
    ladder_seats = 3  # ladder and tournament tables: the three-seat case the tests need
    lists_legal_actions = True
    supports_duplicate = True

    def new_game(
        self,
        *,
        seed: int,
        dealer: int,
        num_players: int,
        rotation: int = 0,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> HighCard:
        return HighCard(seed, dealer, num_players, rotation)

    def rebuild(
        self, game: Mapping[str, Any], *, num_players: int, options: Mapping[str, Any]
    ) -> HighCard:
        """The game dealt from its replay entry's record (the shuffled deck)."""
        deck = list(game["record"]["deck"])
        return HighCard(None, game["dealer"], num_players, game.get("rotation", 0), deck)

    def match_rules(self, options: Mapping[str, Any] | None = None) -> BestOfThree:
        if options and set(options) - {"games"}:
            raise ValueError(f"unknown options: {sorted(set(options) - {'games'})}")
        return BestOfThree()

    action_json_schema = ACTION_SCHEMA

    def stats(self, replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
        seats = len(replay["seats"])
        swaps = [0] * seats
        moves = [0] * seats
        for game in replay["games"]:
            for step in game["steps"]:
                moves[step["seat"]] += 1
                swaps[step["seat"]] += bool(step["action"].get("swap"))
        return [{"swap_rate": swaps[s] / moves[s] if moves[s] else None} for s in range(seats)]


GAME = HighCardGame()
