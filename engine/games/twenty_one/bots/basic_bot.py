"""basic: draws while the chance of going over is below one half, plays obvious trumps.

It sees what every seat sees: its own total, the face-up cards, and ``unseen`` (the deck and
the other hush card, which it treats alike: the next card drawn is any of them, equally
likely). One decision at a time: an obvious trump if there is one (the turn goes on), else
draw or pass. Obvious means clearly good now, whatever the opponent holds:

* a card_N / add_N whose card is unseen and does not take it over the target;
* Perfect Draw while two or more short of the target;
* when over the target: Return, or a Go For that brings it back in range, or a Shield;
* on the target (or one short): One-Up or Two-Up;
* Destroy against an Up card the opponent laid on its stake;
* Exchange or Remove when the swapped or removed card plainly helps it.

It uses no randomness at all.
"""


def _over_chance(total: int, target: int, unseen: list) -> float:
    if not unseen:
        return 1.0
    return sum(1 for card in unseen if total + card > target) / len(unseen)


def _obvious_trump(obs: dict) -> str | None:
    hand = set(obs["trumps"])
    if not hand:
        return None
    seat = obs["seat"]
    other = 1 - seat
    total, target, unseen = obs["total"], obs["target"], obs["unseen"]
    mine, theirs = obs["face_up"][seat], obs["face_up"][other]
    room = target - total
    # A known card that fits: the largest one.
    fits = [
        (int(name.split("_")[1]), name)
        for name in hand
        if name.startswith(("card_", "add_")) and int(name.split("_")[1]) in unseen
    ]
    fits = [(value, name) for value, name in fits if value <= room]
    if fits:
        return max(fits)[1]
    if "perfect_draw" in hand and room >= 2 and obs["deck_count"]:
        return "perfect_draw"
    if total > target:
        if "return" in hand and mine and abs(total - mine[-1] - target) < total - target:
            return "return"
        go_fors = [int(n[7:]) for n in hand if n.startswith("go_for_")]
        better = [n for n in go_fors if total <= n and n - total < total - target]
        if better:
            return f"go_for_{min(better)}"
        if "shield" in hand and obs["stakes"][seat] > 0:
            return "shield"
    if 0 <= room <= 1:
        for name in ("two_up", "one_up"):
            if name in hand:
                return name
    lying = obs["table"][other]
    if "destroy" in hand and lying and lying[-1] in ("one_up", "two_up"):
        return "destroy"
    if "exchange" in hand and mine and theirs:
        swapped = total - mine[-1] + theirs[-1]
        if swapped <= target and target - swapped < abs(target - total):
            return "exchange"
    if "remove" in hand and theirs:
        guess = obs["visible_totals"][other] + (sum(unseen) / len(unseen) if unseen else 6)
        if guess <= target and theirs[-1] >= 4:
            return "remove"
    return None


def act(observation: dict) -> dict:
    name = _obvious_trump(observation)
    if name is not None:
        return {"trumps": [name]}
    total, target = observation["total"], observation["target"]
    if (
        observation["deck_count"]
        and total < target
        and _over_chance(total, target, observation["unseen"]) < 0.5
    ):
        return {"then": "draw"}
    return {"then": "pass"}
