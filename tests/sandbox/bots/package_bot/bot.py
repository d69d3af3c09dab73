"""A directory bot: bot.py imports a sibling module."""

from helper import double


def act(observation):
    return {"doubled": double(observation["n"])}
