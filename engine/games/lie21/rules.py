"""The rules of one game of Lie 21: deal, the Lie, the Judge's answer, who wins a hand, draws.

The match (best of seven, match points, sweeps) lives in ``match_rules.py``; what each
player may see lives in ``observe.py``. This module only knows one game.

A game is fully determined by its deck order, its dealer and the actions played, so it can
be replayed from a replay file and tests can build any position from a scripted deck.
Moves follow the verify / can / apply pattern: :meth:`Lie21State.verify` turns a bot's
JSON action into a checked move or raises :class:`IllegalMove`; :meth:`Lie21State.can_apply`
asks without raising; :meth:`Lie21State.apply` plays it.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from engine.game import Event, IllegalMove, Verifies, ranks_from_scores
from engine.games.lie21.cards import (
    BASE_COUNT,
    DECK,
    HAND_SIZE,
    HANDS_PER_GAME,
    ORDER,
    SCORE,
    counts,
    is_trump,
    move_total,
    suit_of,
)
from engine.games.lie21.observe import templates, views_of_hand

__all__ = [
    "HANDS_PER_GAME",
    "HAND_SIZE",
    "Answer",
    "HandRecord",
    "IllegalMove",
    "Lie",
    "Lie21State",
    "Role",
    "WinRule",
    "judge_hand",
]

MOVE_SIZE = 3


_DECK_SET = frozenset(DECK)
_DECK_SIZE = len(DECK)
_ACES = frozenset(card for card in DECK if card[0] == "A")


class Role(enum.StrEnum):
    LIAR = "liar"  # plays first: one card face up, two face down
    JUDGE = "judge"  # answers with three cards face down (Forfeit) or face up (Challenge)


class WinRule(enum.StrEnum):
    """Which rule decided a hand; shown in replays so a spectator can follow every hand."""

    FORFEIT = "forfeit"  # the Judge answered face down: The Liar wins
    BUST = "bust"  # one sum over 21, the other not
    CLOSER = "closer"  # both at or under 21: the sum closer to 21
    MORE_TRUMPS = "more_trumps"  # equal sums or both bust: more trump cards
    HIGHER_TRUMP = "higher_trump"  # ... same number of trumps: the higher-count trump
    LIAR_WINS_TIE = "liar_wins_tie"  # ... no trumps on either side: The Liar


# The members the hot path names, bound once (a module global is the cheapest lookup).
_FORFEIT, _BUST, _CLOSER = WinRule.FORFEIT, WinRule.BUST, WinRule.CLOSER


# Moves and hand records are NamedTuples: immutable like frozen dataclasses, but several
# times cheaper to create, which matters at thousands of games per second. The hot paths
# build them with tuple.__new__ directly, skipping the generated Python-level __new__.
_new = tuple.__new__


class Lie(NamedTuple):
    """The Liar's move: three cards, the one at ``face_up`` shown, the other two hidden."""

    cards: tuple[str, str, str]
    face_up: int

    @property
    def up_card(self) -> str:
        return self.cards[self.face_up]


class Answer(NamedTuple):
    """The Judge's move: three cards, face up to Challenge or face down to Forfeit."""

    cards: tuple[str, str, str]
    challenge: bool


class HandRecord(NamedTuple):
    """Everything about one finished hand, as a spectator who sees every card knows it."""

    number: int
    liar: int
    judge: int
    lie: Lie
    answer: Answer
    liar_sum: int
    judge_sum: int
    winner: int
    rule: WinRule
    draws: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, cards) in drawing order
    points: tuple[int, int]  # running game points after this hand

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "liar": self.liar,
            "judge": self.judge,
            "liar_cards": list(self.lie.cards),
            "face_up": self.lie.face_up,
            "judge_cards": list(self.answer.cards),
            "challenge": self.answer.challenge,
            "liar_sum": self.liar_sum,
            "judge_sum": self.judge_sum,
            "winner": self.winner,
            "rule": str(self.rule),
            "draws": [{"seat": seat, "cards": list(cards)} for seat, cards in self.draws],
            "points": list(self.points),
        }


def judge_hand(
    liar_cards: Sequence[str], judge_cards: Sequence[str], trump_suit: str | None
) -> tuple[Role, WinRule, int, int]:
    """Who wins a challenged hand, by which rule, and both sums.

    >>> judge_hand(["AS", "7S", "XB"], ["KH", "QH", "2D"], trump_suit="D")
    (<Role.LIAR: 'liar'>, <WinRule.CLOSER: 'closer'>, 21, 18)
    >>> judge_hand(["7S", "7H", "2D"], ["KS", "QS", "6D"], trump_suit="S")[:2]
    (<Role.JUDGE: 'judge'>, <WinRule.MORE_TRUMPS: 'more_trumps'>)
    """
    liar_sum, judge_sum = move_total(liar_cards), move_total(judge_cards)
    liar_bust, judge_bust = liar_sum > 21, judge_sum > 21
    if liar_bust != judge_bust:
        return (
            (Role.JUDGE if liar_bust else Role.LIAR),
            WinRule.BUST,
            liar_sum,
            judge_sum,
        )
    if not liar_bust and liar_sum != judge_sum:
        winner = Role.LIAR if liar_sum > judge_sum else Role.JUDGE
        return winner, WinRule.CLOSER, liar_sum, judge_sum
    # Equal sums, or both over 21: the trumps decide, by number and then by highest count.
    liar_trumps = _trump_counts(liar_cards, trump_suit)
    judge_trumps = _trump_counts(judge_cards, trump_suit)
    if len(liar_trumps) != len(judge_trumps):
        winner = Role.LIAR if len(liar_trumps) > len(judge_trumps) else Role.JUDGE
        return winner, WinRule.MORE_TRUMPS, liar_sum, judge_sum
    if liar_trumps:
        # One suit holds no two cards of equal count, so the highest trumps always differ.
        winner = Role.LIAR if max(liar_trumps) > max(judge_trumps) else Role.JUDGE
        return winner, WinRule.HIGHER_TRUMP, liar_sum, judge_sum
    return Role.LIAR, WinRule.LIAR_WINS_TIE, liar_sum, judge_sum


def _trump_counts(cards: Sequence[str], trump_suit: str | None) -> list[int]:
    """The counts of a move's trump cards (an Ace counts 11 or 1 as the move's sum allows)."""
    return [
        n for c, n in zip(cards, counts(cards, trump_suit), strict=True) if is_trump(c, trump_suit)
    ]


def _shown(value: object) -> str:
    """A bot-supplied value as quoted in a public error: short, so a bot cannot write essays
    into everyone's replay through its mistakes."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


def _explain_bad_cards(action: Any, hand: Sequence[str]) -> tuple[str, str, str]:
    """Say precisely what is wrong with an action's cards (or accept a tuple of them)."""
    if not isinstance(action, Mapping):
        raise IllegalMove(f"an action must be a JSON object, not {type(action).__name__}")
    cards = action.get("cards")
    if not isinstance(cards, list | tuple):
        raise IllegalMove("the action needs 'cards': a list of three card codes")
    if len(cards) != MOVE_SIZE:
        raise IllegalMove(f"a move is exactly {MOVE_SIZE} cards, not {len(cards)}")
    for card in cards:
        if not isinstance(card, str) or card not in ORDER:
            raise IllegalMove(f"{_shown(card)} is not a card code (like 'AS', '7H', 'XR')")
        if card not in hand:
            raise IllegalMove(f"{card} is not in your hand")
    if len(set(cards)) != MOVE_SIZE:
        raise IllegalMove(f"a card is repeated in {_shown(list(cards))}")
    return cards[0], cards[1], cards[2]


class Lie21State(Verifies):
    """One game in progress, from the deal to the seventh hand.

    ``deck`` is the full shuffled order, top card first; its last card is the turned-up
    trump card, which therefore is the last card drawn. The dealer takes the first six cards
    and is The Liar of hand 1; the other player takes the next six.
    """

    __slots__ = (
        "_pos",
        "captured",
        "deal",
        "dealer",
        "deck",
        "hand_number",
        "hands",
        "liar",
        "log",
        "pending",
        "points",
        "templates",
        "trump_card",
        "trump_suit",
        "views",
    )

    num_players = 2

    def __init__(self, deck: Sequence[str], dealer: int, *, check: bool = True) -> None:
        if check and (len(deck) != len(DECK) or set(deck) != _DECK_SET):
            raise ValueError("the deck must hold each of the 42 cards exactly once")
        if dealer not in (0, 1):
            raise ValueError("dealer must be seat 0 or 1")
        self.deck: tuple[str, ...] = tuple(deck)
        self.dealer = dealer
        other = 1 - dealer
        hands: list[list[str]] = [[], []]
        # Hands are kept sorted by card code, so their order tells nothing of the deal.
        hands[dealer] = sorted(deck[:HAND_SIZE])
        hands[other] = sorted(deck[HAND_SIZE : 2 * HAND_SIZE])
        self.hands = hands
        self.deal: tuple[tuple[str, ...], ...] = (tuple(hands[0]), tuple(hands[1]))
        self._pos = 2 * HAND_SIZE  # next card to draw
        self.trump_card = deck[-1]
        self.trump_suit = suit_of(self.trump_card)  # None when a Joker is turned up
        self.liar = dealer
        self.hand_number = 1
        self.pending: Lie | None = None
        self.captured: list[list[str]] = [[], []]
        self.points = [0, 0]  # game points of the captured cards, kept as hands end
        self.log: list[HandRecord] = []
        # What each seat has seen of finished hands, built once per hand (see observe.py).
        self.views: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
        self.templates = templates(self)  # each seat's observation, the game's constants in

    # --- reading the position -------------------------------------------------------------
    @property
    def stock(self) -> tuple[str, ...]:
        """Cards still to be drawn, top first (the trump card last)."""
        return self.deck[self._pos :]

    @property
    def deck_count(self) -> int:
        return len(self.deck) - self._pos

    @property
    def is_over(self) -> bool:
        return self.hand_number > HANDS_PER_GAME

    def to_act(self) -> int | None:
        """The seat that must move now, or None when the game is over."""
        if self.hand_number > HANDS_PER_GAME:
            return None
        return self.liar if self.pending is None else 1 - self.liar

    def role_of(self, seat: int) -> Role:
        return Role.LIAR if seat == self.liar else Role.JUDGE

    def scores(self) -> list[int]:
        return list(self.points)

    def location(self) -> dict[str, Any]:
        """Where the game stands, for error reports: hand number and whose move it is."""
        phase = "lie" if self.pending is None else "answer"
        return {"hand": min(self.hand_number, HANDS_PER_GAME), "phase": phase}

    # --- verify / can / apply -------------------------------------------------------------
    def verify(self, seat: int, action: Mapping[str, Any]) -> Lie | Answer:
        """Check a bot's action for ``seat`` and return it as a move, or raise IllegalMove."""
        pending = self.pending
        liar = self.liar
        if self.hand_number > HANDS_PER_GAME or seat != (liar if pending is None else 1 - liar):
            raise IllegalMove(f"it is not seat {seat}'s turn")
        hand = self.hands[seat]
        # type() rather than isinstance(..., Mapping): the ABC check costs more than the move.
        cards = action.get("cards") if type(action) is dict else None
        if (
            type(cards) is list
            and len(cards) == MOVE_SIZE
            and cards[0] in hand
            and cards[1] in hand
            and cards[2] in hand
            and cards[0] != cards[1] != cards[2] != cards[0]
        ):
            cards = (cards[0], cards[1], cards[2])  # the common, legal case, checked cheaply
        else:
            cards = _explain_bad_cards(action, hand)
        if pending is None:
            face_up = action.get("face_up")
            if type(face_up) is not int:  # bool is an int subclass, and not an index
                if "face_up" not in action:
                    raise IllegalMove("The Liar's action needs 'face_up': the index 0, 1 or 2")
                raise IllegalMove(
                    f"face_up must be the whole number 0, 1 or 2, not {_shown(face_up)}"
                )
            if not 0 <= face_up < MOVE_SIZE:
                raise IllegalMove(f"face_up index {_shown(face_up)} is out of range (0, 1 or 2)")
            return _new(Lie, (cards, face_up))
        challenge = action.get("challenge")
        if type(challenge) is not bool:
            if "challenge" not in action:
                raise IllegalMove("The Judge's action needs 'challenge': true or false")
            raise IllegalMove(f"challenge must be true or false, not {_shown(challenge)}")
        return _new(Answer, (cards, challenge))

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Play a bot's action; returns its events (see ``rules.md``).

        The Liar's move is a ``lie`` (the face-up card public; its cards are in its action,
        seen by the Liar only); the Judge's ends the hand: ``hand_end`` (fires
        ``on_hand_end``; the cards drawn after it private to each drawer), and ``game_end``
        after the seventh hand, when the won piles are turned up.
        """
        # The common, legal case checked here at once (verify() written out: a call less on
        # every move); anything else goes through verify() and its messages.
        pending = self.pending
        hand = self.hands[seat]
        cards = action.get("cards") if type(action) is dict else None
        if (
            type(cards) is list
            and len(cards) == MOVE_SIZE
            and self.hand_number <= HANDS_PER_GAME
            and seat == (self.liar if pending is None else 1 - self.liar)
            and (a := cards[0]) in hand
            and (b := cards[1]) in hand
            and (c := cards[2]) in hand
            and a != b != c != a
            and (
                type(face_up := action.get("face_up")) is int and 0 <= face_up < MOVE_SIZE
                if pending is None
                else type(challenge := action.get("challenge")) is bool
            )
        ):
            cards = (a, b, c)
            move = (
                _new(Lie, (cards, face_up)) if pending is None else _new(Answer, (cards, challenge))
            )
        else:
            move = self.verify(seat, action)
            # Moves are read by index: a NamedTuple field by name costs a descriptor call.
            a, b, c = cards = move[0]
        hand.remove(a)
        hand.remove(b)
        hand.remove(c)
        if pending is None:
            self.pending = move  # type: ignore[assignment]  # verify gave a Lie
            # The three cards are in the step's action, which only the Liar (and spectators)
            # see; everyone sees the face-up card.
            return [
                {
                    "type": "lie",
                    "public": {"hand": self.hand_number, "liar": seat, "face_up": cards[move[1]]},
                }
            ]
        return self._finish_hand(move)  # type: ignore[arg-type]  # verify gave an Answer

    def start_events(self) -> list[Event]:
        """The deal: each hand to its owner only; the turned-up trump card to everyone."""
        return [
            {
                "type": "deal",
                "public": {
                    "dealer": self.dealer,
                    "trump_card": self.trump_card,
                    "trump_suit": self.trump_suit,
                    "deck_count": len(self.deck) - 2 * HAND_SIZE,
                },
                "private": {"0": {"hand": list(self.deal[0])}, "1": {"hand": list(self.deal[1])}},
            }
        ]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every legal action for ``seat`` in a fixed order (empty when it is not its turn).

        Every observation carries them (60 for The Liar, 40 for The Judge), so they are
        built with dict and list displays, each its own objects, rather than calls.
        """
        if seat != self.to_act():
            return []
        actions: list[dict[str, Any]] = []
        if self.pending is None:
            for a, b, c in itertools.combinations(self.hands[seat], MOVE_SIZE):
                actions += (
                    {"cards": [a, b, c], "face_up": 0},
                    {"cards": [a, b, c], "face_up": 1},
                    {"cards": [a, b, c], "face_up": 2},
                )
            return actions
        for a, b, c in itertools.combinations(self.hands[seat], MOVE_SIZE):
            actions += (
                {"cards": [a, b, c], "challenge": False},
                {"cards": [a, b, c], "challenge": True},
            )
        return actions

    def default_action(self, seat: int) -> dict[str, Any]:
        """Three lowest cards by code, shown or forfeited: always legal, never clever."""
        cards = self.hands[seat][:MOVE_SIZE]
        if self.pending is None:
            return {"cards": cards, "face_up": 0}
        return {"cards": cards, "challenge": False}

    def eliminate(self, seat: int) -> bool:
        """A two-player game cannot go on without either player."""
        return False

    def placings(self) -> tuple[int, ...]:
        """More game points places first; 60-60 is a shared first place."""
        return ranks_from_scores(self.points)

    # --- internals -----------------------------------------------------------------------
    def _judged(
        self, liar_cards: tuple[str, ...], judge_cards: tuple[str, ...], challenge: bool
    ) -> tuple[int, WinRule, int, int]:
        """Who wins the hand and by which rule, with both sums (a forfeit's too: a
        spectator's replay shows them)."""
        liar = self.liar
        judge = 1 - liar
        a, b, c = liar_cards
        d, e, f = judge_cards
        # move_total() written out for three cards: at most one Ace is ever raised (two
        # raised would make 22), so the soft sum is the base sum plus 10 when an Ace is
        # there and the sum stays at 21 or under. It runs twice a hand.
        base, aces = BASE_COUNT, _ACES
        liar_sum = base[a] + base[b] + base[c]
        if liar_sum <= 11 and (a in aces or b in aces or c in aces):
            liar_sum += 10
        judge_sum = base[d] + base[e] + base[f]
        if judge_sum <= 11 and (d in aces or e in aces or f in aces):
            judge_sum += 10
        if not challenge:
            # Nobody sees the face-down cards, but a spectator's replay still shows the sums.
            winner, rule = liar, _FORFEIT
        elif (liar_sum > 21) != (judge_sum > 21):  # judge_hand()'s first two rules, inline
            winner, rule = (judge if liar_sum > 21 else liar), _BUST
        elif liar_sum <= 21 and liar_sum != judge_sum:
            winner, rule = (liar if liar_sum > judge_sum else judge), _CLOSER
        else:  # equal sums or both bust: the trumps decide, rarely enough to ask judge_hand
            role, rule, _, _ = judge_hand(liar_cards, judge_cards, self.trump_suit)
            winner = liar if role is Role.LIAR else judge
        return winner, rule, liar_sum, judge_sum

    def _draw_after(self, winner: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The winner draws first, then the loser, while cards last: who drew what."""
        draws: tuple[tuple[int, tuple[str, ...]], ...] = ()
        pos = self._pos
        if pos < _DECK_SIZE:  # the winner draws first, then the loser, while cards last
            deck, hands = self.deck, self.hands
            first, second = deck[pos : pos + MOVE_SIZE], deck[pos + MOVE_SIZE : pos + 2 * MOVE_SIZE]
            pos = self._pos = pos + len(first) + len(second)
            mine = hands[winner]
            mine += first
            mine.sort()
            if second:
                theirs = hands[1 - winner]
                theirs += second
                theirs.sort()
                draws = ((winner, first), (1 - winner, second))
            else:
                draws = ((winner, first),)
        return draws

    def _finish_hand(self, answer: Answer) -> list[Event]:
        lie: Lie = self.pending  # type: ignore[assignment]  # an answer follows a lie
        liar = self.liar
        judge = 1 - liar
        liar_cards, face_up = lie
        judge_cards, challenge = answer
        winner, rule, liar_sum, judge_sum = self._judged(liar_cards, judge_cards, challenge)
        won = liar_cards + judge_cards
        self.captured[winner].extend(won)
        points = self.points
        score = SCORE
        a, b, c = liar_cards
        d, e, f = judge_cards
        points[winner] += score[a] + score[b] + score[c] + score[d] + score[e] + score[f]
        draws = self._draw_after(winner)
        pos = self._pos
        number = self.hand_number
        self.log.append(
            _new(
                HandRecord,
                (
                    number,
                    liar,
                    judge,
                    lie,
                    answer,
                    liar_sum,
                    judge_sum,
                    winner,
                    rule,
                    draws,
                    (points[0], points[1]),
                ),
            )
        )
        view0, view1, hand_event = views_of_hand(
            number,
            liar,
            liar_cards,
            face_up,
            judge_cards,
            challenge,
            liar_sum,
            judge_sum,
            winner,
            rule._value_,  # the plain str; Enum's .value is a Python-level property
            draws,
            _DECK_SIZE - pos,
        )
        views = self.views
        views[0].append(view0)
        views[1].append(view1)
        self.pending = None
        self.liar = winner
        self.hand_number = number + 1
        if number < HANDS_PER_GAME:
            return [hand_event]
        return [hand_event, self._game_end_event()]

    def _game_end_event(self) -> Event:
        """The last hand is over: the points and every card each side captured."""
        points, captured = self.points, self.captured
        return {
            "type": "game_end",
            "public": {
                "scores": [points[0], points[1]],
                "captured": [captured[0][:], captured[1][:]],
            },
        }
