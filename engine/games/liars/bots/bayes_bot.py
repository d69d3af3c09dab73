"""bayes: keeps a belief over the dice it cannot see and plays by expected lives.

* **Belief.** Dice it has not seen are uniform a priori; the announcement received reweighs
  them: dice that make it true keep their weight, dice that make it a lie get the bettor's
  bluff odds, learnt from the refused announcements of this match (dice shown at a refusal
  tell whether that bettor lied). That only applies to dice the bettor knew (``known_by``).
* **Refuse or accept.** Refusing costs a life with the chance the announcement holds.
  Accepting costs about ``c_bluff`` when it cannot make the lowest legal hand and about
  ``c_true`` (the risk of later turns) when it can, the chance of making it computed exactly
  over every way of keeping dice and rolling the rest. It takes the smaller.
* **Throws.** It looks when dice are unknown (unless the announcement is already almost sure
  to hold), then rethrows the dice that maximise the chance of making the lowest legal hand;
  they land under the cup, where only it knows them.
* **Announcements.** For each candidate hand it models the next seat: that seat's chance the
  hand holds, from the dice it can know (``known_by``), turned into a refusal probability;
  the expected loss is P(refuse) x P(the hand is a lie) + P(accept) x ``c_true``.

Every probability is an exact sum over multisets of dice, from cached tables, so a
decision takes a few milliseconds. Standard library only, like every bot.
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


C_BLUFF = 0.55  # chance a bluff that must be made is caught
REFUSE_AT = 0.42  # the next seat's chance at which it refuses half the time
STEEP = 11.0
_bluffs = {}  # seat -> [lies seen at refusals, announcements seen at refusals]
_counted = set()


def c_true(observation):
    """The risk of losing the round later after a sound pass: more seats, less risk."""
    live = sum(1 for out in observation["out"] if not out)
    return 0.7 / max(live, 2)


def learn(observation):
    """Count, per seat, the refused announcements that were lies (dice shown)."""
    game = observation.get("game_number", 1)
    for summary in observation["rounds"]:
        key = (game, summary["round"])
        if key in _counted or summary["reason"] not in ("refused_true", "refused_false"):
            continue
        _counted.add(key)
        tally = _bluffs.setdefault(summary["bettor"], [0, 0])
        tally[0] += summary["reason"] == "refused_false"
        tally[1] += 1


def lie_weight(seat):
    """Likelihood of a lie relative to a true announcement, for this bettor."""
    lies, seen = _bluffs.get(seat, (0, 0))
    rate = (lies + 1.0) / (seen + 3.0)
    return min(3.0, max(0.1, rate / (1.0 - rate)))


def belief(observation, t):
    """[(full dice sorted, weight)] over the dice this seat does not know."""
    dice = observation["dice"]
    known = tuple(d["value"] for d in dice if d["value"] is not None)
    unknown = [d for d in dice if d["value"] is None]
    received = observation["received"]
    weight_lie = 1.0
    if received is not None and unknown:
        bettor = received["from"]
        knew = sum(1 for d in unknown if bettor in d["known_by"])
        if knew:
            weight_lie = lie_weight(bettor) if knew == len(unknown) else 0.6
    rank_sorted = t.rank_sorted
    target = received["rank"] if received is not None else -1
    rows = []
    for combo, p in t.outcomes[len(unknown)]:
        full = tuple(sorted(known + combo))
        holds = rank_sorted[full] >= target
        rows.append((full, p if holds else p * weight_lie))
    total = sum(w for _, w in rows)
    return [(full, w / total) for full, w in rows]


_makes = {}


def make_odds(t, full, lowest, must_throw):
    """Best chance, over which dice to keep, of ending at ``lowest`` or higher."""
    key = (full, lowest, must_throw)
    odds = _makes.get(key)
    if odds is None:
        odds = 0.0
        seen = set()
        for size in range(5 if must_throw else 6):
            for kept in itertools.combinations(full, size):
                if kept in seen:
                    continue
                seen.add(kept)
                odds = max(odds, t.tail(kept)[lowest])
        _makes[key] = odds
    return odds


def refuse_or_accept(observation, t):
    """True to refuse: compare the expected life lost either way."""
    received = observation["received"]
    rows = belief(observation, t)
    rank_sorted = t.rank_sorted
    holds = sum(w for full, w in rows if rank_sorted[full] >= received["rank"])
    contest = observation["contest"]
    if contest is not None:
        if contest["kind"] == "equal":
            holds = sum(w for full, w in rows if full == (6, 6, 6, 6, 6))
            return holds < 1.0 - six_odds(contest["limit"])
        return holds < 0.5
    lowest = t.rank[tuple(observation["minimum"])]
    must = any(d["value"] is None for d in observation["dice"])
    keep = c_true(observation)
    accept = 0.0
    for full, w in rows:
        made = make_odds(t, full, lowest, must)
        accept += w * (made * keep + (1.0 - made) * C_BLUFF)
    return holds < accept


def refusal(q):
    """The next seat's chance of refusing a hand it believes holds with chance q."""
    return 1.0 / (1.0 + math.exp(STEEP * (q - REFUSE_AT)))


def choose_announcement(observation, t):
    """The hand with the least expected loss, modelling the next seat's refusal."""
    dice = observation["dice"]
    nxt = next_seat(observation)
    mine = tuple(d["value"] for d in dice if d["value"] is not None)
    theirs = tuple(
        d["value"]
        for d in dice
        if d["value"] is not None and (not d["hidden"] or nxt in d["known_by"])
    )
    ours = t.tail(mine) if len(mine) < 5 else None
    real = t.rank_of(mine) if len(mine) == 5 else -1
    their_tail = t.tail(theirs)
    lowest = t.rank[tuple(observation["minimum"])]
    keep = c_true(observation)
    best = None
    for r in range(lowest, min(t.size, lowest + 80)):
        if observation["contest"] is not None and t.category[r] != 8:
            continue
        truth = (1.0 if real >= r else 0.0) if ours is None else ours[r]
        refuse = refusal(their_tail[r])
        loss = refuse * (1.0 - truth) + (1.0 - refuse) * keep
        if best is None or loss < best[0] - 1e-9:
            best = (loss, r)
    return list(t.hands[best[1]])


def next_seat(observation):
    seats, out = observation["seats"], observation["out"]
    step = observation["direction"]
    s = observation["seat"]
    for _ in range(seats):
        s = (s + step) % seats
        if not out[s]:
            return s
    return s


def act(observation: dict) -> dict:
    t = tables(observation)
    learn(observation)
    may = observation["may"]
    phase = observation["phase"]
    values = [d["value"] for d in observation["dice"]]
    if phase == "receive" and refuse_or_accept(observation, t):
        return {"refuse": True}
    if observation["contest"] is not None:
        return contest_move(observation)
    if phase == "start":
        if may["throw"]:
            return {"throw": may["throw"], "hide": may["throw"]}
        return {"announce": choose_announcement(observation, t)}
    lowest = t.rank[tuple(observation["minimum"])]
    if may["look"] and None in values:
        rows = belief(observation, t)
        sure = sum(w for full, w in rows if t.rank_sorted[full] >= lowest)
        if sure < 0.9:
            return {"look": True}
    if observation["throws"] == 0 and may["throw"] and None not in values:
        must = not may["announce"]
        best = None
        for chosen, kept in keep_options(values, may["throw"], must):
            score = (t.tail(kept)[lowest], -len(chosen))
            if best is None or score > best[0]:
                best = (score, chosen)
        if best is not None and best[1]:
            return {"throw": best[1], "hide": best[1]}
    return {"announce": choose_announcement(observation, t)}
