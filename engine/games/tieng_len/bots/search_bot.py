"""search: deals the cards it cannot see at random, many times, and plays each move out.

How it plays:

* Every card it has not seen is in another seat's hand or out of play (with fewer than
  four seats, or an eliminated seat's). For each decision it deals those cards at random
  into "worlds" consistent with what it saw: each seat gets as many as it holds.
* A short list of candidate moves is drawn from ``legal_actions``: passing (when allowed);
  when following, the lowest plays that beat the table and the highest; when leading, the
  lowest play of every kind and length, and its lowest card in the longest combination.
* In every world it plays each candidate and then the rest of the game out, every seat
  (itself included) following a fast greedy policy: lead the lowest card in the longest
  combination holding it, beat the table as cheaply as possible, bomb only 2s. A rollout
  stops as soon as its own place is known. The candidate with the most game points on
  average (3/2/1/0 at four seats) is played. Every candidate meets the same worlds, so the
  differences between moves are not drowned by the luck of the deal.
* The work is fixed by counts (worlds per candidate, a cap on simulated moves), never by
  the clock, so the bot replays exactly from its seed.

Like every bot it is a single file using only the standard library, so the rules it needs
are written out here rather than imported from the engine.
"""

import random

RANKS = "3456789TJQKA2"
SUITS = "SCDH"
CODES = [r + s for r in RANKS for s in SUITS]
INDEX = {c: i for i, c in enumerate(CODES)}
ACE, TWO = 11, 12
SINGLE, PAIR, TRIPLE, FOUR, SEQUENCE, DSEQ = range(6)
KINDS = {"single": 0, "pair": 1, "triple": 2, "four": 3, "sequence": 4, "double_sequence": 5}

ROLLOUTS = 500  # rollouts per decision, shared among the candidates
MIN_WORLDS = 8  # worlds per candidate at least (fewer candidates get more worlds)
MAX_WORLDS = 100
FOLLOW_LOW = 3  # lowest plays kept as candidates when following
MAX_CANDIDATES = 10

_rng = random.Random(0)


def on_match_start(info):
    global _rng
    _rng = random.Random(info["seed"])


# --- the greedy policy of the rollouts -------------------------------------------------------


def _groups(hand):
    groups = [[], [], [], [], [], [], [], [], [], [], [], [], []]
    for c in hand:
        groups[c >> 2].append(c)
    return groups


def lead(hand):
    """The lowest card, in the longest combination holding it (never a bomb)."""
    low = hand[0]
    rank = low >> 2
    groups = _groups(hand)
    run = 0
    if rank <= ACE:
        while rank + run <= ACE and groups[rank + run]:
            run += 1
    same = len(groups[rank])
    if run >= 4 or (run == 3 and same < 3):
        cards = tuple(groups[r][0] for r in range(rank, rank + run))
        return (SEQUENCE, run, cards[-1], cards)
    if same >= 3:
        cards = tuple(groups[rank][:3])
        return (TRIPLE, 3, cards[-1], cards)
    if same == 2:
        cards = tuple(groups[rank])
        return (PAIR, 2, cards[-1], cards)
    return (SINGLE, 1, low, (low,))


def _set_above(groups, size, top, kind):
    for rank in range(top >> 2, 13):
        cards = groups[rank]
        if len(cards) >= size:
            for j in range(size - 1, len(cards)):
                if cards[j] > top:
                    chosen = (*cards[: size - 1], cards[j])
                    return (kind, size, cards[j], chosen)
    return None


def _run_above(groups, length, top, pairs):
    """The lowest sequence (or double sequence) of ``length`` ranks with a top over ``top``."""
    need = 2 if pairs else 1
    top_rank = top >> 2
    for start in range(max(0, top_rank - length + 1), ACE - length + 2):
        high = start + length - 1
        if any(len(groups[r]) < need for r in range(start, high + 1)):
            continue
        cards = groups[high]
        if high == top_rank:
            j = next((j for j in range(need - 1, len(cards)) if cards[j] > top), None)
            if j is None:
                continue
        else:
            j = need - 1
        chosen = []
        for r in range(start, high):
            chosen.extend(groups[r][:need])
        if pairs:
            chosen.append(cards[0])
        chosen.append(cards[j])
        return (DSEQ if pairs else SEQUENCE, length, cards[j], tuple(chosen))
    return None


def _sequence_above(hand, length, top):
    """The lowest sequence of ``length`` cards with a top over ``top`` (the common case of
    ``_run_above``, found with a bit mask of the ranks held)."""
    mask = 0
    for c in hand:
        mask |= 1 << (c >> 2)
    full = (1 << length) - 1
    top_rank = top >> 2
    for start in range(max(0, top_rank - length + 1), ACE - length + 2):
        if (mask >> start) & full != full:
            continue
        high = start + length - 1
        chosen = []
        wanted = start
        for c in hand:
            rank = c >> 2
            if rank == wanted and (rank < high or rank > top_rank or c > top):
                chosen.append(c)
                if rank == high:
                    return (SEQUENCE, length, c, tuple(chosen))
                wanted += 1
        # (the top rank held no card over the top card: try a higher start)
    return None


def _bomb_over_twos(hand, kind):
    """The lowest bomb beating a play of 2s of ``kind`` (ruling 2), or None."""
    pairs = (3, 4, 5)[kind] if kind <= TRIPLE else 0
    if not pairs:
        return None
    counts = [0] * 13
    for c in hand:
        counts[c >> 2] += 1
    if kind == SINGLE:
        for rank in range(TWO):
            if counts[rank] == 4:
                four = tuple(c for c in hand if c >> 2 == rank)
                return (FOUR, 4, four[-1], four)
    run = 0
    for rank in range(ACE + 1):
        run = run + 1 if counts[rank] >= 2 else 0
        if run == pairs:
            return _run_above(_groups(hand), pairs, -1, True)
    return None


def follow(hand, current):
    """The cheapest play beating ``current``, bombs only on 2s; None to pass."""
    kind, length, top = current[0], current[1], current[2]
    if kind == SINGLE:
        for c in hand:
            if c > top:
                return (SINGLE, 1, c, (c,))
        if top >> 2 == TWO:
            return _bomb_over_twos(hand, SINGLE)
        return None
    if kind == SEQUENCE:
        return _sequence_above(hand, length, top)
    if kind in (DSEQ, FOUR):
        return None  # a bomb on the table: greedy keeps its own
    groups = _groups(hand)
    play = _set_above(groups, length, top, kind)
    if play is None and top >> 2 == TWO:
        return _bomb_over_twos(hand, kind)
    return play


# --- a game in a world ---------------------------------------------------------------------


def rollout(hands, holding, passed, current, current_by, turn, finished, me):
    """Play greedily from this position until ``me``'s place is known; its rank (0 = first)."""
    n = len(hands)
    while True:
        hand = hands[turn]
        play = lead(hand) if current is None else follow(hand, current)
        seat = turn
        if play is None:
            passed[seat] = True
        else:
            for c in play[3]:
                hand.remove(c)
            current, current_by = play, seat
            if not hand:
                holding[seat] = False
                finished.append(seat)
                if seat == me:
                    return len(finished) - 1
                if sum(holding) <= 1:
                    return len(finished)  # me alone holds cards: last
        for k in range(1, n):
            other = (seat + k) % n
            if holding[other] and not passed[other] and other != current_by:
                turn = other
                break
        else:
            leader = current_by
            while not holding[leader]:
                leader = (leader + 1) % n
            turn, current, current_by = leader, None, None
            passed = [False] * n


def classify(cards):
    """(kind, length, top, cards) of sorted card numbers known to form a combination."""
    n = len(cards)
    low, top = cards[0] >> 2, cards[-1] >> 2
    if low == top:
        return ((SINGLE, PAIR, TRIPLE, FOUR)[n - 1], n, cards[-1], tuple(cards))
    if top - low == n - 1:
        return (SEQUENCE, n, cards[-1], tuple(cards))
    return (DSEQ, n // 2, cards[-1], tuple(cards))


def candidates(observation, plays, hand):
    """A short list of moves worth playing out (None stands for a pass)."""
    chosen = []
    if observation["to_beat"] is not None:
        chosen.append(None)
        low = plays[:FOLLOW_LOW]
        chosen.extend(low)
        if plays and plays[-1] not in low:
            chosen.append(plays[-1])
        return chosen
    seen = set()
    for play in plays:  # the lowest play of every kind and length
        key = (play[0], play[1])
        if key not in seen:
            seen.add(key)
            chosen.append(play)
    holding_low = [p for p in plays if hand[0] in p[3] and p[0] not in (FOUR, DSEQ)]
    if holding_low:
        longest = max(holding_low, key=lambda p: p[1] * (2 if p[0] == DSEQ else 1))
        if longest not in chosen:
            chosen.append(longest)
    if len(chosen) > MAX_CANDIDATES:  # keep the shortest plays and the longest of the lowest
        chosen = [*chosen[: MAX_CANDIDATES - 1], chosen[-1]]
    return chosen


def act(observation):
    actions = observation["legal_actions"]
    if len(actions) == 1:
        return actions[0]
    me = observation["seat"]
    n = observation["seats"]
    hand = sorted(INDEX[c] for c in observation["hand"])
    plays = [classify(sorted(INDEX[c] for c in a["cards"])) for a in actions if "cards" in a]
    moves = candidates(observation, plays, hand)
    if len(moves) == 1:
        return _action(moves[0])
    counts = observation["card_counts"]
    seen = set(hand)
    seen.update(INDEX[c] for c in observation["played"])
    unseen = [c for c in range(52) if c not in seen]
    others = [s for s in range(n) if s != me and counts[s] > 0]
    to_beat = observation["to_beat"]
    current = None
    current_by = None
    if to_beat is not None:
        current = (KINDS[to_beat["kind"]], to_beat["length"], INDEX[to_beat["top"]], ())
        current_by = to_beat["seat"]
    passed0 = [False] * n
    for s in observation["passed"]:
        passed0[s] = True
    finished0 = list(observation["out"])
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, ROLLOUTS // len(moves)))
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        _rng.shuffle(unseen)
        dealt = [[] for _ in range(n)]
        at = 0
        for s in others:
            dealt[s] = sorted(unseen[at : at + counts[s]])
            at += counts[s]
        dealt[me] = hand
        start = (passed0, finished0, current, current_by)
        for index, move in enumerate(moves):
            totals[index] += _score(move, me, dealt, start, n)
    best = max(range(len(moves)), key=lambda i: totals[i])
    return _action(moves[best])


def _score(move, me, dealt, start, n):
    """How many seats ``me`` beats when it makes ``move`` in one dealt world and the game
    is played out (``start``: who has passed, who is out, the play to beat and its seat)."""
    passed0, finished0, current, current_by = start
    hands = [h[:] for h in dealt]
    holding = [len(h) > 0 for h in hands]
    passed = passed0[:]
    finished = finished0[:]
    cur, by = current, current_by
    if move is None:
        passed[me] = True
    else:
        mine = hands[me]
        for c in move[3]:
            mine.remove(c)
        cur, by = move, me
        if not mine:
            return n - 1 - len(finished)
    turn = _next(me, hands, holding, passed, by, n)
    if turn is None:  # everyone else passed: the trick's last player leads
        leader = by
        while not holding[leader]:
            leader = (leader + 1) % n
        turn, cur, by, passed = leader, None, None, [False] * n
    rank = rollout(hands, holding, passed, cur, by, turn, finished, me)
    return n - 1 - rank


def _next(seat, hands, holding, passed, current_by, n):
    for k in range(1, n):
        other = (seat + k) % n
        if holding[other] and not passed[other] and other != current_by:
            return other
    return None


def _action(move):
    if move is None:
        return {"pass": True}
    return {"cards": [CODES[c] for c in move[3]]}
