"""search: deals the cards it cannot see at random, many times, and plays each move out.

How it plays:

* Every card it has not seen is somewhere: in the opponent's hand, in the deck, or among
  the face-down cards of forfeited hands (which still count for whoever won them). For each
  decision it deals those cards at random into 60 to 180 "worlds" consistent with all it
  saw: the turned-up trump card stays the last card of the deck, and once the deck is empty
  an unseen trump card can only be the opponent's (the loser of hand 5 drew it, not us).
* In every world it settles the current hand with each candidate move and plays the rest
  of the game out with a fast policy for both sides: lie with the best sum when it is
  strong, else with the cheapest cards; challenge with a strong best sum, else forfeit the
  cheapest cards. The policy never looks at the other side's hidden cards. It plays the
  move with the best average outcome. Every move is played out in the same worlds, so the
  differences between moves are not drowned by the luck of the deal.
* An outcome is worth the match points the game gives each side (61, 90, and 120, which
  ends the match), no more than the side still needs, plus a little per game point so that
  close calls lean towards more points.
* Playing out is the slow part, so a quick screen on the current hand alone picks the six
  moves worth it (and the cheapest bluff or forfeit is always among them).
* It reads the opponent. At the end of a game every card is shown, so it works out the
  opponent's hand before each of its moves and counts how it lies (its best sum, its
  cheapest cards, or anything; showing its lowest card, its highest, or any) and how often
  it challenged with each best sum. As The Judge, a world deals The Liar's whole hand and
  counts as often as The Liar, lying its ways, would have shown the card it showed: the
  same face-up King means a strong hand from one opponent and a bluff from another. As The
  Liar, the Judge of a world challenges as often as the opponent did with that world's
  best sum.
* The numbers of worlds are fixed (fewer when more hands remain to be played out), never
  set by the clock, so a decision takes at most about 0.1 s of CPU and the bot replays
  exactly from its seed.

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
BASE = {c: COUNT[c[0]] for c in DECK}  # each card's count with Aces as 1
POINTS = {c: SCORE.get(c[0], 0) for c in DECK}
HANDS = 7

STRONG = 17  # the rollout Liar plays its best sum from here, else bluffs
CALL = 19  # the rollout Judge challenges with its best sum from here, else forfeits
KEEP = 6  # moves played out after the quick one-hand screen
SAMPLES = {7: 180, 6: 180, 5: 144, 4: 120, 3: 96, 2: 72, 1: 60}  # worlds by hands left to play
CANDIDATES = 4  # deals tried for each world kept, when reading The Liar
POINT_VALUE = 0.5  # value of the whole 120 game points next to one match point

# What it expects of an unknown opponent, as if it had seen a few of its moves already.
# The Liar's ways: which three cards (its best sum, its cheapest, any) and which one it
# shows (the lowest count, the highest, any); the Judge's challenges by its best sum.
LIE_PRIOR = {
    ("best", "low"): 1.0,
    ("best", "high"): 0.5,
    ("best", "any"): 0.5,
    ("cheap", "high"): 1.0,
    ("cheap", "low"): 0.2,
    ("cheap", "any"): 0.2,
    ("any", "any"): 1.0,
}
CALL_PRIOR = {16: 0.1, 17: 0.2, 18: 0.4, 19: 0.6, 20: 0.8, 21: 0.9}  # with the weight of 2

_rng = random.Random(0)
_rules = {"target": 4, "win_above": 60, "double_at": 90, "sweep_at": 120}
_seat = 0
_lies = dict(LIE_PRIOR)
_calls = {best: [2 * rate, 2.0] for best, rate in CALL_PRIOR.items()}  # [challenges, seen]
_plans = {}  # the rollout policy's choices by hand, for the decision being made


def on_match_start(info):
    global _rng, _seat, _lies, _calls
    _rng = random.Random(info["seed"])
    _seat = info["seat"]
    _rules.update({k: v for k, v in (info.get("options") or {}).items() if k in _rules})
    _lies = dict(LIE_PRIOR)
    _calls = {best: [2 * rate, 2.0] for best, rate in CALL_PRIOR.items()}


def on_game_end(result):
    """Every card of the game is shown now: learn how the opponent lies and judges."""
    trump = result["trump_suit"]
    cheap = cheap_order(trump)
    for record, hand in zip(result["hands"], opponent_hands(result), strict=True):
        if record["liar"] != _seat:
            cards = record["liar_cards"]
            way = lie_way(hand, cards, cards[record["face_up"]], trump, cheap)
            _lies[way] = _lies.get(way, 0.0) + 1
        else:
            seen = _calls[call_bucket(best_move(hand, trump)[0])]
            seen[0] += record["challenge"]
            seen[1] += 1


# --- the counting rules ---------------------------------------------------------------
def total(cards):
    """A move's sum: one Ace counts 11 when that keeps the sum at or under 21."""
    a, b, c = cards
    value = BASE[a] + BASE[b] + BASE[c]
    if value <= 11 and (a[0] == "A" or b[0] == "A" or c[0] == "A"):
        value += 10
    return value


def points(cards):
    a, b, c = cards
    return POINTS[a] + POINTS[b] + POINTS[c]


def liar_wins(liar, judge, trump):
    """Whether The Liar's three cards beat the Judge's in a challenge."""
    a, b = total(liar), total(judge)
    if (a > 21) != (b > 21):
        return b > 21
    if a <= 21 and a != b:
        return a > b
    liar_trumps = [c for c in liar if c[1] == trump]
    judge_trumps = [c for c in judge if c[1] == trump]
    if len(liar_trumps) != len(judge_trumps):
        return len(liar_trumps) > len(judge_trumps)
    if liar_trumps:
        return top_trump(liar, liar_trumps, a) > top_trump(judge, judge_trumps, b)
    return True


def top_trump(cards, trumps, value):
    """The highest count among a move's trumps. When the move's sum counts an Ace as 11,
    that is the trump Ace if the move holds it."""
    soft = value != BASE[cards[0]] + BASE[cards[1]] + BASE[cards[2]]
    return max(11 if soft and c[0] == "A" else BASE[c] for c in trumps)


def best_move(hand, trump):
    """The three cards closest to 21 without going over (more trumps first), and their sum."""
    best_key, best = -1, None
    for move in combinations(hand, 3):
        a, b, c = move
        value = BASE[a] + BASE[b] + BASE[c]
        if value <= 11 and (a[0] == "A" or b[0] == "A" or c[0] == "A"):
            value += 10
        if value <= 21:
            key = 4 * value + (a[1] == trump) + (b[1] == trump) + (c[1] == trump)
            if key > best_key:
                best_key, best = key, move
    if best is None:  # every move is over 21: the lowest
        best = tuple(sorted(hand, key=BASE.__getitem__)[:3])
        return total(best), best
    return best_key >> 2, best


def cheap_order(trump):
    """A sort key: the cards worth least to keep first (no points, no trumps, low counts)."""
    return {c: 100 * POINTS[c] + 50 * (c[1] == trump) + BASE[c] for c in DECK}.__getitem__


# --- what is known ----------------------------------------------------------------------
def knowledge(obs):
    """What this player knows of the cards it cannot see.

    Returns the unseen cards (the trump card left out), the game points each side surely
    won (mine, theirs), which side won each face-down card still unseen, how many of those
    the opponent played after the deck ran out, and whether the opponent may hold the
    unseen trump card.
    """
    me = obs["seat"]
    seen = set(obs["hand"])
    won = [0, 0]
    hidden = []  # for each face-down card never seen: 0 if it is in my pile, 1 if theirs
    late = 0
    for hand in obs["history"]:
        cards = {hand["face_up"], *(hand["liar_cards"] or ()), *(hand["judge_cards"] or ())}
        seen |= cards
        side = 0 if hand["winner"] == me else 1
        won[side] += sum(POINTS[c] for c in cards)
        hidden += [side] * (6 - len(cards))
        if hand["number"] > 5:  # played after the deck ran out
            late += 6 - len(cards)
    if obs["face_up"]:
        seen.add(obs["face_up"])
    trump_card = obs["trump_card"]
    trump_with_them = obs["deck_count"] == 0 and trump_card not in seen
    seen.add(trump_card)
    unseen = [c for c in DECK if c not in seen]
    return unseen, won, hidden, late, trump_with_them


# --- reading the opponent ---------------------------------------------------------------
def opponent_hands(result):
    """The opponent's hand before each hand of a finished game, worked out backwards: a
    hand holds the cards it will play from then on, less those it will draw."""
    them = 1 - _seat
    holding, hands = set(), []
    for record in reversed(result["hands"]):
        for draw in record["draws"]:
            if draw["seat"] == them:
                holding -= set(draw["cards"])
        holding |= set(record["liar_cards"] if record["liar"] == them else record["judge_cards"])
        hands.append(sorted(holding))
    return hands[::-1]


def lie_way(hand, cards, up, trump, cheap):
    """How a lie was chosen: (which three cards, which one shown)."""
    if total(cards) == best_move(hand, trump)[0]:
        kind = "best"
    elif set(cards) == set(sorted(hand, key=cheap)[:3]):
        kind = "cheap"
    else:
        return "any", "any"
    counts = [BASE[c] for c in cards]
    if min(counts) == max(counts):
        return kind, "any"
    if BASE[up] == min(counts):
        return kind, "low"
    return kind, "high" if BASE[up] == max(counts) else "any"


def shows(rule, up, cards):
    """The chance that a lie of these three cards shows ``up`` under a face-up rule."""
    if up not in cards:
        return 0.0
    if rule == "any":
        return 1 / 3
    counts = [BASE[c] for c in cards]
    target = min(counts) if rule == "low" else max(counts)
    return (BASE[up] == target) / counts.count(target)


def call_bucket(best):
    return best if 16 <= best <= 21 else 16


def call_rate(best):
    """How often the opponent challenged when its best sum was this."""
    challenges, seen = _calls[call_bucket(best)]
    return challenges / seen


# --- the worlds -------------------------------------------------------------------------
class World:
    """One way the unseen cards may lie: the opponent's hand, the deck, the points won."""

    __slots__ = ("answer", "hand", "pair", "stock", "won")

    def __init__(self, hand, pair, stock, won):
        self.hand = hand  # the opponent's hand (without the two hidden cards of a lie)
        self.pair = pair  # as The Judge: The Liar's two face-down cards
        self.stock = stock  # the deck, top card first, the trump card last
        self.won = won  # game points already won: [mine, theirs]
        self.answer = None  # as The Liar: the Judge's answer, (cards, challenge)


def deal(obs, known, extra):
    """Deals the unseen cards once: the opponent's hand (and ``extra`` more cards for it),
    the deck and the face-down piles. Returns (opponent's cards, stock, points won)."""
    unseen, won, hidden, late, trump_with_them = known
    cards = unseen[:]
    _rng.shuffle(cards)
    size = obs["opponent_hand_count"] + extra
    trump_card = obs["trump_card"]
    won = won[:]
    if trump_with_them:
        # The opponent drew it after hand 5; it is in its hand, or it went face down since.
        slot = _rng.randrange(size + late)
        if slot < size:
            cards.insert(0, trump_card)
        else:
            side = hidden[len(hidden) - late + slot - size]  # the pile it went to
            hidden = hidden[:]
            hidden.remove(side)
            won[side] += POINTS[trump_card]
    theirs = cards[:size]
    stock_size = max(0, obs["deck_count"] - 1)
    stock = cards[size : size + stock_size]
    if obs["deck_count"]:
        stock.append(trump_card)
    for side, card in zip(hidden, cards[size + stock_size :], strict=False):
        won[side] += POINTS[card]
    return theirs, stock, won


def liar_worlds(obs, known, count):
    """Worlds for The Liar's decision: the Judge's hand is any deal of the unseen cards."""
    worlds = []
    for _ in range(count):
        theirs, stock, won = deal(obs, known, 0)
        worlds.append(World(theirs, None, stock, won))
    return worlds


def judge_worlds(obs, known, count, trump, cheap):
    """Worlds for the Judge's decision, read from The Liar's face-up card.

    Each candidate deal gives The Liar a whole hand before its move; it is kept in
    proportion to the chance that the opponent's ways of lying show the card it showed.
    """
    up = obs["face_up"]
    norm = sum(_lies.values())
    deals, weights = [], []
    for _ in range(count * CANDIDATES):
        theirs, stock, won = deal(obs, known, 2)
        hand = [up, *theirs]
        moves = {"best": best_move(hand, trump)[1], "cheap": sorted(hand, key=cheap)[:3]}
        ways = [(_lies[("any", "any")] / len(hand), None)]
        for kind, cards in moves.items():
            weight = sum(w * shows(rule, up, cards) for (k, rule), w in _lies.items() if k == kind)
            if weight:
                ways.append((weight, cards))
        deals.append((theirs, stock, won, ways))
        weights.append(sum(w for w, _ in ways) / norm)
    worlds = []
    for theirs, stock, won, ways in _rng.choices(deals, weights, k=count):
        move = _rng.choices([m for _, m in ways], [w for w, _ in ways])[0]
        pair = [c for c in move if c != up] if move else _rng.sample(theirs, 2)
        hand = [c for c in theirs if c not in pair]
        worlds.append(World(hand, pair, stock, won))
    return worlds


# --- playing a game out -----------------------------------------------------------------
def plan(hand, trump, cheap):
    """The two moves the rollout policy chooses from for this hand: (best sum, the best
    three, the cheapest three). Many worlds and moves reach the same hands, so each is
    worked out once per decision."""
    key = tuple(hand)
    found = _plans.get(key)
    if found is None:
        value, best = best_move(hand, trump)
        found = _plans[key] = (value, best, tuple(sorted(hand, key=cheap)[:3]))
    return found


def expected_answer(hand, trump, cheap):
    """The opponent's answer to this lie: it challenges with its best cards as often as it
    did before with that best sum (its own cards only, as ever), else forfeits."""
    value, best, low = plan(hand, trump, cheap)
    if _rng.random() < call_rate(value):
        return best, True
    return low, False


def play_out(mine, theirs, stock, liar, number, won, trump, cheap):
    """Plays hands ``number``..7 from the given position (seat 0 is this bot, seat 1 the
    opponent) and returns the final game points [mine, theirs].

    Both sides play the rollout policy: The Liar plays its best sum if it is strong, else
    bluffs with its cheapest cards; the Judge challenges with its best sum if it is strong,
    else forfeits its cheapest cards. The Judge never peeks at The Liar's cards."""
    hands = [mine, theirs]
    while number <= HANDS:
        value, best, low = plan(hands[liar], trump, cheap)
        lie = best if value >= STRONG else low
        value, best, low = plan(hands[1 - liar], trump, cheap)
        challenge = value >= CALL
        liar = settle(hands, stock, liar, lie, best if challenge else low, challenge, won, trump)
        stock = stock[6:]
        number += 1
    return won


def settle(hands, stock, liar, lie, answer, challenge, won, trump):
    """Settles one hand in place: points to the winner, cards out of the hands, then the
    winner draws three and the loser three. Returns the winner, The Liar of the next hand."""
    judge = 1 - liar
    winner = liar if not challenge or liar_wins(lie, answer, trump) else judge
    won[winner] += points(lie) + points(answer)
    hands[liar] = [c for c in hands[liar] if c not in lie]
    hands[judge] = [c for c in hands[judge] if c not in answer]
    if stock:
        hands[winner] = hands[winner] + stock[:3]
        hands[1 - winner] = hands[1 - winner] + stock[3:6]
    return winner


def utility(won, obs):
    """What a finished game is worth to this bot: the match points it gives each side, no
    more than the side still needs to win the match, plus a little per game point."""
    me = obs["seat"]
    mine = match_value(won[0], _rules["target"] - obs["match_points"][me])
    theirs = match_value(won[1], _rules["target"] - obs["match_points"][1 - me])
    return mine - theirs + POINT_VALUE * (won[0] - won[1]) / 120


def match_value(points, needed):
    if points <= _rules["win_above"]:
        return 0
    if points >= _rules["sweep_at"]:
        return max(needed, 2)
    return min(needed, 2 if points >= _rules["double_at"] else 1)


# --- decisions --------------------------------------------------------------------------
def act(obs):
    _plans.clear()
    return lie(obs) if obs["role"] == "liar" else judge(obs)


def judge(obs):
    hand, trump, up = obs["hand"], obs["trump_suit"], obs["face_up"]
    cheap = cheap_order(trump)
    count = SAMPLES[HANDS + 1 - obs["hand_number"]]
    worlds = judge_worlds(obs, knowledge(obs), count, trump, cheap)

    def this_hand(move):  # the quick screen: the points of this hand alone, if challenged
        return sum(
            stake(points(lie) + points(move), not liar_wins(lie, move, trump))
            for lie in ((up, *w.pair) for w in worlds)
        )

    def first_hand(option, world, won):
        cards, challenge = option
        lie = (up, *world.pair)
        hands = [hand, [*world.hand, *lie]]
        return hands, settle(hands, world.stock, 1, lie, cards, challenge, won, trump)

    challenges = sorted(combinations(hand, 3), key=this_hand, reverse=True)[:KEEP]
    options = [(tuple(sorted(hand, key=cheap)[:3]), False)] + [(m, True) for m in challenges]
    cards, challenge = best_option(obs, worlds, options, first_hand, trump, cheap)
    return {"cards": list(cards), "challenge": challenge}


def lie(obs):
    hand, trump = obs["hand"], obs["trump_suit"]
    cheap = cheap_order(trump)
    worlds = liar_worlds(obs, knowledge(obs), SAMPLES[HANDS + 1 - obs["hand_number"]])
    for world in worlds:  # drawn once per world: every move meets the same answers
        world.answer = expected_answer(world.hand, trump, cheap)

    def this_hand(move):  # the quick screen: the points of this hand alone
        return sum(
            stake(points(move) + points(cards), not challenge or liar_wins(move, cards, trump))
            for cards, challenge in (w.answer for w in worlds)
        )

    def first_hand(move, world, won):
        cards, challenge = world.answer
        hands = [hand, world.hand]
        return hands, settle(hands, world.stock, 0, move, cards, challenge, won, trump)

    moves = sorted(combinations(hand, 3), key=this_hand, reverse=True)[:KEEP]
    bluff = tuple(sorted(hand, key=cheap)[:3])
    if bluff not in moves:
        moves.append(bluff)
    cards = list(best_option(obs, worlds, moves, first_hand, trump, cheap))
    if STRONG <= total(cards) <= 21:
        face_up = min(range(3), key=lambda i: BASE[cards[i]])  # strong: invite a challenge
    else:
        face_up = max(range(3), key=lambda i: BASE[cards[i]])  # weak: show strength
    return {"cards": cards, "face_up": face_up}


def stake(pot, won):
    return pot if won else -pot


def best_option(obs, worlds, options, first_hand, trump, cheap):
    """The option with the best average outcome over the worlds: ``first_hand`` settles
    the current hand with it in a world, and the rest of the game is played out."""
    number = obs["hand_number"]

    def value(option):
        result = 0.0
        for world in worlds:
            won = world.won[:]
            hands, liar = first_hand(option, world, won)
            play_out(hands[0], hands[1], world.stock[6:], liar, number + 1, won, trump, cheap)
            result += utility(won, obs)
        return result

    return max(options, key=value)
