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
_SEAT_KEYS = ("0", "1")  # a seat as the key of an event's private part

__all__ = ["game_reveal", "hand_view", "hand_views", "observation"]


def hand_view(record: HandRecord, seat: int) -> dict[str, Any]:
    """One finished hand as ``seat`` saw it: forfeited cards of the other side stay hidden."""
    return hand_views(record, 0)[seat]


def _drew(draws: tuple[tuple[int, tuple[str, ...]], ...]) -> dict[str, dict[str, Any]]:
    """The private part of the draws after a hand: each drawer's cards (tuples, shared with
    no bot; the replay writes them as JSON lists)."""
    if len(draws) == 2:
        (first, cards), (second, more) = draws
        return {_SEAT_KEYS[first]: {"drew": cards}, _SEAT_KEYS[second]: {"drew": more}}
    return {_SEAT_KEYS[seat]: {"drew": cards} for seat, cards in draws}


def hand_views(
    record: HandRecord, deck_count: int
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The hand as each seat saw it, and the ``hand_end`` event that logs it, all at once
    (a hand ends thousands of times a second).

    Separate dicts even where they are equal: no object is shared between the players, nor
    with the replay. A challenged hand is public in full; of a forfeited one the event says
    only who won (each side's cards are in its own action, which only it sees). The event
    also logs the draws after the hand: which cards each side drew (``drew``, private to the
    drawer) and ``deck_count``, the cards left after them.
    """
    lie, answer = record.lie, record.answer
    liar, judge = record.liar, record.judge
    liar_cards, judge_cards = lie.cards, answer.cards
    up = liar_cards[lie.face_up]
    draws = record.draws
    if answer.challenge:  # all six cards were shown to both
        shown = {
            "number": record.number,
            "liar": liar,
            "judge": judge,
            "face_up": up,
            "challenge": True,
            "liar_cards": list(liar_cards),
            "judge_cards": list(judge_cards),
            "liar_sum": record.liar_sum,
            "judge_sum": record.judge_sum,
            "winner": record.winner,
            "rule": record.rule.value,  # a plain str
        }
        # The other player's copy and the event's, each with lists of its own.
        other = shown.copy()
        other["liar_cards"] = list(liar_cards)
        other["judge_cards"] = list(judge_cards)
        public = shown.copy()  # the same keys in the same order, then the deck count
        public["liar_cards"] = liar_cards  # tuples: the replay's, shared with no bot
        public["judge_cards"] = judge_cards
        public["deck_count"] = deck_count
        if not draws:
            return shown, other, {"type": "hand_end", "public": public}
        return shown, other, {"type": "hand_end", "public": public, "private": _drew(draws)}
    # A forfeit: each side saw its own three cards and The Liar's face-up card, no sums.
    number, winner = record.number, record.winner
    liar_view = {
        "number": number,
        "liar": liar,
        "judge": judge,
        "face_up": up,
        "challenge": False,
        "liar_cards": list(liar_cards),
        "judge_cards": None,
        "liar_sum": None,
        "judge_sum": None,
        "winner": winner,
        "rule": "forfeit",
    }
    judge_view = liar_view.copy()
    judge_view["liar_cards"] = None
    judge_view["judge_cards"] = list(judge_cards)
    common = {
        "number": number,
        "liar": liar,
        "judge": judge,
        "face_up": up,
        "challenge": False,
        "winner": winner,
        "rule": "forfeit",
        "deck_count": deck_count,
    }
    event: dict[str, Any] = {"type": "hand_end", "public": common}
    if draws:  # each side's own cards are in its action; only the draws are private here
        event["private"] = _drew(draws)
    if liar == 0:
        return liar_view, judge_view, event
    return judge_view, liar_view, event


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
