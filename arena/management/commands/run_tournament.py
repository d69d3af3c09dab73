"""``manage.py run_tournament --game GAME [--name N] [--seed S] [--format F] [--table-size K]
[--rounds R] [--matches-per-pairing M] [--duplicate] [--unrated] [--wait]``.

Creates a tournament (round robin by default; Swiss, double elimination or promotion with
``--format``) of every active bot of the game and starts it now. With
``--wait`` it follows the matches in the database (so it works with any broker, the
filesystem one included, as long as a worker runs) and prints the standings at the end.
A dropped database connection (a server restart, an idle timeout) does not stop the wait:
the command says so, reconnects and keeps polling (until ``--timeout``, if given).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.errors import DomainError
from arena.models import Match, Tournament
from arena.services.tournaments import tournament_create, tournament_standings, tournament_start
from engine.registry import GAMES

OVER = (Match.Status.DONE, Match.Status.FAILED)
#: Seconds between polls, and before a reconnection attempt.
POLL_S = 0.5
RECONNECT_S = 2.0


class Command(BaseCommand):
    help = "Create and start a tournament of every active bot of a game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, choices=list(GAMES))
        parser.add_argument("--name", help="tournament name (default: the game and the time)")
        parser.add_argument("--seed", type=int, help="tournament seed (default: random)")
        parser.add_argument(
            "--format", default=Tournament.Format.ROUND_ROBIN, choices=Tournament.Format.values
        )
        parser.add_argument(
            "--table-size", type=int, help="seats at each table (default: the game's smallest)"
        )
        parser.add_argument("--rounds", type=int, help="Swiss: rounds (default ceil(log2 N)+1)")
        parser.add_argument(
            "--matches-per-pairing",
            type=int,
            default=1,
            help="matches each pairing plays, each a whole match of the game (default 1)",
        )
        parser.add_argument("--duplicate", action="store_true", help="duplicate deals")
        parser.add_argument("--unrated", action="store_true", help="leave the ratings alone")
        parser.add_argument(
            "--wait", action="store_true", help="follow the matches and print the standings"
        )
        parser.add_argument(
            "--timeout", type=float, default=None, help="with --wait: give up after N seconds"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["name"] or f"{GAMES[options['game']].title} {timezone.now():%Y-%m-%d %H:%M}"
        try:
            tournament = tournament_create(
                name=name,
                game=options["game"],
                created_by=None,
                seed=options["seed"],
                format=options["format"],
                table_size=options["table_size"],
                rounds=options["rounds"],
                matches_per_pairing=options["matches_per_pairing"],
                duplicate=options["duplicate"],
                rated=not options["unrated"],
            )
        except DomainError as exc:
            raise CommandError(exc.message) from None
        try:
            tournament = tournament_start(tournament_id=tournament.pk)
        except DomainError as exc:
            tournament.delete()  # never started: leave no empty pending tournament behind
            raise CommandError(exc.message) from None
        total = tournament.matches.count()
        self.stdout.write(
            f"Tournament {tournament.pk} ({tournament.name!r}) started: "
            f"{tournament.entries.count()} bots, {total} matches."
        )
        if options["wait"]:
            # OutputWrapper is a text stream (TextIOBase); rich's stubs ask for typing.IO.
            console = Console(file=self.stdout, width=100)  # type: ignore[arg-type]
            tournament = self._wait(tournament, total, console, options["timeout"])
            self._print_standings(tournament, console)

    def _wait(
        self, tournament: Tournament, total: int, console: Console, timeout: float | None
    ) -> Tournament:
        deadline = None if timeout is None else time.monotonic() + timeout
        columns = (
            TextColumn("matches"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        # Without a terminal (a log, CI) the bar cannot redraw: print a line when it moves.
        plain = not console.is_terminal
        reported = -1
        with Progress(*columns, console=console, transient=False, disable=plain) as progress:
            bar = progress.add_task("matches", total=total)
            done = 0
            while True:
                try:
                    done = tournament.matches.filter(status__in=OVER).count()
                    # Swiss and elimination rounds are created as the previous ones end.
                    total = max(total, tournament.matches.count())
                    tournament.refresh_from_db()
                except (OperationalError, InterfaceError) as exc:
                    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                    console.print(f"lost the database connection ({reason}); reconnecting")
                    connection.close()  # the next query opens a fresh one
                    self._check_deadline(deadline, done, total, tournament)
                    time.sleep(RECONNECT_S)
                    continue
                progress.update(bar, completed=done, total=total)
                if plain and done != reported:
                    console.print(f"{done}/{total} matches over")
                    reported = done
                if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                    return tournament
                self._check_deadline(deadline, done, total, tournament)
                time.sleep(POLL_S)

    @staticmethod
    def _check_deadline(
        deadline: float | None, done: int, total: int, tournament: Tournament
    ) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise CommandError(
                f"gave up waiting: {done} of {total} matches over, tournament "
                f"{tournament.pk} is {tournament.status} (is a worker running?)"
            )

    def _print_standings(self, tournament: Tournament, console: Console) -> None:
        standings = tournament_standings(tournament=tournament)
        table = Table(title=f"{tournament.name}: {standings['status']}")
        columns = (
            "#",
            "bot",
            "owner",
            "v",
            "played",
            "points",
            "95% interval",
            "ahead of next",
            "1st",
            "W",
            "D",
            "L",
            "mean place",
            "MP",
        )
        for column in columns:
            table.add_column(column, justify="left" if column in {"bot", "owner"} else "right")
        for row in standings["rows"]:
            mean = row["mean_place"]  # 1 = first, as on the pages and in the API
            interval = row.get("points_interval")
            ahead = row.get("superiority_over_next")
            table.add_row(
                str(row["rank"]),
                row["bot"]["name"],
                row["bot"]["owner"],
                str(row["version"]),
                str(row["played"]),
                f"{row['points']:g}",
                # As the page writes them: one decimal, the likelihood as a whole percentage.
                "-" if interval is None else f"{interval[0]:.1f}-{interval[1]:.1f}",
                "-" if ahead is None else f"{ahead:.0%}",
                str(row["first_places"]),
                str(row["wins"]),
                str(row["draws"]),
                str(row["losses"]),
                "-" if mean is None else f"{mean:.2f}",
                str(row["match_points"]),
            )
        console.print(table)
        console.print(standings["how_to_read"])
        failed = standings["matches_total"] - tournament.matches.filter(status="done").count()
        if failed:
            matches = "match" if failed == 1 else "matches"
            console.print(f"{failed} {matches} failed on the platform and count for nobody.")
