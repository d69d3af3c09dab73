"""Bot sources the worker tests upload, as strings.

They are not files of their own because ``--doctest-modules`` imports every ``.py`` file
under ``tests/``, and some of these are meant to fail at import.
"""

from engine import builtin_bot

_RANDOM = builtin_bot("lie21", "random").read_text()

#: The built-in random bot, as an uploaded file.
RANDOM = _RANDOM

#: A well-behaved bot: the first three cards, never challenges.
GOOD = """
def act(observation):
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""

#: A bot for High Card, the tests' three-seat game: any game's first legal action.
HIGHCARD = """
def act(observation):
    return observation["legal_actions"][0]
"""

#: Prints something (private output) and otherwise plays like GOOD.
CHATTY = (
    """
import sys

print("hello from the chatty bot")
print("chatty stderr", file=sys.stderr)
"""
    + GOOD
)

#: Raises while being imported.
CRASH_AT_IMPORT = """
value = 1 / 0

def act(observation):
    return {}
"""

#: Imports fine, raises on its first move.
CRASH_IN_ACT = """
def act(observation):
    raise RuntimeError("the secret strategy blew up")
"""

#: Defines ``act``, but not as a function (the upload check only sees the name).
ACT_NOT_CALLABLE = """
act = dict(move=None)  # only running it shows this is no function
"""

#: No ``act`` at all: refused before anything runs.
NO_ACT = """
def play(observation):
    return {}
"""

#: Plays cards it does not hold.
ILLEGAL = """
def act(observation):
    if observation["role"] == "liar":
        return {"cards": ["ZZ", "ZZ", "ZZ"], "face_up": 0}
    return {"cards": ["ZZ", "ZZ", "ZZ"], "challenge": False}
"""

#: Never answers: an endless loop that burns CPU.
SLOW = """
def act(observation):
    while True:
        pass
"""

#: Legal but deliberately slow: sleeps 0.4 s a move (no CPU): its matches last 3 s or more.
SLEEPY = """
import time

def act(observation):
    time.sleep(0.4)
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""

#: The built-in random bot, but it crashes in every game from the third of a match on.
LATE_CRASHER = (
    _RANDOM
    + """
games_over = 0

def on_game_end(result):
    global games_over
    games_over += 1

_act = act

def act(observation):
    if games_over >= 2:
        raise RuntimeError("third game: the late strategy blew up")
    return _act(observation)
"""
)
#: Prints what on_match_start receives, as one JSON line, and plays like GOOD.
SPY = (
    """
import json

def on_match_start(info):
    print("MATCH-START " + json.dumps(info, sort_keys=True))
"""
    + GOOD
)
