"""Defines everything but act()."""


def on_match_start(info):
    pass
