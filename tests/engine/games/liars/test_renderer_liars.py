"""The Liars renderer plays a real replay through, move by move, from every perspective.

At every position the dice it draws are checked against what that perspective may know,
folded from the replay's events in Python: a seat sees uncovered dice, the dice it threw under
the cup and the ones it looked at; the spectator sees every die.
"""

from __future__ import annotations

import pytest

from engine import InProcessPlayer, builtin_bot, play_match
from tests.engine.games.renderers import renderer_page

pytestmark = pytest.mark.browser


def known_values(game: dict, move: int, perspective: int | None) -> list[int | None]:
    """The dice values ``perspective`` may know after ``move`` steps of ``game``."""
    values: list[int | None] = [None] * 5
    events = list(game["start"])
    for step in game["steps"][:move]:
        events += step["events"]
    for event in events:
        kind, public = event["type"], event["public"]
        private = event.get("private", {})
        if perspective is None:
            mine = next(iter(private.values()), None)
        else:
            mine = private.get(str(perspective))
        if kind == "round_start":
            values = [None] * 5
        elif kind == "throw":
            got = mine["values"] if mine else public["up"]
            for die, value in zip(public["dice"], got, strict=True):
                values[die] = value
        elif kind == "look" and mine:
            for die, value in mine["values"]:
                values[die] = value
        elif kind in ("refuse", "lie"):
            values = list(public["dice"])
    return values


def test_the_renderer_shows_each_perspective_only_what_it_saw(tmp_path):
    bots = ["bayes", "honest", "random"]
    players = [InProcessPlayer(f"{b}-{s}", builtin_bot("liars", b)) for s, b in enumerate(bots)]
    replay = play_match("liars", players, seed=17).replay
    game = replay["games"][0]
    moves = len(game["steps"])
    hidden_from_a_seat = 0
    with renderer_page(tmp_path, replay, "liars") as page:
        for move in range(moves + 1):
            for perspective in (None, 0, 1, 2):
                page.evaluate(f"show(0, {move}, {'null' if perspective is None else perspective})")
                drawn = page.eval_on_selector_all(
                    ".liars-center [data-die]",
                    "nodes => nodes.map(n => [Number(n.dataset.die), n.dataset.value])",
                )
                shown = dict(drawn)
                assert sorted(shown) == [0, 1, 2, 3, 4]
                expected = known_values(game, move, perspective)
                for die, value in enumerate(expected):
                    assert shown[die] == ("?" if value is None else str(value)), (
                        f"move {move}, perspective {perspective}, die {die}"
                    )
                if perspective is not None and None in expected:
                    spectator = known_values(game, move, None)
                    hidden_from_a_seat += any(
                        value is None and spectator[d] is not None
                        for d, value in enumerate(expected)
                    )
            lives = page.eval_on_selector_all(
                ".liars-seat", "nodes => nodes.map(n => Number(n.dataset.lives))"
            )
            assert len(lives) == 3
        assert hidden_from_a_seat > 0, "some die was under the cup, unknown to some seat"
        text = page.locator(".liars-result").inner_text()
        assert all(seat["name"] in text for seat in replay["seats"])
        page.evaluate(f"show(0, {moves}, null)")
        assert page.locator(".liars-seat[data-lives='0']").count() == 2


def test_the_renderer_draws_a_several_game_match_with_the_variants(tmp_path):
    players = [InProcessPlayer(f"r{s}", builtin_bot("liars", "random")) for s in range(4)]
    options = {"games": 2, "straight_contest": True, "better": True, "straights": False}
    replay = play_match("liars", players, seed=3, options=options).replay
    with renderer_page(tmp_path, replay, "liars") as page:
        for index, game in enumerate(replay["games"]):
            for move in range(0, len(game["steps"]) + 1, 7):
                page.evaluate(f"show({index}, {move}, {move % 4})")
            page.evaluate(f"show({index}, {len(game['steps'])}, null)")
            assert page.locator(".liars-result li").count() == 4
