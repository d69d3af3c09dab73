"""Engine speed: games per second of built-in bots in one process (rules + observations).

Prints one ``name: value unit`` line per figure:

    engine_random_games: N games/s       random vs random, the game loop: deal, observation for
                                         every decision, the bot's act() through the in-process
                                         player, the rules checking and applying each move
    engine_heuristic_games: N games/s    the same with heuristic vs heuristic
    engine_random_matches: N matches/s   whole best-of-7 matches through play_match (bots
                                         loaded per match, replay document built)

Each figure is the best of several timed runs on one core: the machine's speed drifts by tens of
percent from second to second, and the best run is the one least disturbed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import InProcessPlayer, builtin_bot, get_game, play_match


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


def main() -> None:
    print(f"engine_random_games: {game_loop_rate('random', seconds=1.5):.0f} games/s", flush=True)
    print(f"engine_heuristic_games: {game_loop_rate('heuristic', seconds=2.0, runs=3):.1f} games/s")
    print(f"engine_random_matches: {match_rate(seconds=1.5):.0f} matches/s")


if __name__ == "__main__":
    main()
