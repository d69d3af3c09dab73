"""The Lie 21 renderer on its own (the renderer harness), every position of every game of a
match from every perspective, against the independent model in ``replay_model``.

The viewer shell's tests (test_browser.py) step through one game in the match page; this
covers the whole match quickly, including a game a fault cut short.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.arena.web.data import engine_replay, replay_with_forfeits_and_challenges
from tests.arena.web.replay_model import game_positions, history_row, visible_table
from tests.engine.games.renderers import renderer_page

pytestmark = pytest.mark.browser

READ_BOARD = """() => {
  const cards = (id) => Array.from(document.querySelectorAll('#' + id + ' .card'))
    .map((card) => card.dataset.card);
  const data = (id) => (document.getElementById(id) || {dataset: {}}).dataset;
  return {
    phase: data('l21-board').phase, hand: data('l21-board').hand,
    hands: [cards('l21-hand-0'), cards('l21-hand-1')],
    liar: cards('l21-liar-cards'), judge: cards('l21-judge-cards'),
    sums: [data('l21-liar-sum').sum, data('l21-judge-sum').sum],
    deck: Number(data('l21-deck').count),
    points: [data('l21-points-0').points, data('l21-points-1').points],
    history: Array.from(document.querySelectorAll('#l21-history li'))
      .map((li) => Array.from(li.querySelectorAll('.card')).map((card) => card.dataset.card)),
  };
}"""


def _check(page, game_index: int, game: dict, view: int | None) -> None:
    js_view = "null" if view is None else str(view)
    for expected in game_positions(game):
        page.evaluate(f"show({game_index}, {expected.move}, {js_view})")
        shown = page.evaluate(READ_BOARD)
        where = f"game {game['number']} step {expected.move} view {view}"
        assert shown["phase"] == expected.phase, where
        assert shown["hand"] == expected.hand_number, where
        assert shown["deck"] == expected.deck, where
        for seat in (0, 1):
            if view is None or view == seat:
                assert shown["hands"][seat] == expected.hands[seat], where
            else:
                assert shown["hands"][seat] == ["back"] * len(expected.hands[seat]), where
        over = expected.phase == "game_end"
        if view is None and not over:
            assert shown["points"] == [str(p) for p in expected.points], where
        elif over:
            assert shown["points"] == [str(p) for p in game["scores"]], where
        else:
            assert shown["points"] == ["", ""], where
        if expected.hand is not None:
            assert (shown["liar"], shown["judge"]) == visible_table(expected, view), where
            hand = expected.hand
            sums_seen = hand["answered"] and (view is None or hand["challenge"])
            sums = [str(hand["liar_sum"]), str(hand["judge_sum"])] if sums_seen else ["", ""]
            assert shown["sums"] == sums, where
        rows = [history_row(hand, view, over=over) for hand in expected.done]
        assert shown["history"] == rows, where


@pytest.mark.slow
def test_every_position_of_a_match_from_every_perspective(tmp_path) -> None:
    _, replay = replay_with_forfeits_and_challenges()
    with renderer_page(tmp_path, replay, "lie21") as page:
        for index, game in enumerate(replay["games"]):
            for view in (None, 0, 1):
                _check(page, index, game, view)


def test_a_game_cut_short_by_a_fault_ends_where_the_fault_came(tmp_path) -> None:
    tests = Path(__file__).resolve().parents[3]
    crash = tests / "arena" / "web" / "views" / "bots" / "crash_in_hand_three.py"
    replay = engine_replay(["steady", "faulty"], seed=3, bots=("heuristic", crash))
    game = replay["games"][0]
    assert game["end"] == "fault"
    with renderer_page(tmp_path, replay, "lie21") as page:
        for view in (None, 0, 1):
            _check(page, 0, game, view)
        page.evaluate(f"show(0, {len(game['steps'])}, null)")
        assert page.get_attribute("#l21-game-end", "data-end") == "fault"
