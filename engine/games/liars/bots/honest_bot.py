"""honest: announces what it has, and calls "liar" when an announcement is unlikely.

It looks under the cup whenever some dice are unknown to it, rethrows (uncovered: it has
nothing to hide) the dice that give it the best chance of beating the lowest legal hand, and
announces its real hand when that is high enough, else the lowest legal hand (a forced lie).
It refuses an announcement whose chance, given the dice it can see and uniform odds for the
rest, is under 35%. Standard library only, like every bot.
"""

import itertools
import math
import random

_rng = random.Random(0)  # replaced by the seat's own seed at match start


def on_match_start(info: dict) -> None:
    global _rng
    _rng = random.Random(info["seed"])


# --- hands: the docs' canonical form and total order (the bot cannot import the engine) ---


def canonical(dice):
    """Five dice in poker order: groups (larger, then higher) first, singles high to low."""
    counts = [0] * 7
    for value in dice:
        counts[value] += 1
    groups = sorted(((c, v) for v, c in enumerate(counts) if c), reverse=True)
    return tuple(v for c, v in groups for _ in range(c))


def category(hand, straights):
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


class Tables:
    """The order of the 252 hands and, per kept dice, the odds of the hand after rolling
    the rest: ``tail(kept)[r]`` is P(final rank >= r)."""

    def __init__(self, straights):
        hands = {canonical(d) for d in itertools.combinations_with_replacement(range(1, 7), 5)}
        self.hands = sorted(hands, key=lambda h: (category(h, straights), h))
        self.size = len(self.hands)
        self.rank = {h: r for r, h in enumerate(self.hands)}
        self.rank_sorted = {tuple(sorted(h)): r for r, h in enumerate(self.hands)}
        self.category = [category(h, straights) for h in self.hands]
        self.lowest_pair = self.category.index(1)
        self.outcomes = {}
        for m in range(6):
            rows = []
            for combo in itertools.combinations_with_replacement(range(1, 7), m):
                ways = math.factorial(m)
                for v in set(combo):
                    ways //= math.factorial(combo.count(v))
                rows.append((combo, ways / 6**m))
            self.outcomes[m] = rows
        self._tails = {}

    def rank_of(self, dice):
        return self.rank_sorted[tuple(sorted(dice))]

    def tail(self, kept):
        kept = tuple(sorted(kept))
        tail = self._tails.get(kept)
        if tail is None:
            probs = [0.0] * (self.size + 1)
            rank_sorted = self.rank_sorted
            for combo, p in self.outcomes[5 - len(kept)]:
                probs[rank_sorted[tuple(sorted(kept + combo))]] += p
            tail = [0.0] * (self.size + 1)
            for r in range(self.size - 1, -1, -1):
                tail[r] = tail[r + 1] + probs[r]
            self._tails[kept] = tail
        return tail


_TABLES = {}


def tables(observation):
    straights = observation["options"]["straights"]
    if straights not in _TABLES:
        _TABLES[straights] = Tables(straights)
    return _TABLES[straights]


def six_odds(throws):
    """P(five 6s within ``throws`` throws, keeping the 6s; the first throw is all five)."""
    memo = {}

    def p(left, sixes):
        if sixes == 5:
            return 1.0
        if left == 0:
            return 0.0
        key = (left, sixes)
        if key not in memo:
            rest = 5 - sixes
            memo[key] = sum(
                math.comb(rest, j) * (1 / 6) ** j * (5 / 6) ** (rest - j) * p(left - 1, sixes + j)
                for j in range(rest + 1)
            )
        return memo[key]

    return p(throws, 0)


def best_value(values):
    """The value we hold most of (the higher on a tie)."""
    return max(range(1, 7), key=lambda v: (values.count(v), v))


def contest_move(observation):
    """A contest against a five of a kind: throw all five, then keep the most common value;
    announce a five of a kind as soon as it is good enough (the straight-contest variant)."""
    may = observation["may"]
    values = [d["value"] for d in observation["dice"]]
    if observation["throws"] == 0:
        return {"throw": [0, 1, 2, 3, 4]}
    lowest = observation["minimum"]
    if observation["contest"]["kind"] == "equal":
        return {"throw": [d for d in range(5) if values[d] != 6] or [0]}
    best = best_value(values)
    if may["announce"] and values.count(best) == 5 and best >= lowest[0]:
        return {"announce": [best] * 5}
    if may["throw"]:
        return {"throw": [d for d in range(5) if values[d] != best] or [0, 1, 2, 3, 4]}
    return {"announce": lowest}


def keep_options(values, throwable, must_throw):
    """Every way to choose the dice to throw: (dice to throw, values kept)."""
    options = []
    for size in range(0 if not must_throw else 1, len(throwable) + 1):
        for chosen in itertools.combinations(throwable, size):
            kept = tuple(values[d] for d in range(5) if d not in chosen)
            options.append((list(chosen), kept))
    return options


REFUSE_BELOW = 0.35


def act(observation: dict) -> dict:
    t = tables(observation)
    may = observation["may"]
    phase = observation["phase"]
    values = [d["value"] for d in observation["dice"]]
    known = tuple(v for v in values if v is not None)
    received = observation["received"]
    if phase == "receive":
        chance = t.tail(known)[received["rank"]]
        if observation["contest"] is not None and received["hand"] == [6, 6, 6, 6, 6]:
            chance = t.tail(known)[t.size - 1]
        if chance < REFUSE_BELOW:
            return {"refuse": True}
    if observation["contest"] is not None:
        return contest_move(observation)
    if phase == "start":
        if may["throw"]:
            return {"throw": may["throw"]}
        return {"announce": list(canonical(values))}
    if may["look"] and None in values:
        return {"look": True}
    lowest = t.rank[tuple(observation["minimum"])]
    if observation["throws"] == 0 and may["throw"]:
        must = not may["announce"]
        best = None
        for chosen, kept in keep_options(values, may["throw"], must):
            if None in kept:
                continue
            score = (t.tail(kept)[lowest], -len(chosen))
            if best is None or score > best[0]:
                best = (score, chosen)
        if best is not None and best[1]:
            return {"throw": best[1]}
    if None not in values and t.rank_of(values) >= lowest:
        return {"announce": list(canonical(values))}
    return {"announce": observation["minimum"]}
