"""The Twenty One renderer plays a real replay through, from every perspective.

At every move of a game: the owner of a hush card sees it, the other seat sees a face-down
card, the spectator sees both; the other seat's trumps in hand are card backs; once the last
round has ended, both hush cards are turned up for everybody. No console errors throughout.
"""

from __future__ import annotations

import json

import pytest

from engine import InProcessPlayer, builtin_bot, play_match
from tests.engine.games.renderers import renderer_page

pytestmark = pytest.mark.browser


def _replay() -> dict:
    players = [
        InProcessPlayer("Ada", builtin_bot("twenty_one", "exact")),
        InProcessPlayer("Bob", builtin_bot("twenty_one", "basic")),
    ]
    return json.loads(json.dumps(play_match("twenty_one", players, seed=7).replay))


def _hush_by_move(game: dict) -> list[tuple[list[int], bool]]:
    """For each move 0..len(steps): the current round's hush cards, and whether that round
    has ended (only at the end of the game: otherwise the next round is dealt at once)."""
    deal = game["start"][0]["private"]
    hush, ended = [deal["0"]["hush"], deal["1"]["hush"]], False
    out = [(hush, ended)]
    for step in game["steps"]:
        for event in step["events"]:
            if event["type"] == "round_start":
                private = event["private"]
                hush, ended = [private["0"]["hush"], private["1"]["hush"]], False
            elif event["type"] == "round_end":
                ended = True
        out.append((hush, ended))
    return out


def _hush_shown(page, seat: int) -> tuple[str, str]:
    card = page.locator(f"[data-hush][data-seat='{seat}']")
    return card.get_attribute("data-hidden"), card.inner_text()


def test_the_renderer_plays_a_game_through_and_hides_what_each_seat_did_not_see(tmp_path):
    replay = _replay()
    game = replay["games"][0]
    with renderer_page(tmp_path, replay, "twenty_one") as page:
        for move, (hush, ended) in enumerate(_hush_by_move(game)):
            page.evaluate(f"show(0, {move}, null)")
            for seat in (0, 1):
                assert _hush_shown(page, seat) == ("false", str(hush[seat])), (move, seat)
                hand = page.locator(f"[data-trumps='{seat}']")
                assert hand.get_attribute("data-hidden") == "false"
            for seat in (0, 1):
                other = 1 - seat
                page.evaluate(f"show(0, {move}, {seat})")
                assert _hush_shown(page, seat) == ("false", str(hush[seat])), (move, seat)
                if ended:
                    assert _hush_shown(page, other) == ("false", str(hush[other]))
                else:
                    assert _hush_shown(page, other) == ("true", "?"), (move, seat)
                hand = page.locator(f"[data-trumps='{other}']")
                assert hand.get_attribute("data-hidden") == "true"
                assert set(hand.locator(".t21-chip").all_inner_texts()) <= {"?"}
        moves = len(game["steps"])
        page.evaluate(f"show(0, {moves}, 1)")
        assert page.locator("[data-over]").count() == 1
        bets = [page.locator(f"[data-bets='{s}']").inner_text() for s in (0, 1)]
        assert bets == [f"bets {game['scores'][0]}", f"bets {game['scores'][1]}"]
        assert "Game over" in page.locator("[data-over]").inner_text()


def test_the_renderer_shows_every_game_of_the_match_and_the_round_results(tmp_path):
    replay = _replay()
    with renderer_page(tmp_path, replay, "twenty_one") as page:
        for index, game in enumerate(replay["games"]):
            for move, step in enumerate(game["steps"], start=1):
                if any(e["type"] == "round_end" for e in step["events"]):
                    page.evaluate(f"show({index}, {move}, 0)")
                    end = next(e for e in step["events"] if e["type"] == "round_end")["public"]
                    text = page.locator("[data-result]").inner_text()
                    assert f"hush {end['hush'][0]}" in text and f"hush {end['hush'][1]}" in text
                    break
            page.evaluate(f"show({index}, 0, null)")
            assert page.locator("[data-target]").inner_text() == "target 21"
