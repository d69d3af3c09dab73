"""A player's observation depends only on what that player could see at the table.

The test plays a random game to a random point, then relabels every card the player cannot
see (the opponent's hand, the deck but for the turned-up trump, the opponent's face-down
cards of forfeited hands, The Liar's hidden cards on the table) with a random permutation,
replays the same (relabelled) actions from the relabelled deck, and checks the observation
is identical.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.lie21 import Lie21
from engine.games.lie21.cards import DECK, shuffled


def _visible(game, seat):
    seen = set(game.hands[seat]) | {game.trump_card}
    for record in game.log:
        seen.add(record.lie.up_card)
        if record.answer.challenge:
            seen.update(record.lie.cards + record.answer.cards)
        elif seat == record.liar:
            seen.update(record.lie.cards)
        else:
            seen.update(record.answer.cards)
    if game.pending is not None:
        seen.add(game.pending.up_card)
        if game.liar == seat:
            seen.update(game.pending.cards)
    return seen


def _relabel(action, mapping):
    out = dict(action)
    out["cards"] = [mapping.get(c, c) for c in action["cards"]]
    return out


def _replay(deck, dealer, actions):
    game = Lie21(deck, dealer)
    for seat, action in actions:
        game.apply(seat, action)
    return game


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**53 - 1),
    dealer=st.integers(min_value=0, max_value=1),
    viewer=st.integers(min_value=0, max_value=1),
    steps=st.integers(min_value=0, max_value=14),
    rng=st.randoms(use_true_random=False),
)
@pytest.mark.slow
def test_observation_is_identical_for_states_differing_only_in_unseen_cards(
    seed, dealer, viewer, steps, rng
):
    deck = shuffled(seed)
    game = Lie21(deck, dealer)
    actions = []
    for _ in range(steps):
        seat = game.to_act()
        if seat is None:
            break
        action = rng.choice(list(game.legal_actions(seat)))
        actions.append((seat, action))
        game.apply(seat, action)

    hidden = [c for c in DECK if c not in _visible(game, viewer)]
    permuted = hidden[:]
    rng.shuffle(permuted)
    mapping = dict(zip(hidden, permuted, strict=True))
    other = _replay(
        [mapping.get(c, c) for c in deck],
        dealer,
        [(seat, _relabel(action, mapping)) for seat, action in actions],
    )
    assert other.observation(viewer) == game.observation(viewer)
    if hidden and any(mapping[c] != c for c in hidden):
        # The relabelled game really is a different state, for the other player at least.
        assert other.record() != game.record()
