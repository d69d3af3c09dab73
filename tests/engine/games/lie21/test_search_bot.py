"""The search bot: legal moves against every built-in bot, a replay fixed by its seed, a
clear edge over random, and worlds and counting rules that agree with the engine's."""

import importlib.util
import random

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match
from engine import replay as replay_io
from engine.games.lie21.cards import DECK, SCORE, move_total
from engine.games.lie21.rules import Role, judge_hand

SEARCH = builtin_bot("lie21", "search")


def load_search_bot():
    """The bot file as a module of its own, to call its functions directly."""
    spec = importlib.util.spec_from_file_location("search_bot_under_test", SEARCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("other", ["random", "greedy", "heuristic"])
def test_search_plays_a_whole_match_of_legal_moves_within_the_validation_limits(other):
    # The arena validates an upload with 1 s of CPU per decision and a 2 s time bank.
    limits = {"move_timeout_s": 1.0, "time_bank_s": 2.0}
    players = [
        InProcessPlayer("search", SEARCH, **limits),
        InProcessPlayer(other, builtin_bot("lie21", other)),
    ]
    result = play_match("lie21", players, seed=derive_seed(21, "search", other))
    assert result.error is None
    assert result.reason in {"match_points", "sweep", "game_cap"}


@pytest.mark.slow
def test_the_same_seeds_give_a_byte_identical_replay_and_its_own_seed_matters():
    def play(search_seed):
        players = [
            InProcessPlayer("search", SEARCH),
            InProcessPlayer("heuristic", builtin_bot("lie21", "heuristic")),
        ]
        return play_match("lie21", players, seed=8, bot_seeds=[search_seed, 9], record_timing=False)

    first, second = play(11), play(11)
    assert replay_io.dumps(first.replay) == replay_io.dumps(second.replay)
    assert play(12).replay["games"] != first.replay["games"]


@pytest.mark.strength  # twenty whole matches of the search bot: ~14 s, not the inner loop
def test_search_beats_random_in_at_least_15_of_20_matches():
    wins = 0
    for i in range(20):
        search = InProcessPlayer("search", SEARCH)
        rand = InProcessPlayer("random", builtin_bot("lie21", "random"))
        players = [search, rand] if i % 2 == 0 else [rand, search]
        result = play_match("lie21", players, seed=derive_seed(2026, "search-strength", i))
        assert result.error is None
        wins += result.winner is not None and players[result.winner] is search
    assert wins >= 15


def test_its_counting_rules_agree_with_the_engine():
    bot = load_search_bot()
    rng = random.Random(5)
    high = [c for c in DECK if c[0] in "A7K"] + ["XR", "XB", "2S", "2H"]  # many ties and busts
    for i in range(5000):
        cards = rng.sample(DECK if i % 2 else high, 6)
        liar, judge = tuple(cards[:3]), tuple(cards[3:])
        trump = rng.choice(["S", "H", "D", "C", None])
        assert bot.total(liar) == move_total(liar)
        assert bot.liar_wins(liar, judge, trump) == (judge_hand(liar, judge, trump)[0] is Role.LIAR)


class Recorder(InProcessPlayer):
    """An in-process player that keeps every observation it was given."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = []

    def act(self, observation):
        self.seen.append(observation)
        return super().act(observation)


@pytest.mark.parametrize("seed", [3, 4])
def test_its_worlds_deal_exactly_the_cards_it_has_not_seen(seed):
    recorder = Recorder("search", SEARCH)
    players = [recorder, InProcessPlayer("heuristic", builtin_bot("lie21", "heuristic"))]
    assert play_match("lie21", players, seed=seed).error is None
    bot = load_search_bot()
    for obs in recorder.seen:
        judging = obs["role"] == "judge"
        known = bot.knowledge(obs)
        seen = set(obs["hand"]) | ({obs["face_up"]} if judging else set())
        for hand in obs["history"]:
            seen |= {hand["face_up"], *(hand["liar_cards"] or ()), *(hand["judge_cards"] or ())}
        trump_card = obs["trump_card"]
        for _ in range(20):
            theirs, stock, won = bot.deal(obs, known, 2 if judging else 0)
            assert len(theirs) == obs["opponent_hand_count"] + (2 if judging else 0)
            assert len(stock) == obs["deck_count"]
            assert not stock or stock[-1] == trump_card, "the trump card is drawn last"
            assert not set(stock[:-1]) & (seen | {trump_card})
            assert not set(theirs) & seen
            # With the deck empty, a trump card this player has not seen went to the opponent.
            assert trump_card not in theirs or obs["deck_count"] == 0
            in_play = [*obs["hand"], *theirs, *stock, *([obs["face_up"]] if judging else [])]
            assert len(set(in_play)) == len(in_play)
            assert sum(won) + sum(SCORE[c] for c in in_play) == 120, "every card is somewhere"
        if judging:
            trump = obs["trump_suit"]
            worlds = bot.judge_worlds(obs, known, 10, trump, bot.cheap_order(trump))
            assert all(len(w.hand) == obs["opponent_hand_count"] for w in worlds)
            assert all(len(w.pair) == 2 and obs["face_up"] not in w.pair for w in worlds)
