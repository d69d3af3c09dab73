"""The options of a tournament as the API takes them, shared by tournaments and the schedules
that create them (both checked by the services' ``tournament_options_check``).

The fields' bounds come from ``arena.algorithms.tournament_options``, the one place they are
written. ``games_per_match`` (the old name of ``matches_per_pairing``, which played that
many *matches*) is refused with a message saying so, rather than silently ignored.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.algorithms.tournament_options import (
    DEFAULTS,
    ENTRIES,
    FORMATS,
    MAX_ENTRY_LIMIT,
    MAX_MATCHES_PER_PAIRING,
    MAX_MOVE_TIMEOUT_S,
    MAX_ROUNDS,
    MAX_TIME_BANK_S,
    MIN_MOVE_TIMEOUT_S,
)
from arena.api.fields import StrictBooleanField, StrictFloatField, StrictIntegerField
from arena.models import Tournament

__all__ = ["MOVE_TIMEOUT_HELP", "TIME_BANK_HELP", "TournamentOptionsSerializer"]

MOVE_TIMEOUT_HELP = (
    f"CPU seconds per move of its matches, {MIN_MOVE_TIMEOUT_S:g}-{MAX_MOVE_TIMEOUT_S:g} "
    "(null: the arena's ARENA_MOVE_TIMEOUT_S); the wall-clock time per move follows it."
)
TIME_BANK_HELP = (
    f"CPU time bank per match, 0-{MAX_TIME_BANK_S:g} s (null: the arena's "
    "ARENA_TIME_BANK_S); the wall-clock bank follows it."
)
RENAMED = {
    "games_per_match": "games_per_match is now matches_per_pairing: the matches each pairing "
    "plays (one match of a game is already whole, e.g. Lie 21's best of seven games)"
}


class TournamentOptionsSerializer(serializers.Serializer):
    """How a tournament is played."""

    format = serializers.ChoiceField(
        choices=Tournament.Format.choices,
        default=DEFAULTS.format,
        help_text="; ".join(f"{value}: {about}" for value, (_, about) in FORMATS.items()),
    )
    table_size = StrictIntegerField(
        min_value=2,
        required=False,
        allow_null=True,
        help_text="Seats at each table, within the game's (see /api/games/); null: the game's "
        "smallest table. Fewer bots than that sit at one smaller table. Double elimination: "
        "two seats.",
    )
    rounds = StrictIntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        allow_null=True,
        help_text="Swiss only: how many rounds; ceil(log2 N) + 1 when left out.",
    )
    matches_per_pairing = StrictIntegerField(
        min_value=1,
        max_value=MAX_MATCHES_PER_PAIRING,
        default=DEFAULTS.matches_per_pairing,
        help_text="Matches each pairing (each table of a round) plays, each a whole match of "
        "the game (a Lie 21 match is best of seven games) with its own deals.",
    )
    duplicate = StrictBooleanField(
        default=DEFAULTS.duplicate,
        help_text="Play each match's deals once per seat rotation (a table of k seats plays "
        "k matches per match of the pairing), so the luck of the deal cancels out.",
    )
    rated = StrictBooleanField(
        default=DEFAULTS.rated, help_text="Count the matches for the ratings."
    )
    entry = serializers.ChoiceField(
        choices=Tournament.Entry.choices,
        default=DEFAULTS.entry,
        help_text="; ".join(f"{value}: {about}" for value, (_, about) in ENTRIES.items())
        + " (signup needs signup_deadline, top needs entry_limit).",
    )
    entry_limit = StrictIntegerField(
        min_value=2,
        max_value=MAX_ENTRY_LIMIT,
        required=False,
        allow_null=True,
        help_text="top: how many of the ladder are invited.",
    )
    move_timeout_s = StrictFloatField(required=False, allow_null=True, help_text=MOVE_TIMEOUT_HELP)
    time_bank_s = StrictFloatField(required=False, allow_null=True, help_text=TIME_BANK_HELP)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        data = getattr(self, "initial_data", None) or {}
        renamed = {name: [message] for name, message in RENAMED.items() if name in data}
        if renamed:
            raise serializers.ValidationError(renamed, code="renamed")
        return attrs
