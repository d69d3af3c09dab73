"""The games the arena hosts, as Django choices (from the engine's registry)."""

from engine.registry import GAMES

GAME_CHOICES = [(name, game.title) for name, game in GAMES.items()]
