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

__all__ = ["game_reveal", "hand_view", "observation"]


def hand_view(record: HandRecord, seat: int) -> dict[str, Any]:
    """One finished hand as ``seat`` saw it: forfeited cards of the other side stay hidden."""
    shown = record.answer.challenge
    return {
        "number": record.number,
        "liar": record.liar,
        "judge": record.judge,
        "face_up": record.lie.up_card,
        "challenge": shown,
        "liar_cards": list(record.lie.cards) if shown or seat == record.liar else None,
        "judge_cards": list(record.answer.cards) if shown or seat == record.judge else None,
        "liar_sum": record.liar_sum if shown else None,
        "judge_sum": record.judge_sum if shown else None,
        "winner": record.winner,
        "rule": str(record.rule),
    }


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
