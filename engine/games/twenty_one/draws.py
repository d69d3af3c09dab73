"""Where Twenty One's chance comes from: every random draw of a game, in one place.

A game draws five kinds of thing: the first trump deck's order, each round's playing deck,
the order of each new trump deck shuffled from the discards (a refill), the place in the
playing deck of each card Remove or Return puts back, and the two trumps Trump Switch
discards at random. :class:`SeededDraws` makes them from the game's seed (as every game is
played); :class:`RecordedDraws` reads them back from a replay's record, where the rules log
each one (``trump_deck``, ``trump_refills``, each round's ``deck``, ``put_back`` and
``switched``), so a referee re-plays a game from its replay alone.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.draws import below, shuffle
from engine.games.twenty_one.cards import CARDS

__all__ = ["RecordedDraws", "SeededDraws", "below", "shuffle"]

#: The generator's own seeding (what ``Random.seed`` does for an int, without its Python
#: wrapper, which also clears the ``gauss`` cache no draw here uses).
_seed = _random.Random.seed


class SeededDraws:
    """The draws of a game from its seed: the first trump deck from ``seed * 128``, each
    round's from ``seed * 128 + round`` (its deck shuffle first, then its put-backs,
    refills and Trump Switch discards in the order play asks for them)."""

    __slots__ = ("rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        # One generator: the first trump deck's until round 1, then seeded again for each
        # round (the state a new generator from that seed has: seeding costs a third less).
        self.rng = random.Random(seed * 128)

    def first_trumps(self, deck: list[str]) -> None:
        """Shuffle the first trump deck in place (the list is bottom first); called once,
        before the first round, while the generator is as seeded from ``seed * 128``."""
        shuffle(self.rng, deck)

    def round_deck(self, number: int, scripted: Sequence[int] | None = None) -> list[int]:
        """The playing deck of round ``number``, top first (a test's ``scripted`` deck as
        given: the round's generator then draws nothing for it)."""
        rng = self.rng
        _seed(rng, self.seed * 128 + number)
        if scripted is not None:
            return list(scripted)
        order = list(CARDS)
        shuffle(rng, order)
        return order

    def refill(self, cards: list[str]) -> None:
        """Shuffle the discards into a new trump deck, in place (bottom first)."""
        shuffle(self.rng, cards)

    def slot(self, card: int, size: int) -> int:
        """Where a card put back goes into a deck of ``size`` cards: the list index it is
        inserted at (the deck list is bottom first)."""
        return below(self.rng, size + 1)

    def discards(self, hand: list[str], count: int) -> list[str]:
        """Take ``count`` trumps out of ``hand`` at random (Trump Switch), in drawing order."""
        rng = self.rng
        return [hand.pop(below(rng, len(hand))) for _ in range(count)]

    def getstate(self) -> Any:
        return self.rng.getstate()

    def setstate(self, state: Any) -> None:
        self.rng.setstate(state)


class RecordedDraws:
    """The draws of a game read back from its replay's ``record``, each checked against
    what the rules ask for (a ValueError when the record does not hold it)."""

    __slots__ = ("put_backs", "record", "refills", "round", "switches")

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.record = record
        self.round: Mapping[str, Any] = {}
        self.refills = 0  # draws used so far: refills in the game, the others in the round
        self.put_backs = 0
        self.switches = 0

    def first_trumps(self, deck: list[str]) -> None:
        order = self.record["trump_deck"]
        if sorted(order) != sorted(deck):
            raise ValueError("the record's first trump deck is not the game's trumps")
        deck[:] = order[::-1]

    def round_deck(self, number: int, scripted: Sequence[int] | None = None) -> list[int]:
        rounds = list(self.record["rounds"])
        if self.record.get("unfinished") is not None:
            rounds.append(self.record["unfinished"])
        found = [entry for entry in rounds if entry["round"] == number]
        if not found:
            raise ValueError(f"the record holds no deck for round {number}")
        self.round = found[0]
        self.put_backs = self.switches = 0
        deck = list(self.round["deck"])
        if sorted(deck) != list(CARDS):
            raise ValueError(f"round {number}'s deck is not the eleven cards")
        return deck

    def refill(self, cards: list[str]) -> None:
        refills = self.record.get("trump_refills", [])
        if self.refills >= len(refills):
            raise ValueError("the record holds no more trump refills")
        refill = refills[self.refills]
        self.refills += 1
        if refill["round"] != self.round.get("round") or sorted(refill["deck"]) != sorted(cards):
            raise ValueError("the record's next trump refill is not of these discards")
        cards[:] = refill["deck"][::-1]

    def slot(self, card: int, size: int) -> int:
        put_back = self.round.get("put_back", [])
        if self.put_backs >= len(put_back):
            raise ValueError("the record holds no more cards put back this round")
        entry = put_back[self.put_backs]
        self.put_backs += 1
        slot: int = entry["slot"]
        if entry["card"] != card or not 0 <= slot <= size:
            raise ValueError(f"the record does not put card {card} back into {size} cards")
        return size - slot

    def discards(self, hand: list[str], count: int) -> list[str]:
        switched = self.round.get("switched", [])
        if self.switches >= len(switched):
            raise ValueError("the record holds no more Trump Switch discards this round")
        names = list(switched[self.switches])
        self.switches += 1
        if len(names) != count:
            raise ValueError(f"a Trump Switch discards {count} trumps here, not {len(names)}")
        for name in names:
            hand.remove(name)  # ValueError: the record discards a trump the hand lacks
        return names

    def getstate(self) -> Any:
        return (self.refills, self.put_backs, self.switches)

    def setstate(self, state: Any) -> None:
        self.refills, self.put_backs, self.switches = state
