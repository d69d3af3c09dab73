"""Tieng Len matches: eight games, game points 3/2/1/0, the winner leads the next game.

Each game gives its places' points (3/2/1/0 at four seats, 2/1/0 at three, 1/0 at two).
After the last game the match is placed by total points, then by first places; seats still
equal share a placing. The dealer rotates every game. With ``duplicate`` the deals are
replayed with the hands rotated round the table, so every seat plays every hand.

The next game's leader is the last game's winner, which only the match knows: the rules
object of a match remembers it and tells the game through the plan's ``setup``
(``{"leader": seat}``), which the runner hands to ``new_game`` and records in the replay.
A game dealt without it is the first game of a match (the lowest card leads).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.game import GameOutcome, GamePlan, GameState, MatchDecision, Tally

__all__ = ["EightGames", "TiengLenOptions", "rank_seats"]


@dataclass(frozen=True, slots=True)
class TiengLenOptions:
    """Every option of a Tieng Len match, with its default."""

    games: int = 8  # games in a match (with duplicate: rounded up to a multiple of the seats)
    duplicate: bool = False  # replay each deal with the hands rotated round the table
    instant_wins: bool = False  # four 2s, a dragon or six pairs dealt win the game at once

    def __post_init__(self) -> None:
        if not 1 <= self.games <= 100:
            raise ValueError("match option 'games' must be from 1 to 100")

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> TiengLenOptions:
        """The options over the defaults; ValueError naming an unknown or mistyped one.

        >>> TiengLenOptions.from_options({"games": 4}).games
        4
        >>> TiengLenOptions.from_options({"rounds": 4})
        Traceback (most recent call last):
        ...
        ValueError: unknown match options: ['rounds']; known: ['duplicate', 'games', 'instant_wins']
        """
        known = {f.name: f for f in fields(cls)}
        unknown = set(options or {}) - set(known)
        if unknown:
            raise ValueError(f"unknown match options: {sorted(unknown)}; known: {sorted(known)}")
        values: dict[str, Any] = {}
        for key, value in (options or {}).items():
            wanted, words = (int, "an integer") if key == "games" else (bool, "true or false")
            if type(value) is not wanted:
                raise ValueError(f"match option {key!r} must be {words}, not {value!r}"[:120])
            values[key] = value
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def rank_seats(points: list[int], firsts: list[int]) -> tuple[int, ...]:
    """Competition ranks by total points, then first places; still equal shares a rank.

    >>> rank_seats([10, 10, 4, 10], [3, 2, 0, 3])
    (0, 2, 3, 0)
    """
    keys = list(zip(points, firsts, strict=True))
    return tuple(sum(1 for other in keys if other > mine) for mine in keys)


class EightGames:
    """The match rules of one match (a new object per match: it remembers the last winner)."""

    def __init__(self, settings: TiengLenOptions | None = None) -> None:
        self.settings = settings or TiengLenOptions()
        self.upcoming = 1  # the number of the game ``plan`` was last asked for
        self.last_winner: int | None = None

    def options(self) -> dict[str, Any]:
        return self.settings.as_dict()

    def games_for(self, seats: int) -> int:
        """Games in a match at ``seats`` seats: a duplicate match plays every deal at every
        seat, so it rounds up to a multiple of the seats (9 games at three seats)."""
        games = self.settings.games
        if self.settings.duplicate:
            games = -(-games // seats) * seats
        return games

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        """A fresh deal every game (with ``duplicate``, each deal once per seat, its hands
        turned one seat further round each time); the dealer rotates."""
        self.upcoming = game_number
        dealer = (first_dealer + game_number - 1) % num_players
        leader = self.leader_of_next_game()
        setup = {} if leader is None else {"leader": leader}
        if self.settings.duplicate:
            deal, rotation = divmod(game_number - 1, num_players)
            return GamePlan(deal=deal + 1, dealer=dealer, rotation=rotation, setup=setup)
        return GamePlan(deal=game_number, dealer=dealer, setup=setup)

    def leader_of_next_game(self) -> int | None:
        """Who leads the game being dealt: None for the first game (the lowest card leads),
        else the previous game's winner."""
        return None if self.upcoming <= 1 else self.last_winner

    def game_outcome(self, state: GameState) -> GameOutcome:
        placings = state.placings()
        winner = getattr(state, "winner", None)
        if winner is not None:
            self.last_winner = winner
        instant = bool(getattr(state, "instant", None))
        return GameOutcome(
            placings=placings,
            awarded=tuple(state.scores()),
            label="instant_win" if instant else "played",
            totals={"firsts": tuple(int(rank == 0) for rank in placings)},
        )

    def _ranks(self, tally: Tally) -> tuple[int, ...]:
        firsts = tally.totals.get("firsts", [0] * tally.seats)
        return rank_seats(list(tally.match_points), list(firsts))

    def decide(self, tally: Tally) -> MatchDecision | None:
        if tally.games_played < self.games_for(tally.seats):
            return None
        return MatchDecision(self._ranks(tally), "games")

    def standing(self, tally: Tally) -> tuple[int, ...]:
        return self._ranks(tally)
