"""setuptools hook (the project itself is declared in pyproject.toml).

The engine's wheel carries the site's replay viewer, so that ``python -m engine replay FILE
--html out.html`` draws with the very modules the site serves even where no checkout of the
arena exists: the stylesheet, the viewer's markup and the shell are copied into
``engine/_viewer/`` of the build (engine/htmlviewer.py looks there first). Each game's own
files (renderer, rules, replay schema) are in its folder and go in as package data.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
STATIC = HERE / "arena" / "static" / "arena"
VIEWER_FILES = {
    "arena.css": STATIC / "arena.css",
    "viewer.html": HERE / "arena" / "templates" / "arena" / "matches" / "viewer.html",
    **{f"viewer/{p.name}": p for p in sorted((STATIC / "viewer").glob("*.js"))},
}


class BuildWithViewer(build_py):
    """build_py, plus the viewer's files under engine/_viewer/."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "engine" / "_viewer"
        for name, source in VIEWER_FILES.items():
            if source.is_file():  # an sdist without the arena builds without the viewer
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target / name)


setup(cmdclass={"build_py": BuildWithViewer})
