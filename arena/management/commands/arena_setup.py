"""``manage.py arena_setup``: what a fresh arena needs before it is useful. Idempotent.

Installs the built-in bots, registers the periodic tasks and creates the "arena staff" group
(the admin permissions staff need) and the "organisers" group (organising tournaments on the
site, without admin access). Accounts and demo content depend on the mode:

* development (``DEBUG=1``): a demo admin whose random password is printed and kept under the
  data directory, and a demo tournament among the built-in bots the first time, so a new user
  sees a ladder, standings and replays a minute after ``make run``;
* production (``DEBUG=0``): no default account and no demo tournament. An admin is created
  only when asked: ``DJANGO_SUPERUSER_USERNAME`` and ``DJANGO_SUPERUSER_PASSWORD`` (and
  optionally ``DJANGO_SUPERUSER_EMAIL``) in the environment, Django's own names, create it
  once (its password is never printed or stored); or ``manage.py createsuperuser``.
  ``ARENA_DEMO_ADMIN=1`` / ``ARENA_DEMO_TOURNAMENT=1`` turn the demo content back on.

``--staff USERNAME`` (repeatable) makes existing users staff and puts them in the group: the
documented way to make staff (docs/deploy.md). ``--organiser USERNAME`` (repeatable) puts
existing users in the organisers' group.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arena.services.accounts import (
    ORGANISER_GROUP,
    STAFF_GROUP,
    admin_from_env_ensure,
    demo_admin_ensure,
    organiser_group_ensure,
    organiser_make,
    staff_group_ensure,
    staff_make,
)
from arena.services.builtins import builtin_bots_install
from arena.services.schedules import periodic_tasks_install
from arena.services.storage import object_store_ensure
from arena.services.tournaments import demo_tournament_start


class Command(BaseCommand):
    help = "Install the built-in bots and periodic tasks; demo admin and tournament in DEBUG."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-demo", action="store_true", help="no demo tournament")
        parser.add_argument(
            "--staff",
            action="append",
            default=[],
            metavar="USERNAME",
            help=f"make this existing user staff, in the '{STAFF_GROUP}' group (repeatable)",
        )
        parser.add_argument(
            "--organiser",
            action="append",
            default=[],
            metavar="USERNAME",
            help=f"put this existing user in the '{ORGANISER_GROUP}' group: they organise "
            "tournaments on the site (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bucket = object_store_ensure()
        if bucket:
            self.stdout.write(f"Object store bucket '{bucket}' is ready")
        if settings.ARENA_DEMO_ADMIN:
            username, password = demo_admin_ensure(
                credentials_file=settings.DATA_DIR / "demo-admin-password.txt"
            )
            if password:
                self.stdout.write(f"Demo admin: {username} / {password}  (log in at /admin/)")
            else:
                self.stdout.write(f"Admin user '{username}' exists (password not managed here)")
        try:
            admin, created = admin_from_env_ensure(os.environ)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if admin and created:
            self.stdout.write(f"Admin user '{admin}' created from DJANGO_SUPERUSER_USERNAME")
        elif admin:
            self.stdout.write(f"Admin user '{admin}' exists (its password is left as it is)")
        elif not settings.ARENA_DEMO_ADMIN:
            self.stdout.write(
                "No admin account created: set DJANGO_SUPERUSER_USERNAME and "
                "DJANGO_SUPERUSER_PASSWORD, or run 'manage.py createsuperuser'"
            )
        staff_group_ensure()
        self.stdout.write(f"Group '{STAFF_GROUP}' is up to date")
        for username in options["staff"]:
            try:
                staff_make(username=username)
            except get_user_model().DoesNotExist:
                raise CommandError(f"no user named {username!r}") from None
            self.stdout.write(f"{username} is staff, in '{STAFF_GROUP}'")
        organiser_group_ensure()
        self.stdout.write(f"Group '{ORGANISER_GROUP}' is up to date")
        for username in options["organiser"]:
            try:
                organiser_make(username=username)
            except get_user_model().DoesNotExist:
                raise CommandError(f"no user named {username!r}") from None
            self.stdout.write(f"{username} organises tournaments, in '{ORGANISER_GROUP}'")
        bots = builtin_bots_install()
        self.stdout.write(f"Built-in bots: {', '.join(bot.name for bot in bots)}")
        periodic_tasks_install()
        if not options["no_demo"] and settings.ARENA_DEMO_TOURNAMENT:
            for tournament in demo_tournament_start():
                self.stdout.write(f"Started the demo tournament: {tournament.name}")
