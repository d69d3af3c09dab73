"""``manage.py arena_check``: exit 0 when the database and the broker answer, else say why.

Used by the container health checks and handy on a new worker host. With ``--sandbox`` it
also requires that bots can be sandboxed here (the worker's health check) and prints which
isolation layers are in force, so rlimits-only hosts are visible before the first match.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from arena.preflight import (
    check_broker,
    check_database,
    check_sandbox,
    check_storage,
    sandbox_limits,
)


class Command(BaseCommand):
    help = "Check that the database, the broker (and object store) answer; --sandbox: and bots."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--sandbox", action="store_true", help="also require the sandbox")

    def handle(self, *args: Any, **options: Any) -> None:
        checks = [check_database, check_broker, check_storage]
        if options["sandbox"]:
            checks.append(check_sandbox)
        for check in checks:
            problem = check()
            if problem:
                raise CommandError(problem)
        if options["sandbox"]:
            for line in sandbox_limits():
                self.stdout.write(f"sandbox {line}")
        self.stdout.write("ok")
