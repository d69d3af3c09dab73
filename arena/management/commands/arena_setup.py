"""``manage.py arena_setup``: what a fresh arena needs before it is useful. Idempotent.

Creates the demo admin (and prints its credentials), installs the built-in bots, registers the
periodic tasks, and starts a demo tournament among the built-in bots the first time, so a new
user sees a ladder, standings and replays a minute after ``make run``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from arena.services.accounts import demo_admin_ensure
from arena.services.builtins import builtin_bots_install
from arena.services.schedules import periodic_tasks_install
from arena.services.tournaments import demo_tournament_start


class Command(BaseCommand):
    help = "Create the demo admin and built-in bots, and start the demo tournament once."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-demo", action="store_true", help="no demo tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        username, password = demo_admin_ensure(
            credentials_file=settings.DATA_DIR / "demo-admin-password.txt"
        )
        if password:
            self.stdout.write(f"Demo admin: {username} / {password}  (log in at /admin/)")
        else:
            self.stdout.write(f"Admin user '{username}' exists (password not managed here)")
        bots = builtin_bots_install()
        self.stdout.write(f"Built-in bots: {', '.join(bot.name for bot in bots)}")
        periodic_tasks_install()
        if not options["no_demo"] and settings.ARENA_DEMO_TOURNAMENT:
            tournament = demo_tournament_start()
            if tournament is not None:
                self.stdout.write(f"Started the demo tournament: {tournament.name}")
