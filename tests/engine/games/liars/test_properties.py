"""Whole-game properties over random legal play: it ends, and no seat learns a hidden die it
has no right to know.

Two checks of the hidden information, at every decision and for every seat:

* **from the events**: folding the events as that seat saw them (public parts, its own
  private parts) gives exactly the dice values its observation shows;
* **scrambling**: giving every die the seat does not know another value leaves its
  observation unchanged.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.liars import GAME
from engine.games.liars.rules import UNKNOWN

OPTION_NAMES = (
    "straights",
    "better",
    "no_lying_first_round",
    "stop_at_first_out",
    "straight_contest",
)


def random_action(observation: dict, rng: random.Random) -> dict:
    """A random legal decision, read from the observation's ``may`` and ``minimum``."""
    may = observation["may"]
    if may["refuse"] and rng.random() < 0.25:
        return {"refuse": True}
    if may["look"] and rng.random() < 0.4:
        return {"look": True}
    if may["throw"] and (not may["announce"] or rng.random() < 0.5):
        if observation["contest"] is not None and observation["throws"] == 0:
            return {"throw": [0, 1, 2, 3, 4]}
        dice = [d for d in may["throw"] if rng.random() < 0.5] or [rng.choice(may["throw"])]
        action: dict = {"throw": dice}
        if may["hide"]:
            action["hide"] = [d for d in dice if d in may["hide"] and rng.random() < 0.5]
        cover = [d for d in may["cover"] if d not in dice and rng.random() < 0.3]
        if cover:
            action["cover"] = cover
        return action
    if may["better"] and rng.random() < 0.3:
        return {"announce": "better"}
    action = {"announce": list(observation["minimum"])}
    if observation["phase"] == "start":
        action["direction"] = rng.choice([1, -1])
    return action


class Knowledge:
    """What one seat knows of each die, folded from the events as it saw them."""

    def __init__(self, seat: int) -> None:
        self.seat = str(seat)
        self.values: list[int | None] = [None] * 5

    def see(self, event: dict) -> None:
        kind, public = event["type"], event["public"]
        mine = event.get("private", {}).get(self.seat)
        if kind == "round_start":
            self.values = [None] * 5
        elif kind == "throw":
            got = mine["values"] if mine else public["up"]
            for die, value in zip(public["dice"], got, strict=True):
                self.values[die] = value
        elif kind == "look" and mine:
            for die, value in mine["values"]:
                self.values[die] = value
        elif kind in ("refuse", "lie"):
            self.values = list(public["dice"])


def scrambled_view(state, seat: int, rng: random.Random) -> dict:
    """The seat's observation after every die it may not know gets another value."""
    saved = list(state.dice)
    for die in range(5):
        if state.dice[die] and state.hidden[die] and state.known[die][seat] == UNKNOWN:
            state.dice[die] = rng.choice([v for v in range(1, 7) if v != saved[die]])
    try:
        return state.observation(seat)
    finally:
        state.dice[:] = saved


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    seats=st.integers(2, 6),
    flags=st.tuples(*[st.booleans()] * 5),
)
def test_random_legal_play_ends_and_never_leaks_a_hidden_die(seed, seats, flags):
    options = dict(zip(OPTION_NAMES, flags, strict=True))
    state = GAME.new_game(seed=seed, dealer=seed % seats, num_players=seats, options=options)
    rng = random.Random(seed)
    minds = [Knowledge(s) for s in range(seats)]
    for event in state.start_events():
        for mind in minds:
            mind.see(event)
    for _ in range(20_000):
        mover = state.to_act()
        if mover is None:
            break
        for seat in range(seats):
            view = state.observation(seat)
            assert [d["value"] for d in view["dice"]] == minds[seat].values
            assert scrambled_view(state, seat, rng) == view
        events = state.apply(mover, random_action(state.observation(mover), rng))
        for event in events:
            for mind in minds:
                mind.see(event)
    else:
        raise AssertionError("a game of random legal moves did not end")
    placings = state.placings()
    assert sorted(placings)[0] == 0 and len(placings) == seats


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 6), steps=st.integers(0, 60))
def test_the_default_action_is_legal_in_every_decision_state(seed, seats, steps):
    state = GAME.new_game(seed=seed, dealer=0, num_players=seats, options={})
    rng = random.Random(seed)
    for _ in range(steps):
        mover = state.to_act()
        if mover is None:
            return
        state.apply(mover, random_action(state.observation(mover), rng))
    mover = state.to_act()
    if mover is not None:
        state.apply(mover, state.default_action(mover))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 6))
def test_observations_share_nothing_with_the_state_or_another_seat(seed, seats):
    """Whatever a seat does to its observation changes nothing the rules read nor anything
    another seat sees; of its own view only the history and past rounds it was shown (its
    own copies, handed to it again)."""
    state = GAME.new_game(seed=seed, dealer=0, num_players=seats, options={})
    rng = random.Random(seed)
    own = ("history", "rounds")
    for _ in range(40):
        mover = state.to_act()
        if mover is None:
            return
        clean = json.loads(json.dumps(state.observation(mover)))
        others = [json.dumps(state.observation(s)) for s in range(seats) if s != mover]
        before = state.observation(mover)
        before["dice"][0]["value"] = 99
        before["history"].append({"type": "junk"})
        before["lives"][0] = 99
        for entry in before["history"] + before["rounds"]:
            for value in entry.values():
                if isinstance(value, list):
                    value.append(99)
        assert [json.dumps(state.observation(s)) for s in range(seats) if s != mover] == others
        again = state.observation(mover)
        assert {k: v for k, v in again.items() if k not in own} == {
            k: v for k, v in clean.items() if k not in own
        }
        state.apply(mover, random_action(clean, rng))
