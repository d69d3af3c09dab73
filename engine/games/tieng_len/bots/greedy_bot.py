"""greedy: plays the lowest legal combination, and keeps its bombs for 2s.

* Leading, it sheds its lowest card in the longest combination that holds it (a sequence
  before a triple before a pair before the single), never in a bomb.
* Following, it plays the lowest combination that beats the table (``legal_actions`` lists
  plays from the lowest up), 2s included; it plays a bomb (a four of a kind, or three or
  more consecutive pairs) only on 2s, where nothing else can beat them; else it passes.

No memory, no counting: a fair opponent to measure a real strategy against. Like every bot
it is a single file using only the standard library.
"""


def is_bomb(cards):
    """A four of a kind, or a double sequence (three or more consecutive pairs)."""
    if len(cards) == 4 and len({c[0] for c in cards}) == 1:
        return True
    return len(cards) >= 6 and len({c[0] for c in cards}) * 2 == len(cards)


def act(observation):
    actions = observation["legal_actions"]
    plays = [a["cards"] for a in actions if "cards" in a]
    to_beat = observation["to_beat"]
    if to_beat is None:
        lowest = observation["hand"][0]
        if observation["must_include"] is not None:
            lowest = observation["must_include"]
        holding = [p for p in plays if lowest in p and not is_bomb(p)] or [[lowest]]
        best = max(holding, key=len)  # the first of the longest: the lowest top card
        return {"cards": best}
    twos_on_table = to_beat["top"][0] == "2"
    for cards in plays:
        if not is_bomb(cards) or twos_on_table:
            return {"cards": cards}
    return {"pass": True}
