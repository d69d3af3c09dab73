"""What the Lie 21 renderer must show at each position of a game, recomputed in Python.

An independent reference for the browser tests: it reads the game's spectator record (the
starting hands, the hands played with their draws) and the steps' actions, uses the engine's
own card order (``engine.games.lie21.cards``), and derives every position as the renderer
must, without the renderer's JavaScript.

A position is ``move`` steps into the game (0 = the deal): each hand is two steps, The
Liar's lie and The Judge's answer (the answer's position shows the result and the draws).
The last position of a complete game is its end, with every card revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.games.lie21.cards import ORDER

BACK = "back"
SLOT = ""


@dataclass(frozen=True)
class Position:
    move: int
    phase: str  # deal, lie, hand_end, game_end or fault
    hand: dict[str, Any] | None  # the hand in play: number, liar, judge, cards, ...
    hands: tuple[list[str], list[str]]  # each seat's cards, in display order
    deck: int
    points: tuple[int, int]  # running game points (the spectator's view)
    done: list[dict[str, Any]] = field(default_factory=list)  # hands answered so far

    @property
    def hand_number(self) -> str:
        return str(self.hand["number"]) if self.hand else ""


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def game_positions(game: dict[str, Any]) -> list[Position]:
    """Every position of one game of a format-2 replay, from the deal to its last step."""
    record = game["record"]
    steps = game["steps"]
    hands = [_sorted(record["deal"][0]), _sorted(record["deal"][1])]
    deck = 30
    points = (0, 0)
    done: list[dict[str, Any]] = []
    positions = [Position(0, "deal", None, (hands[0][:], hands[1][:]), deck, points, [])]
    current: dict[str, Any] | None = None
    for move, step in enumerate(steps, start=1):
        action = step["action"]
        if "face_up" in action:  # The Liar's lie
            number = len(done) + 1
            current = {
                "number": number,
                "liar": step["seat"],
                "judge": 1 - step["seat"],
                "liar_cards": list(action["cards"]),
                "face_up": action["face_up"],
                "answered": False,
            }
            for card in action["cards"]:
                hands[step["seat"]].remove(card)
            phase = "lie"
        else:  # The Judge's answer: the hand ends, the winner then the loser draw
            assert current is not None
            played = record["hands"][current["number"] - 1]
            current = {**current, **played, "answered": True}
            for card in action["cards"]:
                hands[step["seat"]].remove(card)
            for draw in played["draws"]:
                hands[draw["seat"]] = _sorted(hands[draw["seat"]] + draw["cards"])
                deck -= len(draw["cards"])
            points = tuple(played["points"])
            done.append(current)
            phase = "hand_end"
        if move == len(steps):
            phase = "game_end" if game["end"] == "complete" else "fault"
        positions.append(
            Position(move, phase, current, (hands[0][:], hands[1][:]), deck, points, list(done))
        )
    return positions


def visible_table(position: Position, view: int | None) -> tuple[list[str], list[str]]:
    """The Liar's and The Judge's cards of the hand in play as ``view`` sees them
    (``data-card`` values: "back" when unseen, "" for an empty slot); ``view`` None is the
    spectator, who sees every card.

    The Liar's cards are in the order played. A player who is not The Liar sees only the
    face-up card (drawn first) and two backs, until a challenge or the game's end shows all.
    """
    hand = position.hand
    assert hand is not None
    over = position.phase == "game_end"
    answered = hand["answered"]
    challenged = answered and hand["challenge"]
    if view is None or view == hand["liar"] or challenged or over:
        liar = list(hand["liar_cards"])
    else:
        liar = [hand["liar_cards"][hand["face_up"]], BACK, BACK]
    if not answered:
        return liar, [SLOT, SLOT, SLOT]
    if view is None or view == hand["judge"] or challenged or over:
        return liar, list(hand["judge_cards"])
    return liar, [BACK, BACK, BACK]


def history_row(hand: dict[str, Any], view: int | None, *, over: bool) -> list[str]:
    """One answered hand in the history list: The Liar's three cards, then The Judge's."""
    liar, judge = visible_table(
        Position(0, "game_end" if over else "hand_end", hand, ([], []), 0, (0, 0)), view
    )
    return liar + judge
