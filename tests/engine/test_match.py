"""The match runner: results, faults as lost matches, hooks, replays, determinism."""

import json
import sys
import types
from pathlib import Path

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match
from engine import replay as replay_io
from tests.replay_schemas import validate_replay

BOTS = Path(__file__).parent / "bots"


def players(a, b, **kwargs):
    def make(spec, name):
        path = builtin_bot("lie21", spec) if "/" not in str(spec) else spec
        return InProcessPlayer(name, path, **kwargs)

    return [make(a, "a"), make(b, "b")]


def validate(replay):
    validate_replay(replay)


@pytest.mark.parametrize("seed", range(12))
def test_matches_end_by_the_rules_and_replays_validate(seed):
    result = play_match("lie21", players("heuristic", "random"), seed=seed)
    validate(result.replay)
    assert result.error is None
    assert result.reason in {"match_points", "sweep", "game_cap"}
    if result.reason == "match_points":
        assert max(result.match_points) >= 4
    if result.reason == "sweep":
        assert result.total("sweeps")[result.winner] == 1
        assert result.replay["games"][-1]["result"] == "sweep"
    games = result.replay["games"]
    assert [g["dealer"] for g in games] == [
        (result.replay["first_dealer"] + i) % 2 for i in range(len(games))
    ], "the dealer alternates every game"
    assert sum(result.total("points")) == 120 * result.games_played
    assert all(len(g["steps"]) == 14 and all("ms" in s for s in g["steps"]) for g in games)
    assert sorted(result.placings) == [0, 1] or result.placings == (0, 0)


def test_same_seed_and_deterministic_bots_give_a_byte_identical_replay():
    first = play_match("lie21", players("heuristic", "random"), seed=99, record_timing=False)
    second = play_match("lie21", players("heuristic", "random"), seed=99, record_timing=False)
    assert replay_io.dumps(first.replay) == replay_io.dumps(second.replay)
    other = play_match("lie21", players("heuristic", "random"), seed=100, record_timing=False)
    assert replay_io.dumps(other.replay) != replay_io.dumps(first.replay)


def test_a_crash_loses_the_match_and_the_replay_says_who_where_and_why():
    result = play_match("lie21", players(BOTS / "crash_in_game_two.py", "random"), seed=3)
    assert result.games_played == 1, "with this seed the first game does not end the match"
    assert result.winner == 1 and result.reason == "fault"
    assert result.placings == (1, 0)
    error = result.replay["faults"][0]
    assert error["seat"] == 0 and error["kind"] == "crash" and error["game"] == 2
    assert error["where"]["hand"] == 1 and error["where"]["phase"] in {"lie", "answer"}
    assert error["phase"] == "act"
    game = result.replay["games"][-1]
    assert game["end"] == "fault"
    assert error["step"] == len(game["steps"]), "the fault is at the step that was not played"
    assert "secret-internal-state" not in json.dumps(result.replay), "bot output stays private"
    assert "secret-internal-state" in result.error.private
    validate(result.replay)


@pytest.mark.parametrize(
    ("bot", "kind", "detail"),
    [
        ("returns_list.py", "bad_output", "not a dict"),
        ("plays_foreign_card.py", "illegal_move", "is not in your hand"),
    ],
)
def test_bad_moves_lose_at_once(bot, kind, detail):
    result = play_match("lie21", players("random", BOTS / bot), seed=1)
    assert result.winner == 0 and result.error.seat == 1
    assert result.error.kind == kind and detail in result.error.detail
    assert result.games_played == 0
    validate(result.replay)


def test_time_overruns_draw_on_the_bank_then_time_out():
    a = InProcessPlayer("slow", BOTS / "burns_cpu.py", move_timeout_s=0.01, time_bank_s=0.1)
    result = play_match("lie21", [a, InProcessPlayer("r", builtin_bot("lie21", "random"))], seed=2)
    assert result.error.kind == "timeout" and result.error.seat == 0
    # Each move overdraws ~20 ms, so the 100 ms bank lasts a few moves, not one.
    moves = sum(len(g["steps"]) for g in result.replay["games"])
    assert moves >= 4


class KeepsModule(InProcessPlayer):
    """Keeps the bot's module after the match so the test can read what it recorded."""

    def close(self):
        self.kept = self._module
        super().close()


def test_hooks_are_called_once_per_hand_and_game_with_the_bots_own_seed():
    bot = KeepsModule("hooks", BOTS / "records_hooks.py")
    result = play_match(
        "lie21", [bot, InProcessPlayer("r", builtin_bot("lie21", "random"))], seed=4
    )
    assert result.error is None
    calls = bot.kept.calls
    assert calls[0][:2] == ("start", 0)
    hands = [c for c in calls if c[0] == "hand"]
    games = [c for c in calls if c[0] == "game"]
    assert len(hands) == 7 * result.games_played
    assert [h[2] for h in hands[:7]] == [1, 2, 3, 4, 5, 6, 7], "history grows hand by hand"
    assert [g[1] for g in games] == list(range(1, result.games_played + 1))
    assert [list(g[2]) for g in games] == [g["scores"] for g in result.replay["games"]]


def test_bot_output_is_captured_for_its_owner_and_capped():
    bot = InProcessPlayer("chatty", BOTS / "prints_a_lot.py")
    result = play_match(
        "lie21",
        [bot, InProcessPlayer("r", builtin_bot("lie21", "random"))],
        seed=4,
        collect_logs=True,
    )
    kept, marker = bot.output().split("\n[output truncated: ")
    assert kept.startswith("thinking...") and len(kept) == 64 * 1024
    assert marker.endswith("more characters were dropped]\n")
    texts = [entry["text"] for entry in result.logs[0]]
    assert sum("[output truncated: " in text for text in texts) == 1  # the step it happened
    assert texts[-1].endswith("the rest is dropped]\n")  # nothing filed after it
    assert "".join(texts).startswith(kept)


def test_options_change_the_match_rules():
    result = play_match(
        "lie21", players("heuristic", "random"), seed=5, options={"target": 1, "game_cap": 1}
    )
    assert result.games_played == 1
    assert result.replay["options"]["game_cap"] == 1


def test_seed_must_be_a_non_negative_integer():
    with pytest.raises(ValueError, match="seed"):
        play_match("lie21", players("random", "random"), seed=-1)


@pytest.mark.parametrize(("hand", "counted_games"), [(1, 0), (7, 1)])
def test_a_hook_fault_names_the_hand_it_followed_and_a_finished_game_still_counts(
    hand, counted_games, tmp_path
):
    # One bot file, told which hand to crash after (7: the last hand of seed 11's game).
    source = (BOTS / "crash_after_hand.py").read_text()
    bot = tmp_path / "crash_after_hand.py"
    bot.write_text(source.replace("CRASH_AFTER = 1\n", f"CRASH_AFTER = {hand}\n"))
    result = play_match("lie21", players(bot, "random"), seed=11)
    error = result.replay["faults"][0]
    assert (error["kind"], error["seat"], error["phase"]) == ("crash", 0, "on_hand_end")
    assert error["game"] == 1
    assert result.games_played == counted_games
    assert result.placings == (1, 0)
    if counted_games:
        assert result.replay["games"][0]["end"] == "complete"
        assert sum(result.total("points")) == 120
    else:
        assert error["where"]["hand"] == hand + 1, "the hook followed hand 1: play is at hand 2"


def test_in_process_bots_cannot_change_what_the_other_bot_sees():
    result = play_match("lie21", players(BOTS / "mutator.py", BOTS / "checks_its_view.py"), seed=5)
    assert result.error is None, result.error


def test_an_in_process_zip_bot_gets_fresh_modules_every_match():
    for seed in range(3):  # the helper counts its calls; a leak trips its assertion
        result = play_match("lie21", players(BOTS / "zipped_a", "random"), seed=seed)
        assert result.error is None, result.error


def test_an_in_process_bot_leaves_the_callers_modules_in_its_folder_alone(tmp_path, monkeypatch):
    """A script testing its bot locally often sits beside it: closing the bot must not unload
    the script's own modules (``__main__`` among them), only what the bot imported."""
    (tmp_path / "bot.py").write_text(
        "import helper_of_bot\ndef act(o):\n    return helper_of_bot.move(o)\n"
    )
    (tmp_path / "helper_of_bot.py").write_text(
        "def move(o):\n"
        "    cards = o['hand'][:3]\n"
        "    if o['role'] == 'liar':\n"
        "        return {'cards': cards, 'face_up': 0}\n"
        "    return {'cards': cards, 'challenge': False}\n"
    )
    script = types.ModuleType("callers_script")
    script.__file__ = str(tmp_path / "run_my_bot.py")
    monkeypatch.setitem(sys.modules, "callers_script", script)
    result = play_match("lie21", players(tmp_path / "bot.py", "random"), seed=3)
    assert result.error is None, result.error
    assert sys.modules.get("callers_script") is script
    assert "helper_of_bot" not in sys.modules  # the bot's own import is unloaded


def test_bot_seeds_default_from_the_match_seed_and_can_be_given():
    derived = play_match("lie21", players("random", "random"), seed=8)
    given = play_match("lie21", players("random", "random"), seed=8, bot_seeds=[1, 2])
    assert [s["bot_seed"] for s in derived.replay["seats"]] == [
        derive_seed(8, "bot", 0),
        derive_seed(8, "bot", 1),
    ]
    assert [s["bot_seed"] for s in given.replay["seats"]] == [1, 2]
    first = derived.replay["games"][0]["record"]["deck"]
    assert first == given.replay["games"][0]["record"]["deck"]


@pytest.mark.parametrize("seed", [True, 2**53, -1, 1.0])
def test_a_seed_must_stay_exact_in_json(seed):
    with pytest.raises(ValueError, match="seed"):
        play_match("lie21", players("random", "random"), seed=seed)


def test_a_hook_failing_after_the_match_is_decided_costs_nothing_but_is_logged(tmp_path):
    """The result stands, and the owner still reads what the bot printed and why it failed."""
    bot = tmp_path / "bot.py"
    bot.write_text(
        "def on_game_end(report):\n"
        "    print('last words', report['match_over'])\n"
        "    raise RuntimeError('too late')\n"
        "def act(o):\n"
        "    return o['legal_actions'][0]\n"
    )
    result = play_match(
        "lie21",
        players(bot, "random"),
        seed=5,
        options={"target": 1, "game_cap": 1},
        collect_logs=True,
    )
    assert result.faults == () and result.games_played == 1
    logged = "".join(entry["text"] for entry in result.logs[0] if entry["phase"] == "on_game_end")
    assert "last words True" in logged
    assert "crash: " in logged and "after the match was decided: not a fault" in logged
    assert "RuntimeError: too late" in logged


def test_an_in_process_bot_without_act_is_named_by_its_own_file(tmp_path):
    """Issue 32: "bot.py defines no act() function" whatever the author's file was."""
    from engine.players import BotFault

    path = tmp_path / "my_strategy.py"
    path.write_text("def decide(observation):\n    return {}\n")
    player = InProcessPlayer("mine", path)
    with pytest.raises(BotFault) as fault:
        player.start({})
    assert fault.value.detail == "my_strategy.py defines no act() function"
