"""Engine speed: games per second of built-in bots in one process (rules + observations).

Prints one ``name: value unit`` line per figure:

    engine_random_games: N games/s       random vs random, the game loop: deal, observation for
                                         every decision, the bot's act() through the in-process
                                         player, the rules checking and applying each move
    engine_heuristic_games: N games/s    the same with heuristic vs heuristic
    engine_random_matches: N matches/s   whole best-of-7 matches through play_match (bots
                                         loaded per match, replay document built)
    engine_lean_loop: N games/s          for scale: a bare rules-only loop (random choices,
                                         sums, draws; no observations, checks or bots), the
                                         kind the targets were set against (about 38,000 on
                                         this machine when it is not busy elsewhere)
    <game>_random_games: N games/s       for every other hosted game: its built-in random bots
                                         in every seat (4 seats where the game allows, else its
                                         most), the same loop as engine_random_games plus the
                                         legal actions in each observation where the game
                                         lists them

Each figure is the best of several timed runs on one core: the machine's speed drifts by tens of
percent from second to second, and the best run is the one least disturbed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES, InProcessPlayer, builtin_bot, get_game, play_match


def game_loop_rate(bot: str, *, seconds: float, runs: int = 5) -> float:
    game = get_game("lie21")
    players = [InProcessPlayer(f"{bot}{seat}", builtin_bot("lie21", bot)) for seat in (0, 1)]
    for seat, player in enumerate(players):
        player.start({"game": "lie21", "seat": seat, "players": 2, "seed": seat})
    acts = [player.act for player in players]
    context = {"game_number": 1, "match_points": [0, 0], "games": []}
    best = 0.0
    seed = 0
    for _ in range(runs):
        games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(50):
                seed += 1
                state = game.new_game(seed=seed, dealer=seed & 1, num_players=2)
                seat = state.to_act()
                while seat is not None:
                    observation = state.observation(seat)
                    observation.update(context)
                    state.apply(seat, acts[seat](observation))
                    seat = state.to_act()
            games += 50
        best = max(best, games / elapsed)
    return best


def other_game_rate(name: str, *, seconds: float, runs: int = 3) -> float:
    """Games per second of one game's built-in random bots, through its rules alone."""
    game = get_game(name)
    seats = min(4, game.max_players)
    path = builtin_bot(name, "random")
    players = [InProcessPlayer(f"random{seat}", path) for seat in range(seats)]
    for seat, player in enumerate(players):
        player.start({"game": name, "seat": seat, "players": seats, "seed": seat})
    acts = [player.act for player in players]
    context = {"game_number": 1, "match_points": [0] * seats, "games": []}
    options = game.match_rules(None).options()
    lists = game.lists_legal_actions
    best = 0.0
    seed = 0
    for _ in range(runs):
        games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(10):
                seed += 1
                state = game.new_game(
                    seed=seed, dealer=seed % seats, num_players=seats, options=options
                )
                seat = state.to_act()
                while seat is not None:
                    observation = state.observation(seat)
                    observation.update(context)
                    if lists:
                        observation["legal_actions"] = state.legal_actions(seat)
                    state.apply(seat, acts[seat](observation))
                    seat = state.to_act()
            games += 10
        best = max(best, games / elapsed)
    return best


def match_rate(*, seconds: float, runs: int = 5) -> float:
    path = builtin_bot("lie21", "random")
    best = 0.0
    seed = 0
    for _ in range(runs):
        matches = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            seed += 1
            players = [InProcessPlayer("a", path), InProcessPlayer("b", path)]
            play_match("lie21", players, seed=seed)
            matches += 1
        best = max(best, matches / elapsed)
    return best


def lean_loop_rate(*, seconds: float, runs: int = 3) -> float:
    """Games per second of the leanest possible loop over the same deck and counting rules."""
    import random

    from engine.games.lie21.cards import DECK, SCORE, move_total

    rng = random.Random(1)
    best = 0.0
    for _ in range(runs):
        games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(100):
                deck = list(DECK)
                rng.shuffle(deck)
                hands, pos, liar, points = [deck[:6], deck[6:12]], 12, 0, [0, 0]
                for _hand in range(7):
                    mine, theirs = hands[liar], hands[1 - liar]
                    lie = [mine.pop(rng.randrange(len(mine))) for _ in range(3)]
                    answer = [theirs.pop(rng.randrange(len(theirs))) for _ in range(3)]
                    a, b = move_total(lie), move_total(answer)
                    won = liar if a <= 21 and (b > 21 or a >= b) else 1 - liar
                    points[won] += sum(SCORE[c] for c in lie + answer)
                    if pos < 42:
                        hands[won] += deck[pos : pos + 3]
                        hands[1 - won] += deck[pos + 3 : pos + 6]
                        pos += 6
                    liar = won
            games += 100
        best = max(best, games / elapsed)
    return best


def main() -> None:
    print(f"engine_random_games: {game_loop_rate('random', seconds=1.5):.0f} games/s", flush=True)
    print(f"engine_heuristic_games: {game_loop_rate('heuristic', seconds=2.0, runs=3):.1f} games/s")
    print(f"engine_random_matches: {match_rate(seconds=1.5):.0f} matches/s")
    print(f"engine_lean_loop: {lean_loop_rate(seconds=1.0):.0f} games/s")
    for name in GAMES:
        if name != "lie21":
            print(f"{name}_random_games: {other_game_rate(name, seconds=1.5):.0f} games/s")


if __name__ == "__main__":
    main()
