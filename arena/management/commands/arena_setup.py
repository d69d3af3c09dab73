"""``manage.py arena_setup``: what a fresh arena needs before it is useful. Idempotent.

Creates the demo admin (and prints its credentials), installs the built-in bots, registers the
periodic tasks, creates the "arena staff" group (the admin permissions staff need), and
starts a demo tournament among the built-in bots the first time, so a new
user sees a ladder, standings and replays a minute after ``make run``.

``--staff USERNAME`` (repeatable) makes existing users staff and puts them in the group: the
documented way to make staff (docs/deploy.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arena.services.accounts import STAFF_GROUP, demo_admin_ensure, staff_group_ensure, staff_make
from arena.services.builtins import builtin_bots_install
from arena.services.schedules import periodic_tasks_install
from arena.services.tournaments import demo_tournament_start


class Command(BaseCommand):
    help = "Create the demo admin and built-in bots, and start the demo tournament once."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-demo", action="store_true", help="no demo tournament")
        parser.add_argument(
            "--staff",
            action="append",
            default=[],
            metavar="USERNAME",
            help=f"make this existing user staff, in the '{STAFF_GROUP}' group (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username, password = demo_admin_ensure(
            credentials_file=settings.DATA_DIR / "demo-admin-password.txt"
        )
        if password:
            self.stdout.write(f"Demo admin: {username} / {password}  (log in at /admin/)")
        else:
            self.stdout.write(f"Admin user '{username}' exists (password not managed here)")
        staff_group_ensure()
        self.stdout.write(f"Group '{STAFF_GROUP}' is up to date")
        for username in options["staff"]:
            try:
                staff_make(username=username)
            except get_user_model().DoesNotExist:
                raise CommandError(f"no user named {username!r}") from None
            self.stdout.write(f"{username} is staff, in '{STAFF_GROUP}'")
        bots = builtin_bots_install()
        self.stdout.write(f"Built-in bots: {', '.join(bot.name for bot in bots)}")
        periodic_tasks_install()
        if not options["no_demo"] and settings.ARENA_DEMO_TOURNAMENT:
            for tournament in demo_tournament_start():
                self.stdout.write(f"Started the demo tournament: {tournament.name}")
