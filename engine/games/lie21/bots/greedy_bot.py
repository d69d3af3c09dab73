"""greedy: plays its best own sum and judges naively.

As The Liar it plays the three cards whose sum is closest to 21 without going over, and
shows its highest-count card. As The Judge it ignores The Liar's face-up card: it
challenges with its best three cards when their sum is 18 or more, and otherwise forfeits
its three least valuable cards. A fair opponent to measure a real strategy against.

A bot file imports only the standard library, so the few counting rules it needs are
written out here rather than imported from the engine (which a sandboxed bot cannot see).
"""

from itertools import combinations

COUNT = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 10, "J": 8, "Q": 7, "K": 9, "X": 0}
SCORE = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
CHALLENGE_AT = 18


def total(cards):
    """The move's sum: Aces count 11 while the sum stays at or under 21, else 1."""
    value = sum(COUNT[c[0]] for c in cards)
    for c in cards:
        if c[0] == "A" and value + 10 <= 21:
            value += 10
    return value


def strength(cards, trump):
    """Sort key for a move: sums at or under 21 by closeness, then trumps; busts last."""
    value = total(cards)
    trumps = sum(1 for c in cards if trump and c[1] == trump)
    return (value <= 21, value if value <= 21 else -value, trumps)


def act(observation):
    hand = observation["hand"]
    trump = observation["trump_suit"]
    best = max(combinations(hand, 3), key=lambda cards: strength(cards, trump))
    if observation["role"] == "liar":
        show = max(range(3), key=lambda i: COUNT[best[i][0]])
        return {"cards": list(best), "face_up": show}
    if total(best) <= 21 and total(best) >= CHALLENGE_AT:
        return {"cards": list(best), "challenge": True}
    cheapest = sorted(hand, key=lambda c: (SCORE.get(c[0], 0), trump is not None and c[1] == trump))
    return {"cards": cheapest[:3], "challenge": False}
