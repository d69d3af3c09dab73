"""A Tieng Len starter bot: a complete, legal bot to copy and improve.

Run it locally against the built-in bots, with its prints shown beside each move:

    python -m engine play --game tieng_len starter_bot.py greedy random random --matches 3

Every observation carries ``legal_actions``: every play you may make, as
``{"cards": [...]}`` with the cards from low to high, plus ``{"pass": true}`` when you may
pass. Plays are listed by kind (single, pair, triple, four, sequence, double sequence),
then length, then top card, so the first play of a kind is its lowest.

This bot sheds its lowest card when it leads and beats the table as cheaply as it can,
but never spends a 2 or a bomb unless an opponent is about to go out.
"""

RANKS = "3456789TJQKA2"  # low to high; suits low to high are S, C, D, H


def rank(card):
    return RANKS.index(card[0])


def act(observation):
    actions = observation["legal_actions"]
    plays = [a for a in actions if "cards" in a]
    if observation["to_beat"] is None:
        # We lead: play the lowest card in the longest combination that starts with it.
        lowest = observation["hand"][0]
        with_lowest = [p for p in plays if lowest in p["cards"]]
        best = max(with_lowest, key=lambda p: len(p["cards"]))
        if len(observation["hand"]) == 13:
            print(f"leading the game with {best['cards']}")  # shown to you only
        return best
    # We follow: the cheapest play that keeps our 2s, unless someone is nearly out.
    # (Other seats' counts are 0 once they are out, so they are left out of the danger.)
    others = [n for s, n in enumerate(observation["card_counts"]) if s != observation["seat"]]
    danger = min((n for n in others if n > 0), default=13) <= 2
    for play in plays:  # lowest first
        if danger or all(rank(c) < 12 for c in play["cards"]):  # 12 is the rank of 2s
            return play
    return {"pass": True}
