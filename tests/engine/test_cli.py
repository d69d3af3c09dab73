"""``python -m engine``: summaries, replays, and one-line errors with exit status 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import replay as replay_io
from engine.cli import main
from sandbox import Limits
from tests.replay_schemas import validate_replay

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env} if env else None,
    )


def test_play_prints_the_json_summary(tmp_path, capsys):
    code = main(
        [
            "play",
            "heuristic",
            "random",
            "--matches",
            "4",
            "--seed",
            "7",
            "--json",
            "--in-process",
            "--replay-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"game", "players", "matches", "bots", "draws", "errors", "match_wins"}
    assert summary["players"] == ["heuristic", "random"] and summary["matches"] == 4
    assert sum(summary["match_wins"]) + summary["draws"] == 4
    heuristic, random_bot = summary["bots"]
    assert heuristic["name"] == "heuristic" and heuristic["matches"] == 4
    assert set(heuristic) == {
        "name",
        "matches",
        "first_places",
        "mean_place",
        "match_wins",
        "faults",
        "totals",
    }
    assert heuristic["match_wins"] + random_bot["match_wins"] + summary["draws"] == 4
    assert heuristic["mean_place"] < random_bot["mean_place"]
    assert set(heuristic["totals"]) == {"game_wins", "points", "sweeps"}
    replays = sorted(tmp_path.glob("*.json.gz"))
    assert len(replays) == 4
    seat_names = [[s["name"] for s in replay_io.load(p)["seats"]] for p in replays]
    assert seat_names == [["heuristic", "random"], ["random", "heuristic"]] * 2, "seats rotate"
    for path in replays:
        validate_replay(replay_io.load(path))


def test_play_reports_errors_by_player(capsys):
    bot = Path(__file__).parent / "bots" / "returns_list.py"
    assert main(["play", str(bot), "random", "--matches", "2", "--json", "--in-process"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["match_wins"] == [0, 2]
    assert summary["bots"][0]["faults"] == {"bad_output": 2}
    assert [(e["match"], e["player"], e["kind"]) for e in summary["errors"]] == [
        (0, 0, "bad_output"),
        (1, 0, "bad_output"),
    ]


def test_places_count_from_one_in_the_json_and_in_the_table():
    """Issue 32: one convention for places everywhere (1 = first). A bot that faults in every
    match is last in each: mean place 2 of 2, its opponent 1, in --json and in the table."""
    bot = Path(__file__).parent / "bots" / "returns_list.py"
    args = ["play", str(bot), "random", "--matches", "2", "--in-process"]
    as_json = run(*args, "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert [b["mean_place"] for b in json.loads(as_json.stdout)["bots"]] == [2.0, 1.0]
    table = run(*args)
    assert table.returncode == 0, table.stderr
    [row] = [line for line in table.stdout.splitlines() if "mean place" in line]
    cells = [cell for cell in row.replace("\u2502", " ").split() if cell[0].isdigit()]
    assert cells == ["2.00", "1.00"]


def test_the_table_summary_names_both_players():
    result = run("play", "greedy", "random", "--matches", "2", "--in-process")
    assert result.returncode == 0
    assert "greedy" in result.stdout and "match wins" in result.stdout


def test_replay_prints_a_transcript(tmp_path):
    assert (
        main(
            [
                "play",
                "greedy",
                "random",
                "--seed",
                "3",
                "--in-process",
                "--replay-dir",
                str(tmp_path),
                "--json",
            ]
        )
        == 0
    )
    path = next(tmp_path.glob("*.json.gz"))
    result = run("replay", str(path))
    assert result.returncode == 0
    assert "Game 1:" in result.stdout and "Hand 7:" in result.stdout and "Result:" in result.stdout


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (None, "no such file"),
        ("def act(o)\n    return {}\n", "syntax error on line 1"),
        ("def play(o):\n    return {}\n", "defines no top-level act"),
        # Issue 32: the arena's list of importable packages, enforced locally as on upload.
        (
            "import pandas\ndef act(o):\n    return {}\n",
            "line 1: import pandas: bots may import only",
        ),
    ],
)
def test_bad_bots_give_one_line_naming_the_file_and_exit_2(tmp_path, source, expected):
    bot = tmp_path / "mybot.py"
    if source is not None:
        bot.write_text(source)
    result = run("play", str(bot), "random")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bot) in lines[0] and expected in lines[0]


def test_an_unknown_bot_name_is_one_line_too():
    result = run("play", "no-such-bot", "random")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no-such-bot" in result.stderr


def test_match_i_uses_seed_plus_i_so_one_match_can_be_played_again(tmp_path):
    run_dir, again_dir = tmp_path / "run", tmp_path / "again"
    args = ["play", "heuristic", "greedy", "--in-process", "--no-timing", "--json"]
    assert main([*args, "--matches", "3", "--seed", "40", "--replay-dir", str(run_dir)]) == 0
    replays = sorted(run_dir.glob("*.json.gz"))
    assert [replay_io.load(p)["seed"] for p in replays] == [40, 41, 42]
    # Match 1 sat greedy in seat 0 (seats rotate): the same seed and seating replays it.
    again_args = ["play", "greedy", "heuristic", "--in-process", "--no-timing", "--json"]
    assert main([*again_args, "--seed", "41", "--replay-dir", str(again_dir)]) == 0
    (again,) = again_dir.glob("*.json.gz")
    assert again.read_bytes() == replays[1].read_bytes()


def test_a_host_without_the_sandbox_is_one_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "engine", "play", "random", "random"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, "ARENA_SANDBOX_BWRAP": "/nonexistent/bwrap"},
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "bubblewrap not found" in result.stderr
    assert "ARENA_SANDBOX_MODE=unsafe" in result.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "not a readable replay"),
        (b"{not json", "not a readable replay"),
        (b'{"format": 1}', "not a valid replay"),
        (b'{"format": 99}', "not a readable replay"),
    ],
)
def test_a_broken_replay_file_is_one_line_and_exit_2(tmp_path, content, expected):
    path = tmp_path / "broken.json.gz"
    path.write_bytes(content)
    result = run("replay", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert str(path) in result.stderr
    assert expected in result.stderr


def test_sandboxed_runs_record_the_limits_they_enforce(tmp_path):
    assert main(["play", "random", "random", "--replay-dir", str(tmp_path), "--json"]) == 0
    replay = replay_io.load(next(tmp_path.glob("*.json.gz")))
    assert replay["limits"] == Limits().time_limits()
    assert replay["limits"]["move_timeout_s"] == 1.0 and replay["limits"]["time_bank_s"] == 10.0


def test_games_lists_every_hosted_game_with_its_seats():
    result = run("games")
    assert result.returncode == 0
    assert "lie21\t2 seats\tLie 21" in result.stdout


def test_three_bots_play_an_n_seat_game_and_the_summary_ranks_them(capsys):
    args = ["play", "--game", "highcard", "random", "starter", "random", "--matches", "6"]
    assert main([*args, "--in-process", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "highcard" and summary["matches"] == 6
    assert [b["name"] for b in summary["bots"]] == ["random", "starter", "random"]
    assert "match_wins" not in summary, "match wins are for two-seat games"
    for bot in summary["bots"]:
        assert bot["matches"] == 6 and 1 <= bot["mean_place"] <= 3
    assert sum(b["first_places"] for b in summary["bots"]) >= 6


def test_a_bots_prints_and_traceback_go_to_stderr_with_where_they_happened(tmp_path):
    bot = tmp_path / "loud.py"
    bot.write_text(
        "def act(o):\n"
        "    print('my hand is', o['hand'])\n"
        "    if o['hand_number'] == 3:\n"
        "        raise ValueError('boom at hand 3')\n"
        "    cards = o['hand'][:3]\n"
        "    if o['role'] == 'liar':\n"
        "        return {'cards': cards, 'face_up': 0}\n"
        "    return {'cards': cards, 'challenge': False}\n"
    )
    result = run("play", str(bot), "random", "--in-process", "--seed", "3")
    assert result.returncode == 0
    lines = result.stderr.splitlines()
    assert any(
        "lie21 match 0, game 1, hand 1, step" in line and "my hand is" in line for line in lines
    ), result.stderr
    out = [line for line in lines if "is out: crash" in line]
    assert out and "hand 3" in out[0]
    assert "ValueError: boom at hand 3" in result.stderr, "the bot's own traceback is shown"
    quiet = run("play", str(bot), "random", "--in-process", "--seed", "3", "--quiet")
    assert "my hand is" not in quiet.stderr and "boom" not in quiet.stderr


def test_quiet_hides_the_output_on_stderr_but_the_logs_file_keeps_it(tmp_path):
    """Issue 32: ``--quiet`` also dropped the ``*.logs.json`` beside each replay, though it
    only hides stderr (README, docs/bot-api.md)."""
    bot = tmp_path / "talker.py"
    bot.write_text(
        "def act(o):\n"
        "    print('thinking about hand', o['hand_number'])\n"
        "    cards = o['hand'][:3]\n"
        "    if o['role'] == 'liar':\n"
        "        return {'cards': cards, 'face_up': 0}\n"
        "    return {'cards': cards, 'challenge': False}\n"
    )
    replays = tmp_path / "replays"
    args = ["play", str(bot), "random", "--in-process", "--seed", "4", "--quiet"]
    quiet = run(*args, "--replay-dir", str(replays))
    assert quiet.returncode == 0, quiet.stderr
    assert "thinking about" not in quiet.stderr
    logs = list(replays.glob("*.logs.json"))
    assert len(logs) == 1 and len(list(replays.glob("*.json.gz"))) == 1
    assert "thinking about hand 1" in logs[0].read_text()


def test_a_bot_that_played_no_match_has_no_mean_place():
    """Issue 32: zero matches gave a mean place of 0.0 (a place better than first); it is
    None, null in --json, as in the API."""
    from engine.runner import Summary
    from engine.tournament import LocalTournament

    summary = Summary(game="lie21", players=["a", "b"])
    assert summary.mean_place(0) is None
    assert [bot["mean_place"] for bot in summary.to_json()["bots"]] == [None, None]
    tournament = LocalTournament(game="lie21", names=["a", "b", "c"])
    rows = tournament.to_json()["standing"]
    assert [row["mean_place"] for row in rows] == [None, None, None]


def test_a_local_tournament_prints_standings_a_crosstable_and_ratings(capsys):
    args = ["tournament", "heuristic", "greedy", "random", "--matches", "2", "--in-process"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["matches"] == 6  # three pairs, two matches each (seats swapped)
    names = [row["name"] for row in result["standing"]]
    assert sorted(names) == ["greedy", "heuristic", "random"]
    assert all(row["played"] == 4 for row in result["standing"])
    assert sum(row["points"] for row in result["standing"]) == 6
    for row in result["standing"]:  # the arena's displayed rating, with its 95% interval
        assert row["rating_low"] < row["rating"] < row["rating_high"]
    assert result["crosstable"]["heuristic"]["random"]["meetings"] == 2
    table = run("tournament", "greedy", "random", "--in-process", "--matches", "1")
    assert table.returncode == 0 and "crosstable" in table.stdout and "rating" in table.stdout


def test_a_tournament_of_an_n_seat_game_seats_every_group_in_every_rotation(capsys):
    args = ["tournament", "--game", "highcard", "random", "starter", "p.py", "--in-process"]
    assert main(args) == 2, "a missing file is one line and exit 2"
    capsys.readouterr()
    bots = ["random", "starter", "random_copy.py"]
    args = ["tournament", "--game", "highcard", *bots[:2], "--matches", "2", "--in-process"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["matches"] == 2  # two bots: one table, played in both seat orders


def test_packages_says_what_bots_may_import_and_whether_the_sandbox_has_it(tmp_path):
    from engine.botpackages import BOT_PACKAGES

    listed = run("packages")
    assert listed.returncode == 0
    assert f"bots may import the standard library and numpy {BOT_PACKAGES['numpy']}" in (
        listed.stdout
    )
    missing = run("packages", env={"ARENA_SANDBOX_PACKAGES_DIR": str(tmp_path)})
    assert "not installed for the sandbox" in missing.stdout
    assert "python -m engine packages --install" in missing.stdout
