"""A seat out for a fault: its cards leave play, it is placed last, the others play on."""

from __future__ import annotations

from engine import InProcessPlayer, builtin_bot, play_match

from .helpers import game, pass_, play, types


def test_a_seat_eliminated_while_following_passes_the_turn_on():
    state = game("3S 9D", "4S 8C", "5S 7C", "6S KC")
    play(state, 0, "3S")
    assert state.eliminate(1) is True
    assert state.to_act() == 2
    events = play(state, 2, "5S")
    assert types(events) == ["eliminated", "play"], "the fault is told with the next move"
    assert events[0]["public"] == {"seat": 1, "cards": 2}


def test_an_eliminated_leader_hands_the_lead_to_the_next_seat_holding_cards():
    state = game("3S 9D", "4S 8C", "5S 7C", "6S KC", leader=1)
    assert state.eliminate(1) is True
    assert state.to_act() == 2
    assert state.current is None and state.legal_actions(2)[-1] != {"pass": True}


def test_the_last_player_eliminated_mid_trick_passes_the_lead_on_if_nobody_beats():
    state = game("3S 9D", "4S 8C", "5S 7C", "6S KC")
    play(state, 0, "9D")
    pass_(state, 1)
    pass_(state, 2)
    assert state.to_act() == 3
    state.eliminate(0)  # the seat whose play is on the table
    events = pass_(state, 3)
    assert events[-1] == {"type": "lead", "public": {"seat": 1, "trick": 2}}


def test_an_eliminated_seat_is_placed_last_and_scores_nothing():
    state = game("3S", "4S 8C", "5S 7C", "6S KC")
    state.eliminate(2)
    play(state, 0, "3S")  # out first
    play(state, 1, "4S")
    play(state, 3, "6S")
    play(state, 1, "8C")  # out second: seat 3 alone holds cards
    assert state.to_act() is None
    assert state.placings() == (0, 1, 3, 2)
    assert state.scores() == [3, 2, 0, 1]


def test_when_an_elimination_leaves_one_seat_holding_cards_the_game_is_over():
    state = game("3S", "4S 8C", "5S 7C")
    play(state, 0, "3S")  # out
    assert state.eliminate(2) is True
    assert state.to_act() is None
    assert state.placings() == (0, 1, 2)
    assert state.scores() == [2, 1, 0]


def test_two_seats_cannot_play_on_without_one_of_them():
    assert game("3S 4S", "5S 6S").eliminate(1) is False


def test_a_seat_eliminated_before_the_first_lead_takes_the_lowest_card_with_it():
    state = game("3S 9D", "4S 8C", "5S 7C", "6S KC", leader=None)
    assert state.to_act() == 0 and state.must_include == 0
    state.eliminate(0)
    assert state.to_act() == 1
    assert state.legal_actions(1) == [{"cards": ["4S"]}], "now the lowest card in play leads"
    start = state.start_events()
    assert types(start) == ["deal", "eliminated"]
    assert start[0]["public"]["leader"] == 1 and start[0]["public"]["must_include"] == "4S"


class _CrashesAt(InProcessPlayer):
    def __init__(self, name, path, at):
        super().__init__(name, path)
        self.calls, self.at = 0, at

    def act(self, observation):
        from engine import BotFault, FaultKind

        self.calls += 1
        if self.calls == self.at:
            raise BotFault(FaultKind.CRASH, "the bot raised in act()")
        return super().act(observation)


def test_a_match_plays_on_after_a_fault_and_the_faulting_seat_is_last():
    path = builtin_bot("tieng_len", "greedy")
    players = [InProcessPlayer(f"g{s}", path) for s in range(4)]
    players[2] = _CrashesAt("crasher", path, at=5)
    result = play_match("tieng_len", players, seed=3)
    assert [f.seat for f in result.faults] == [2]
    assert result.games_played == 8, "three seats play the match out"
    assert result.placings[2] == 3
    first, later = result.replay["games"][0], result.replay["games"][1:]
    assert first["placings"][2] == 3
    for played in later:
        assert played["placings"][2] == 3 and played["scores"][2] == 0
        assert any(e["type"] == "eliminated" for e in played["start"])
