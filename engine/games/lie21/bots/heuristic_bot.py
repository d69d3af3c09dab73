"""heuristic: counts cards, reads The Liar, bluffs, and protects its scoring cards.

How it plays:

* It tracks every card it has seen (its hand, face-up cards, challenged hands, its own
  forfeited cards, the turned-up trump) to know which cards are still unseen, and where the
  trump card went once the deck ran out.
* As The Judge it estimates The Liar's hidden sum: it deals The Liar's other cards at random
  from the unseen cards many times and lets The Liar pick its move, part of the time
  greedily (close to 21) and part of the time at random, in the proportion the opponent has
  shown in the challenged hands so far. It challenges with the move that has the best
  expected points when that beats forfeiting, and otherwise forfeits its cheapest cards.
* As The Liar it samples the Judge's hand the same way, plays a strong move when one wins
  often enough to be worth its points, and otherwise bluffs: it plays its cheapest cards
  and shows its highest-count card, hoping the Judge forfeits.

Like every bot it is a single file using only the standard library, so the counting rules
are written out here rather than imported from the engine.
"""

import random
from itertools import combinations

RANKS = "A234567JQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS] + ["XR", "XB"]
COUNT = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 10, "J": 8, "Q": 7, "K": 9, "X": 0}
SCORE = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
SAMPLES = 48

_rng = random.Random(0)
_counted = {}  # (*cards, trump) -> counts(cards, trump), for the decision under way


def on_match_start(info):
    global _rng
    _rng = random.Random(info["seed"])


# --- the counting rules ---------------------------------------------------------------
def points(cards):
    return sum(SCORE.get(c[0], 0) for c in cards)


def counts(cards, trump):
    """Each card's count; Aces are 11 while the sum allows, the trump Ace first.

    A decision compares every candidate move with each of its 48 sampled moves, the same
    few dozen hands over and over: each hand is counted once per decision (``act`` empties
    the memo). The values are read, never changed, by the callers.
    """
    key = (*cards, trump)
    known = _counted.get(key)
    if known is None:
        known = _counted[key] = _count(cards, trump)
    return known


def _count(cards, trump):
    values = [COUNT[c[0]] for c in cards]
    total = sum(values)
    aces = [i for i, c in enumerate(cards) if c[0] == "A"]
    aces.sort(key=lambda i: cards[i][1] != trump)
    for i in aces:
        if total + 10 <= 21:
            values[i] = 11
            total += 10
    return values, total


def liar_wins(liar, judge, trump):
    """Whether The Liar's three cards beat the Judge's in a challenge."""
    liar_counts, a = counts(liar, trump)
    judge_counts, b = counts(judge, trump)
    if (a > 21) != (b > 21):
        return b > 21
    if a <= 21 and a != b:
        return a > b
    lt = [n for c, n in zip(liar, liar_counts, strict=True) if trump and c[1] == trump]
    jt = [n for c, n in zip(judge, judge_counts, strict=True) if trump and c[1] == trump]
    if len(lt) != len(jt):
        return len(lt) > len(jt)
    if lt:
        return max(lt) > max(jt)
    return True


def strength(cards, trump):
    _, total = counts(cards, trump)
    trumps = sum(1 for c in cards if trump and c[1] == trump)
    return (total <= 21, total if total <= 21 else -total, trumps)


# --- what is known ----------------------------------------------------------------------
def unseen_cards(obs):
    """Cards this player has not seen, and cards known to be in the opponent's hand."""
    seen = set(obs["hand"])
    for hand in obs["history"]:
        seen.add(hand["face_up"])
        for key in ("liar_cards", "judge_cards"):
            if hand[key]:
                seen.update(hand[key])
    if obs["face_up"]:
        seen.add(obs["face_up"])
    trump_card = obs["trump_card"]
    known_opponent = []
    if trump_card not in seen:
        if obs["deck_count"] == 0:
            known_opponent.append(trump_card)  # the loser of hand 5 drew it: not us
        seen.add(trump_card)
    return [c for c in DECK if c not in seen], known_opponent


def greedy_share(obs):
    """How often the opponent's revealed lies were strong (close to 21): 0.2 .. 0.9."""
    me = obs["seat"]
    strong = total = 0
    for hand in obs["history"]:
        if hand["challenge"] and hand["liar"] != me:
            total += 1
            strong += 17 <= hand["liar_sum"] <= 21
    return min(0.9, max(0.2, (strong + 1) / (total + 2)))


# --- decisions --------------------------------------------------------------------------
def act(obs):
    _counted.clear()
    return lie(obs) if obs["role"] == "liar" else judge(obs)


def judge(obs):
    hand, trump, up = obs["hand"], obs["trump_suit"], obs["face_up"]
    pool, known = unseen_cards(obs)
    others = max(0, obs["opponent_hand_count"] + 2 - len(known))  # The Liar's other cards
    share = greedy_share(obs)
    liar_moves = []
    for _ in range(SAMPLES):
        rest = known + _rng.sample(pool, min(others, len(pool)))
        if _rng.random() < share:
            pair = max(combinations(rest, 2), key=lambda p: strength((up, *p), trump))
        else:
            pair = _rng.sample(rest, 2) if len(rest) >= 2 else rest
        liar_moves.append((up, *pair))
    liar_points = sum(points(m) for m in liar_moves) / len(liar_moves)
    best_value, best_move = None, None
    for move in combinations(hand, 3):
        wins = sum(not liar_wins(liar, move, trump) for liar in liar_moves) / len(liar_moves)
        pot = points(move) + liar_points
        value = (2 * wins - 1) * pot - 0.5 * trump_cost(move, trump)
        if best_value is None or value > best_value:
            best_value, best_move = value, move
    cheap = cheapest(hand, trump)
    forfeit_value = -(points(cheap) + liar_points)
    if best_value is not None and best_value > forfeit_value:
        return {"cards": list(best_move), "challenge": True}
    return {"cards": cheap, "challenge": False}


def lie(obs):
    hand, trump = obs["hand"], obs["trump_suit"]
    pool, known = unseen_cards(obs)
    size = obs["opponent_hand_count"]
    judge_moves = []
    for _ in range(SAMPLES):
        cards = known + _rng.sample(pool, min(max(0, size - len(known)), len(pool)))
        if len(cards) >= 3:
            judge_moves.append(max(combinations(cards, 3), key=lambda m: strength(m, trump)))
    if not judge_moves:
        return bluff(hand, trump)
    judge_points = sum(points(m) for m in judge_moves) / len(judge_moves)
    best_value, best_move = None, None
    for move in combinations(hand, 3):
        wins = sum(liar_wins(move, j, trump) for j in judge_moves) / len(judge_moves)
        value = (2 * wins - 1) * (points(move) + judge_points) - 0.5 * trump_cost(move, trump)
        if best_value is None or value > best_value:
            best_value, best_move = value, move
    bluff_move = bluff(hand, trump)
    # A bluff loses its (cheap) cards when called; a strong move must win often to pay.
    bluff_value = -0.6 * (points(bluff_move["cards"]) + judge_points) + 0.4 * judge_points
    if best_value is not None and best_value >= bluff_value:
        low = min(range(3), key=lambda i: COUNT[best_move[i][0]])
        return {"cards": list(best_move), "face_up": low}  # strong: invite a challenge
    return bluff_move


def bluff(hand, trump):
    cards = cheapest(hand, trump)
    high = max(range(3), key=lambda i: COUNT[cards[i][0]])
    return {"cards": cards, "face_up": high}  # weak: show strength, hope for a forfeit


def cheapest(hand, trump):
    """The three cards worth least to keep: no points, no trumps, low counts first."""
    key = lambda c: (SCORE.get(c[0], 0), bool(trump) and c[1] == trump, COUNT[c[0]])  # noqa: E731
    return sorted(hand, key=key)[:3]


def trump_cost(move, trump):
    """Trumps win ties later; spending them has a small price."""
    return sum(1 for c in move if trump and c[1] == trump)
