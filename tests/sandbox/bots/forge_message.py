"""Attack: write raw lines (info["lines"], hex) on the reply descriptor at a chosen moment.

``info["when"]`` is "act" or "hook"; at "start" it writes them from on_match_start, before
the bootstrap's "ready". Afterwards the bot behaves normally.
"""

import os
import sys

plan = {}


def _forge():
    replies = int(sys.orig_argv[-1])  # the bootstrap's reply descriptor
    for line in plan["lines"]:
        os.write(replies, bytes.fromhex(line))


def on_match_start(info):
    plan.update(info)
    if plan["when"] == "start":
        _forge()


def on_hand_end(observation):
    if plan["when"] == "hook":
        _forge()


def act(observation):
    if plan["when"] == "act":
        _forge()
    return {}
