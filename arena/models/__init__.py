"""The arena's data model. See docs/architecture.md for how the pieces relate."""

from arena.models.bots import Bot, BotVersion
from arena.models.matches import Challenge, Match, MatchLog, MatchSeat, Replay
from arena.models.playground import PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from arena.models.ratings import Rating, RatingHistory
from arena.models.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentSchedule,
    TournamentSignup,
)

__all__ = [
    "Bot",
    "BotVersion",
    "Challenge",
    "Match",
    "MatchLog",
    "MatchSeat",
    "PlaygroundDraft",
    "PlaygroundMatch",
    "PlaygroundRun",
    "Rating",
    "RatingHistory",
    "Replay",
    "Tournament",
    "TournamentEntry",
    "TournamentSchedule",
    "TournamentSignup",
]
