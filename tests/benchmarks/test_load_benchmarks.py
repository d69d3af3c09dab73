"""The load benchmarks' choices that decide what their figures mean: where the load
generator runs (apart from the server), and that the web mix spreads over the data."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import api_load
import web_load


@pytest.mark.parametrize(
    ("cpus", "server", "client"),
    [([0, 1], "0", "1"), ([0, 1, 2, 3], "0,1,2", "3"), ([2, 5, 7], "2,5", "7"), ([0], None, None)],
)
def test_apart_gives_the_generator_a_cpu_the_server_never_runs_on(cpus, server, client):
    assert web_load.apart(cpus) == (server, client)
    if server is not None:
        assert not api_load.cpu_list(server) & api_load.cpu_list(client)


@pytest.mark.slow
@pytest.mark.django_db
def test_the_web_mix_spreads_over_every_page_match_and_replay(monkeypatch):
    from tests.arena.factories import MatchFactory
    from tests.arena.web.data import bot_make

    bots = [bot_make(name=f"b{n}") for n in range(120)]  # three ladder pages of Lie 21
    matches = [
        MatchFactory(versions=[bots[n].active_version, bots[n + 1].active_version])
        for n in range(0, 119, 2)
    ]
    replays = [match.pk for match in matches[:30]]
    monkeypatch.setattr(web_load, "RECENT", 10)
    pick = web_load._paths(argparse.Namespace(), replays)
    rng = random.Random(5)
    seen = Counter(pick(rng) for _ in range(20_000))
    paths = {path for _, path in seen}
    assert {f"/games/lie21/?page={page}" for page in (1, 2, 3)} <= paths
    assert {f"/matches/{match.pk}/" for match in matches} <= paths  # every match, not the newest
    assert {f"/api/matches/{pk}/replay/" for pk in replays} <= paths
    assert any("&sort=" in path for path in paths)
    assert any(path.startswith("/matches/?bot=") for path in paths)
    assert {"/matches/?page=1", "/matches/?page=2"} <= paths
    kinds = Counter(kind for (kind, _), count in seen.items() for _ in range(count))
    weights = dict(web_load.MIX)
    total = sum(weights.values())
    for kind, weight in weights.items():
        assert kinds[kind] / 20_000 == pytest.approx(weight / total, abs=0.02)
    # Most match pages opened are the newest matches', as readers open them from the list.
    newest = {f"/matches/{match.pk}/" for match in matches[-10:]}
    opened = [path for (kind, path), count in seen.items() for _ in range(count)]
    pages = [path for path in opened if path.startswith("/matches/") and path[9:-1].isdigit()]
    share = sum(path in newest for path in pages) / len(pages)
    assert share == pytest.approx(0.8 + 0.2 * 10 / len(matches), abs=0.03)
