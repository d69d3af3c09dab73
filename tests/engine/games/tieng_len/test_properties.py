"""Whole-game properties over random legal play (hypothesis): every game ends, the 52 cards
are always accounted for, and no seat ever sees another seat's cards."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.tieng_len import TiengLen
from engine.games.tieng_len.cards import CODES

SEATS = st.integers(min_value=2, max_value=4)
SEEDS = st.integers(min_value=0, max_value=2**32)


def random_game(seed: int, seats: int, *, rotation: int = 0, leader: int | None = None):
    """A game played by uniformly random legal actions; yields (state, seat, action) before
    each move."""
    rng = random.Random(seed)
    state = TiengLen.deal(seed, seats, rotation=rotation, leader=leader)
    state.start_events()
    while (seat := state.to_act()) is not None:
        action = rng.choice(state.legal_actions(seat))
        yield state, seat, action
        state.apply(seat, action)


def accounted(state: TiengLen) -> list[int]:
    cards = [c for hand in state.hands for c in hand] + list(state.played)
    cards += list(state.out_of_play) + [c for cs in state.removed.values() for c in cs]
    return sorted(cards)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, seats=SEATS, first=st.booleans())
def test_random_legal_play_ends_with_52_cards_accounted_for_and_a_full_order(seed, seats, first):
    state = None
    game = random_game(seed, seats, leader=None if first else seed % seats)
    for moves, (state, _seat, _action) in enumerate(game):
        assert accounted(state) == list(range(52))
        assert moves < 13 * seats * seats, "every trick sheds cards: a game is short"
    assert state is not None and state.to_act() is None
    assert accounted(state) == list(range(52))
    assert sorted(state.placings()) == list(range(seats))
    assert sorted(state.scores()) == list(range(seats))
    assert len(state.finished) == seats - 1 and state.last is not None
    assert len(state.hands[state.last]) > 0


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, seats=SEATS)
def test_no_observation_holds_a_card_of_another_hand_or_out_of_play(seed, seats):
    for state, _seat, _action in random_game(seed, seats):
        hidden_from = []
        for viewer in range(seats):
            others = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand}
            others.discard(state.must_include)  # announced: the first lead must contain it
            hidden = {CODES[c] for c in others | set(state.out_of_play)}
            observation = json.dumps(state.observation(viewer))
            hidden_from.append([card for card in hidden if f'"{card}"' in observation])
        assert hidden_from == [[] for _ in range(seats)]


def relabelled_replay(seed: int, seats: int, viewer: int, cut: int, shuffle_seed: int):
    """Play a random game ``cut`` moves, then deal the same game again with every card the
    viewer cannot see at that point shuffled among the places that hold them (others' hands
    and the cards out of play), and play the same moves: the viewer's observation and legal
    actions must come out the same."""
    history = []
    state = None
    for position, seat, action in random_game(seed, seats):
        state = position
        if len(history) == cut:
            break
        history.append((seat, action))
    # (A game shorter than the cut is looked at after its last move.)
    assert state is not None
    first = TiengLen.deal(seed, seats)
    played_by = [set(cards) for cards in state.played_by]
    lowest = min(c for hand in first.hands for c in hand)  # announced: it leads the game
    unseen_slots = []  # (place, index) of every card hidden from the viewer at the cut
    places = [list(h) for h in first.hands] + [list(first.out_of_play)]
    for place, cards in enumerate(places):
        if place == viewer:
            continue
        for index, card in enumerate(cards):
            if card != lowest and (place == seats or card not in played_by[place]):
                unseen_slots.append((place, index))
    values = [places[p][i] for p, i in unseen_slots]
    random.Random(shuffle_seed).shuffle(values)
    for (p, i), value in zip(unseen_slots, values, strict=True):
        places[p][i] = value
    if min(c for h in places[:seats] for c in h) != lowest:
        return None  # a card out of play came in below it: the game would be led otherwise
    other = TiengLen(places[:seats], out_of_play=places[seats])
    for seat, action in history:
        other.apply(seat, action)
    return state, other


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, seats=SEATS, cut=st.integers(0, 40), shuffle_seed=SEEDS)
def test_relabelling_the_cards_a_seat_cannot_see_never_changes_what_it_sees(
    seed, seats, cut, shuffle_seed
):
    for viewer in range(seats):
        pair = relabelled_replay(seed, seats, viewer, cut, shuffle_seed)
        if pair is None:
            continue
        state, other = pair
        assert other.observation(viewer) == state.observation(viewer)
        assert other.legal_actions(viewer) == state.legal_actions(viewer)


def test_an_observation_shares_nothing_with_the_state_nor_another_seat():
    """Changing everything in an observation (and in the legal actions) changes nothing the
    rules read, nothing another seat sees, and of the seat's own view only the trick's
    plays it was shown (its own copies, handed to it again)."""
    state = TiengLen.deal(4, 4)
    seat = state.to_act()
    state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()
    before = json.loads(json.dumps(state.observation(seat)))
    others = {s: json.dumps(state.observation(s)) for s in range(4) if s != seat}
    legal = json.dumps(state.legal_actions(seat))
    observation = state.observation(seat)
    for value in observation.values():
        if isinstance(value, list):
            value.append("junk")
            for item in value:
                if isinstance(item, list | dict):
                    item.clear()
    if isinstance(observation["to_beat"], dict):
        observation["to_beat"]["cards"].clear()
    for action in state.legal_actions(seat):
        action.clear()
    assert {s: json.dumps(state.observation(s)) for s in range(4) if s != seat} == others
    assert json.dumps(state.legal_actions(seat)) == legal
    again = state.observation(seat)
    assert {k: v for k, v in again.items() if k != "trick"} == {
        k: v for k, v in before.items() if k != "trick"
    }
