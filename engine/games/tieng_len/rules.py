"""The rules of one game of Tieng Len: the deal, the lead, plays and passes, going out, places.

The match (eight games, points, the leader of the next game) lives in ``match_rules.py``;
what each seat may see lives in ``observe.py``; what a set of cards is, in ``combos.py``.
A game is fully determined by its hands, its leader and the actions played, so tests build
any position from scripted hands (:meth:`TiengLenState.from_hands`).

Moves follow the verify / can / apply pattern: :meth:`TiengLenState.verify` turns a bot's
JSON action into a checked play (or a pass) or raises :class:`IllegalMove`;
:meth:`TiengLenState.can_apply` asks without raising; :meth:`TiengLenState.apply` plays.

The table, in the arena's reading of the rules (``rules.md``):

* seats play in increasing order round the table (seat 0, 1, 2, 3, 0 ...);
* the first game of a match is led by the holder of the lowest card dealt, and that lead
  must contain it; every later game is led by the previous game's winner;
* a trick ("lead") starts with a play of any combination; each seat in turn beats the play
  on the table or passes; a seat that passed is out of the trick (ruling 1); when nobody
  left in the trick can play, the last player leads the next one, or, if it has gone out,
  the next seat round the table that still holds cards (ruling 4);
* the game ends as soon as one seat alone holds cards (ruling 6): it is last.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any, Self, TypedDict, Unpack

from engine.game import Event, IllegalMove, Verifies
from engine.games.tieng_len.cards import CODES, HAND_SIZE, INDEX, TWO, shuffled
from engine.games.tieng_len.combos import (
    BOMBS_OVER_TWOS,
    SINGLE,
    Combo,
    Kind,
    Listed,
    beats,
    classify,
    describe,
    is_bomb_over_twos,
    listed_beating,
    listed_bombs,
    listed_plays,
    may_beat,
)

__all__ = ["IllegalMove", "TiengLenState", "instant_win", "points_for"]

_KIND_LABELS = tuple(kind.label for kind in Kind)
# A list's __getitem__ is called by map without the slot wrapper a tuple's goes through.
_CODE_OF = list(CODES).__getitem__
_INDEX_GET = INDEX.get
_ABOVE = (99,)  # above every tuple of cards (numbers 0-51): bisects past a top card
_PASS: dict[str, Any] = {"pass": True}
_PACK = list(range(52))
#: The other seats in turn after each seat, by the number of seats: [n][seat].
_AFTER = [[tuple((seat + k) % n for k in range(1, n)) for seat in range(n)] for n in range(5)]


def points_for(rank: int, seats: int) -> int:
    """Game points of a place: 3/2/1/0 at four seats, 2/1/0 at three, 1/0 at two.

    >>> [points_for(r, 4) for r in range(4)], [points_for(r, 2) for r in range(2)]
    ([3, 2, 1, 0], [1, 0])
    """
    return max(seats - 1 - rank, 0)


def instant_win(hand: Sequence[int]) -> str | None:
    """The instant-win hand ``hand`` is, if any (only with the ``instant_wins`` option).

    Four 2s; a dragon (one card of every rank from 3 to A); six pairs (a four counts as two).

    >>> from engine.games.tieng_len.cards import card
    >>> instant_win([card(c) for c in ["2S", "2C", "2D", "2H", "3S"]])
    'four_twos'
    """
    counts = [0] * 13
    for c in hand:
        counts[c >> 2] += 1
    if counts[TWO] == 4:
        return "four_twos"
    if all(counts[:TWO]):
        return "dragon"
    if sum(n // 2 for n in counts) >= 6:
        return "six_pairs"
    return None


def _shown(value: object) -> str:
    """A bot-supplied value as quoted in a public error: short, so a bot cannot write essays
    into everyone's replay through its mistakes."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


def _check_deal(
    hands: Sequence[Sequence[int]],
    out_of_play: Sequence[int],
    leader: int | None,
    *,
    cards: bool = True,
) -> None:
    """ValueError unless the hands (2 to 4), the cards out of play and the leader make a deal
    (the cards left unchecked with ``cards=False``: a whole shuffled pack, checked already)."""
    n = len(hands)
    if not 2 <= n <= 4:
        raise ValueError("Tieng Len is played by 2 to 4 seats")
    # With C-level loops: a generator over the 52 cards cost more than the rest of the deal.
    every = [*chain.from_iterable(hands), *out_of_play] if cards else []
    if len(every) != len(set(every)) or (every and not 0 <= min(every) <= max(every) < 52):
        raise ValueError("the hands must hold distinct cards of one pack")
    if leader is not None and not 0 <= leader < n:
        raise ValueError(f"leader must be a seat from 0 to {n - 1}")


class Table(TypedDict, total=False):
    """How a pack is dealt besides the pack and the seats (:meth:`TiengLenState.from_deck`'s
    keywords, defaults there)."""

    dealer: int
    rotation: int
    leader: int | None
    instant_wins: bool


class TiengLenState(Verifies):
    """One game in progress, from the deal until one seat alone holds cards.

    ``hands`` are the hands by seat (card numbers); ``leader`` is the seat that leads the
    first trick, or None for the first game of a match, where the holder of the lowest card
    dealt leads and must play it (ruling 5).
    """

    __slots__ = (
        "codes_in_hand",
        "counts",
        "current",
        "current_by",
        "current_codes",
        "dealer",
        "dealt",
        "deck",
        "eliminated",
        "finished",
        "first_game",
        "given_leader",
        "gone",
        "hands",
        "holding",
        "instant",
        "instant_wins",
        "last",
        "moves",
        "must_include",
        "num_players",
        "opener",
        "out_of_play",
        "passed",
        "passed_seats",
        "pending",
        "played_by_codes",
        "played_codes",
        "plays_of",
        "removed",
        "rotation",
        "seen_trick",
        "templates",
        "trick_leader",
        "trick_views",
        "tricks",
        "turn",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[int]],
        *,
        dealer: int = 0,
        leader: int | None = None,
        out_of_play: Sequence[int] = (),
        deck: Sequence[int] | None = None,
        rotation: int = 0,
        instant_wins: bool = False,
        check: bool = True,
    ) -> None:
        n = len(hands)
        _check_deal(hands, out_of_play, leader, cards=check)  # from_deck checked its pack
        self.num_players = n
        self.dealer = dealer % n
        self.rotation = rotation
        self.hands: list[list[int]] = [sorted(hand) for hand in hands]
        self.dealt: tuple[tuple[int, ...], ...] = tuple(map(tuple, self.hands))
        self.out_of_play: tuple[int, ...] = tuple(sorted(out_of_play))
        self.deck: tuple[int, ...] | None = tuple(deck) if deck is not None else None
        self.instant_wins = instant_wins
        self.holding = [*map(bool, self.hands)]
        self.eliminated: list[int] = []
        self.removed: dict[int, tuple[int, ...]] = {}  # an eliminated seat's cards
        self.finished: list[int] = []  # seats in the order they went out
        self.last: int | None = None  # the seat left holding cards at the end
        self.instant: dict[int, str] = {}  # seat -> its instant-win hand
        self.first_game = leader is None
        self.given_leader = leader
        self.current: Combo | None = None  # the play to beat; None while leading
        self.current_by: int | None = None
        self.passed = [False] * n
        self.tricks = 0  # tricks started
        self._start_views(n)
        # Every play each hand can make (sorted; None until first asked for) and the cards
        # it has played since: a hand only loses cards, so its plays are the plays it had
        # that use none of them (legal_actions filters them then, rather than search anew).
        self.plays_of: list[list[Listed] | None] = [None] * n
        self.gone: list[set[int]] = [set() for _ in range(n)]
        self.moves = 0
        self.pending: list[Event] = []  # events of eliminations, out with the next move
        self.must_include: int | None = None
        self.turn: int | None = None
        self.trick_leader: int | None = None
        self.opener: int | None = None  # the seat that leads the first trick
        self._open(leader)

    def _start_views(self, n: int) -> None:
        """What observations show, kept as play goes in the form they show it (card codes,
        lists), so that an observation copies lists rather than building them (observe.py)."""
        self.codes_in_hand: list[list[str]] = [[*map(_CODE_OF, hand)] for hand in self.hands]
        self.played_codes: list[str] = []  # every card played, in order
        self.played_by_codes: list[list[str]] = [[] for _ in range(n)]
        self.current_codes: list[str] = []  # the play to beat's cards
        self.counts: list[int] = [*map(len, self.hands)]  # each hand's cards
        self.passed_seats: list[int] = []  # the seats that passed in this trick, in order
        # The trick's plays and passes as (seat, codes, or None for a pass); each seat's own
        # views of them (observe.py), made as it first observes them.
        self.trick_views: list[tuple[int, list[str] | None]] = []
        self.seen_trick: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        #: Each seat's observation template (observe.py), made at its first observation.
        self.templates: list[dict[str, Any] | None] = [None] * n

    @classmethod
    def deal(cls, seed: int, num_players: int, **table: Unpack[Table]) -> Self:
        """Shuffle the pack from ``seed`` and deal 13 cards to each seat (the rest as
        :meth:`from_deck`).

        Position p takes cards 13p to 13p + 12 of the shuffled pack, whoever deals; seat s
        plays position (s + rotation) % n, so rotating the deal hands each seat another's
        cards. With fewer than four seats the rest of the pack stays out of play, unseen.
        """
        # The shuffle makes a whole pack: nothing for from_deck's check to find.
        return cls._from_pack(shuffled(seed), num_players, **table)

    @classmethod
    def from_deck(cls, deck: Sequence[int], num_players: int, **table: Unpack[Table]) -> Self:
        """Deal a shuffled pack (card numbers, the first card dealt first), such as a
        replay's record (a referee's re-play), as :meth:`deal` deals its shuffle."""
        if sorted(deck) != _PACK:  # the hands' cards are then distinct cards of one pack
            raise ValueError("the pack must hold each of the 52 cards exactly once")
        return cls._from_pack(deck, num_players, **table)

    @classmethod
    def _from_pack(
        cls,
        deck: Sequence[int],
        num_players: int,
        *,
        dealer: int = 0,
        rotation: int = 0,
        leader: int | None = None,
        instant_wins: bool = False,
    ) -> Self:
        """Deal a whole pack (checked already)."""
        by_position = [deck[HAND_SIZE * p : HAND_SIZE * (p + 1)] for p in range(num_players)]
        hands = [by_position[(s + rotation) % num_players] for s in range(num_players)]
        return cls(
            hands,
            dealer=dealer,
            leader=leader,
            out_of_play=deck[HAND_SIZE * num_players :],
            deck=deck,
            rotation=rotation,
            instant_wins=instant_wins,
            check=False,
        )

    @classmethod
    def from_hands(
        cls, hands: Sequence[Sequence[str]], *, leader: int | None = None, dealer: int = 0
    ) -> Self:
        """A game from scripted hands of card codes (tests, examples)."""
        numbers = [[INDEX[c] for c in hand] for hand in hands]
        held = {c for hand in numbers for c in hand}
        rest = [c for c in range(52) if c not in held] if len(hands) < 4 else []
        return cls(numbers, dealer=dealer, leader=leader, out_of_play=rest)

    # --- reading the position -------------------------------------------------------------
    @property
    def played(self) -> list[int]:
        """Every card played, in order (kept as codes, which is what observations show)."""
        return [INDEX[c] for c in self.played_codes]

    @property
    def played_by(self) -> list[list[int]]:
        """The cards each seat has played, in order."""
        return [[INDEX[c] for c in codes] for codes in self.played_by_codes]

    @property
    def is_over(self) -> bool:
        return self.turn is None

    @property
    def winner(self) -> int | None:
        """The seat that went out first (the first of several instant winners)."""
        if self.instant:
            return min(self.instant, key=lambda s: (s - self.dealer - 1) % self.num_players)
        return self.finished[0] if self.finished else None

    def to_act(self) -> int | None:
        """The seat that must move now, or None when the game is over."""
        return self.turn

    def scores(self) -> list[int]:
        """Game points so far: a place's points once the seat has it, else 0."""
        n = self.num_players
        points = [0] * n
        if self.instant:
            for seat in self.instant:
                points[seat] = points_for(0, n)
            return points
        for rank, seat in enumerate(self.finished):
            points[seat] = points_for(rank, n)
        if self.last is not None:
            points[self.last] = points_for(len(self.finished), n)
        return points

    def placings(self) -> tuple[int, ...]:
        """The order of going out; then the seats still holding cards (the last one, once the
        game is over); eliminated seats share last place."""
        n = self.num_players
        ranks = [0] * n
        if self.instant:
            others = len(self.instant)
            return tuple(0 if s in self.instant else others for s in range(n))
        for rank, seat in enumerate(self.finished):
            ranks[seat] = rank
        next_rank = len(self.finished)
        holders = [s for s in range(n) if self.holding[s]]
        for seat in holders:
            ranks[seat] = next_rank
        for seat in self.eliminated:
            ranks[seat] = next_rank + len(holders)
        return tuple(ranks)

    def location(self) -> dict[str, Any]:
        """Where the game stands, for fault reports: the trick and whether it is a lead."""
        if self.turn is None:
            return {"trick": self.tricks, "phase": "over", "moves": self.moves}
        phase = "lead" if self.current is None else "follow"
        return {"trick": self.tricks, "phase": phase, "moves": self.moves}

    # --- verify / can / apply -------------------------------------------------------------
    def verify(self, seat: int, action: Mapping[str, Any]) -> Combo | None:
        """Check a bot's action for ``seat``: the play it makes, or None for a pass."""
        if seat != self.turn:
            raise IllegalMove(f"it is not seat {seat}'s turn")
        if type(action) is not dict and not isinstance(action, Mapping):
            raise IllegalMove(f"an action must be a JSON object, not {type(action).__name__}")
        cards = action.get("cards")
        if cards is None:
            if action.get("pass") is not True:
                raise IllegalMove('the action needs "cards" (a list of card codes) or "pass": true')
            if self.current is None:
                raise IllegalMove("you lead this trick: play a combination (you may not pass)")
            return None
        if "pass" in action:
            raise IllegalMove('an action has either "cards" or "pass", not both')
        return self._verify_play(seat, cards)

    def _verify_play(self, seat: int, cards: Any) -> Combo:
        if type(cards) is not list or not cards:
            raise IllegalMove('"cards" must be a non-empty list of card codes')
        hand = self.hands[seat]
        numbers = []
        for text in cards:
            number = INDEX.get(text) if type(text) is str else None
            if number is None:
                raise IllegalMove(f"{_shown(text)} is not a card code (like '3S', 'TD', '2H')")
            if number not in hand:
                raise IllegalMove(f"{text} is not in your hand")
            numbers.append(number)
        numbers.sort()
        if len(set(numbers)) != len(numbers):
            raise IllegalMove("a card is repeated")
        play = classify(numbers)
        if play is None:
            raise IllegalMove(f"{' '.join(CODES[c] for c in numbers)} is not a combination")
        if self.must_include is not None and self.must_include not in numbers:
            raise IllegalMove(
                f"the first lead of the match must contain the lowest card dealt, "
                f"{CODES[self.must_include]}"
            )
        current = self.current
        if current is not None and not beats(play, current):
            raise IllegalMove(f"a {describe(play)} does not beat the {describe(current)}")
        return play

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Play a bot's action; returns its events (see ``rules.md``).

        ``play`` or ``pass`` (public); ``out`` when the player's last card goes; ``lead``
        when a new trick starts and who leads it; ``game_end`` when one seat alone holds
        cards. Events of eliminations since the last move come first.
        """
        # A pass where one is allowed and one card on a single (or on nothing), the
        # commonest actions, are checked at once; every other action, and anything wrong,
        # goes through verify() and its messages.
        play: Combo | None
        if type(action) is dict and len(action) == 1 and seat == self.turn:
            cards = action.get("cards")
            if cards is None:
                if action.get("pass") is True and self.current is not None:
                    play = None
                else:
                    play = self.verify(seat, action)
            elif (
                type(cards) is list
                and len(cards) == 1
                and type(cards[0]) is str
                and (number := _INDEX_GET(cards[0])) is not None
                and number in self.hands[seat]
                and (self.must_include is None or self.must_include == number)
                and (
                    (current := self.current) is None
                    or (current[0] == SINGLE and number > current[2])
                )
            ):
                play = (SINGLE, 1, number, (number,))
            else:
                play = self.verify(seat, action)
        else:
            play = self.verify(seat, action)
        events = self.pending
        self.pending = []
        self.moves += 1
        if play is None:
            self.passed[seat] = True
            insort(self.passed_seats, seat)
            self.trick_views.append((seat, None))
            events.append({"type": "pass", "public": {"seat": seat}})
        elif self._play(seat, play, events):
            return events  # the game is over
        self._advance(seat, events)
        return events

    def _play(self, seat: int, play: Combo, events: list[Event]) -> bool:
        """Take a legal play's cards from the hand onto the trick and log it (``play``, and
        ``out`` when the hand is empty); True when that ended the game."""
        cards = play[3]
        hand = self.hands[seat]
        in_hand = self.codes_in_hand[seat]
        codes = [CODES[cards[0]]] if len(cards) == 1 else [*map(_CODE_OF, cards)]
        for c in cards:
            hand.remove(c)
        for code in codes:
            in_hand.remove(code)
        self.counts[seat] = len(hand)
        if self.plays_of[seat] is not None:
            self.gone[seat].update(cards)
        self.played_codes += codes
        self.played_by_codes[seat] += codes
        self.trick_views.append((seat, codes))
        self.current_codes = codes
        # The event shares the codes with the trick's view: neither is changed, nor given
        # to a bot (an observation copies the trick).
        public: dict[str, Any] = {
            "seat": seat,
            "cards": codes,
            "kind": _KIND_LABELS[play[0]],
            "left": len(hand),
        }
        current = self.current
        if current is not None and current[2] >> 2 == TWO and is_bomb_over_twos(play, current):
            public["bomb"] = True
        events.append({"type": "play", "public": public})
        self.current = play
        self.current_by = seat
        self.must_include = None
        if not hand:
            self.holding[seat] = False
            self.finished.append(seat)
            events.append({"type": "out", "public": {"seat": seat, "rank": len(self.finished) - 1}})
            if sum(self.holding) <= 1:
                self._end(events)
                return True
        return False

    def start_events(self) -> list[Event]:
        """The deal (each hand to its owner only; counts, dealer and leader to everyone),
        then what happened before the first move (seats out for a fault, instant wins)."""
        n = self.num_players
        public: dict[str, Any] = {
            "dealer": self.dealer,
            "leader": self.trick_leader,
            "counts": [len(self.dealt[s]) for s in range(n)],
            "out_of_play": len(self.out_of_play),
            "first_game": self.first_game,
            "must_include": CODES[self.must_include] if self.must_include is not None else None,
        }
        deal: Event = {
            "type": "deal",
            "public": public,
            "private": {str(s): {"hand": [CODES[c] for c in self.dealt[s]]} for s in range(n)},
        }
        events = [deal, *self.pending]
        self.pending = []
        return events

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every legal action of ``seat`` in a fixed order: plays sorted by kind (single,
        pair, triple, four, sequence, double sequence), length and top card, then pass."""
        if seat != self.turn:
            return []
        hand = self.hands[seat]
        current = self.current
        if current is None:
            plays = self._plays(seat)
            must = self.must_include
            if must is not None:
                plays = [p for p in plays if must in p[3]]
            return [{"cards": [*p[4]]} for p in plays]
        kind, length, top = current[0], current[1], current[2]
        if kind == SINGLE:  # the common case, kept cheap
            # The hand is sorted: the singles that beat the card are those after it.
            actions: list[dict[str, Any]] = []
            for c in self.codes_in_hand[seat][bisect_right(hand, top) :]:
                actions.append({"cards": [c]})  # a few: cheaper than a comprehension's call
            if top >> 2 == TWO:  # then the bombs that beat a 2, which few hands hold
                actions += [{"cards": [*p[4]]} for p in listed_bombs(hand, SINGLE)]
        elif not may_beat(hand, current):
            actions = []  # nothing beats it: asked of the hand at once, without a listing
        elif self.plays_of[seat] is None:
            # The hand's plays are not listed yet: list only those that beat the play (every
            # play is listed at the seat's first lead, on a hand smaller by then).
            actions = [{"cards": [*p[4]]} for p in listed_beating(hand, current)]
        else:
            # beating(hand, current), read off the hand's sorted plays: those of the same
            # kind and length with a higher top card, then the bombs that beat these 2s.
            plays = self._plays(seat)
            start = bisect_right(plays, (kind, length, top, _ABOVE))
            found = plays[start : bisect_left(plays, (kind, length + 1))]
            if top >> 2 == TWO:
                for bomb in BOMBS_OVER_TWOS.get(kind, ()):
                    start = bisect_left(plays, bomb)
                    found += plays[start : bisect_left(plays, (bomb[0], bomb[1] + 1))]
            actions = [{"cards": [*p[4]]} for p in found]
        actions.append({"pass": True})
        return actions

    def _plays(self, seat: int) -> list[Listed]:
        """Every play the seat's hand can make, sorted, with their codes
        (``combos.listed_plays``)."""
        plays = self.plays_of[seat]
        if plays is None:
            plays = self.plays_of[seat] = listed_plays(self.hands[seat])
            self.gone[seat].clear()
        elif self.gone[seat]:
            gone = self.gone[seat]
            plays = self.plays_of[seat] = [p for p in plays if gone.isdisjoint(p[3])]
            gone.clear()
        return plays

    def default_action(self, seat: int) -> dict[str, Any]:
        """Pass when allowed, else lead the lowest card (with the first lead's card, that
        card alone): always legal, never clever."""
        if self.current is not None:
            return dict(_PASS)
        low = self.must_include if self.must_include is not None else self.hands[seat][0]
        return {"cards": [CODES[low]]}

    def eliminate(self, seat: int) -> bool:
        """Take ``seat`` out for a fault: its cards leave play and it is placed last.

        The others play on while two seats remain: if the seat was to lead, the lead passes
        on as when a player goes out; if only one seat still holds cards, the game is over.
        Two seats cannot play on without one of them.
        """
        n = self.num_players
        if n == 2 or seat in self.eliminated:
            return False
        if self.turn is None and self.moves:
            return True  # the game is over: nothing moves any more
        self.eliminated.append(seat)
        if n - len(self.eliminated) < 2:
            return False
        was_holding = self.holding[seat]
        self.holding[seat] = False
        self.removed[seat] = tuple(self.hands[seat])
        count = len(self.hands[seat])
        self.hands[seat] = []
        self.counts[seat] = 0
        self.codes_in_hand[seat] = []
        self.plays_of[seat] = None
        event = {"type": "eliminated", "public": {"seat": seat, "cards": count}}
        if self.moves == 0:  # before the first move: settle the instant wins and the lead anew
            self.pending = [e for e in self.pending if e["type"] == "eliminated"]
            self.pending.append(event)
            self.instant = {}
            self._open(None if self.first_game else self.given_leader)
            return True
        self.pending.append(event)
        if not was_holding:
            return True
        if sum(self.holding) <= 1:
            self._end(self.pending)
        elif self.turn == seat:
            if self.current is None:  # it was to lead: the next seat still in leads
                self._new_trick(self._next_holding(seat), self.pending)
            else:
                self._advance(seat, self.pending)
        return True

    # --- internals -----------------------------------------------------------------------
    def _open(self, leader: int | None) -> None:
        """Settle the first trick: instant wins, the leader and the card it must play."""
        n = self.num_players
        live = [s for s in range(n) if self.holding[s]]
        self.tricks = 1
        if self.instant_wins:
            for seat in live:
                kind = instant_win(self.hands[seat])
                if kind is not None:
                    self.instant[seat] = kind
            if self.instant:
                self.turn = self.trick_leader = self.opener = self.must_include = None
                shown = {str(s): [CODES[c] for c in self.hands[s]] for s in sorted(self.instant)}
                kinds = {str(s): self.instant[s] for s in sorted(self.instant)}
                self.pending.append(
                    {"type": "instant_win", "public": {"hands": shown, "kinds": kinds}}
                )
                self.pending.append(self._game_end_event())
                return
        if leader is None:  # the first game of a match: the lowest card dealt leads
            # A loop: two generators' frames cost more than the comparisons.
            leader = live[0]
            low = self.hands[leader][0]
            for seat in live:
                if self.hands[seat][0] < low:
                    leader, low = seat, self.hands[seat][0]
            self.must_include = low
        elif not self.holding[leader]:
            leader = self._next_holding(leader)
        self.trick_leader = self.opener = self.turn = leader

    def _next_holding(self, seat: int) -> int:
        n = self.num_players
        for k in range(1, n + 1):
            other = (seat + k) % n
            if self.holding[other]:
                return other
        raise AssertionError("nobody holds cards")  # callers end the game before this

    def _advance(self, seat: int, events: list[Event]) -> None:
        """The turn after ``seat``: the next seat still in the trick, or a new trick."""
        holding, passed, current_by = self.holding, self.passed, self.current_by
        for other in _AFTER[self.num_players][seat]:
            if holding[other] and not passed[other] and other != current_by:
                self.turn = other
                return
        # Nobody left in the trick can beat the play: its player leads, or if it has gone
        # out, the next seat round the table that still holds cards (ruling 4).
        assert current_by is not None
        leader = current_by if holding[current_by] else self._next_holding(current_by)
        self._new_trick(leader, events)

    def _new_trick(self, leader: int, events: list[Event]) -> None:
        self.current = None
        self.current_by = None
        self.passed = [False] * self.num_players
        self.passed_seats = []
        self.trick_views = []
        seen: list[list[dict[str, Any]]] = [[], [], [], []]  # sliced: no comprehension's call
        self.seen_trick = seen[: self.num_players]
        self.tricks += 1
        self.trick_leader = leader
        self.turn = leader
        events.append({"type": "lead", "public": {"seat": leader, "trick": self.tricks}})

    def _end(self, events: list[Event]) -> None:
        """One seat alone holds cards (or none does): it is last, and the game is over."""
        holders = [s for s in range(self.num_players) if self.holding[s]]
        if holders:
            self.last = holders[0]
        self.turn = None
        self.current = None
        events.append(self._game_end_event())

    def _game_end_event(self) -> Event:
        left = [len(hand) for hand in self.hands]
        return {
            "type": "game_end",
            "public": {
                "placings": list(self.placings()),
                "points": self.scores(),
                "order": list(self.finished),
                "last": self.last,
                "cards_left": left,
            },
        }
