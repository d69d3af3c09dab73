"""Each hosted game's own files, served from the game's folder: no copies in ``arena/static``.

A game is one folder (``engine/games/<game>/``, or an installed plug-in's package) holding
its renderer, its rules document and its replay schema; the registry knows where (``Game.
renderer_path()``, ``docs_path()``, ``replay_schema_path()``). :class:`GameRendererFinder`
puts each renderer where the replay viewer imports it, ``arena/games/<game>/renderer.js``
under the static URL, so it is served like the site's own modules (``runserver`` and, with
``WHITENOISE_USE_FINDERS``, WhiteNoise find it; ``collectstatic`` copies it into
``STATIC_ROOT`` with a hashed name, as it does every static file).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

from engine.registry import GAMES

__all__ = ["RENDERERS", "GameRendererFinder", "renderer_static_path"]

#: Where the renderers live under the static URL (the viewer's modules are next door:
#: a renderer imports ``../../viewer/events.js``).
RENDERERS = "arena/games"


def renderer_static_path(game: str) -> str:
    """The static path of a game's renderer: ``arena/games/<game>/renderer.js``."""
    return f"{RENDERERS}/{game}/renderer.js"


def _renderers() -> dict[str, Path]:
    """Static path -> file, for every hosted game that has a renderer."""
    found = {}
    for name, game in GAMES.items():
        path = getattr(game, "renderer_path", None)
        if path is not None and path().is_file():
            found[renderer_static_path(name)] = path()
    return found


class GameRendererFinder(BaseFinder):
    """Finds ``arena/games/<game>/renderer.js`` in the folder of each hosted game."""

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    # A miss is [] as in Django's own finders (the stubs say None); **kwargs: Django 5.2
    # still passes the deprecated all=.
    def find(  # type: ignore[override]
        self, path: str, find_all: bool = False, **kwargs: Any
    ) -> str | list[str]:
        found = _renderers().get(path)
        if find_all:
            return [str(found)] if found is not None else []
        return str(found) if found is not None else []

    def list(
        self, ignore_patterns: Iterable[str] | None
    ) -> Iterator[tuple[str, FileSystemStorage]]:
        for static_path, file in _renderers().items():
            if utils.matches_patterns(file.name, ignore_patterns or []):
                continue
            storage = FileSystemStorage(location=file.parent)
            # Where collectstatic puts the file: Django's FileSystemFinder gives a prefixed
            # directory's storage the same attribute, which the stubs do not declare.
            storage.prefix = static_path.rsplit("/", 1)[0]  # type: ignore[attr-defined]
            yield file.name, storage
