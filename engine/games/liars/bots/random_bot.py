"""random: a uniformly random legal decision at every step. The baseline every bot should beat.

Built-in bots are ordinary bot files: they import only the standard library, so they run
unchanged in the sandbox and in the local runner, exactly like an uploaded bot. The
observation's ``may`` and ``minimum`` say what is allowed now, which is all this bot reads.
"""

import itertools
import random

_rng = random.Random(0)  # replaced by the seat's own seed at match start


def on_match_start(info: dict) -> None:
    global _rng
    _rng = random.Random(info["seed"])


def _canonical(dice):
    counts = [0] * 7
    for value in dice:
        counts[value] += 1
    groups = sorted(((c, v) for v, c in enumerate(counts) if c), reverse=True)
    return tuple(v for c, v in groups for _ in range(c))


def _category(hand, straights):
    a, b, c, d, e = hand
    if a == e:
        return 8
    if a == d:
        return 7
    if a == c:
        return 6 if d == e else 3
    if a == b:
        return 2 if c == d else 1
    if straights and a - e == 4:
        return 5 if a == 6 else 4
    return 0


_ORDERS = {}
_PLACES = {}


def _order(straights):
    """Every hand, weakest first (the docs' total order)."""
    if straights not in _ORDERS:
        hands = {_canonical(d) for d in itertools.combinations_with_replacement(range(1, 7), 5)}
        _ORDERS[straights] = sorted(hands, key=lambda h: (_category(h, straights), h))
        _PLACES[straights] = {hand: place for place, hand in enumerate(_ORDERS[straights])}
    return _ORDERS[straights]


def _below(n):
    """A number from 0 to n - 1, drawn as ``_rng.randrange(n)`` draws it (``choice`` and
    ``shuffle`` draw their indexes so), written out: a call less per draw."""
    k = n.bit_length()
    r = _rng.getrandbits(k)
    while r >= n:
        r = _rng.getrandbits(k)
    return r


def _subset(indexes):
    """A random non-empty subset, in random order: the same draws, and so the same dice, as
    ``[...] or [_rng.choice(indexes)]`` then ``_rng.shuffle(chosen)``, written out."""
    draw = _rng.random
    chosen = []
    for d in indexes:  # a loop, not a comprehension: no function call (CPython 3.11)
        if draw() < 0.5:
            chosen.append(d)
    if not chosen:
        chosen = [indexes[_below(len(indexes))]]
    for i in range(len(chosen) - 1, 0, -1):  # random.shuffle's Fisher-Yates
        j = _below(i + 1)
        chosen[i], chosen[j] = chosen[j], chosen[i]
    return chosen


def act(observation: dict) -> dict:
    may = observation["may"]
    draw = _rng.random
    if may["refuse"] and draw() < 0.3:
        return {"refuse": True}
    if may["look"] and draw() < 0.3:
        return {"look": True}
    throwable = may["throw"]
    if throwable and (not may["announce"] or draw() < 0.5):
        contest = observation["contest"]
        if contest is not None and observation["throws"] == 0:
            return {"throw": [0, 1, 2, 3, 4]}
        dice = _subset(throwable)
        action = {"throw": dice}
        may_hide = may["hide"]
        if may_hide:
            hide = action["hide"] = []
            for d in dice:
                if d in may_hide and draw() < 0.5:
                    hide.append(d)
        return action
    lowest = observation["minimum"]
    if observation["contest"] is not None or draw() < 0.5:
        hand = lowest
    else:
        straights = observation["options"]["straights"]
        order = _order(straights)
        start = _PLACES[straights][tuple(lowest)]
        hand = list(order[min(len(order) - 1, start + int(draw() * 12))])
    action = {"announce": list(hand)}
    if observation["phase"] == "start":
        action["direction"] = (1, -1)[_below(2)]  # _rng.choice([1, -1]), written out
    return action
