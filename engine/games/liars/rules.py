"""The rules of one game of Liars (poker dice under the cup): rounds, turns, lives, placings.

A game is a sequence of **rounds**. The round's starter throws all five dice (hiding any of
them) and announces a hand; each receiver in turn either **refuses** (all dice are shown and
someone loses a life) or **accepts**: it may look under the cup, throw dice (each at most once
in its turn) and must announce a strictly higher hand. A turn is a sequence of decisions, each
its own action: ``{"look": true}``, ``{"throw": [...], "hide": [...], "cover": [...]}``,
``{"announce": ...}`` or ``{"refuse": true}``. See ``rules.md`` for the rules and
every reading the arena takes.

What each seat knows of each die is tracked here (``known``), and ``observe.py`` is the one
place that turns it into what a seat is shown. The spectator's record keeps every value.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game import Event, IllegalMove
from engine.games.liars.hands import (
    CANONICAL,
    CATEGORIES,
    FIVE,
    NOTHING,
    PAIR,
    HandOrder,
    ShortFormError,
    canonical,
    hand_order,
    parse_short,
)

__all__ = [
    "DICE",
    "LIVES",
    "ROUND_CAP",
    "DiceSource",
    "LiarsState",
    "RecordedDice",
    "SeededDice",
    "Variant",
]

DICE = 5
LIVES = 3
#: A game that reaches this many rounds ends, ranked by lives (a safety cap: a round almost
#: always costs a life, so real games end after about 3 x seats rounds).
ROUND_CAP = 200
FIVE_SIXES = (6, 6, 6, 6, 6)

# What a seat knows of a hidden die, and how (``known[die][seat]``).
UNKNOWN, SEEN, THREW, LOOKED = 0, 1, 2, 3
KNOWN_WORDS = (None, "seen", "threw", "looked")

# Phases of the seat to move.
START = "start"  # the round's starter: throw all five dice, then announce
RECEIVE = "receive"  # a receiver before deciding: refuse, look, throw or announce
TURN = "turn"  # a receiver that accepted (looked or threw): look, throw, announce
CONTEST = "contest"  # a receiver that accepted a five of a kind it must match or beat

_CANONICAL = CANONICAL
_INT = {int}
#: Every list of distinct dice indexes, in every order (326 of them, the empty one too).
_INDEX_LISTS = frozenset(
    order for size in range(DICE + 1) for order in itertools.permutations(range(DICE), size)
)
_NO_DICE: list[int] = []  # what an action without the key names (never changed)
_ACTION_KEYS = frozenset(("refuse", "look", "throw", "hide", "cover", "announce", "direction"))
_VERBS = ("refuse", "look", "throw", "announce")
#: The verb of every well-formed action's keys, in any order (apply's common case looked up
#: at once: the loop over the keys with its checks is kept for the others' messages).
_SHAPES = {
    keys: verb
    for verb, extras in (
        ("refuse", ()),
        ("look", ()),
        ("throw", ("hide", "cover")),
        ("announce", ("direction",)),
    )
    for size in range(len(extras) + 1)
    for chosen in itertools.combinations(extras, size)
    for keys in itertools.permutations((verb, *chosen))
}


@dataclass(frozen=True, slots=True)
class Variant:
    """The rule options of a game (recorded in every replay through the match options)."""

    straights: bool = True
    better: bool = False
    no_lying_first_round: bool = False
    stop_at_first_out: bool = False
    straight_contest: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> Variant:
        options = options or {}
        return cls(
            straights=bool(options.get("straights", True)),
            better=bool(options.get("better", False)),
            no_lying_first_round=bool(options.get("no_lying_first_round", False)),
            stop_at_first_out=bool(options.get("stop_at_first_out", False)),
            straight_contest=bool(options.get("straight_contest", False)),
        )


def _shown(value: object) -> str:
    """A bot-supplied value quoted in a public error: short, always."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


#: Where a game's dice land: called with the thrower and the dice it throws (indexes, in
#: the action's order), it returns their values in the same order.
DiceSource = Callable[[int, Sequence[int]], list[int]]


class SeededDice:
    """The dice of a game drawn from its seed: one ``random.Random(seed)`` draw per die, in
    the order the action names the dice."""

    __slots__ = ("random",)

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random

    def __call__(self, seat: int, dice: Sequence[int]) -> list[int]:
        draw = self.random
        return [int(draw() * 6) + 1 for _ in dice]


class RecordedDice:
    """The dice of a game read back from its replay's record (a referee's re-play): each
    throw of every round in order, ``values`` by die index (null for a die not thrown)."""

    __slots__ = ("throws",)

    def __init__(self, record: Mapping[str, Any]) -> None:
        rounds = list(record["rounds"])
        if record.get("unfinished") is not None:
            rounds.append(record["unfinished"])
        self.throws = iter([throw for entry in rounds for throw in entry["throws"]])

    def __call__(self, seat: int, dice: Sequence[int]) -> list[int]:
        throw = next(self.throws, None)
        if throw is None:
            raise ValueError("the record holds no more throws")
        values = throw["values"]
        if throw["seat"] != seat or {d for d, v in enumerate(values) if v is not None} != set(dice):
            raise ValueError(f"the record's next throw is not seat {seat}'s throw of {dice}")
        return [values[d] for d in dice]


class LiarsState:
    """One game in progress, from the first round to the last survivor."""

    __slots__ = (
        "all_seen",
        "announced",
        "better",
        "bettor",
        "chain",
        "contest",
        "contest_next",
        "decisions",
        "dice",
        "direction",
        "elim",
        "everyone",
        "faulted",
        "floor",
        "hidden",
        "history",
        "holder",
        "known",
        "known_by",
        "lives",
        "looked",
        "n",
        "no_lying",
        "options_view",
        "order",
        "out",
        "over",
        "past",
        "pending",
        "phase",
        "received",
        "record_rounds",
        "roll",
        "round",
        "round_dirs",
        "seen_history",
        "seen_rounds",
        "starter",
        "steps",
        "stop_first",
        "straights",
        "templates",
        "throw_log",
        "thrown",
        "throws",
        "variant",
    )

    def __init__(
        self,
        seed: int | None,
        starter: int,
        num_players: int,
        variant: Variant,
        *,
        dice: DiceSource | None = None,
    ) -> None:
        if not 2 <= num_players <= 6:
            raise ValueError("Liars is played by 2 to 6 seats")
        n = self.n = num_players
        self.variant = variant
        self.straights = variant.straights
        self.better = variant.better
        self.no_lying = variant.no_lying_first_round
        self.stop_first = variant.stop_at_first_out
        self.contest_next = variant.straight_contest
        self.order: HandOrder = hand_order(variant.straights)
        self.floor = self.order.lowest_of(PAIR)  # receivers never announce "nothing" (ruling 4)
        self.everyone = list(range(n))
        #: known[die] of every die all seats have seen (uncovered, or covered after): one row
        #: shared by those dice, never changed (a look changes a row only where it is UNKNOWN).
        self.all_seen = [SEEN] * n
        #: The options as observations show them (each observation gets its own copy).
        self.options_view = {
            "straights": self.straights,
            "better": self.better,
            "no_lying_first_round": self.no_lying,
            "stop_at_first_out": self.stop_first,
            "straight_contest": self.contest_next,
        }
        if dice is None:
            if seed is None:
                raise ValueError("a game needs a seed or a source of dice")
            dice = SeededDice(seed)
        self.roll = dice
        self.lives = [LIVES] * n
        self.out = [False] * n
        self.faulted = [False] * n
        self.elim: list[int] = []  # seats out of lives, in the order they went out
        self.round = 0
        self.direction = 1
        self.over = False
        self.past: list[dict[str, Any]] = []  # public summaries of finished rounds
        # Each seat's copies of the round's history and of the past rounds, made as it first
        # observes them (observe.py): what a seat was shown never changes, so it is shown
        # the same copies again, and a bot that changes them changes only its own view.
        self.seen_rounds: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.record_rounds: list[dict[str, Any]] = []  # the spectator's rounds
        self.pending: list[Event] = []  # events of an elimination, logged with the next move
        self.steps = 0
        self._begin_round(starter % n)

    # --- reading the position -------------------------------------------------------------
    def to_act(self) -> int | None:
        return None if self.over else self.holder

    def live_seats(self) -> list[int]:
        return [s for s in range(self.n) if not self.out[s]]

    def next_live(self, seat: int, direction: int) -> int:
        """The next seat still in the game after ``seat`` in ``direction``."""
        n, out = self.n, self.out
        s = seat
        for _ in range(n):
            s = (s + direction) % n
            if not out[s]:
                return s
        return seat

    def key(self, rank: int, throws: int | None) -> tuple[int, int]:
        """Strength of an announcement: its hand's rank, then (a five of a kind in the
        straight-contest variant) fewer throws beats more."""
        return (rank, 5 - throws) if throws is not None else (rank, 0)

    def minimum(self) -> tuple[int, ...] | None:
        """The lowest hand the seat to move may announce now (None: it may not announce)."""
        if self.over:
            return None
        phase = self.phase
        if phase == START:
            return self.order.hands[0]
        received = self.received
        if received is None:
            return None
        hand, rank, throws = received
        contest = self.contest
        if contest is not None:
            if contest[0] == "equal" or self.throws == 0:
                return None  # five 6s cannot be beaten; a contest starts with a throw
            value = hand[0]
            return (value,) * 5 if self.throws < (throws or 5) else (value + 1,) * 5
        best = rank + 1 if rank >= self.floor else self.floor
        hands = self.order.hands
        return hands[best] if best < len(hands) else None

    def scores(self) -> list[int]:
        """Lives left per seat (0 for a seat out of the game: going out sets its lives to 0)."""
        return self.lives[:]

    def placings(self) -> tuple[int, ...]:
        """Seats still in (by lives), then seats out of lives (last out first), then seats out
        for a fault, sharing last place."""
        keys = []
        for s in range(self.n):
            if self.faulted[s]:
                keys.append((0, 0))
            elif self.out[s]:
                keys.append((1, self.elim.index(s)))
            else:
                keys.append((2, self.lives[s]))
        return tuple(sum(1 for other in keys if other > mine) for mine in keys)

    def location(self) -> dict[str, Any]:
        return {"round": self.round, "phase": self.phase if not self.over else "over"}

    # --- rounds ---------------------------------------------------------------------------
    def _begin_round(self, starter: int) -> None:
        self.round += 1
        self.starter = self.holder = starter
        self.phase = START
        self.dice = [0] * DICE  # 0: not thrown yet this round
        self.hidden = [False] * DICE
        self.known = [[UNKNOWN] * self.n for _ in range(DICE)]
        #: Per die, the seats that know it (ascending; a new list whenever ``known[die]``
        #: changes, never changed in place: observations copy it).
        self.known_by: list[list[int]] = [[]] * DICE
        self.received: tuple[tuple[int, ...], int, int | None] | None = None
        self.bettor: int | None = None
        self.contest: tuple[str, int] | None = None  # ("equal" | "beat", throw limit)
        self.chain: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.seen_history: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
        #: Each seat's observation template for the round (observe.py), made as it is needed.
        self.templates: list[dict[str, Any] | None] = [None] * self.n
        self.round_dirs = self.direction
        self.decisions = 0
        self.throw_log: list[dict[str, Any]] = []  # every throw's values, for the record
        self._new_turn()

    def _new_turn(self) -> None:
        self.looked = False
        self.thrown = [False] * DICE
        self.throws = 0

    def _round_start_event(self) -> Event:
        return {
            "type": "round_start",
            "public": {
                "round": self.round,
                "starter": self.starter,
                "direction": self.direction,
                "lives": self.scores(),
            },
        }

    def start_events(self) -> list[Event]:
        """The game's first round: who starts, everyone's lives."""
        return [
            {
                "type": "start",
                "public": {
                    "seats": self.n,
                    "lives": self.scores(),
                    "out": [s for s in range(self.n) if self.out[s]],
                },
            },
            self._round_start_event(),
        ]

    def _end_round(
        self, loser: int | None, reason: str, next_starter: int, forfeit: int | None = None
    ) -> list[Event]:
        """Take a life, settle who starts next, and end the game when it is over."""
        eliminated = None
        if loser is not None:
            self.lives[loser] -= 1
            if self.lives[loser] <= 0:
                self.lives[loser] = 0
                self.out[loser] = True
                self.elim.append(loser)
                eliminated = loser
                next_starter = self.next_live(loser, self.direction)  # ruling 7
        shown = reason in ("refused_true", "refused_false", "lie", "contest_won", "contest_lost")
        dice = list(self.dice) if shown else None
        last = self.chain[-1] if self.chain else None
        summary = {
            "round": self.round,
            "starter": self.starter,
            "reason": reason,
            "bettor": self.bettor,
            "loser": loser,
            "out": eliminated,
            "forfeit": forfeit,
            "hand": list(last["hand"]) if last else None,
            "dice": dice,
            "lives": self.scores(),
        }
        self.past.append(summary)
        self.record_rounds.append(
            {
                "number": self.round,
                "starter": self.starter,
                "direction": self.round_dirs,
                "chain": self.chain,
                "dice": list(self.dice),
                "hidden": [d for d in range(DICE) if self.hidden[d]],
                "loser": loser,
                "reason": reason,
                "refuser": None,
                "looks": [e["seat"] for e in self.history if e["type"] == "look"],
                "throws": self.throw_log,
            }
        )
        events: list[Event] = [{"type": "round_end", "public": dict(summary)}]
        live = self.live_seats()
        if (
            len(live) <= 1
            or (self.stop_first and eliminated is not None)
            or self.round >= ROUND_CAP
        ):
            self.over = True
            self.phase = ""
            events.append(self._game_end_event())
            return events
        self._begin_round(next_starter)
        events.append(self._round_start_event())
        return events

    def _game_end_event(self) -> Event:
        return {
            "type": "game_end",
            "public": {
                "placings": list(self.placings()),
                "lives": self.scores(),
                "eliminated": list(self.elim),
            },
        }

    # --- moves ----------------------------------------------------------------------------
    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Check and play one decision; raise IllegalMove with the reason when it is not legal."""
        if self.over or seat != self.holder:
            raise IllegalMove(f"it is not seat {seat}'s turn")
        if type(action) is not dict:
            raise IllegalMove("an action must be a JSON object")
        verb = _SHAPES.get(tuple(action))
        if verb is None:
            verb = self._verb(action)
        if verb == "throw":
            events = self._throw(seat, action)
        elif verb == "announce":
            events = self._announce(seat, action)
        elif verb == "look":
            events = self._look(seat, action)
        else:
            events = self._refuse(seat, action)
        self.decisions += 1
        self.steps += 1
        if self.pending:
            events = self.pending + events
            self.pending = []
        return events

    @staticmethod
    def _verb(action: Mapping[str, Any]) -> str:
        """An action whose keys are none of ``_SHAPES``' checked key by key: IllegalMove
        with the reason (a verb is returned only for keys that are a shape's)."""
        verb = None
        for key in action:
            if key not in _ACTION_KEYS:
                raise IllegalMove(f"unknown action key {_shown(key)}")
            if key in _VERBS:
                if verb is not None:
                    raise IllegalMove("an action does one thing: refuse, look, throw or announce")
                verb = key
        if verb is None:
            raise IllegalMove("the action needs one of 'refuse', 'look', 'throw', 'announce'")
        if verb != "throw" and ("hide" in action or "cover" in action):
            raise IllegalMove("'hide' and 'cover' go with a 'throw'")
        if verb != "announce" and "direction" in action:
            raise IllegalMove("'direction' goes with the starter's announcement")
        return verb

    def _refuse(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        if action["refuse"] is not True:
            raise IllegalMove("'refuse' must be true")
        if self.phase != RECEIVE:
            raise IllegalMove("only a receiver that has not looked or thrown may refuse")
        hand, rank, _throws = self.received  # type: ignore[misc]  # a receiver has one
        bettor = self.bettor
        dice = self.dice
        holds = self.order.rank_of_dice(dice) >= rank  # ruling 5: equal dice hold
        loser = seat if holds else bettor
        self.history.append({"type": "refuse", "seat": seat})
        event = {
            "type": "refuse",
            "public": {
                "seat": seat,
                "bettor": bettor,
                "hand": list(hand),
                "dice": list(dice),
                "hidden": [d for d in range(DICE) if self.hidden[d]],
                "dice_hand": list(_CANONICAL[tuple(dice)]),
                "holds": holds,
                "loser": loser,
            },
        }
        reason = "refused_true" if holds else "refused_false"
        events = [event, *self._end_round(loser, reason, loser)]  # type: ignore[arg-type]
        self.record_rounds[-1]["refuser"] = seat
        return events

    def _look(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        if action["look"] is not True:
            raise IllegalMove("'look' must be true")
        phase = self.phase
        if phase == START:
            raise IllegalMove("the starter throws all five dice; there is nothing to look at")
        if phase == CONTEST or self.contest is not None:
            raise IllegalMove("a contest starts with a throw of all five dice, not a look")
        if self.looked:
            raise IllegalMove("you have already looked under the cup this turn")
        hidden = [d for d in range(DICE) if self.hidden[d]]
        if not hidden:
            raise IllegalMove("there is nothing under the cup to look at")
        self.looked = True
        self.phase = TURN
        known, known_by = self.known, self.known_by
        for d in hidden:
            row = known[d]
            if row[seat] == UNKNOWN:
                row[seat] = LOOKED
                known_by[d] = [s for s in self.everyone if row[s]]
        self.history.append({"type": "look", "seat": seat})
        values = [[d, self.dice[d]] for d in hidden]
        return [
            {
                "type": "look",
                "public": {"seat": seat, "dice": hidden},
                "private": {str(seat): {"values": values}},
            }
        ]

    def _indexes(self, action: Mapping[str, Any], key: str) -> list[int]:
        raw = action.get(key, _NO_DICE)
        if raw is _NO_DICE:
            return raw
        # Distinct indexes 0-4 look up at once; bools hash like 0 and 1, so types are asked.
        if type(raw) is list and tuple(raw) in _INDEX_LISTS and set(map(type, raw)) <= _INT:
            return raw
        if type(raw) is not list or len(raw) > DICE:
            raise IllegalMove(f"'{key}' must be a list of dice indexes (0 to 4)")
        for d in raw:
            if type(d) is not int or not 0 <= d < DICE:
                raise IllegalMove(f"'{key}' holds {_shown(d)}, not a dice index (0 to 4)")
        if len(set(raw)) != len(raw):
            raise IllegalMove(f"'{key}' names a die twice")
        return raw

    def _throw_lists(self, action: Mapping[str, Any]) -> tuple[list[int], list[int], list[int]]:
        """A throw's ``throw``, ``hide`` and ``cover`` lists, each of distinct dice indexes
        (an absent key: an empty list); IllegalMove with the reason when one is not."""
        get = action.get
        dice_idx, hide, cover = get("throw"), get("hide", _NO_DICE), get("cover", _NO_DICE)
        # The common, well-formed case checked at once (see _indexes); else its messages.
        lists = _INDEX_LISTS
        if (
            type(dice_idx) is list
            and tuple(dice_idx) in lists
            and set(map(type, dice_idx)) <= _INT
            and (
                hide is _NO_DICE
                or (type(hide) is list and tuple(hide) in lists and set(map(type, hide)) <= _INT)
            )
            and (
                cover is _NO_DICE
                or (type(cover) is list and tuple(cover) in lists and set(map(type, cover)) <= _INT)
            )
        ):
            return dice_idx, hide, cover
        return (
            self._indexes(action, "throw"),
            self._indexes(action, "hide"),
            self._indexes(action, "cover"),
        )

    def _throw(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        dice_idx, hide, cover = self._throw_lists(action)
        self._check_throw(dice_idx, hide, cover)
        phase, contest, n, values, thrown = self.phase, self.contest, self.n, self.dice, self.thrown
        known, known_by, everyone = self.known, self.known_by, self.everyone
        seen = self.all_seen  # the row of the dice every seat has seen, shared by them
        for d in cover:
            self.hidden[d] = True  # its value was public and stays known to all ("seen")
            known[d] = seen
            known_by[d] = everyone
        self.throws += 1
        if contest is not None:
            self.phase = CONTEST
            # Ruling 6: contest throws land uncovered; the variant hides throws 4 and 5.
            hide = list(dice_idx) if (self.contest_next and self.throws > 3) else []
        elif phase == RECEIVE:
            self.phase = TURN
        up: list[int | None] = []
        roll = self.roll
        if type(roll) is SeededDice:  # the game's own dice drawn here: two calls less
            draw, got = roll.random, []
            for _ in dice_idx:
                got.append(int(draw() * 6) + 1)
        else:
            got = roll(seat, dice_idx)
        landed: list[int | None] = [None] * DICE
        for d, value in zip(dice_idx, got, strict=True):
            landed[d] = value
            values[d] = value
            thrown[d] = True
            if d in hide:
                self.hidden[d] = True
                row = [UNKNOWN] * n
                row[seat] = THREW
                known[d] = row
                known_by[d] = [seat]
                up.append(None)
            else:
                self.hidden[d] = False
                known[d] = seen
                known_by[d] = everyone
                up.append(value)
        self.throw_log.append({"seat": seat, "values": landed})
        dice_list, hide_list = list(dice_idx), list(hide)
        public = {"seat": seat, "dice": dice_list, "hide": hide_list, "up": up}
        entry = {"type": "throw", "seat": seat, "dice": dice_list, "hide": hide_list, "up": up}
        if cover:
            public["cover"] = entry["cover"] = list(cover)
        if contest is not None:
            public["contest"] = entry["contest"] = self.throws
        self.history.append(entry)  # sharing the event's lists (neither is ever changed)
        event: Event = {"type": "throw", "public": public}
        if hide:
            event["private"] = {str(seat): {"values": got}}
        events = [event]
        if contest is not None:
            events += self._contest_check(seat)
        return events

    def _check_throw(self, dice_idx: list[int], hide: list[int], cover: list[int]) -> None:
        """The rules a throw's well-formed dice lists must meet in the current phase."""
        if not dice_idx:
            raise IllegalMove("'throw' must name at least one die")
        for d in hide:
            if d not in dice_idx:
                raise IllegalMove(f"die {d} is in 'hide' but not thrown")
        contest = self.contest
        if self.phase == START:
            if cover:
                raise IllegalMove("the starter has no dice on the table to cover")
            for d in dice_idx:
                if self.dice[d] != 0:
                    raise IllegalMove(f"die {d} has already been thrown this turn")
        elif contest is not None:
            if hide or cover:
                raise IllegalMove("contest throws land where the rules say: no 'hide' or 'cover'")
            if self.throws == 0 and len(dice_idx) != DICE:
                raise IllegalMove("a contest starts with a throw of all five dice")
            if self.throws >= contest[1]:
                raise IllegalMove("the contest's throws are used up: announce")
        else:
            if self.throws == 0 and cover:
                for d in cover:
                    if self.hidden[d]:
                        raise IllegalMove(f"die {d} is already under the cup")
                    if d in dice_idx:
                        raise IllegalMove(f"die {d} cannot be covered and thrown at once")
            elif cover:
                raise IllegalMove("dice may be covered only before the turn's first throw")
            hidden = self.hidden
            for d in dice_idx:
                if self.thrown[d]:
                    raise IllegalMove(f"die {d} has already been thrown this turn")
                if hidden[d] and not self.looked and d not in cover:
                    raise IllegalMove(
                        f"die {d} is under the cup: look before taking it out to throw it"
                    )
            if self.throws > 0:
                # The seed: uncovered dice may be hidden only before the turn's first throw;
                # after it, a die lying on the mat stays uncovered when thrown again.
                for d in hide:
                    if not hidden[d]:
                        raise IllegalMove(
                            f"die {d} lies uncovered: after the turn's first throw it cannot "
                            "go under the cup"
                        )

    def _contest_check(self, seat: int) -> list[Event]:
        kind, limit = self.contest  # type: ignore[misc]
        if kind == "equal":
            if self.dice == [6, 6, 6, 6, 6]:
                return self._end_round(None, "contest_won", seat)
            if self.throws >= limit:
                return self._end_round(seat, "contest_lost", seat)
        return []

    def parse_announcement(self, raw: Any) -> tuple[tuple[int, ...], bool]:
        """The canonical hand an announcement names, and whether it was "better"."""
        if type(raw) is list:
            # Five values 1-6 look their hand up; bools hash like 0 and 1, so types are asked.
            hand = _CANONICAL.get(tuple(raw))
            if hand is None or set(map(type, raw)) != _INT:
                raise IllegalMove("an announced hand is five dice values from 1 to 6")
            return hand, False
        if type(raw) is str:
            if len(raw) > 60:
                raise IllegalMove("that short form is too long")
            if raw.strip().lower() == "better":
                if not self.better:
                    raise IllegalMove("'better' announcements are off in this match")
                if self.phase == START:
                    raise IllegalMove("only a receiver may announce 'better'")
                lowest = self.minimum()
                if lowest is None:
                    raise IllegalMove("there is no higher hand to announce")
                return lowest, True
            try:
                return parse_short(raw, self.order), False
            except ShortFormError as exc:
                raise IllegalMove(str(exc)) from None
        raise IllegalMove("'announce' is a list of five dice or a short form string")

    def _announce(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        hand, better = self.parse_announcement(action["announce"])
        order = self.order
        rank = order.rank_of[hand]  # type: ignore[index]
        category = order.category[rank]
        throws: int | None = None
        direction = action.get("direction")
        if self.phase == START:
            if 0 in self.dice:
                raise IllegalMove("throw all five dice before announcing")
            if direction is not None:
                if direction not in (1, -1) or type(direction) is not int:
                    raise IllegalMove("'direction' is 1 (to the next seat up) or -1")
                self.direction = direction
                self.round_dirs = direction
        else:
            if direction is not None:
                raise IllegalMove("only the round's starter chooses the direction")
            throws = self._check_raise(rank, category)
        if throws is None and self.contest_next and category == FIVE:
            throws = 5
        dice = self.dice[:]
        true = order.rank_by_dice[tuple(dice)] >= rank
        receiver = self.next_live(seat, self.direction)
        entry: dict[str, Any] = {"seat": seat, "hand": list(hand), "dice": dice, "true": true}
        if throws is not None:
            entry["throws"] = throws
        self.chain.append(entry)
        public: dict[str, Any] = {
            "seat": seat,
            "hand": list(hand),
            "category": CATEGORIES[category],
            "to": receiver,
            "direction": self.direction,
        }
        if throws is not None:
            public["throws"] = throws
        if better:
            public["better"] = True
        # The history shares the event's lists: neither is ever changed, nor given to a bot
        # (observations copy the history).
        self.history.append({"type": "announce", **public})
        events: list[Event] = [{"type": "announce", "public": public}]
        if self.no_lying and self.round == 1 and not true:
            return events + self._lie(seat, hand, dice)
        self.received = (hand, rank, throws)
        self.bettor = seat
        self.holder = receiver
        self.phase = RECEIVE
        self.contest = None
        if category == FIVE:
            if hand == FIVE_SIXES:
                self.contest = ("equal", throws or 5)
            elif self.contest_next:
                self.contest = ("beat", 5)
        self.looked = False  # the next turn (_new_turn, written out)
        self.thrown = [False] * DICE
        self.throws = 0
        return events

    def _lie(self, seat: int, hand: tuple[int, ...], dice: list[int]) -> list[Event]:
        """The no-lying variant: a lie in the game's first round costs the liar a life."""
        event: Event = {
            "type": "lie",
            "public": {
                "seat": seat,
                "hand": list(hand),
                "dice": dice,
                "dice_hand": list(_CANONICAL[tuple(dice)]),
            },
        }
        self.bettor = seat  # the round's last announcer is the liar
        return [event, *self._end_round(seat, "lie", seat)]

    def _check_raise(self, rank: int, category: int) -> int | None:
        """A receiver's announcement checked against the one received; returns its throws
        (a contest's, or 5 for a five of a kind in the straight-contest variant)."""
        received = self.received
        assert received is not None
        throws: int | None = None
        contest = self.contest
        if contest is not None:
            if contest[0] == "equal":
                raise IllegalMove("no hand beats five 6s: refuse it or throw all five dice")
            if self.throws == 0:
                raise IllegalMove("a contest starts with a throw of all five dice")
            if category != FIVE:
                raise IllegalMove("a contest ends with a five of a kind announced")
            throws = self.throws
        elif self.looked and self.throws == 0:
            raise IllegalMove("you looked under the cup: throw at least one die first")
        if category == NOTHING:
            raise IllegalMove("only the round's starter may announce 'nothing'")
        if throws is None and self.contest_next and category == FIVE:
            throws = 5
        # self.key() written out: it runs on every announcement.
        mine = (rank, 5 - throws) if throws is not None else (rank, 0)
        theirs = (received[1], 5 - received[2]) if received[2] is not None else (received[1], 0)
        if mine <= theirs:
            raise IllegalMove("the announcement must be higher than the one received")
        return throws

    # --- absent players and faults ----------------------------------------------------------
    def default_action(self, seat: int) -> dict[str, Any]:
        """The absent player's move: accept without looking and announce the next higher hand
        (ruling 1); mid-turn, the least move that keeps the turn legal (see the docs)."""
        phase = self.phase
        if phase == START:
            unthrown = [d for d in range(DICE) if self.dice[d] == 0]
            if unthrown:
                return {"throw": unthrown}
            return {"announce": list(canonical(self.dice))}
        contest = self.contest
        if contest is not None:
            if phase == RECEIVE or self.throws == 0:
                return {"throw": list(range(DICE))}
            if contest[0] == "equal":
                return {"throw": [d for d in range(DICE) if self.dice[d] != 6]}
            counts = [0] * 7
            for v in self.dice:
                counts[v] += 1
            best = max(range(1, 7), key=lambda v: (counts[v], v))
            hand = self.minimum()
            if counts[best] == DICE and hand is not None and best >= hand[0]:
                return {"announce": [best] * DICE}
            if self.throws < contest[1]:
                again = [d for d in range(DICE) if self.dice[d] != best]
                return {"throw": again or list(range(DICE))}
            return {"announce": list(hand)}  # type: ignore[arg-type]
        if self.looked and self.throws == 0:
            first = next(d for d in range(DICE) if not self.thrown[d])
            return {"throw": [first], "hide": [first]}
        return {"announce": list(self.minimum())}  # type: ignore[arg-type]

    def eliminate(self, seat: int) -> bool:
        """A seat out for a fault (a crash, a third late move): out at once, placed last;
        the round in progress is void and the next live seat starts a new one (ruling 8)."""
        if self.faulted[seat]:
            return self.n > 2
        self.faulted[seat] = True
        self.out[seat] = True
        self.lives[seat] = 0
        if self.n == 2:
            self.over = True
            return False
        live = self.live_seats()
        if len(live) <= 1 or self.stop_first:
            self.over = True
            self.phase = ""
            return True
        if self.steps == 0 and self.round == 1:
            # Before the first move: nothing to void; a new starter if it was this seat.
            if seat == self.starter:
                self.round = 0
                self._begin_round(self.next_live(seat, self.direction))
            return True
        events = self._end_round(None, "void", self.next_live(seat, self.direction), seat)
        self.pending.extend(events)
        return True
