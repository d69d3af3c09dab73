"""``python -m engine``: summaries, replays, and one-line errors with exit status 2."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from engine import replay as replay_io
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
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
    assert set(summary) == {
        "players",
        "matches",
        "match_wins",
        "draws",
        "game_wins",
        "points",
        "sweeps",
        "errors",
    }
    assert summary["players"] == ["heuristic", "random"] and summary["matches"] == 4
    assert sum(summary["match_wins"]) + summary["draws"] == 4
    replays = sorted(tmp_path.glob("*.json.gz"))
    assert len(replays) == 4
    schema = json.loads(replay_io.SCHEMA_PATH.read_text())
    for path in replays:
        jsonschema.validate(replay_io.load(path), schema)


def test_play_reports_errors_by_player(capsys):
    bot = Path(__file__).parent / "bots" / "returns_list.py"
    assert main(["play", str(bot), "random", "--matches", "2", "--json", "--in-process"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["match_wins"] == [0, 2]
    assert [(e["match"], e["player"], e["kind"]) for e in summary["errors"]] == [
        (0, 0, "bad_output"),
        (1, 0, "bad_output"),
    ]


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
    assert main([*args, "--matches", "1", "--seed", "41", "--replay-dir", str(again_dir)]) == 0
    replays = sorted(run_dir.glob("*.json.gz"))
    assert [replay_io.load(p)["seed"] for p in replays] == [40, 41, 42]
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
    assert replay["limits"] == {"move_timeout_s": 1.0, "time_bank_s": 10.0}
