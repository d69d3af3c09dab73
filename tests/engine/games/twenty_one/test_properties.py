"""Whole-game properties of Twenty One over random playouts (hypothesis).

Random legal play (one decision at a time, and now and then a random combined action, legal
or not) always ends; after every move the eleven playing cards are all accounted for (deck,
hush cards, face-up cards) and so is every trump (trump deck, discards, hands, table); and
no seat's observation depends on the other seat's hush card before the round ends: swapping
that hush card with a deck card leaves the seat's observation exactly as it was.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import IllegalMove
from engine.games.twenty_one import GAME, TwentyOne
from engine.games.twenty_one.cards import CARDS

MAX_STEPS = 5000


def _cards_accounted_for(state: TwentyOne) -> None:
    cards = state.deck + state.hush + state.up[0] + state.up[1]
    assert sorted(cards) == list(CARDS), cards


def _trumps_accounted_for(state: TwentyOne, everything: Counter) -> None:
    held = Counter(state.trump_deck + state.discards)
    for seat in (0, 1):
        held.update(state.hands[seat])
        held.update(state.table[seat])
    assert held == everything


def _hush_hidden(state: TwentyOne, seat: int) -> None:
    """The seat's view is the same whichever unseen card the other hush card is."""
    other = 1 - seat
    seen = state.observation(seat)
    assert seen["hush"] == state.hush[seat]
    assert seen["total"] == state.hush[seat] + sum(state.up[seat])
    hush = state.hush[other]
    for place, card in enumerate(state.deck):
        state.hush[other], state.deck[place] = card, hush
        try:
            assert state.observation(seat) == seen, "the observation shows the hush card"
        finally:
            state.hush[other], state.deck[place] = hush, card


def _snapshot(state: TwentyOne) -> tuple:
    return (
        state.deck[:],
        [row[:] for row in state.up],
        [hand[:] for hand in state.hands],
        [row[:] for row in state.table],
        state.trump_deck[:],
        state.discards[:],
        state.target,
        state.turn,
        state.played,
        state.stakes(),
        [len(h) for h in state.history],
    )


def _random_combined(rng: random.Random, state: TwentyOne, seat: int) -> dict:
    hand = state.hands[seat]
    names = rng.sample(hand, rng.randint(0, len(hand))) if hand else []
    action: dict = {"then": rng.choice(["draw", "pass", "stop"])}
    if names:
        action["trumps"] = names
    return action


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**53 - 1),
    dealer=st.sampled_from([0, 1]),
    rotation=st.sampled_from([0, 1]),
    dealer_mode=st.booleans(),
    bets=st.integers(1, 12),
    moves=st.randoms(use_true_random=False),
)
def test_random_legal_play_ends_accounts_for_every_card_and_hides_the_hush_cards(
    seed, dealer, rotation, dealer_mode, bets, moves
):
    options = {"dealer_mode": dealer_mode, "starting_bets": bets}
    state = GAME.new_game(
        seed=seed, dealer=dealer, num_players=2, rotation=rotation, options=options
    )
    everything = Counter(state.trump_start)
    for _ in range(MAX_STEPS):
        _cards_accounted_for(state)
        _trumps_accounted_for(state, everything)
        seat = state.to_act()
        if seat is None:
            break
        _hush_hidden(state, seat)
        _hush_hidden(state, 1 - seat)
        if moves.random() < 0.15:
            before = _snapshot(state)
            try:
                state.apply(seat, _random_combined(moves, state, seat))
                continue
            except IllegalMove:
                assert _snapshot(state) == before, "a refused action changed the game"
        state.apply(seat, moves.choice(state.legal_actions(seat)))
    else:
        raise AssertionError(f"random play did not end in {MAX_STEPS} moves")
    assert min(state.bets) == 0 or state.round >= 100
    assert sum(state.bets) == 2 * bets, "bets only ever move from one seat to the other"
    assert state.placings() in ((0, 1), (1, 0), (0, 0))
