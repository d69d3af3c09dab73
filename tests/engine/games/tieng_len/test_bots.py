"""The built-in bots: ordinary standard-library bot files that play legal moves at every table
size, replay exactly from their seed, and play the way their docstrings say."""

from __future__ import annotations

import ast
import importlib.util
import random
import statistics
from pathlib import Path

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match, read_bot_path
from engine import replay as replay_io
from engine.games.tieng_len import TiengLen
from engine.games.tieng_len.cards import CODES
from engine.games.tieng_len.combos import beating, classify, every_play
from tests.engine.players import TimedPlayer

BOTS = ["random", "greedy", "search", "starter"]


def load(name: str):
    """A bot file as a module of its own, to call its functions directly."""
    spec = importlib.util.spec_from_file_location(
        f"tl_{name}_under_test", builtin_bot("tieng_len", name)
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_builtin_bots_are_addressable_by_name():
    from engine import get_game

    assert set(get_game("tieng_len").builtin_bots()) == set(BOTS)


@pytest.mark.parametrize("name", BOTS)
def test_builtin_bots_are_valid_bot_files_importing_only_the_standard_library(name):
    path = builtin_bot("tieng_len", name)
    read_bot_path(path)  # the same checks as an upload
    tree = ast.parse(Path(path).read_text())
    modules = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert modules <= {"random", "itertools", "collections", "math"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_builtin_bot_plays_whole_matches_of_legal_moves_within_validation_limits(seats):
    limits = {"move_timeout_s": 0.25, "time_bank_s": 2.0}
    for offset in range(len(BOTS)):
        names = [BOTS[(offset + s) % len(BOTS)] for s in range(seats)]
        players = [InProcessPlayer(n, builtin_bot("tieng_len", n), **limits) for n in names]
        players = [_Untrusted(p) for p in players]
        result = play_match(
            "tieng_len", players, seed=derive_seed(7, seats, offset), options={"games": 2}
        )
        assert result.faults == (), [f.detail for f in result.faults]


class _Untrusted:
    """A trusted player made to look untrusted, so the runner checks the schema too."""

    trusted = False

    def __init__(self, inner):
        self.inner, self.name, self.last_move_late = inner, inner.name, False

    @property
    def hooks(self):
        return self.inner.hooks

    def start(self, info, hooks=()):
        self.inner.start(info, hooks)

    def act(self, observation):
        return self.inner.act(observation)

    def notify(self, hook, payload):
        self.inner.notify(hook, payload)

    def close(self):
        self.inner.close()

    def take_output(self):
        return self.inner.take_output()


def test_search_replays_byte_for_byte_from_its_seed_and_its_seed_matters():
    def play(search_seed):
        players = [
            InProcessPlayer("search", builtin_bot("tieng_len", "search")),
            InProcessPlayer("greedy", builtin_bot("tieng_len", "greedy")),
            InProcessPlayer("random", builtin_bot("tieng_len", "random")),
        ]
        return play_match(
            "tieng_len",
            players,
            seed=8,
            bot_seeds=[search_seed, 9, 10],
            record_timing=False,
            options={"games": 2},
        ).replay

    first = play(11)
    assert replay_io.dumps(first) == replay_io.dumps(play(11))
    assert play(12)["games"] != first["games"]


def test_search_decides_in_well_under_50_ms_at_the_median_and_300_ms_at_worst():
    search = TimedPlayer("search", builtin_bot("tieng_len", "search"))
    players = [search] + [
        InProcessPlayer(f"g{s}", builtin_bot("tieng_len", "greedy")) for s in range(3)
    ]
    play_match("tieng_len", players, seed=17)
    thinking = [t for t in search.times if t > 0.0005] or search.times  # not the forced moves
    assert statistics.median(search.times) < 0.050
    assert statistics.median(thinking) < 0.050
    assert max(search.times) < 0.300


def _observation(hand, *, to_beat=None, must=None, seat=0, counts=None):
    """A bot's observation of a made-up position, with the engine's own legal actions."""
    others = [[c] for c in CODES if c not in hand.split() and c not in (to_beat or "")][:3]
    state = TiengLen.from_hands([hand.split(), *others], leader=seat)
    if to_beat is not None:
        cards = to_beat.split()
        state.current = classify(sorted(CODES.index(c) for c in cards))
        state.current_by = 1
    observation = state.observation(seat)
    observation["must_include"] = must
    if counts is not None:
        observation["card_counts"] = counts
    observation["legal_actions"] = state.legal_actions(seat)
    return observation


def test_greedy_leads_its_lowest_card_in_the_longest_combination_holding_it():
    greedy = load("greedy")
    assert greedy.act(_observation("4S 5D 6H 6S 9C KD")) == {"cards": ["4S", "5D", "6S"]}
    assert greedy.act(_observation("4S 4C 4D 9C KD")) == {"cards": ["4S", "4C", "4D"]}
    assert greedy.act(_observation("4S 4C 4D 4H 9C")) == {"cards": ["4S", "4C", "4D"]}, "no bomb"


def test_greedy_beats_the_table_as_cheaply_as_it_can_and_keeps_bombs_for_2s():
    greedy = load("greedy")
    assert greedy.act(_observation("4S 9D 2C KD", to_beat="8H")) == {"cards": ["9D"]}
    assert greedy.act(_observation("2S 9D", to_beat="AH")) == {"cards": ["2S"]}, "2s too"
    assert greedy.act(_observation("7S 7C 7D 7H 3D", to_beat="AH")) == {"pass": True}
    assert greedy.act(_observation("7S 7C 7D 7H 3D", to_beat="2H")) == {
        "cards": ["7S", "7C", "7D", "7H"]
    }


def test_the_starter_bot_plays_legal_moves_and_says_what_it_leads():
    starter = load("starter")
    observation = _observation("3S 3C 9D KH 2S 2H AS AC AD 7C 8D 5H 6H", seat=0)
    action = starter.act(observation)
    assert action in observation["legal_actions"]


def test_search_goes_out_when_it_can():
    search = load("search")
    search.on_match_start({"seed": 1})
    assert search.act(_observation("9S 9C")) == {"cards": ["9S", "9C"]}
    assert search.act(_observation("TS JD QH")) == {"cards": ["TS", "JD", "QH"]}


def test_the_search_bots_combinations_agree_with_the_engine():
    search = load("search")
    rng = random.Random(3)
    for _ in range(400):
        hand = sorted(rng.sample(range(52), rng.randint(1, 13)))
        lead = search.lead(hand)
        assert lead in every_play(hand)
        assert lead[0] not in (3, 5), "the greedy lead is never a bomb"
        table = rng.choice(every_play(sorted(rng.sample(range(52), 13))))
        answer = search.follow(hand, table)
        legal = beating(hand, table)
        if answer is not None:
            assert answer in legal
            assert answer == min(p for p in legal if p[0] == answer[0] and p[1] == answer[1])
        for play in legal:
            assert search.classify(list(play[3])) == play
