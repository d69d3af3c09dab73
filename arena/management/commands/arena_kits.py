"""``manage.py arena_kits``: build what bot authors download (``arena.services.kits``).

The engine's wheel, the wheels it needs and every game's starter kit, for the sources this
checkout holds, into ``ARENA_DOWNLOADS_DIR`` (default ``DATA_DIR/downloads``). The Docker
image runs it at build time; ``make run`` runs the same build in the background as it
starts. Requests only read what it built: building takes pip, longer than a request waits.
Already built: nothing to do, in a fraction of a second.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from arena.services.kits import KitError, downloads_build, downloads_dir


class Command(BaseCommand):
    help = "Build the engine's wheel, the wheels it needs and every game's starter kit."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            downloads_build(say=self.stdout.write)
        except KitError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"downloads ready in {downloads_dir()}"))
