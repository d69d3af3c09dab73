"""What the replay viewer must show at each step of a game, recomputed in Python.

An independent reference for the browser tests: it uses the engine's own card order and
sums (``engine.games.lie21.cards``), not the viewer's JavaScript, and derives every
position from the deck, the hands played and the draws, as the viewer must.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.lie21.cards import ORDER, move_total

PHASE_ORDER = {"lie": 1, "answer": 2, "result": 3, "draw": 4}


@dataclass(frozen=True)
class Step:
    phase: str
    hand: dict[str, Any] | None
    hands: tuple[list[str], list[str]]
    deck: int
    sums: tuple[int, int] | None = None

    @property
    def hand_number(self) -> str:
        return str(self.hand["number"]) if self.hand else ""


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def game_steps(game: dict[str, Any]) -> list[Step]:
    """Deal, then per hand: lie, answer, result and (while the deck lasts) draw; game end."""
    dealer = game["dealer"]
    hands: list[list[str]] = [[], []]
    hands[dealer] = _sorted(game["deck"][:6])
    hands[1 - dealer] = _sorted(game["deck"][6:12])
    deck = 30
    steps = [Step("deal", None, (list(hands[0]), list(hands[1])), deck)]
    for hand in game["hands"]:
        for seat, key, phase in (
            (hand["liar"], "liar_cards", "lie"),
            (hand["judge"], "judge_cards", "answer"),
        ):
            for card in hand[key]:
                hands[seat].remove(card)
            steps.append(Step(phase, hand, (list(hands[0]), list(hands[1])), deck))
        sums = (move_total(hand["liar_cards"]), move_total(hand["judge_cards"]))
        steps.append(Step("result", hand, (list(hands[0]), list(hands[1])), deck, sums))
        if hand["draws"]:
            for draw in hand["draws"]:
                hands[draw["seat"]] = _sorted(hands[draw["seat"]] + draw["cards"])
                deck -= len(draw["cards"])
            steps.append(Step("draw", hand, (list(hands[0]), list(hands[1])), deck, sums))
    steps.append(Step("game_end", None, (list(hands[0]), list(hands[1])), deck))
    return steps


def visible_table(step: Step, view: int | None) -> tuple[list[str], list[str]]:
    """The Liar's and The Judge's played cards as ``view`` sees them ("back" when unseen);
    ``view`` None is the spectator, who sees every card."""
    hand = step.hand
    assert hand is not None
    rank = PHASE_ORDER[step.phase]
    revealed = hand["challenge"] and rank >= PHASE_ORDER["result"]
    liar = [
        card if view is None or view == hand["liar"] or i == hand["face_up"] or revealed else "back"
        for i, card in enumerate(hand["liar_cards"])
    ]
    if rank < PHASE_ORDER["answer"]:
        return liar, ["", "", ""]
    judge = [
        card if view is None or view == hand["judge"] or hand["challenge"] else "back"
        for card in hand["judge_cards"]
    ]
    return liar, judge
