"""The contract every hosted game keeps (docs/game-interface.md), checked for each one.

Parametrized over the registry, so a new game folder is tested here the moment it exists:
random legal play ends with valid placings and replays, the same seed gives the same bytes,
deals do not depend on who sits where, no seat ever sees what another seat was dealt or
played in private, the default action is always legal, malformed actions are refused by the
schema with a message, and a seat that faults is placed last.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from engine import BotFault, FaultKind, InProcessPlayer, builtin_bot, play_match
from engine import replay as replay_io
from engine.actions import action_problem
from engine.registry import GAMES, get_game
from tests.engine.players import WrappedPlayer
from tests.replay_schemas import game_schema_path, validate_replay

GAME_NAMES = list(GAMES)


def seat_counts(name: str) -> list[int]:
    game = get_game(name)
    return sorted({game.min_players, min(game.min_players + 1, game.max_players), game.max_players})


def tables() -> Iterator[tuple[str, int]]:
    for name in GAME_NAMES:
        for seats in seat_counts(name):
            yield name, seats


class Recorder(WrappedPlayer):
    """A seat that records everything it is given (observations and hook payloads)."""

    trusted = False  # so the runner checks every action against the schema

    def __init__(self, inner: InProcessPlayer) -> None:
        super().__init__(inner)
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        self.seen.append(("act", json.loads(json.dumps(observation))))
        return self.inner.act(observation)

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        self.seen.append((hook, json.loads(json.dumps(payload))))
        self.inner.notify(hook, payload)


def random_players(name: str, seats: int, *, record: bool = False) -> list[Any]:
    path = builtin_bot(name, "random")
    players = [InProcessPlayer(f"random{s}", path) for s in range(seats)]
    return [Recorder(p) for p in players] if record else players


def vocabulary(schema: Any) -> set[str]:
    """The words of a game's action schema (``const`` and ``enum`` strings, property names):
    every seat knows them, so they are no one's secret."""
    words: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("const", "enum"):
                words |= {v for v in (value if key == "enum" else [value]) if isinstance(v, str)}
            elif key == "properties" and isinstance(value, dict):
                words |= set(value)
            words |= vocabulary(value)
    elif isinstance(schema, list):
        for item in schema:
            words |= vocabulary(item)
    return words


def strings(value: Any) -> set[str]:
    """Every string leaf of a JSON value (card codes and the like)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


# --- declarations ------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_declares_what_the_platform_needs(name):
    game = get_game(name)
    assert game.name == name and game.title and game.summary and game.match_summary
    assert 2 <= game.min_players <= game.max_players <= 16
    assert game.rules_version >= 1
    for event_type, hook in game.hook_events.items():
        assert hook in game.hooks and event_type
    for hook in game.hooks:
        assert hook.startswith("on_") and hook not in ("on_match_start", "on_game_end")
    bots = game.builtin_bots()
    assert {"random", "starter"} <= set(bots), "every game ships a random and a starter bot"
    assert all(path.is_file() for path in bots.values())
    assert game.docs_path().is_file()
    assert game_schema_path(name).is_file()
    defaults = game.match_rules(None).options()
    assert json.loads(json.dumps(defaults)) == defaults
    with pytest.raises(ValueError, match=r"."):
        game.match_rules({"no_such_option_anywhere": 1})


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("junk", [{}, {"no_such_key": 1}, "text", [1, 2], None, {"a": {"b": []}}])
def test_malformed_actions_are_refused_by_the_schema_with_a_message(name, junk):
    problem = action_problem(get_game(name), junk)
    assert problem is not None and problem.startswith("malformed action")


# --- random legal play --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), list(tables()))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_legal_play_ends_with_placings_and_a_valid_replay(name, seats, seed):
    result = play_match(name, random_players(name, seats), seed=seed)
    validate_replay(result.replay)
    assert result.faults == (), [f.detail for f in result.faults]
    placings = result.placings
    assert len(placings) == seats and min(placings) == 0
    # Competition ranks: a rank r is held by a seat only if exactly r seats are ahead of it.
    assert all(sum(1 for q in placings if q < p) == p for p in placings)
    for game in result.replay["games"]:
        assert game["end"] == "complete" and len(game["placings"]) == seats
        assert game["steps"], "a game has at least one move"
    stats = get_game(name).stats(result.replay)
    assert len(stats) == seats and all(isinstance(s, dict) for s in stats)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_replay_check_refuses_a_replay_that_breaks_either_schema(name):
    """The check every test's replays pass (tests/conftest.py) is not a formality."""
    replay = json.loads(json.dumps(play_match(name, random_players(name, 2), seed=1).replay))
    validate_replay(replay)
    envelope = json.loads(json.dumps(replay))
    del envelope["games"][0]["end"]
    with pytest.raises(jsonschema_rs.ValidationError, match="end"):
        validate_replay(envelope)
    game_part = json.loads(json.dumps(replay))
    game_part["games"][0]["steps"][0]["action"] = {"no_such_key_in_any_game": True}
    with pytest.raises(jsonschema_rs.ValidationError):
        validate_replay(game_part)


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_every_listed_legal_action_meets_the_schema(name, seats):
    game = get_game(name)
    if not game.lists_legal_actions:
        pytest.skip(f"{name} does not list its legal actions (its schema and rules decide)")
    rng = random.Random(5)
    state = game.new_game(seed=5, dealer=0, num_players=seats, options=None)
    for _ in range(400):
        seat = state.to_act()
        if seat is None:
            break
        legal = state.legal_actions(seat)
        assert legal, "the seat to move always has a legal action"
        for action in legal:
            assert action_problem(game, action) is None, action
        state.apply(seat, rng.choice(legal))
    else:
        pytest.fail("a game of random legal moves did not end in 400 moves")


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_default_actions_alone_play_a_game_to_its_end(name, seats):
    game = get_game(name)
    state = game.new_game(seed=11, dealer=1 % seats, num_players=seats, options=None)
    for _ in range(5000):
        seat = state.to_act()
        if seat is None:
            break
        action = state.default_action(seat)
        assert action_problem(game, action) is None
        state.apply(seat, action)
    else:
        pytest.fail("default actions did not end the game")
    assert len(state.placings()) == seats


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_same_seed_gives_byte_identical_replays(name, seats):
    def play(seed):
        result = play_match(name, random_players(name, seats), seed=seed, record_timing=False)
        return replay_io.dumps(result.replay)

    assert play(41) == play(41)
    assert play(41) != play(42)


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_the_deal_depends_on_the_seed_and_game_number_not_on_who_sits_where(name, seats):
    """Permuting the bots leaves every game's seed and deal as they were (duplicate play)."""
    path = builtin_bot(name, "random")

    def deals(order):
        players = [InProcessPlayer(f"bot{k}", path) for k in order]
        replay = play_match(name, players, seed=77, record_timing=False).replay
        first = replay["games"][0]
        return first["seed"], json.dumps(first["start"], sort_keys=True)

    order = list(range(seats))
    assert deals(order) == deals(order[::-1])


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_rotating_a_deal_gives_each_seat_another_seats_hand(name, seats):
    game = get_game(name)
    if not game.supports_duplicate:
        pytest.skip(f"{name} does not replay deals with rotated seats")
    plain = game.new_game(seed=9, dealer=0, num_players=seats, rotation=0, options=None)
    turned = game.new_game(seed=9, dealer=0, num_players=seats, rotation=1, options=None)
    private = [e.get("private", {}) for e in plain.start_events()]
    rotated = [e.get("private", {}) for e in turned.start_events()]
    for before, after in zip(private, rotated, strict=True):
        for seat in range(seats):
            if str((seat + 1) % seats) in before:
                assert after.get(str(seat)) == before[str((seat + 1) % seats)]


# --- hidden information -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), list(tables()))
@pytest.mark.parametrize("seed", [3, 4])
def test_no_seat_ever_sees_another_seats_private_part(name, seats, seed):
    """What a seat is given never holds a value that only other seats' private event parts
    and private actions hold (checked on strings: card codes and the like; each game's own
    property test covers its numbers)."""
    players = random_players(name, seats, record=True)
    replay = play_match(name, players, seed=seed, record_timing=False).replay
    common = vocabulary(get_game(name).action_schema())
    visible = [set(common) for _ in range(seats)]
    hidden = [set() for _ in range(seats)]

    def learn(event):
        for seat in range(seats):
            visible[seat] |= strings(event["public"]) | {event["type"]}
        for key, part in event.get("private", {}).items():
            owner = int(key)
            visible[owner] |= strings(part)
            for seat in range(seats):
                if seat != owner:
                    hidden[seat] |= strings(part)

    cursor = [0] * seats  # next observation of each seat to check
    acts = [list(p.seen) for p in players]
    for game in replay["games"]:
        for event in game["start"]:
            learn(event)
        for step in game["steps"]:
            seat = step["seat"]
            # The observation this seat acted on: everything before this step.
            while cursor[seat] < len(acts[seat]) and acts[seat][cursor[seat]][0] != "act":
                cursor[seat] += 1
            _, observation = acts[seat][cursor[seat]]
            cursor[seat] += 1
            secret = hidden[seat] - visible[seat]
            leaked = strings(observation) & secret
            assert not leaked, f"seat {seat} saw {sorted(leaked)} of other seats' private parts"
            actor_strings = strings(step["action"])
            visible[seat] |= actor_strings
            for other in range(seats):
                if other != seat:
                    hidden[other] |= actor_strings
            for event in step["events"]:
                learn(event)


# --- faults -------------------------------------------------------------------------------


class _Crasher(InProcessPlayer):
    """Crashes on its third decision."""

    def __init__(self, name: str, path: Any) -> None:
        super().__init__(name, path)
        self.calls = 0

    def act(self, observation):
        self.calls += 1
        if self.calls == 3:
            raise BotFault(FaultKind.CRASH, "the bot raised ZeroDivisionError in act()")
        return super().act(observation)


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_a_faulting_seat_is_placed_last_and_never_makes_everyone_draw(name, seats):
    path = builtin_bot(name, "random")
    players = [InProcessPlayer(f"random{s}", path) for s in range(seats)]
    players[1] = _Crasher("crasher", path)
    result = play_match(name, players, seed=21)
    validate_replay(result.replay)
    assert [f.seat for f in result.faults] == [1]
    fault = result.faults[0]
    assert fault.kind == "crash" and fault.phase == "act" and fault.step is not None
    assert result.placings[1] == seats - 1, "the faulting seat is last"
    assert all(result.placings[s] < seats - 1 for s in range(seats) if s != 1)
    if seats == 2:
        assert result.winner == 0


# --- what a bot is given is its own -----------------------------------------------------------


def _scribble(value: Any) -> None:
    """Empty every list and dict inside ``value`` (then ``value`` itself)."""
    children = value.values() if isinstance(value, dict) else value
    for child in list(children):
        if isinstance(child, dict | list):
            _scribble(child)
    value.clear()


class _Scribbler(WrappedPlayer):
    """A random bot that, once it has decided, scribbles over everything it was given
    (observations and hook payloads alike). It decides on a copy, so what it plays does not
    depend on what it did to its earlier views."""

    hooks = None  # every hook the game offers

    def __init__(self, inner: InProcessPlayer) -> None:
        super().__init__(inner)
        self.actions: list[dict[str, Any]] = []

    def act(self, observation: dict[str, Any]) -> dict[str, Any]:
        action = json.loads(json.dumps(self.inner.act(json.loads(json.dumps(observation)))))
        self.actions.append(json.loads(json.dumps(action)))
        _scribble(observation)
        return action

    def notify(self, hook: str, payload: dict[str, Any]) -> None:
        self.inner.notify(hook, json.loads(json.dumps(payload)))
        _scribble(payload)

    def output(self) -> str:
        return ""

    def take_output(self) -> str:
        return ""


class _Scripted(_Scribbler):
    """Plays the scribbler's moves again, in order, touching nothing."""

    def __init__(self, inner: InProcessPlayer, actions: list[dict[str, Any]]) -> None:
        super().__init__(inner)
        self.script = iter(actions)

    def act(self, observation: dict[str, Any]) -> dict[str, Any]:
        return next(self.script)

    def notify(self, hook: str, payload: dict[str, Any]) -> None:
        self.inner.notify(hook, payload)


class _Listener(Recorder):
    """A recorder that is given every hook the game offers."""

    hooks = None


@pytest.mark.parametrize(("name", "seats"), list(tables()))
def test_a_bot_that_changes_what_it_is_given_changes_nothing_for_anyone_else(name, seats):
    """Observations may hand a seat its own copies of what it saw before (a round's history)
    again: whatever a bot does to them, the other seats see and the replay says exactly what
    they would have had it touched nothing."""
    path = builtin_bot(name, "random")
    for seed in (3, 4):
        scribbler = _Scribbler(InProcessPlayer("scribbler", path))
        others = [_Listener(InProcessPlayer(f"random{s}", path)) for s in range(1, seats)]
        scribbled = play_match(name, [scribbler, *others], seed=seed, record_timing=False)
        calm = [_Listener(InProcessPlayer(f"random{s}", path)) for s in range(1, seats)]
        scripted = _Scripted(InProcessPlayer("scribbler", path), scribbler.actions)
        untouched = play_match(name, [scripted, *calm], seed=seed, record_timing=False)
        assert [o.seen for o in others] == [o.seen for o in calm]
        assert scribbled.replay == untouched.replay


# --- a game is one folder ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_is_one_folder_with_its_rules_schema_renderer_and_bots(name):
    game = get_game(name)
    folder = Path(sys.modules[type(game).__module__].__file__).parent
    files = {
        "rules": game.docs_path(),
        "replay schema": game.replay_schema_path(),
        "renderer": game.renderer_path(),
        **{f"bot {bot}": path for bot, path in game.builtin_bots().items()},
    }
    for what, path in files.items():
        assert path.is_file(), f"{name}: no {what} at {path}"
        assert path.resolve().is_relative_to(folder.resolve()), f"{name}'s {what} is elsewhere"
    assert "export function render" in game.renderer_path().read_text()
    assert json.loads(game.replay_schema_path().read_text())["type"] == "object"
