"""What a player at the table may see: the single place that decides it.

A bot only ever receives dicts built here (plus the match context the runner adds). A
property test (``tests/engine/games/lie21/test_hidden_information.py``) relabels every card a player
cannot see and checks that the player's observation does not change.

A player sees: its own hand; the turned-up trump card; how many cards are left in the deck;
the opponent's hand size; the roles; the current Liar's face-up card; all six cards of a
challenged hand; its own cards (only) of a forfeited hand; the number of cards each side
has won. Game points are revealed only at game end, with every card of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Protocol

from engine.games.lie21.cards import DECK, HANDS_PER_GAME


# What the observer reads off the rules' objects (``rules.HandRecord``, ``rules.Lie21State``),
# said here as protocols: the rules call this module, so it does not import them back.
class FinishedHand(Protocol):
    """One finished hand (``rules.HandRecord``)."""

    @property
    def number(self) -> int: ...
    @property
    def liar(self) -> int: ...
    @property
    def lie(self) -> Any: ...  # rules.Lie: .cards, .face_up
    @property
    def answer(self) -> Any: ...  # rules.Answer: .cards, .challenge
    @property
    def liar_sum(self) -> int: ...
    @property
    def judge_sum(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def rule(self) -> Enum: ...
    @property
    def draws(self) -> tuple[tuple[int, tuple[str, ...]], ...]: ...
    def to_json(self) -> dict[str, Any]: ...


class GameInPlay(Protocol):
    """A game in progress (``rules.Lie21State``)."""

    _pos: int
    captured: list[list[str]]
    dealer: int
    hand_number: int
    hands: list[list[str]]
    liar: int
    pending: Any  # rules.Lie | None
    templates: tuple[dict[str, Any], dict[str, Any]]
    trump_card: str
    trump_suit: str | None
    views: tuple[list[dict[str, Any]], list[dict[str, Any]]]

    @property
    def log(self) -> Sequence[FinishedHand]: ...
    def scores(self) -> list[int]: ...


DECK_SIZE = len(DECK)
_SEAT_KEYS = ("0", "1")  # a seat as the key of an event's private part

__all__ = ["game_reveal", "hand_view", "hand_views", "observation", "templates", "views_of_hand"]


def hand_view(record: FinishedHand, seat: int) -> dict[str, Any]:
    """One finished hand as ``seat`` saw it: forfeited cards of the other side stay hidden."""
    return hand_views(record, 0)[seat]


def hand_views(
    record: FinishedHand, deck_count: int
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The hand as each seat saw it, and the ``hand_end`` event that logs it, all at once.

    See :func:`views_of_hand`, which the rules call with the record's fields as they have
    them (reading them back off the record costs more than building the views).
    """
    lie, answer = record.lie, record.answer
    return views_of_hand(
        record.number,
        record.liar,
        lie.cards,
        lie.face_up,
        answer.cards,
        answer.challenge,
        record.liar_sum,
        record.judge_sum,
        record.winner,
        record.rule.value,
        record.draws,
        deck_count,
    )


def _challenged(
    shown: dict[str, Any],
    liar_cards: tuple[str, str, str],
    judge_cards: tuple[str, str, str],
    deck_count: int,
    private: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A challenged hand's views (``shown`` for seat 0, a copy for seat 1) and its event."""
    # The other player's copy and the event's, each with lists of its own.
    other = shown.copy()
    other["liar_cards"] = list(liar_cards)
    other["judge_cards"] = list(judge_cards)
    public = shown.copy()  # the same keys in the same order, then the deck count
    public["liar_cards"] = liar_cards  # tuples: the replay's, shared with no bot
    public["judge_cards"] = judge_cards
    public["deck_count"] = deck_count
    if not private:
        return shown, other, {"type": "hand_end", "public": public}
    return shown, other, {"type": "hand_end", "public": public, "private": private}


def _forfeited(
    number: int,
    liar: int,
    up: str,
    liar_cards: tuple[str, str, str],
    judge_cards: tuple[str, str, str],
    winner: int,
    deck_count: int,
    private: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A forfeited hand's views (seat 0's, seat 1's) and its event."""
    judge = 1 - liar
    # A forfeit: each side saw its own three cards and The Liar's face-up card, no sums.
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
    # each side's own cards are in its action; only the draws are private here
    event: dict[str, Any] = (
        {"type": "hand_end", "public": common, "private": private}
        if private
        else {"type": "hand_end", "public": common}
    )
    if liar == 0:
        return liar_view, judge_view, event
    return judge_view, liar_view, event


def views_of_hand(
    number: int,
    liar: int,
    liar_cards: tuple[str, str, str],
    face_up: int,
    judge_cards: tuple[str, str, str],
    challenge: bool,
    liar_sum: int,
    judge_sum: int,
    winner: int,
    rule: str,
    draws: tuple[tuple[int, tuple[str, ...]], ...],
    deck_count: int,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The hand as each seat saw it (seat 0's view, seat 1's), and the ``hand_end`` event
    that logs it, all at once (a hand ends thousands of times a second).

    Separate dicts even where they are equal: no object is shared between the players, nor
    with the replay. A challenged hand is public in full; of a forfeited one the event says
    only who won (each side's cards are in its own action, which only it sees). The event
    also logs the draws after the hand: which cards each side drew (``drew``, private to the
    drawer; tuples, shared with no bot, which the replay writes as JSON lists) and
    ``deck_count``, the cards left after them.
    """
    judge = 1 - liar
    up = liar_cards[face_up]
    if len(draws) == 2:  # every hand but the last: the winner drew first, then the loser
        (first, cards), (second, more) = draws
        private = {_SEAT_KEYS[first]: {"drew": cards}, _SEAT_KEYS[second]: {"drew": more}}
    else:
        private = {_SEAT_KEYS[seat]: {"drew": cards} for seat, cards in draws}
    if challenge:  # all six cards were shown to both
        shown = {
            "number": number,
            "liar": liar,
            "judge": judge,
            "face_up": up,
            "challenge": True,
            "liar_cards": list(liar_cards),
            "judge_cards": list(judge_cards),
            "liar_sum": liar_sum,
            "judge_sum": judge_sum,
            "winner": winner,
            "rule": rule,
        }
        return _challenged(shown, liar_cards, judge_cards, deck_count, private)
    return _forfeited(number, liar, up, liar_cards, judge_cards, winner, deck_count, private)


def observation(state: GameInPlay, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (the runner adds the match part).

    Built on every decision, thousands of times a second: a copy of the seat's template
    (the fields a game never changes, in the observation's order), then what moves.
    """
    pending = state.pending
    number = state.hand_number
    view = state.templates[seat].copy()
    if number > HANDS_PER_GAME:  # the game is over: nobody's turn (the template's None)
        view["hand_number"] = HANDS_PER_GAME
    else:
        view["hand_number"] = number
        liar = view["liar"] = state.liar
        view["role"] = "liar" if seat == liar else "judge"
    hands = state.hands
    captured = state.captured
    view["hand"] = hands[seat][:]
    view["deck_count"] = DECK_SIZE - state._pos
    view["opponent_hand_count"] = len(hands[1 - seat])
    # The Lie by index (cards, face_up): a NamedTuple field by name costs more.
    if pending is not None:
        view["face_up"] = pending[0][pending[1]]
    view["captured"] = [len(captured[0]), len(captured[1])]
    view["history"] = state.views[seat][:]
    return view


def templates(state: GameInPlay) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each seat's observation with what never changes in a game filled in, the rest None,
    every key in its place (what :func:`observation` copies)."""
    return tuple(  # type: ignore[return-value]
        {
            "game": "lie21",
            "seat": seat,
            "hand_number": None,
            "dealer": state.dealer,
            "liar": None,
            "role": None,
            "hand": None,
            "trump_card": state.trump_card,
            "trump_suit": state.trump_suit,
            "deck_count": None,
            "opponent_hand_count": None,
            "face_up": None,
            "captured": None,
            "history": None,
        }
        for seat in (0, 1)
    )


def game_reveal(state: GameInPlay) -> dict[str, Any]:
    """Everything about a finished game, shown to both players at its end."""
    return {
        "trump_card": state.trump_card,
        "trump_suit": state.trump_suit,
        "dealer": state.dealer,
        "hands": [record.to_json() for record in state.log],
        "captured": [list(pile) for pile in state.captured],
        "scores": state.scores(),
    }
