"""Tournaments of any game, by job:

- :mod:`.options`: the options checked once (the rules are ``arena.algorithms.tournament_options``);
- :mod:`.lifecycle`: create, start (entries frozen), finish or cancel;
- :mod:`.signups`: who plays: the entry rule, owners' sign-ups;
- :mod:`.rounds`: the rounds of Swiss, double elimination and promotion, one at a time;
- :mod:`.standings`: points, ranks, crosstable and how sure they are (the counting is
  ``arena.algorithms.standings``);
- :mod:`.plans`: what a tournament will play and roughly how long, before it is created.

The pairing rules themselves (round robin tables, Swiss, brackets, promotion) are pure
functions in ``arena.algorithms``.
"""

from arena.services.tournaments.lifecycle import (
    DEMO_NAME,
    demo_tournament_start,
    tournament_cancel,
    tournament_create,
    tournament_finish,
    tournament_start,
    tournament_start_due,
)
from arena.services.tournaments.options import seats_of, tournament_options_check
from arena.services.tournaments.plans import TournamentPlan, matches_for, tournament_plan
from arena.services.tournaments.signups import (
    eligible_count,
    tournament_participants,
    tournament_signup,
    tournament_withdraw,
)
from arena.services.tournaments.standings import (
    HOW_TO_READ,
    STANDINGS_VERSION,
    tournament_standings,
)

__all__ = [
    "DEMO_NAME",
    "HOW_TO_READ",
    "STANDINGS_VERSION",
    "TournamentPlan",
    "demo_tournament_start",
    "eligible_count",
    "matches_for",
    "seats_of",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_options_check",
    "tournament_participants",
    "tournament_plan",
    "tournament_signup",
    "tournament_standings",
    "tournament_start",
    "tournament_start_due",
    "tournament_withdraw",
]
