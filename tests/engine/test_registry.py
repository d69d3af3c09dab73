"""The registry finds games as plug-ins: the ``bluff_arena.games`` entry points."""

from __future__ import annotations

import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from engine import registry
from engine.registry import GROUP, GameLoadError

ROOT = Path(__file__).resolve().parents[2]
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][GROUP]


def test_the_engines_own_games_are_the_entry_points_its_pyproject_declares() -> None:
    builtin = ("lie21", "liars", "twenty_one", "tieng_len")
    assert {name: f"engine.games.{name}:GAME" for name in builtin} == DECLARED
    points = {point.name: point.value for point in registry.game_entry_points()}
    assert points.items() >= DECLARED.items()
    for name in DECLARED:
        assert registry.GAMES[name] is EntryPoint(name, DECLARED[name], GROUP).load()


def _discover_with(monkeypatch, points: list[EntryPoint]) -> dict:
    monkeypatch.setattr(registry, "game_entry_points", lambda: points)
    monkeypatch.setenv("ARENA_EXTRA_GAMES", "")
    return registry._discover()


def test_games_come_in_display_order_whatever_order_they_are_declared_in(monkeypatch) -> None:
    points = [EntryPoint(name, value, GROUP) for name, value in reversed(DECLARED.items())]
    found = _discover_with(monkeypatch, points)
    assert list(found) == ["lie21", "liars", "twenty_one", "tieng_len"]


def test_a_plug_in_that_fails_to_import_is_named(monkeypatch) -> None:
    broken = EntryPoint("broken", "no_such_module_anywhere:GAME", GROUP)
    with pytest.raises(GameLoadError, match=r"'broken' .*could not be loaded: ModuleNotFound"):
        _discover_with(monkeypatch, [broken])


def test_an_entry_point_must_carry_its_games_own_name(monkeypatch) -> None:
    wrong = EntryPoint("twentyone", "engine.games.twenty_one:GAME", GROUP)
    with pytest.raises(GameLoadError, match="names a game called 'twenty_one'"):
        _discover_with(monkeypatch, [wrong])


def test_two_distributions_cannot_register_one_name(monkeypatch) -> None:
    twice = [EntryPoint("lie21", "engine.games.lie21:GAME", GROUP)] * 2
    with pytest.raises(GameLoadError, match="two distributions register a game called 'lie21'"):
        _discover_with(monkeypatch, twice)


def test_extra_games_are_hosted_beside_the_plug_ins(monkeypatch) -> None:
    monkeypatch.setattr(registry, "game_entry_points", list)
    monkeypatch.setenv("ARENA_EXTRA_GAMES", "tests.games.highcard")
    assert "highcard" in registry._discover()
    monkeypatch.setattr(
        registry,
        "game_entry_points",
        lambda: [EntryPoint("highcard", "tests.games.highcard:GAME", GROUP)],
    )
    assert "highcard" in registry._discover(), "the same game both ways is one game"
