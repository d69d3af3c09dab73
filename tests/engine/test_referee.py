"""A replay a referee can check: every game re-plays from what its replay holds.

``engine.referee`` deals each game again from its record (never its seed), replays every
action and fault, and compares the events, the record, the placings and the scores. Each
game's record carries every random draw it made (its rules.md, "The replay").
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import BotFault, FaultKind, InProcessPlayer, builtin_bot, get_game, play_match
from engine import replay as replay_io
from engine.referee import CannotReplay, differences
from engine.registry import GAMES
from tests.engine.players import WrappedPlayer

ROOT = Path(__file__).resolve().parents[2]
GAMES_TO_RECORD = 1000


def _without_seeds(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay as JSON, with every seed gone: a re-play has nothing to draw from but
    what the replay recorded."""
    stored = json.loads(json.dumps(replay))
    stored["seed"] = None
    for seat in stored["seats"]:
        seat["bot_seed"] = None
    for game in stored["games"]:
        game["seed"] = None
    return stored


def _recorded(name: str, games: int) -> Iterator[dict[str, Any]]:
    """Replays of random-bot matches of the game, every table size in turn, until ``games``
    games are recorded."""
    game = get_game(name)
    sizes = range(game.min_players, min(game.max_players, 6) + 1)
    played = 0
    seed = 0
    while played < games:
        seats = sizes[seed % len(sizes)]
        path = builtin_bot(name, "random")
        players = [InProcessPlayer(f"random{s}", path) for s in range(seats)]
        replay = play_match(name, players, seed=seed, record_timing=False).replay
        played += len(replay["games"])
        seed += 1
        yield replay


@pytest.fixture
def schema_checked_once_per_table_size():
    """The thousand games' replays are like every other test's, so only the first of each
    table size is checked against the schemas (the check's JSON round trip, 3-6 ms a
    replay, would add seconds to this test for nothing new)."""
    from engine.match import REPLAY_CHECKS
    from tests.replay_schemas import validate_replay

    if validate_replay not in REPLAY_CHECKS:
        yield lambda replay: None
        return
    REPLAY_CHECKS.remove(validate_replay)
    sizes: set[int] = set()

    def check(replay: dict[str, Any]) -> None:
        if len(replay["seats"]) not in sizes:
            sizes.add(len(replay["seats"]))
            validate_replay(replay)

    yield check
    REPLAY_CHECKS.append(validate_replay)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_a_thousand_recorded_games_re_play_from_the_replay_alone(
    name: str, schema_checked_once_per_table_size
) -> None:
    games = 0
    for replay in _recorded(name, GAMES_TO_RECORD):
        schema_checked_once_per_table_size(replay)
        assert differences(_without_seeds(replay)) == [], f"seed {replay['seed']}"
        games += len(replay["games"])
    assert games >= GAMES_TO_RECORD


def test_every_game_the_engine_ships_can_be_re_played() -> None:
    shipped = [game for game in GAMES.values() if type(game).__module__.startswith("engine.")]
    assert len(shipped) >= 4
    for game in shipped:
        assert callable(getattr(game, "rebuild", None)), game.name


class _Crashes(WrappedPlayer):
    """A random bot that crashes at its ``at``-th decision."""

    def __init__(self, name: str, game: str, at: int) -> None:
        super().__init__(InProcessPlayer(name, builtin_bot(game, "random")))
        self.at, self.decisions = at, 0

    def act(self, observation: Any) -> dict[str, Any]:
        self.decisions += 1
        if self.decisions == self.at:
            raise BotFault(FaultKind.CRASH, "crashes on purpose")
        return self.inner.act(observation)

    def output(self) -> str:
        return ""

    def take_output(self) -> str:
        return ""


@pytest.mark.parametrize(
    ("name", "seats", "crashing"),
    [
        ("liars", 4, {1: 9}),  # out mid-round: the round is void, the others play on
        ("liars", 3, {0: 4, 2: 30}),  # two seats out: the second cuts the match short
        ("liars", 2, {1: 6}),  # two seats: the game stops mid-round
        ("tieng_len", 3, {2: 7}),
        ("tieng_len", 4, {0: 1, 3: 40}),
        ("twenty_one", 2, {0: 12}),  # stopped mid-round: the round's draws so far are kept
        ("lie21", 2, {1: 5}),
    ],
)
def test_a_match_with_faults_re_plays_from_its_replay(name: str, seats: int, crashing) -> None:
    for seed in range(6):
        players = [
            _Crashes(f"s{s}", name, crashing[s])
            if s in crashing
            else InProcessPlayer(f"s{s}", builtin_bot(name, "random"))
            for s in range(seats)
        ]
        replay = play_match(name, players, seed=seed, record_timing=False).replay
        assert replay["faults"], "the scripted crash happened"
        assert differences(_without_seeds(replay)) == []


def _match(name: str, seats: int, seed: int) -> dict[str, Any]:
    players = [InProcessPlayer(f"r{s}", builtin_bot(name, "random")) for s in range(seats)]
    return _without_seeds(play_match(name, players, seed=seed, record_timing=False).replay)


def test_a_die_that_landed_otherwise_is_caught() -> None:
    replay = _match("liars", 3, seed=5)
    tampered = copy.deepcopy(replay)
    throw = tampered["games"][0]["record"]["rounds"][0]["throws"][0]
    die = next(d for d, value in enumerate(throw["values"]) if value is not None)
    throw["values"][die] = throw["values"][die] % 6 + 1
    assert differences(replay) == []
    assert differences(tampered)


def test_a_missing_trump_refill_is_caught() -> None:
    for seed in range(40):
        replay = _match("twenty_one", 2, seed)
        if any(game["record"]["trump_refills"] for game in replay["games"]):
            break
    else:
        pytest.fail("no trump deck ran out in 40 matches")
    tampered = copy.deepcopy(replay)
    for game in tampered["games"]:
        game["record"]["trump_refills"] = []
    assert differences(replay) == []
    found = differences(tampered)
    assert any("no more trump refills" in line for line in found), found


def test_a_card_put_back_elsewhere_is_caught() -> None:
    for seed in range(40):
        replay = _match("twenty_one", 2, seed)
        spots = [
            (g, r, k)
            for g, game in enumerate(replay["games"])
            for r, entry in enumerate(game["record"]["rounds"])
            for k, _ in enumerate(entry["put_back"])
        ]
        if spots:
            break
    g, r, k = spots[0]
    tampered = copy.deepcopy(replay)
    tampered["games"][g]["record"]["rounds"][r]["put_back"][k]["slot"] = 99
    assert differences(tampered)


def test_a_shuffle_that_differs_from_the_moves_is_caught() -> None:
    replay = _match("lie21", 2, seed=3)
    tampered = copy.deepcopy(replay)
    deck = tampered["games"][0]["record"]["deck"]
    deck[0], deck[20] = deck[20], deck[0]  # the dealer's first card, swapped with a later one
    assert differences(tampered)


def test_a_game_without_rebuild_cannot_be_re_played(monkeypatch) -> None:
    replay = _match("lie21", 2, seed=1)
    game = get_game("lie21")
    monkeypatch.setattr(type(game), "rebuild", None, raising=False)
    with pytest.raises(CannotReplay, match="cannot deal a game from its replay"):
        differences(replay)


def test_the_cli_checks_a_replay_file(tmp_path: Path) -> None:
    replay = _match("twenty_one", 2, seed=2)
    good = replay_io.save(replay, tmp_path / "good.json.gz")
    tampered = copy.deepcopy(replay)
    tampered["games"][0]["record"]["rounds"][0]["deck"].reverse()
    bad = replay_io.save(tampered, tmp_path / "bad.json.gz")
    command = [sys.executable, "-m", "engine", "replay"]
    ok = subprocess.run([*command, str(good), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    assert "every game re-plays from the replay" in ok.stdout
    wrong = subprocess.run(
        [*command, str(bad), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert wrong.returncode == 1
    assert "game 1" in wrong.stdout
