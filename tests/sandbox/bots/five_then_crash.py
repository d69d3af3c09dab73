"""Plays like the built-in random bot for five games, then crashes in the sixth.

The test runs it as a directory bot next to a copy of ``random_bot.py``.
"""

import random_bot

games_done = 0


def on_match_start(info):
    random_bot.on_match_start(info)


def on_game_end(result):
    global games_done
    games_done += 1


def act(observation):
    if games_done >= 5:
        raise RuntimeError("crashing after five games")
    return random_bot.act(observation)
