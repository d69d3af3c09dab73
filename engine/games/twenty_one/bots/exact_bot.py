"""exact: chooses draw, pass, stop and trumps by exact probabilities, weighted by the stakes.

What it knows is what every seat knows: the eleven cards are 1-11, so the cards it cannot see
(``unseen``) are the deck plus the opponent's hush card, and the next card drawn is any
unseen card but the hush card. It plays the round forward exactly, card by card:

* its own choices (draw or pass) are the best ones for what it will know then;
* the opponent is modelled as a seat that draws while it is under the target and at most
  half the cards *it* cannot see would take it over (what ``basic`` does); the model splits
  the possible hush cards into those that would draw and those that would pass, so each
  opponent move also tells it something about the hush card;
* the hush card's prior weights come from the opponent's last move this round, softly (a
  pass suggests a total the model would pass with), so a bot that plays otherwise does not
  fool it badly.

A finished round is worth the opponent's stake if won and minus its own if lost (each capped
by the bets held), plus a bonus when the round would end the game. Trumps are valued by the
same search: the round's value after the trump (its chance outcomes enumerated) against the
value without it, less a small price for spending the card. Stake trumps (One-Up, Two-Up,
Shield) wait until it is done drawing. Every search is memoized on the position (totals,
unseen cards, the hush cards still possible, who has passed, whose turn), and capped at a
fixed number of positions (past it, its own later choices are simplified to "stand, or draw
one card and stand", and no more trumps are weighed): a decision takes a fraction of a
millisecond typically and about a tenth of a second at worst. It uses no randomness and no
clock, so it is deterministic.
"""

CARDS = tuple(range(1, 12))
BIT = {card: 1 << card for card in CARDS}
# What winning or losing the whole game is worth, in bets, on top of the round's stake.
GAME_BONUS = 6.0
# The price of spending a trump, in bets per unit of the acting bet, and at least this much.
TRUMP_PRICE = 0.04
MIN_PRICE = 0.05
# How strongly the opponent's last move sways the belief about its hush card.
AGREE, DISAGREE = 0.7, 0.3
# Positions searched per decision, beyond the first search, before it stops weighing trumps.
NODE_BUDGET = 4000
# Positions one search explores in full; past them its own later choices are simplified to
# "stand, or draw one card and stand" (only in the rare long rounds: low totals everywhere).
NODE_LIMIT = 4000
CARD_TRUMPS = {f"card_{n}": n for n in range(2, 8)}
CARD_TRUMPS.update({f"add_{n}": n for n in CARDS})
GO_FOR = {"go_for_17": 17, "go_for_24": 24, "go_for_27": 27}
UPS = {"one_up": 1, "two_up": 2}


_CARDS_OF = {}


def _cards(mask):
    """The cards of a bit mask, ascending (memoized: the searches ask again and again)."""
    found = _CARDS_OF.get(mask)
    if found is None:
        found = _CARDS_OF[mask] = [card for card in CARDS if mask >> card & 1]
    return found


def _opponent_draws(total, unseen_to_it, target):
    """The model: under the target, and at most half the cards it cannot see go over."""
    if total >= target or not unseen_to_it:
        return False
    over = 0
    for card in unseen_to_it:
        if total + card > target:
            over += 1
    return 2 * over < len(unseen_to_it)


def safe_draw(total, umask, target):
    """Whether every unseen card keeps ``total`` at or under the target."""
    return total + _cards(umask)[-1] <= target if umask else False


class Search:
    """The round's value from one position, for one target and one pair of payoffs."""

    def __init__(self, target, win, lose, weights, my_hush, limit):
        self.limit = limit  # positions searched before this seat's own choices go short
        self.target = target
        self.win = win
        self.lose = lose
        self.weights = weights
        self.my_hush = my_hush
        self.memo = {}
        self.finals = {}

    def terminal(self, mine, theirs, hmask):
        target, weights = self.target, self.weights
        distance = abs(mine - target)
        value = total = 0.0
        for h in CARDS:
            if hmask >> h & 1:
                w = weights[h]
                total += w
                other = abs(theirs + h - target)
                if distance < other:
                    value += w * self.win
                elif distance > other:
                    value -= w * self.lose
        return value / total if total else 0.0

    def node(self, mine, theirs, umask, hmask, i_passed, they_passed, my_turn):
        """Value of the position; ``theirs`` is the opponent's face-up total."""
        if i_passed:
            if they_passed:
                return self.terminal(mine, theirs, hmask)
            # Only the opponent moves now, whatever this seat's total: its final totals
            # are worked out once and scored against each total.
            return self.score(mine, self.opponent_alone(theirs, umask, hmask))
        key = (mine, theirs, umask, hmask, i_passed, they_passed, my_turn)
        memo = self.memo
        if key in memo:
            return memo[key]
        if my_turn:
            value = self.mine(mine, theirs, umask, hmask, i_passed, they_passed)
        else:
            value = self.theirs(mine, theirs, umask, hmask, i_passed)
        memo[key] = value
        return value

    def score(self, mine, finals):
        """The value of standing on ``mine`` against the opponent's final totals."""
        target = self.target
        distance = abs(mine - target)
        value = total = 0.0
        for theirs, w in finals:
            total += w
            other = abs(theirs - target)
            if distance < other:
                value += w * self.win
            elif distance > other:
                value -= w * self.lose
        return value / total if total else 0.0

    def opponent_alone(self, theirs, umask, hmask):
        """The opponent's final totals (hush card included) with their weights, when only
        it still moves (by the model): ``((total, weight), ...)``."""
        key = (theirs, umask, hmask)
        found = self.finals.get(key)
        if found is not None:
            return found
        unseen = _cards(umask)
        weights, target, my_hush = self.weights, self.target, self.my_hush
        n = len(unseen)
        out = {}
        to_draw = 0
        w_draw = 0.0
        for h in unseen:
            if not hmask >> h & 1:
                continue
            total = theirs + h
            if n >= 2 and total < target:
                room = target - total
                over = (my_hush > room) - (h > room)
                for c in unseen:
                    if c > room:
                        over += 1
                if 2 * over < n:
                    to_draw |= BIT[h]
                    w_draw += weights[h]
                    continue
            out[total] = out.get(total, 0.0) + weights[h]
        if to_draw:
            share = 1.0 / (n - 1)
            for card in unseen:
                rest = to_draw & ~BIT[card]
                if not rest:
                    continue
                for total, w in self.opponent_alone(theirs + card, umask & ~BIT[card], rest):
                    out[total] = out.get(total, 0.0) + w * share
        found = self.finals[key] = tuple(out.items())
        return found

    def chances(self, mine, theirs, umask, hmask, they_passed):
        """(win, lose) probabilities of standing on ``mine`` now."""
        if they_passed:
            finals = [(theirs + h, self.weights[h]) for h in _cards(hmask)]
        else:
            finals = self.opponent_alone(theirs, umask, hmask)
        target = self.target
        distance = abs(mine - target)
        win = lose = total = 0.0
        for other, w in finals:
            total += w
            other = abs(other - target)
            if distance < other:
                win += w
            elif distance > other:
                lose += w
        return (win / total, lose / total) if total else (0.0, 0.0)

    def size(self):
        return len(self.memo) + len(self.finals)

    def after_my_move(self, mine, theirs, umask, hmask, i_passed, they_passed):
        # The turn passes to the opponent unless it has passed.
        return self.node(mine, theirs, umask, hmask, i_passed, they_passed, they_passed)

    def mine(self, mine, theirs, umask, hmask, i_passed, they_passed):
        if mine >= self.target:
            return self.after_my_move(mine, theirs, umask, hmask, True, they_passed)
        if len(self.memo) > self.limit:
            return self.short(mine, theirs, umask, hmask, they_passed)
        draw = self.draw_value(mine, theirs, umask, hmask, they_passed)
        if draw is not None and safe_draw(mine, umask, self.target):
            return draw  # no card can take it over, and every card brings it closer
        stand = self.after_my_move(mine, theirs, umask, hmask, True, they_passed)
        return draw if draw is not None and draw > stand else stand

    def short(self, mine, theirs, umask, hmask, they_passed):
        """Past the node limit: stand, or draw one card and stand, whichever is better."""
        stand = self.after_my_move(mine, theirs, umask, hmask, True, they_passed)
        unseen = _cards(umask)
        n = len(unseen)
        if n < 2:
            return stand
        weights = self.weights
        total = 0.0
        for h in unseen:
            if hmask >> h & 1:
                total += weights[h]
        value = 0.0
        for card in unseen:
            p = total - weights[card] if hmask >> card & 1 else total
            if p > 1e-12:
                value += p * self.after_my_move(
                    mine + card, theirs, umask & ~BIT[card], hmask & ~BIT[card], True, they_passed
                )
        return max(stand, value / (total * (n - 1)))

    def stop_value(self, mine, theirs, umask, hmask, they_passed):
        """End the turn without passing (allowed after a trump)."""
        if they_passed:  # it is this seat's turn again at once: as good as deciding now
            return self.mine(mine, theirs, umask, hmask, False, True)
        return self.node(mine, theirs, umask, hmask, False, False, False)

    def draw_value(self, mine, theirs, umask, hmask, they_passed):
        """Draw one card: any unseen card but the hush card, each equally likely."""
        unseen = _cards(umask)
        n = len(unseen)
        if n < 2:
            return None
        weights = self.weights
        total = 0.0
        for h in unseen:
            if hmask >> h & 1:
                total += weights[h]
        value = 0.0
        for card in unseen:
            # The card is drawn unless it is the hush card: every possible hush card but it.
            p = total - weights[card] if hmask >> card & 1 else total
            if p <= 1e-12:
                continue
            after = self.after_my_move(
                mine + card, theirs, umask & ~BIT[card], hmask & ~BIT[card], False, they_passed
            )
            value += p * after
        return value / (total * (n - 1))

    def theirs(self, mine, theirs, umask, hmask, i_passed):
        """The opponent moves by the model; its choice splits the possible hush cards."""
        unseen = _cards(umask)
        weights, target = self.weights, self.target
        to_draw = to_pass = 0
        w_draw = w_pass = 0.0
        n = len(unseen)
        my_hush = self.my_hush
        for h in unseen:
            if not hmask >> h & 1:
                continue
            # The model, counted without building the opponent's view: it cannot see the
            # unseen cards but its own hush card, and it cannot see this seat's hush card.
            total = theirs + h
            room = target - total
            over = (my_hush > room) - (h > room)
            for c in unseen:
                if c > room:
                    over += 1
            if total < target and 2 * over < n:
                to_draw |= BIT[h]
                w_draw += weights[h]
            else:
                to_pass |= BIT[h]
                w_pass += weights[h]
        total = w_draw + w_pass
        if len(unseen) < 2:  # the deck is empty: nobody can draw
            w_pass, to_pass, w_draw = total, hmask, 0.0
        value = 0.0
        if w_pass:
            next_turn = not i_passed
            value += w_pass * self.node(mine, theirs, umask, to_pass, i_passed, True, next_turn)
        if w_draw:
            drawn = 0.0
            for card in unseen:
                p = w_draw - weights[card] if to_draw >> card & 1 else w_draw
                if p <= 1e-12:
                    continue
                drawn += p * self.node(
                    mine,
                    theirs + card,
                    umask & ~BIT[card],
                    to_draw & ~BIT[card],
                    i_passed,
                    False,
                    not i_passed,
                )
            value += drawn / (n - 1)
        return value / total if total else 0.0


class Position:
    """The round as this seat sees it, and its searches (one per target and payoffs)."""

    def __init__(self, obs):
        seat = obs["seat"]
        other = 1 - seat
        self.obs = obs
        self.seat, self.other = seat, other
        self.mine = obs["total"]
        self.theirs = obs["visible_totals"][other]
        self.my_up = obs["face_up"][seat]
        self.their_up = obs["face_up"][other]
        self.unseen = list(obs["unseen"])
        self.umask = sum(BIT[c] for c in self.unseen)
        self.target = obs["target"]
        self.hush = obs["hush"]
        self.they_passed = obs["passed"][other]
        self.weights = self.prior()
        self.searches = {}

    def prior(self):
        """Soft weights over the hush card from the opponent's last move this round."""
        weights = [1.0] * 12
        obs, other = self.obs, self.other
        last = None
        for entry in obs["history"]:
            if entry["type"] == "move" and entry["seat"] == other and entry["move"] != "stop":
                last = entry
        if last is None:
            return weights
        if last["move"] == "pass":
            before, drew = self.theirs, False
        else:
            before, drew = self.theirs - last["card"], True
            if before < 0:
                return weights
        for h in self.unseen:
            view = [c for c in self.unseen if c != h]
            view.append(self.hush)
            if last["move"] == "draw":
                view.append(last["card"])
            agrees = _opponent_draws(before + h, view, self.target) == drew
            weights[h] = AGREE if agrees else DISAGREE
        return weights

    def payoffs(self, stakes, target):
        obs = self.obs
        bets = obs["bets"]
        seat, other = self.seat, self.other
        win = min(stakes[other], bets[other])
        lose = min(stakes[seat], bets[seat])
        if stakes[other] >= bets[other]:
            win += GAME_BONUS
        if stakes[seat] >= bets[seat]:
            lose += GAME_BONUS
        return win, lose

    def search(self, target=None, stakes=None):
        target = self.target if target is None else target
        stakes = tuple(self.obs["stakes"] if stakes is None else stakes)
        key = (target, stakes)
        found = self.searches.get(key)
        if found is None:
            win, lose = self.payoffs(stakes, target)
            found = self.searches[key] = Search(
                target, win, lose, self.weights, self.hush, NODE_LIMIT
            )
        return found

    def values(self, search, mine, theirs, umask, hmask, can_stop):
        """{"pass": v, "draw": v, "stop": v} of this seat's turn-ending moves."""
        they_passed = self.they_passed
        out = {"pass": search.after_my_move(mine, theirs, umask, hmask, True, they_passed)}
        if mine < search.target:
            draw = search.draw_value(mine, theirs, umask, hmask, they_passed)
            if draw is not None:
                out["draw"] = draw
        if can_stop:
            out["stop"] = search.stop_value(mine, theirs, umask, hmask, they_passed)
        return out

    def best(self, search, mine, theirs, umask, hmask, can_stop=True):
        return max(self.values(search, mine, theirs, umask, hmask, can_stop).values())

    # --- what each trump would do ----------------------------------------------------------
    def after_trump(self, name):
        """The value after playing ``name`` (then the best move), or None if pointless."""
        obs = self.obs
        mine, theirs, umask, hmask = self.mine, self.theirs, self.umask, self.umask
        weights = self.weights
        if name in CARD_TRUMPS:
            card = CARD_TRUMPS[name]
            if not umask >> card & 1:
                return None  # the card is on the table in sight: nothing to take
            search = self.search()
            total = sum(weights[h] for h in self.unseen)
            p_miss = weights[card] / total  # it is the hush card: nothing, but now we know
            taken = self.best(search, mine + card, theirs, umask & ~BIT[card], hmask & ~BIT[card])
            missed = self.best(search, mine, theirs, umask, BIT[card])
            return (1 - p_miss) * taken + p_miss * missed
        if name == "perfect_draw":
            if len(self.unseen) < 2:
                return None
            search = self.search()
            groups = {}
            room = self.target - mine
            for h in self.unseen:
                deck = [c for c in self.unseen if c != h]
                fits = [c for c in deck if c <= room]
                card = max(fits) if fits else min(deck)
                groups.setdefault(card, []).append(h)
            total = sum(weights[h] for h in self.unseen)
            value = 0.0
            for card, hs in groups.items():
                w = sum(weights[h] for h in hs)
                hm = sum(BIT[h] for h in hs)
                value += w * self.best(search, mine + card, theirs, umask & ~BIT[card], hm)
            return value / total
        if name in ("remove", "return", "exchange"):
            mine_up, their_up = self.my_up, self.their_up
            if name == "remove":
                if not their_up:
                    return None
                card = their_up[-1]
                theirs, umask = theirs - card, umask | BIT[card]
            elif name == "return":
                if not mine_up:
                    return None
                card = mine_up[-1]
                mine, umask = mine - card, umask | BIT[card]
            else:
                if not mine_up or not their_up:
                    return None
                gave, got = mine_up[-1], their_up[-1]
                mine, theirs = mine - gave + got, theirs - got + gave
            return self.best(self.search(), mine, theirs, umask, hmask)
        if name in GO_FOR:
            if GO_FOR[name] == self.target:
                return None
            return self.best(self.search(target=GO_FOR[name]), mine, theirs, umask, hmask)
        if name == "destroy":
            row = obs["table"][self.other]
            if row and row[-1] in GO_FOR:
                return self.best(self.search(target=21), mine, theirs, umask, hmask)
        return None  # stake trumps are valued by stake_gain; trump_switch is a gamble

    def new_stakes(self, name):
        """The stakes after a stake trump (or a Destroy of one), or None if unchanged."""
        stakes = list(self.obs["stakes"])
        seat, other = self.seat, self.other
        if name in UPS:
            stakes[other] += UPS[name]
        elif name == "shield":
            if stakes[seat] == 0:
                return None
            stakes[seat] -= 1
        elif name == "destroy":
            row = self.obs["table"][other]
            if not row or (row[-1] not in UPS and row[-1] != "shield"):
                return None
            if row[-1] == "shield":
                stakes[other] += 1
            else:
                stakes[seat] = max(0, stakes[seat] - UPS[row[-1]])
        else:
            return None
        return stakes

    def stake_gain(self, name):
        """What a stake trump adds to standing now: the same chances, other payoffs."""
        stakes = self.new_stakes(name)
        if stakes is None:
            return None
        search = self.search()
        p_win, p_lose = search.chances(
            self.mine, self.theirs, self.umask, self.umask, self.they_passed
        )
        win, lose = self.payoffs(stakes, self.target)
        return p_win * (win - search.win) - p_lose * (lose - search.lose)

    def size(self):
        return sum(search.size() for search in self.searches.values())


# Trumps in the order they are weighed: the cheap ones first, then those that need new
# searches while the node budget lasts.
_CHEAP_FIRST = dict.fromkeys(CARD_TRUMPS, 0)
_CHEAP_FIRST.update(
    {"perfect_draw": 1, "one_up": 2, "two_up": 2, "shield": 2, "destroy": 2, "return": 3}
)
_CHEAP_FIRST.update({"remove": 3, "exchange": 3})


def _weigh_order(name):
    return _CHEAP_FIRST.get(name, 4), name


def decide(obs):
    legal = obs["legal_actions"]
    position = Position(obs)
    if {"then": "draw"} in legal and safe_draw(position.mine, position.umask, position.target):
        return {"then": "draw"}  # no card takes it over: save the trumps for later
    search = position.search()
    can_stop = {"then": "stop"} in legal
    moves = position.values(
        search, position.mine, position.theirs, position.umask, position.umask, can_stop
    )
    if {"then": "draw"} not in legal:
        moves.pop("draw", None)
    best_move = max(moves, key=moves.get)
    base = moves[best_move]
    done_drawing = best_move != "draw"
    price = max(MIN_PRICE, TRUMP_PRICE * obs["acting_bet"])
    budget = position.size() + NODE_BUDGET
    names = sorted({a["trumps"][0] for a in legal if "trumps" in a}, key=_weigh_order)
    best_trump, best_gain = None, 0.0
    for name in names:
        if name in UPS or name == "shield" or name == "destroy":
            gain = position.stake_gain(name) if done_drawing else None
            if gain is not None:
                gain -= 0.0 if name == "two_up" else price  # two_up draws a fresh trump
            elif name != "destroy":
                continue
        else:
            gain = None
        if gain is None:
            if position.size() > budget:
                continue
            value = position.after_trump(name)
            if value is None:
                continue
            gain = value - price - base
        if gain > best_gain + 1e-9:
            best_trump, best_gain = name, gain
    if best_trump is not None:
        return {"trumps": [best_trump]}
    return {"then": best_move}


def act(observation):
    return decide(observation)
