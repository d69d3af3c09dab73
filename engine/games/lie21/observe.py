"""What a player at the table may see: the single place that decides it.

A bot only ever receives dicts built here (plus the match context the runner adds). A
property test (``tests/engine/test_hidden_information.py``) relabels every card a player
cannot see and checks that the player's observation does not change.

A player sees: its own hand; the turned-up trump card; how many cards are left in the deck;
the opponent's hand size; the roles; the current Liar's face-up card; all six cards of a
challenged hand; its own cards (only) of a forfeited hand; the number of cards each side
has won. Game points are revealed only at game end, with every card of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.lie21.cards import DECK, HANDS_PER_GAME

if TYPE_CHECKING:
    from engine.games.lie21.rules import HandRecord, Lie21State

DECK_SIZE = len(DECK)

__all__ = ["game_reveal", "hand_view", "hand_views", "observation"]


def hand_view(record: HandRecord, seat: int) -> dict[str, Any]:
    """One finished hand as ``seat`` saw it: forfeited cards of the other side stay hidden."""
    return hand_views(record)[seat]


def hand_views(record: HandRecord) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hand as each seat saw it, both at once (a hand ends thousands of times a second).

    Two separate dicts even where they are equal: no object is shared between the players.
    """
    lie, answer = record.lie, record.answer
    liar, judge = record.liar, record.judge
    number, winner, rule = record.number, record.winner, str(record.rule)  # a plain str
    up = lie.cards[lie.face_up]
    if answer.challenge:  # all six cards were shown to both
        shown = {
            "number": number,
            "liar": liar,
            "judge": judge,
            "face_up": up,
            "challenge": True,
            "liar_cards": list(lie.cards),
            "judge_cards": list(answer.cards),
            "liar_sum": record.liar_sum,
            "judge_sum": record.judge_sum,
            "winner": winner,
            "rule": rule,
        }
        # The other player's copy, with lists of its own.
        return shown, {**shown, "liar_cards": list(lie.cards), "judge_cards": list(answer.cards)}
    # A forfeit: each side saw its own three cards and The Liar's face-up card, no sums.
    views = [None, None]
    views[liar] = {
        "number": number,
        "liar": liar,
        "judge": judge,
        "face_up": up,
        "challenge": False,
        "liar_cards": list(lie.cards),
        "judge_cards": None,
        "liar_sum": None,
        "judge_sum": None,
        "winner": winner,
        "rule": rule,
    }
    views[judge] = {
        "number": number,
        "liar": liar,
        "judge": judge,
        "face_up": up,
        "challenge": False,
        "liar_cards": None,
        "judge_cards": list(answer.cards),
        "liar_sum": None,
        "judge_sum": None,
        "winner": winner,
        "rule": rule,
    }
    return views[0], views[1]  # type: ignore[return-value]


def observation(state: Lie21State, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (the runner adds the match part).

    Built on every decision, thousands of times a second, so it reads the state's fields
    directly rather than through its properties.
    """
    pending = state.pending
    number = state.hand_number
    if number > HANDS_PER_GAME:  # the game is over: nobody's turn
        number, liar, role = HANDS_PER_GAME, None, None
    else:
        liar = state.liar
        role = "liar" if seat == liar else "judge"
    captured = state.captured
    return {
        "game": "lie21",
        "seat": seat,
        "hand_number": number,
        "dealer": state.dealer,
        "liar": liar,
        "role": role,
        "hand": state.hands[seat][:],
        "trump_card": state.trump_card,
        "trump_suit": state.trump_suit,
        "deck_count": DECK_SIZE - state._pos,
        "opponent_hand_count": len(state.hands[1 - seat]),
        "face_up": pending.cards[pending.face_up] if pending is not None else None,
        "captured": [len(captured[0]), len(captured[1])],
        "history": state.views[seat][:],
    }


def game_reveal(state: Lie21State) -> dict[str, Any]:
    """Everything about a finished game, shown to both players at its end."""
    return {
        "trump_card": state.trump_card,
        "trump_suit": state.trump_suit,
        "dealer": state.dealer,
        "hands": [record.to_json() for record in state.log],
        "captured": [list(pile) for pile in state.captured],
        "scores": state.scores(),
    }
