"""Invariants over random legal play (hypothesis): every card accounted for, every game ends."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.lie21 import Lie21Game
from engine.games.lie21.cards import DECK


def _locations(game):
    """Every card's place: deck, a hand, the table (a pending Lie) or a won pile."""
    places = list(game.stock) + game.hands[0] + game.hands[1]
    places += game.captured[0] + game.captured[1]
    if game.pending is not None:
        places += list(game.pending.cards)
    return places


@st.composite
def random_games(draw):
    seed = draw(st.integers(min_value=0, max_value=2**53 - 1))
    dealer = draw(st.integers(min_value=0, max_value=1))
    return seed, dealer, draw(st.randoms(use_true_random=False))


@settings(max_examples=300, deadline=None)
@given(random_games())
def test_random_legal_play_keeps_every_invariant(case):
    seed, dealer, rng = case
    game = Lie21Game().new_game(seed=seed, dealer=dealer)
    assert game.to_act() == dealer
    draws_seen = []
    while (seat := game.to_act()) is not None:
        places = _locations(game)
        assert len(places) == 42, "42 cards always accounted for"
        assert Counter(places) == Counter(DECK), "no card in two places"
        action = rng.choice(list(game.legal_actions(seat)))
        before = len(game.log)
        game.apply(seat, action)
        if len(game.log) > before:
            draws_seen.append(game.log[-1])
    assert len(game.log) == 7, "seven hands"
    assert sum(game.scores()) == 120, "scores sum to 120"
    assert game.hands == [[], []], "hands empty at the end"
    assert len(game.captured[0]) + len(game.captured[1]) == 42
    deck_pos = 12
    for number, record in enumerate(draws_seen, start=1):
        if number <= 5:
            # The winner draws three, then the loser three, in deck order.
            winner_draw, loser_draw = record.draws
            assert winner_draw == (record.winner, game.deck[deck_pos : deck_pos + 3])
            assert loser_draw == (1 - record.winner, game.deck[deck_pos + 3 : deck_pos + 6])
            deck_pos += 6
        else:
            assert record.draws == (), "hands 6 and 7 have no draw"
    assert game.log[4].draws[1][1][-1] == game.trump_card, "the loser of hand 5 takes the trump"
    for record in game.log:
        assert record.liar != record.judge
    for previous, following in zip(game.log, game.log[1:], strict=False):
        assert following.liar == previous.winner, "the winner is The Liar of the next hand"
