"""The renderer harness runs a game's renderer on a replay (the test game's, here)."""

import pytest

from engine import InProcessPlayer, builtin_bot, play_match
from tests.engine.games.renderers import renderer_page

pytestmark = pytest.mark.browser


def test_the_harness_renders_the_test_game_from_each_perspective(tmp_path):
    path = builtin_bot("highcard", "random")
    players = [InProcessPlayer(f"p{s}", path) for s in range(3)]
    replay = play_match("highcard", players, seed=4).replay
    with renderer_page(tmp_path, replay, "highcard") as page:
        cards = replay["games"][0]["record"]["cards"]
        page.evaluate("show(0, 0, 1)")
        hidden = page.locator("[data-hidden='true']").count()
        assert hidden == 2, "seat 1 sees only its own card at the deal"
        page.evaluate("show(0, 0, null)")
        assert page.locator("[data-hidden='true']").count() == 0
        moves = len(replay["games"][0]["steps"])
        page.evaluate(f"show(0, {moves}, 0)")
        text = page.locator(".highcard-seats").inner_text()
        assert all(str(card) in text for card in cards), "the showdown shows every card"
