"""The Tieng Len renderer plays a real replay through, move by move, from every perspective:
each seat sees its own hand and only the backs of the others, the spectator sees every hand,
and the pile, the passes and the places follow the events."""

from __future__ import annotations

import json

import pytest

from engine import BotFault, FaultKind, InProcessPlayer, builtin_bot, play_match
from tests.engine.games.renderers import renderer_page

pytestmark = pytest.mark.browser

READ_BOARD = """() => {
  const board = document.getElementById("board");
  const hands = [...board.querySelectorAll(".tl-hand")].map((hand) => ({
    seat: Number(hand.dataset.seat),
    hidden: hand.dataset.hidden === "true",
    cards: [...hand.querySelectorAll("[data-card]")].map((card) => card.dataset.card),
  }));
  const everyCard = [...board.querySelectorAll("[data-card]")].map((card) => card.dataset.card);
  const pile = [...board.querySelectorAll(".tl-pile [data-card]")].map((card) => card.dataset.card);
  const seatsWhere = (selector) => [...board.querySelectorAll(selector)].map(
    (s) => Number(s.dataset.seat));
  const turn = seatsWhere(".tl-seat[data-turn='true']");
  const passed = seatsWhere(".tl-seat[data-passed='true']");
  const places = Object.fromEntries([...board.querySelectorAll(".tl-seat")].map(
    (s) => [s.dataset.seat, s.dataset.place]));
  return {hands, everyCard, pile, turn, passed, places, text: board.innerText};
}"""


def expected_positions(game: dict) -> list[dict]:
    """Hands, pile and passes after each number of moves, from the spectator's record."""
    hands = [list(h) for h in game["record"]["hands"]]
    pile: list[str] = []
    passed: set[int] = set()
    out: list[int] = []
    positions = [{"hands": [h[:] for h in hands], "pile": [], "passed": set(), "out": []}]
    for step in game["steps"]:
        for event in step["events"]:
            public = event["public"]
            if event["type"] == "play":
                for card in public["cards"]:
                    hands[public["seat"]].remove(card)
                pile += public["cards"]
            elif event["type"] == "pass":
                passed.add(public["seat"])
            elif event["type"] == "lead":
                pile, passed = [], set()
            elif event["type"] == "out":
                out.append(public["seat"])
        positions.append(
            {"hands": [h[:] for h in hands], "pile": pile[:], "passed": set(passed), "out": out[:]}
        )
    return positions


def test_a_replay_plays_through_and_each_seat_sees_only_its_own_hand(tmp_path):
    names = ["search", "greedy", "starter", "random"]
    players = [InProcessPlayer(n, builtin_bot("tieng_len", n)) for n in names]
    replay = play_match("tieng_len", players, seed=12, options={"games": 2}).replay
    game = replay["games"][0]
    positions = expected_positions(game)
    with renderer_page(tmp_path, replay, "tieng_len") as page:
        for move, expected in enumerate(positions):
            for perspective in (None, 0, 1, 2, 3):
                page.evaluate(f"show(0, {move}, {json.dumps(perspective)})")
                board = page.evaluate(READ_BOARD)
                assert sorted(h["seat"] for h in board["hands"]) == [0, 1, 2, 3]
                for hand in board["hands"]:
                    seat = hand["seat"]
                    if perspective is None or perspective == seat:
                        assert not hand["hidden"], (move, perspective, seat)
                        assert hand["cards"] == expected["hands"][seat]
                    else:
                        assert hand["hidden"], (move, perspective, seat)
                        assert hand["cards"] == ["back"] * len(expected["hands"][seat])
                if perspective is not None:
                    secret = {
                        card
                        for seat, cards in enumerate(expected["hands"])
                        if seat != perspective
                        for card in cards
                    }
                    assert not secret & set(board["everyCard"]), (move, perspective)
                assert board["pile"] == expected["pile"]
                assert set(board["passed"]) == expected["passed"]
                if move < len(game["steps"]):
                    assert board["turn"] == [game["steps"][move]["seat"]]
                for rank, seat in enumerate(expected["out"]):
                    assert board["places"][str(seat)] == str(rank)
        # The end of the game: every seat placed, the results shown.
        page.evaluate(f"show(0, {len(game['steps'])}, 2)")
        board = page.evaluate(READ_BOARD)
        assert sorted(board["places"].values()) == ["0", "1", "2", "3"]
        assert "1st" in board["text"] and names[game["placings"].index(0)] in board["text"]
        # The second game starts from its deal, with the first game's points on the board.
        page.evaluate("show(1, 0, null)")
        board = page.evaluate(READ_BOARD)
        assert all(len(h["cards"]) == 13 for h in board["hands"])
        assert "game 1" in board["text"]


class _Crasher(InProcessPlayer):
    def __init__(self, name, path):
        super().__init__(name, path)
        self.calls = 0

    def act(self, observation):
        self.calls += 1
        if self.calls == 4:
            raise BotFault(FaultKind.CRASH, "the bot raised in act()")
        return super().act(observation)


def test_a_seat_out_for_a_fault_is_drawn_without_cards_and_the_game_plays_on(tmp_path):
    path = builtin_bot("tieng_len", "greedy")
    players = [InProcessPlayer(f"g{s}", path) for s in range(3)]
    players[1] = _Crasher("crasher", path)
    replay = play_match("tieng_len", players, seed=4, options={"games": 2}).replay
    assert replay["faults"]
    with renderer_page(tmp_path, replay, "tieng_len") as page:
        for index, game in enumerate(replay["games"]):
            for move in range(len(game["steps"]) + 1):
                for perspective in (None, 0):
                    page.evaluate(f"show({index}, {move}, {json.dumps(perspective)})")
        page.evaluate("show(1, 0, null)")
        board = page.evaluate(READ_BOARD)
        hand = next(h for h in board["hands"] if h["seat"] == 1)
        assert hand["cards"] == [] and "out: fault" in board["text"]
