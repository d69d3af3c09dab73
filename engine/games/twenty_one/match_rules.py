"""A Twenty One match: a fixed number of games in duplicate pairs, placed by games won.

Games 2 and 4 replay the shuffles of games 1 and 3 with the seats swapped (the runner
derives the same game seed from the same ``deal``; ``rotation`` 1 hands each seat the other
position's cards). Placings: games won, then the bets held at the end of the games added up;
still equal is a drawn match. The options also carry the game's own settings (dealer mode,
starting bets, the trump deck), so a replay records every rule in force.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.game import GameOutcome, GamePlan, GameState, MatchDecision, Tally
from engine.games.twenty_one.cards import ADD_TRUMPS, MAX_COPIES, TRUMP_RANK, standard_trumps

__all__ = ["TwentyOneMatch", "lexicographic_ranks"]

_MAX_GAMES = 100
_MAX_BETS = 100


def lexicographic_ranks(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranks by keys compared as tuples, higher first.

    >>> lexicographic_ranks([(2, 10), (2, 18)]), lexicographic_ranks([(1, 7), (1, 7)])
    ((1, 0), (0, 0))
    """
    return tuple(sum(1 for other in keys if other > mine) for mine in keys)


def _check_trumps(value: object, dealer_mode: bool) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, Mapping):
        raise ValueError("match option 'trumps' must be an object of trump name -> copies")
    counts = standard_trumps(dealer_mode=dealer_mode)
    for name, copies in value.items():
        if name not in TRUMP_RANK:
            raise ValueError(f"match option 'trumps': unknown trump {str(name)[:24]!r}")
        if type(copies) is not int or not 0 <= copies <= MAX_COPIES:
            raise ValueError(
                f"match option 'trumps': copies of {name!r} must be an integer 0-{MAX_COPIES}"
            )
        if copies and name in ADD_TRUMPS and not dealer_mode:
            raise ValueError("match option 'trumps': Add Number cards are for dealer mode only")
        counts[name] = copies
    return tuple(sorted(counts.items(), key=lambda item: TRUMP_RANK[item[0]]))


@dataclass(frozen=True, slots=True)
class TwentyOneMatch:
    """The options of a match (defaults: 4 games, two-player mode, 7 bets, the issue's deck).

    >>> TwentyOneMatch.from_options({"games": 2}).plan(2, 0, 2)
    GamePlan(deal=1, dealer=1, rotation=1, setup={})
    """

    games: int = 4  # games per match; even games replay the odd ones with the seats swapped
    dealer_mode: bool = False  # the seed's three-player mode: the engine deals, Add Numbers
    starting_bets: int = 7  # bets each player holds at the start of every game
    trumps: tuple[tuple[str, int], ...] = ()  # copies per trump; () is the standard deck

    def __post_init__(self) -> None:
        if not self.trumps:
            standard = standard_trumps(dealer_mode=self.dealer_mode)
            object.__setattr__(self, "trumps", tuple(standard.items()))

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> TwentyOneMatch:
        """Check options (unknown names, wrong types and ranges are a ValueError)."""
        options = dict(options or {})
        known = {f.name for f in fields(cls)}
        unknown = set(options) - known
        if unknown:
            raise ValueError(f"unknown match options: {sorted(unknown)}; known: {sorted(known)}")
        games = options.get("games", 4)
        if type(games) is not int or not 1 <= games <= _MAX_GAMES:
            raise ValueError(f"match option 'games' must be an integer 1-{_MAX_GAMES}")
        dealer_mode = options.get("dealer_mode", False)
        if type(dealer_mode) is not bool:
            raise ValueError("match option 'dealer_mode' must be true or false")
        bets = options.get("starting_bets", 7)
        if type(bets) is not int or not 1 <= bets <= _MAX_BETS:
            raise ValueError(f"match option 'starting_bets' must be an integer 1-{_MAX_BETS}")
        trumps = _check_trumps(options.get("trumps", {}), dealer_mode)
        return cls(games=games, dealer_mode=dealer_mode, starting_bets=bets, trumps=trumps)

    def options(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "dealer_mode": self.dealer_mode,
            "starting_bets": self.starting_bets,
            "trumps": dict(self.trumps),
        }

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        """Odd games deal a fresh shuffle; even games replay it with the seats swapped.

        Ruling 1: the seat holding position 0 starts the first round, so the bot that
        starts alternates by game (``first_dealer`` from the match seed is not used).
        """
        rotation = (game_number + 1) % 2
        return GamePlan(
            deal=(game_number + 1) // 2, dealer=(-rotation) % num_players, rotation=rotation
        )

    def game_outcome(self, state: GameState) -> GameOutcome:
        placings = tuple(state.placings())
        bets = tuple(state.scores())
        seats = range(len(placings))
        tied = len(set(placings)) == 1
        rounds_won = tuple(getattr(state, "rounds_won", [0] * len(placings)))
        return GameOutcome(
            placings=placings,
            awarded=tuple(0 if tied or rank else 1 for rank in placings),
            label="tie" if tied else ("win" if min(bets) == 0 else "cap"),
            totals={
                "game_wins": tuple(int(not tied and placings[s] == 0) for s in seats),
                "bets": bets,
                "rounds_won": rounds_won,
            },
        )

    def _keys(self, tally: Tally) -> list[tuple[int, ...]]:
        wins = tally.totals.get("game_wins", [0] * tally.seats)
        bets = tally.totals.get("bets", [0] * tally.seats)
        return [(wins[s], bets[s]) for s in range(tally.seats)]

    def decide(self, tally: Tally) -> MatchDecision | None:
        if tally.games_played < self.games:
            return None
        return MatchDecision(lexicographic_ranks(self._keys(tally)), "games")

    def standing(self, tally: Tally) -> tuple[int, ...]:
        return lexicographic_ranks(self._keys(tally))


DEFAULT_MATCH = TwentyOneMatch()
