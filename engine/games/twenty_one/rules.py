"""The rules of one game of Twenty One: rounds, turns, trumps, the bet pad.

A game is a run of rounds until a player holds no bets. Each round deals every player a
hush card (face down) and a face-up card from the eleven playing cards 1-11 and two trumps;
the players take turns (trumps, then draw or pass; or trumps and end the turn there) until
both have passed; the total closest to the target (21, or a Go For's) wins the round and the
loser pays its stake. The match (four games in duplicate pairs) lives in ``match_rules.py``;
what a seat may see lives in ``observe.py``.

Everything random comes through the game's draws (``draws.py``): from the seed, each round
shuffles the playing deck with its own generator (seeded from the game seed and the round
number, so the deals of a round do not depend on earlier play), which then also places cards
Remove and Return put back, picks Trump Switch's discards and shuffles trump discards into a
new trump deck; the first trump deck has a generator of its own. Each draw is logged for the
record, so a game re-plays from its replay with :class:`RecordedDraws`. Cards are dealt by
*position*: with ``rotation`` r, seat s plays position (s + r) % 2, so a rotated game gives
each seat the other seat's cards (duplicate play).

Moves follow verify / can / apply: :meth:`TwentyOneState.verify` checks a bot's JSON action
(raising :class:`IllegalMove`), :meth:`TwentyOneState.can_apply` asks without raising,
:meth:`TwentyOneState.apply` plays it and returns its events.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import Event, IllegalMove, Verifies, ranks_from_scores
from engine.games.twenty_one.cards import (
    ADD_TRUMPS,
    CARD_TRUMPS,
    CARDS,
    GO_FOR,
    STAKE_UP,
    TABLE_TRUMPS,
    TRUMP_RANK,
    standard_trumps,
    trump_deck,
)
from engine.games.twenty_one.draws import RecordedDraws, SeededDraws

__all__ = [
    "DEFAULT_TARGET",
    "MAX_ROUNDS",
    "THEN",
    "IllegalMove",
    "TwentyOneState",
    "closest",
    "round_winner",
]

DEFAULT_TARGET = 21
#: A safety net: a game still running after this many rounds ends (more bets wins). With
#: stakes growing every round it is never reached outside contrived option sets.
MAX_ROUNDS = 100
#: How a turn may end: draw a playing card, pass (final for the round), or stop after trumps.
THEN = ("draw", "pass", "stop")
_THEN_SET = frozenset(THEN)
_KEYS = frozenset({"trumps", "then"})
_SEAT_KEYS = ("0", "1")
_MAX_LISTED = 64  # trumps in one combined action (the schema says the same)
#: Event fields that describe the position after a move rather than the move: left out of
#: the history a seat is shown (its observation holds the position).
_POSITION_KEYS = frozenset({"target", "stakes", "deck_count", "hands", "face_up", "table"})


def round_winner(totals: Sequence[int], target: int) -> int | None:
    """The seat closest to the target, over or under; None when equally close (a draw).

    >>> round_winner([20, 23], 21), round_winner([25, 23], 21), round_winner([19, 23], 21)
    (0, 1, None)
    """
    a, b = abs(totals[0] - target), abs(totals[1] - target)
    if a == b:
        return None
    return 0 if a < b else 1


def closest(deck: Sequence[int], total: int, target: int) -> int:
    """Perfect Draw's card: the one bringing ``total`` closest to ``target`` without going
    over, or the lowest when every card would go over.

    >>> closest([2, 5, 9], 14, 21), closest([9, 10], 14, 21)
    (5, 9)
    """
    room = target - total
    fits = [card for card in deck if card <= room]
    return max(fits) if fits else min(deck)


def _shown(value: object) -> str:
    """A bot-supplied value as quoted in a public error: short, whatever the bot sent."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


class TwentyOneState(Verifies):
    """One game in progress, from the first deal to the round that leaves a player at zero.

    ``seed`` drives every shuffle; ``dealer`` is the seat that starts round 1 (the starter
    alternates every round after); ``rotation`` maps seats to dealt positions. ``decks`` (for
    tests) gives the playing deck of rounds 1, 2, ... top first, instead of shuffles: the
    first four cards are position 0's hush card, position 1's hush card, position 0's
    face-up card and position 1's; ``trumps_top_first`` likewise fixes the first trump deck.
    """

    __slots__ = (
        "_first_deal",
        "acting_bet",
        "bets",
        "dealer",
        "dealer_mode",
        "deals",
        "deck",
        "discards",
        "drawn",
        "draws",
        "hands",
        "history",
        "hush",
        "last_round",
        "order",
        "over",
        "passed",
        "played",
        "played_round",
        "positions",
        "put_back",
        "refills",
        "rotation",
        "round",
        "round_publics",
        "rounds",
        "rounds_won",
        "seed",
        "stake",
        "starter",
        "starting_bets",
        "switched",
        "table",
        "target",
        "templates",
        "trump_counts",
        "trump_deck",
        "trump_start",
        "turn",
        "up",
    )

    num_players = 2

    def __init__(
        self,
        seed: int | None,
        dealer: int = 0,
        rotation: int = 0,
        *,
        dealer_mode: bool = False,
        starting_bets: int = 7,
        trumps: Mapping[str, int] | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        trumps_top_first: Sequence[str] | None = None,
        draws: SeededDraws | RecordedDraws | None = None,
    ) -> None:
        if dealer not in (0, 1):
            raise ValueError("dealer must be seat 0 or 1")
        if draws is None:
            if seed is None:
                raise ValueError("a game needs a seed or the draws of its record")
            draws = SeededDraws(seed)
        self.draws = draws
        self.seed = seed
        self.dealer = dealer
        self.rotation = rotation % 2
        # positions[p] is the seat that plays position p.
        self.positions = ((0 - self.rotation) % 2, (1 - self.rotation) % 2)
        self.dealer_mode = dealer_mode
        self.starting_bets = starting_bets
        counts = dict(trumps) if trumps is not None else standard_trumps(dealer_mode=dealer_mode)
        self.trump_counts = counts
        if trumps_top_first is not None:
            self.trump_deck = list(reversed(trumps_top_first))
        else:
            self.trump_deck = trump_deck(counts)
            draws.first_trumps(self.trump_deck)
        self.trump_start = self.trump_deck[::-1]  # top first, for the record
        # Every later draw, logged for the record as it is made: the trump decks shuffled
        # from the discards (the game's), and the round's cards put back and trumps switched.
        self.refills: list[dict[str, Any]] = []
        self.put_back: list[dict[str, int]] = []
        self.switched: list[list[str]] = []
        self.deals = [list(d) for d in decks] if decks is not None else None
        self.discards: list[str] = []
        self.hands: list[list[str]] = [[], []]
        self.bets = [starting_bets, starting_bets]
        self.rounds_won = [0, 0]
        self.rounds: list[dict[str, Any]] = []  # the spectator's record of finished rounds
        self.round_publics: list[dict[str, Any]] = []  # round_end payloads (public)
        self.last_round: dict[str, Any] | None = None
        #: Each seat's observation template for the round, with its own copy of last_round,
        #: made as it first observes the round (observe.py); dropped when a round ends.
        self.templates: list[dict[str, Any] | None] = [None, None]
        self.round = 0
        self.acting_bet = 0
        self.over = False
        self.turn: int | None = None
        self._declare_round(dealer)
        self._first_deal = self._deal()

    def _declare_round(self, dealer: int) -> None:
        """The round's fields, set by ``_deal``: declared here so every slot exists."""
        self.order: list[int] = []
        self.deck: list[int] = []
        self.hush = [0, 0]
        self.up: list[list[int]] = [[], []]
        self.table: list[list[str]] = [[], []]
        self.target = DEFAULT_TARGET
        self.passed = [False, False]
        self.drawn = [0, 0]
        self.played = 0
        self.played_round = [0, 0]
        self.stake = [0, 0]
        self.starter = dealer
        self.history: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])

    # --- reading the position ---------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat that must move now, or None when the game is over."""
        return self.turn

    def total(self, seat: int) -> int:
        """A seat's full total: hush card and face-up cards."""
        return self.hush[seat] + sum(self.up[seat])

    def stakes(self) -> list[int]:
        """Each seat's stake this round (ruling 3): the acting bet, plus the opponent's
        One-Ups and Two-Ups on the table, minus its own Shields, never below zero."""
        return self.stake[:]

    def _restake(self) -> None:
        """Work the stakes out again after the table changed."""
        table = self.table
        acting = self.acting_bet
        stake = []
        for seat in (0, 1):
            ups = sum(STAKE_UP.get(t, 0) for t in table[1 - seat])
            shields = table[seat].count("shield")
            stake.append(max(0, acting + ups - shields))
        self.stake = stake

    def scores(self) -> list[int]:
        """The bets each seat holds."""
        return list(self.bets)

    def placings(self) -> tuple[int, ...]:
        """The seat at zero bets is second; after the round cap, more bets is first."""
        return ranks_from_scores(self.bets)

    def location(self) -> dict[str, Any]:
        phase = "over" if self.over else "turn"
        return {"game_round": self.round, "phase": phase, "turn": self.turn}

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """One decision at a time: each distinct trump in hand (the turn goes on after it),
        then ``draw`` (while the deck lasts), ``pass``, and ``stop`` (after a trump)."""
        if seat != self.turn:
            return []
        out: list[dict[str, Any]] = []
        last = None
        for name in self.hands[seat]:  # kept in TRUMP_ORDER
            if name != last:
                out.append({"trumps": [name]})
                last = name
        if self.deck:
            out.append({"then": "draw"})
        out.append({"then": "pass"})
        if self.played:
            out.append({"then": "stop"})
        return out

    def default_action(self, seat: int) -> dict[str, Any]:
        """Passing is always legal."""
        return {"then": "pass"}

    def eliminate(self, seat: int) -> bool:
        """A two-player game cannot go on without either player."""
        return False

    # --- verify / can / apply -----------------------------------------------------------------
    def verify(self, seat: int, action: Mapping[str, Any]) -> tuple[tuple[str, ...], str | None]:
        """Check the shape and the static rules of an action: ``(trumps, then)``.

        What only play can tell (a trump Trump Switch discarded before its turn in the list,
        a deck the listed trumps emptied before ``draw``) is checked as the action plays.
        """
        if self.turn is None or seat != self.turn:
            raise IllegalMove(f"it is not seat {seat}'s turn")
        if type(action) is not dict and not isinstance(action, Mapping):
            raise IllegalMove(f"an action must be a JSON object, not {type(action).__name__}")
        extra = set(action) - _KEYS
        if extra:
            raise IllegalMove(f"unknown key {_shown(sorted(map(str, extra))[0])} in the action")
        trumps = action.get("trumps")
        then = action.get("then")
        if trumps is None:
            names: tuple[str, ...] = ()
        elif type(trumps) is list and 0 < len(trumps) <= _MAX_LISTED:
            names = tuple(trumps)
        else:
            raise IllegalMove("'trumps' must be a list of 1 to 64 trump names")
        if then is not None and (type(then) is not str or then not in _THEN_SET):
            raise IllegalMove(f"'then' must be 'draw', 'pass' or 'stop', not {_shown(then)}")
        if not names and then is None:
            raise IllegalMove("an action plays trumps, or says 'then': draw, pass or stop")
        hand = self.hands[seat]
        for name in names:
            if type(name) is not str or name not in TRUMP_RANK:
                raise IllegalMove(f"{_shown(name)} is not a trump name")
            if names.count(name) > hand.count(name):
                raise IllegalMove(f"you do not hold {name!r}" + (" that often" * (name in hand)))
        if then == "stop" and not names and not self.played:
            raise IllegalMove("'stop' ends a turn after at least one trump: draw or pass")
        if then == "draw" and not names and not self.deck:
            raise IllegalMove("the playing deck is empty: you cannot draw")
        return names, then

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Play an action: its trumps in order, then ``draw``, ``pass`` or ``stop`` (if any).

        Without ``then`` the turn goes on: the same seat decides again. Events: one
        ``trump`` per trump, one ``move`` for the move that ends the turn, and when the
        round ends ``round_end`` (fires ``on_round_end``), then ``round_start`` or
        ``game_end``. A combined action that turns out illegal part way leaves the game as
        it was.
        """
        events: list[Event] = []
        # One decision as legal_actions lists it (one trump, or one way to end the turn),
        # the commonest action, checked at once; anything else goes through verify().
        if type(action) is dict and len(action) == 1 and seat == self.turn:
            then = action.get("then")
            if then is None:
                trumps = action.get("trumps")
                if (
                    type(trumps) is list
                    and len(trumps) == 1
                    and type(trumps[0]) is str
                    and trumps[0] in self.hands[seat]
                ):
                    events.append(self._trump(seat, trumps[0]))
                    return events
            elif (
                then == "pass" or (then == "draw" and self.deck) or (then == "stop" and self.played)
            ):
                self._play(seat, (), then, events)
                return events
        names, then = self.verify(seat, action)
        if len(names) > 1 or (names and then == "draw"):
            saved = self._snapshot()
            try:
                self._play(seat, names, then, events)
            except IllegalMove:
                self._restore(saved)
                raise
        else:
            self._play(seat, names, then, events)
        return events

    def start_events(self) -> list[Event]:
        """The first round's deal."""
        return [self._first_deal]

    # --- internals: a turn -------------------------------------------------------------------
    def _play(
        self, seat: int, names: tuple[str, ...], then: str | None, events: list[Event]
    ) -> None:
        for name in names:
            if name not in self.hands[seat]:
                raise IllegalMove(f"{name!r} left your hand (Trump Switch) before its turn")
            events.append(self._trump(seat, name))
        if then is None:
            return
        other = 1 - seat
        if then == "draw":
            if not self.deck:
                raise IllegalMove("the playing deck is empty: you cannot draw")
            events.append(self._draw(seat))
        elif then == "pass":
            self.passed[seat] = True
            public = {"seat": seat, "move": "pass"}
            events.append(
                self._note({"type": "move", "public": public}, {"type": "move", **public})
            )
        else:
            if not self.played:
                raise IllegalMove("'stop' ends a turn after at least one trump: draw or pass")
            public = {"seat": seat, "move": "stop"}
            events.append(
                self._note({"type": "move", "public": public}, {"type": "move", **public})
            )
        self.played = 0
        if not self.passed[other]:
            self.turn = other
        elif not self.passed[seat]:
            self.turn = seat
        else:
            self._end_round(events)

    def _note(self, event: Event, common: dict[str, Any] | None = None) -> Event:
        """Log a turn's event into each seat's history of the round: what it did, without
        the position after it (the observation has that), and the seat's own private part.

        Each seat's entries are its own, as observations show them (the event's tuples as
        lists): observations hand them to the seat again, so a bot that changes them changes
        only its own view."""
        private = event.get("private")
        if common is None:  # what the seats' entries hold: the event but for the position
            common = {"type": event["type"]}
            for key, value in event["public"].items():
                if key not in _POSITION_KEYS:
                    common[key] = value
        discarded = common.get("discarded")
        history = self.history
        for seat in (0, 1):
            entry = common.copy()
            if discarded is not None:
                entry["discarded"] = list(discarded)
            if private is not None:
                mine = private.get(_SEAT_KEYS[seat])
                if mine is not None:
                    entry.update(mine)
                    if "trumps" in mine:
                        entry["trumps"] = list(mine["trumps"])
            history[seat].append(entry)
        return event

    def _draw(self, seat: int) -> Event:
        card = self.deck.pop()
        self.up[seat].append(card)
        drawn = self.drawn[seat] = self.drawn[seat] + 1
        public: dict[str, Any] = {
            "seat": seat,
            "move": "draw",
            "card": card,
            "deck_count": len(self.deck),
            "drawn": drawn,
        }
        common = {"type": "move", "seat": seat, "move": "draw", "card": card, "drawn": drawn}
        event: Event = {"type": "move", "public": public}
        if drawn % 3 == 0:  # every third card drawn in a round brings a trump
            got = self._draw_trump(seat)
            public["bonus"] = common["bonus"] = got is not None
            public["hands"] = (len(self.hands[0]), len(self.hands[1]))
            if got is not None:
                event["private"] = {_SEAT_KEYS[seat]: {"trumps": (got,)}}
        return self._note(event, common)

    def _draw_trump(self, seat: int) -> str | None:
        """Draw one trump into ``seat``'s hand; an empty trump deck is refilled by shuffling
        the discards; with neither there is nothing to draw."""
        deck = self.trump_deck
        if not deck:
            if not self.discards:
                return None
            deck = self.trump_deck = self.discards
            self.discards = []
            self.draws.refill(deck)
            self.refills.append({"round": self.round, "deck": deck[::-1]})
        name = deck.pop()
        hand = self.hands[seat]
        bisect.insort(hand, name, key=TRUMP_RANK.__getitem__)
        return name

    def _trump(self, seat: int, name: str) -> Event:
        """Play one trump (it is in the hand): resolve it and log its ``trump`` event."""
        hand = self.hands[seat]
        hand.remove(name)
        self.played += 1
        self.played_round[seat] += 1
        public: dict[str, Any] = {"seat": seat, "trump": name}
        event: Event = {"type": "trump", "public": public}
        up, deck = self.up, self.deck
        if not self._card_effect(seat, name, public):
            self._other_effect(seat, name, hand, event)
        # one_up, two_up and shield only lie on the table (the stakes show their effect).
        if name in TABLE_TRUMPS:
            self.table[seat].append(name)
            self._restake()
            if name == "two_up":
                got_one = self._draw_trump(seat)
                public["drew"] = int(got_one is not None)
                event["private"] = {_SEAT_KEYS[seat]: {"trumps": (got_one,) if got_one else ()}}
        else:
            self.discards.append(name)  # resolved: to the discard pile after its effect
        common = {"type": "trump", **public}  # the seats' history entries: no position
        public["target"] = self.target
        public["stakes"] = (self.stake[0], self.stake[1])
        public["deck_count"] = len(deck)
        public["hands"] = (len(self.hands[0]), len(self.hands[1]))
        # The public position after the trump, so a viewer draws it without the rules.
        public["face_up"] = (tuple(up[0]), tuple(up[1]))
        table = self.table
        public["table"] = (tuple(table[0]), tuple(table[1]))
        return self._note(event, common)

    def _card_effect(self, seat: int, name: str, public: dict[str, Any]) -> bool:
        """Resolve a trump that moves playing cards (a card trump, Perfect Draw, Remove,
        Return, Exchange) into ``public``; False for any other trump."""
        up, deck = self.up, self.deck
        other = 1 - seat
        if name in CARD_TRUMPS or name in ADD_TRUMPS:
            value = CARD_TRUMPS.get(name) or ADD_TRUMPS[name]
            # Add Number: the dealer checks the value is nowhere on the table (hush cards too);
            # every card not on the table is in the deck, so it is the same test.
            took = value if value in deck else None
            if took is not None:
                deck.remove(took)
                up[seat].append(took)
            public["took"] = took
        elif name == "perfect_draw":
            took = closest(deck, self.total(seat), self.target) if deck else None
            if took is not None:
                deck.remove(took)
                up[seat].append(took)
            public["took"] = took
        elif name == "remove" or name == "return":
            victim = other if name == "remove" else seat
            card = up[victim].pop() if up[victim] else None
            if card is not None:
                index = self.draws.slot(card, len(deck))  # ruling 5
                deck.insert(index, card)
                # From the top: 0 is the next card drawn (the deck list is bottom first).
                self.put_back.append({"card": card, "slot": len(deck) - 1 - index})
            public["card"] = card
        elif name == "exchange":
            if up[seat] and up[other]:
                mine, theirs = up[seat][-1], up[other][-1]
                up[seat][-1], up[other][-1] = theirs, mine
                public["gave"], public["got"] = mine, theirs
            else:
                public["gave"] = public["got"] = None
        else:
            return False
        return True

    def _other_effect(self, seat: int, name: str, hand: list[str], event: Event) -> None:
        """Resolve a Go For, Destroy or Trump Switch into ``event`` (the table trumps only
        lie on the table: ``_trump`` places them)."""
        public = event["public"]
        other = 1 - seat
        if name in GO_FOR:
            replaced = None
            for row in self.table:
                for lying in row:
                    if lying in GO_FOR:
                        replaced = lying
                        row.remove(lying)
                        self.discards.append(lying)
                        break
            self.target = GO_FOR[name]
            public["replaced"] = replaced
        elif name == "destroy":
            row = self.table[other]
            destroyed = row.pop() if row else None
            if destroyed is not None:
                self.discards.append(destroyed)
                self._restake()
                if destroyed in GO_FOR:
                    self.target = DEFAULT_TARGET  # ruling 6
            public["destroyed"] = destroyed
        elif name == "trump_switch":
            gone = self.draws.discards(hand, min(2, len(hand)))
            gone.sort(key=TRUMP_RANK.__getitem__)
            self.switched.append(gone[:])
            self.discards.extend(gone)
            got = [g for g in (self._draw_trump(seat) for _ in range(3)) if g is not None]
            public["discarded"] = tuple(gone)
            public["drew"] = len(got)
            event["private"] = {_SEAT_KEYS[seat]: {"trumps": tuple(got)}}

    # --- internals: rounds -------------------------------------------------------------------
    def _deal(self) -> Event:
        """Start the next round: shuffle the eleven cards, deal by position, draw trumps."""
        self.round += 1
        self.acting_bet += 1  # 1 in the first round, one more every round (ruling 4)
        scripted = None
        if self.deals is not None and self.round <= len(self.deals):
            scripted = self.deals[self.round - 1]
            if sorted(scripted) != list(CARDS):
                raise ValueError("a scripted deck holds each card 1-11 exactly once")
        order = self.order = self.draws.round_deck(self.round, scripted)
        self.put_back = []
        self.switched = []
        first, second = self.positions
        hush = [0, 0]
        hush[first], hush[second] = order[0], order[1]
        self.hush = hush
        self.up = [[], []]
        self.up[first].append(order[2])
        self.up[second].append(order[3])
        self.deck = order[:3:-1]  # the rest, top card last (drawn with pop())
        self.table = [[], []]
        self.stake = [self.acting_bet, self.acting_bet]
        self.target = DEFAULT_TARGET
        self.passed = [False, False]
        self.drawn = [0, 0]
        self.played = 0
        self.played_round = [0, 0]
        self.starter = self.dealer if self.round % 2 else 1 - self.dealer  # ruling 1
        self.turn = self.starter
        self.history = ([], [])
        drew: list[list[str]] = [[], []]
        for seat in self.positions:
            for _ in range(2):
                got = self._draw_trump(seat)
                if got is not None:
                    drew[seat].append(got)
        return {
            "type": "round_start",
            "public": {
                "round": self.round,
                "starter": self.starter,
                "acting_bet": self.acting_bet,
                "bets": (self.bets[0], self.bets[1]),
                "target": DEFAULT_TARGET,
                "stakes": (self.acting_bet, self.acting_bet),
                "face_up": ((self.up[0][0],), (self.up[1][0],)),
                "deck_count": len(self.deck),
                "hands": (len(self.hands[0]), len(self.hands[1])),
            },
            "private": {
                "0": {"hush": hush[0], "trumps": tuple(drew[0])},
                "1": {"hush": hush[1], "trumps": tuple(drew[1])},
            },
        }

    def _end_round(self, events: list[Event]) -> None:
        """Both have passed: reveal, score, pay, clear the table, deal again or end."""
        totals = (self.total(0), self.total(1))
        target = self.target
        winner = round_winner(totals, target)
        stakes = self.stake
        paid = 0
        if winner is not None:
            loser = 1 - winner
            paid = min(stakes[loser], self.bets[loser])  # ruling 3: at most what it holds
            self.bets[loser] -= paid
            self.bets[winner] += paid
            self.rounds_won[winner] += 1
        cleared = []
        for seat in self.positions:
            cleared += self.table[seat]
        self.discards.extend(cleared)
        self.table = [[], []]
        public = {
            "round": self.round,
            "hush": (self.hush[0], self.hush[1]),
            "face_up": (tuple(self.up[0]), tuple(self.up[1])),
            "totals": totals,
            "target": target,
            "winner": winner,
            "stakes": (stakes[0], stakes[1]),
            "paid": paid,
            "bets": (self.bets[0], self.bets[1]),
            "cleared": tuple(cleared),
        }
        self.round_publics.append(public)
        self.last_round = public
        self.templates = [None, None]
        self._log_round(totals, target, winner, paid)
        events.append({"type": "round_end", "public": public})
        if min(self.bets) == 0 or self.round >= MAX_ROUNDS:
            events.append(self._game_end())
            return
        events.append(self._deal())

    def _log_round(
        self, totals: tuple[int, int], target: int, winner: int | None, paid: int
    ) -> None:
        """The spectator's record of the round that ended (``rounds``), lists of its own."""
        stakes = self.stake
        self.rounds.append(
            {
                "round": self.round,
                "starter": self.starter,
                "acting_bet": self.acting_bet,
                "deck": list(self.order),
                "hush": list(self.hush),
                "face_up": [list(self.up[0]), list(self.up[1])],
                "totals": list(totals),
                "target": target,
                "winner": winner,
                "stakes": list(stakes),
                "paid": paid,
                "bets": list(self.bets),
                "drawn": list(self.drawn),
                "trumps_played": list(self.played_round),
                "put_back": self.put_back,
                "switched": self.switched,
            }
        )

    def _game_end(self) -> Event:
        """End the game (a seat at zero bets, or the round cap): its ``game_end`` event."""
        self.over = True
        self.turn = None
        ranks = self.placings()
        winner_seat = ranks.index(0) if ranks.count(0) == 1 else None
        return {
            "type": "game_end",
            "public": {
                "bets": (self.bets[0], self.bets[1]),
                "winner": winner_seat,
                "rounds": self.round,
                "reason": "bets" if min(self.bets) == 0 else "round_cap",
            },
        }

    # --- internals: undoing a combined action that fails part way --------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.deck[:],
            [row[:] for row in self.up],
            [hand[:] for hand in self.hands],
            [row[:] for row in self.table],
            self.stake[:],
            self.trump_deck[:],
            self.discards[:],
            self.target,
            self.passed[:],
            self.drawn[:],
            self.played,
            self.played_round[:],
            self.draws.getstate(),
            len(self.history[0]),
            len(self.history[1]),
            len(self.refills),
            len(self.put_back),
            len(self.switched),
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.deck,
            self.up,
            self.hands,
            self.table,
            self.stake,
            self.trump_deck,
            self.discards,
            self.target,
            self.passed,
            self.drawn,
            self.played,
            self.played_round,
            state,
            first,
            second,
            refills,
            put_back,
            switched,
        ) = saved
        self.draws.setstate(state)
        del self.history[0][first:]
        del self.history[1][second:]
        del self.refills[refills:]
        del self.put_back[put_back:]
        del self.switched[switched:]
