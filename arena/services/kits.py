"""What a new bot author downloads: the engine's wheel and a starter kit per game.

The wheel is the repo's installable part (``engine`` and ``sandbox``, see pyproject.toml),
built offline once per version of their sources and kept under ``DATA_DIR/downloads/``. A
starter kit is a zip of everything to begin with: the game's starter bot, its rules, a README
saying how to install and run, a test harness, the wheel itself and, under ``wheels/``, the
wheels of everything the engine needs (fastjsonschema, rich, trueskillthroughtime and
theirs), so that::

    pip install --no-index --find-links wheels bluff_arena_engine-*.whl
    python -m engine play my_bot.py random

works from the kit's folder with no network at all.

Why ship the dependencies rather than make the engine need none for local play: the local
runner must judge a bot as the arena does, and the arena checks every action with
fastjsonschema against the game's schema, so a kit without it would accept moves the arena
refuses; rich draws the runner's tables and trueskillthroughtime rates its tournaments as
the ladder does. They are pure-Python wheels (any OS, any CPU), about 1.6 MB together, built
once per version set from the very versions this arena runs (read from its own
environment), with pip, under ``DATA_DIR/downloads/wheels/``.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import io
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from django.conf import settings

from engine.botpackages import requirements, summary
from engine.registry import get_game

__all__ = [
    "KitError",
    "dependency_wheels",
    "engine_dependencies",
    "engine_wheel",
    "starter_kit",
    "starter_kit_file",
    "starter_kit_name",
]

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from (the viewer's shell goes in as engine/_viewer: setup.py; each
#: game's files are in its folder under engine/).
SOURCES = ("engine", "sandbox", "arena/static/arena/viewer")


class KitError(RuntimeError):
    """The wheel could not be built (a platform problem, reported as such)."""


def _sources_digest() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update((ROOT / "setup.py").read_bytes())
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def engine_wheel() -> Path:
    """The engine's wheel for the current sources, built on first use (one build at a time)."""
    target = Path(settings.DATA_DIR) / "downloads" / "engine" / _sources_digest()
    built = sorted(target.glob("*.whl"))
    if built:
        return built[-1]
    target.mkdir(parents=True, exist_ok=True)
    with (target / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = sorted(target.glob("*.whl"))
        if built:
            return built[-1]
        command = [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(target),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=target)
        built = sorted(target.glob("*.whl"))
        if done.returncode != 0 or not built:
            raise KitError(f"building the engine wheel failed: {done.stderr.strip()[-500:]}")
    return built[-1]


def engine_dependencies() -> dict[str, str]:
    """The engine's runtime dependencies and theirs, as installed here: name -> version.

    Read from pyproject.toml and this environment's package metadata, so the kit carries the
    versions the arena itself runs. A requirement not installed here (one whose marker does
    not apply to this Python) is left out.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found: dict[str, str] = {}
    pending = list(project.get("dependencies", []))
    while pending:
        requirement = pending.pop()
        marker = requirement.split(";", 1)[1] if ";" in requirement else ""
        if "extra" in marker:
            continue
        name = re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0]
        key = name.lower().replace("_", "-")
        if not name or key in found:
            continue
        try:
            found[key] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        pending += importlib.metadata.requires(name) or []
    return dict(sorted(found.items()))


def dependency_wheels() -> list[Path]:
    """Wheels of :func:`engine_dependencies`, built with pip once per version set.

    pip takes them from its cache or the package index (``PIP_FIND_LINKS`` and friends
    apply); a host that can reach neither gets :class:`KitError` saying so.
    """
    pins = [f"{name}=={version}" for name, version in engine_dependencies().items()]
    digest = hashlib.sha256("\n".join(pins).encode()).hexdigest()[:16]
    target = Path(settings.DATA_DIR) / "downloads" / "wheels" / digest
    done_marker = target / ".complete"
    if done_marker.is_file():
        return sorted(target.glob("*.whl"))
    target.mkdir(parents=True, exist_ok=True)
    with (target / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done_marker.is_file():
            command = [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--quiet",
                "--disable-pip-version-check",
                "--wheel-dir",
                str(target),
                *pins,
            ]
            built = subprocess.run(
                command, capture_output=True, text=True, timeout=600, cwd=target, check=False
            )
            if built.returncode != 0 or len(list(target.glob("*.whl"))) < len(pins):
                tail = (built.stderr or built.stdout).strip()[-500:]
                raise KitError(f"building the engine's dependency wheels failed: {tail}")
            done_marker.write_text("\n".join(pins) + "\n")
    return sorted(target.glob("*.whl"))


def starter_kit_name(game: str) -> str:
    return f"{get_game(game).name}-starter-kit.zip"


_README = """# {title}: starter kit

{summary}

## Set up (once)

    python3 -m venv .venv && . .venv/bin/activate
    pip install --no-index --find-links wheels {wheel}

`{wheel}` is the engine (the arena's own rules, match runner, sandbox and replay viewer);
`wheels/` holds what it needs, so this works offline. Bots may import the standard library
and {packages}, nothing else (the list and why: **Write a bot** on the site). To run a
bot that imports numpy in the sandbox, once (pip fetches it for the sandbox's interpreter):

    python -m engine packages --install

and for `--in-process` runs, in this venv: `pip install {pins}`.

## Play your bot locally

    python -m engine play my_bot.py random --game {game} --matches 10 --in-process
    python -m engine play my_bot.py random --game {game} --matches 10   # sandboxed, as on the site
    python -m engine tournament my_bot.py {rivals} --game {game}

What your bot prints, and its traceback if it fails, are shown on stderr labelled with the
match, game and step (`--quiet` hides them). `--replay-dir replays/` keeps every replay, with
what your bot printed beside it (`*.logs.json`, yours alone: never uploaded);
`python -m engine replay replays/<file>` prints one as text, and with `--html match.html`
writes it as one page with the site's own viewer, your bot's output and any fault beside the
step they belong to (open it in a browser; `F` jumps to a fault). The site's replay page
opens the replay files too. Sandboxed runs need Linux with
bubblewrap (`apt install bubblewrap`); elsewhere use `--in-process` (your code only).

## Check it before you upload

    python test_my_bot.py      # or: pytest test_my_bot.py

## The rules and the bot API

`rules.md` is the game as the arena plays it, with every observation field and the action
format. Built-in bots to practise against: {bots}.

## Upload

On the site: **Upload**, choose {title}, drop `my_bot.py` (or a zip with `bot.py` and your
helper modules). It is validated in the sandbox and then plays the ladder.
"""

_HARNESS = '''"""Plays a few matches of my_bot.py against the built-in random bot and fails
loudly if the bot crashes, times out or plays an illegal move.

Run: python test_my_bot.py (or pytest).
"""

from pathlib import Path

from engine import InProcessPlayer, builtin_bot, play_match

GAME = "{game}"
BOT = Path(__file__).with_name("my_bot.py")


def test_my_bot_plays_whole_matches_without_a_fault():
    rules = __import__("engine").get_game(GAME)
    for seed in range(5):
        players = [InProcessPlayer("my_bot", BOT)] + [
            InProcessPlayer(f"random{{n}}", builtin_bot(GAME, "random"))
            for n in range(1, rules.min_players)
        ]
        result = play_match(GAME, players, seed=seed, collect_logs=True)
        for fault in result.faults:
            raise AssertionError(
                f"seat {{fault.seat}} failed in game {{fault.game}}: {{fault.kind}}: "
                f"{{fault.detail}}\\n{{fault.private}}"
            )
        print(f"match {{seed}}: placings {{list(result.placings)}}")


if __name__ == "__main__":
    test_my_bot_plays_whole_matches_without_a_fault()
    print("my_bot.py played 5 matches without a fault")
'''


def starter_kit(game: str) -> bytes:
    """The starter kit of ``game`` as zip bytes (see the module docstring)."""
    rules = get_game(game)
    bots = rules.builtin_bots()
    wheel = engine_wheel()
    dependencies = dependency_wheels()
    folder = f"{rules.name}-starter"
    others = ", ".join(sorted(name for name in bots if name != "starter"))
    readme = _README.format(
        title=rules.title,
        summary=rules.summary,
        game=rules.name,
        wheel=wheel.name,
        bots=others,
        rivals=" ".join(sorted(name for name in bots if name != "starter")),
        packages=summary().removeprefix("the standard library and "),
        pins=" ".join(requirements()),
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as kit:
        kit.writestr(f"{folder}/README.md", readme)
        kit.writestr(f"{folder}/my_bot.py", bots["starter"].read_bytes())
        kit.writestr(f"{folder}/test_my_bot.py", _HARNESS.format(game=rules.name))
        docs = rules.docs_path()
        if docs.is_file():
            kit.writestr(f"{folder}/rules.md", docs.read_bytes())
        # Wheels are zips already: stored, not compressed twice.
        kit.write(wheel, f"{folder}/{wheel.name}", compress_type=zipfile.ZIP_STORED)
        for dependency in dependencies:
            kit.write(
                dependency, f"{folder}/wheels/{dependency.name}", compress_type=zipfile.ZIP_STORED
            )
    return buffer.getvalue()


def starter_kit_file(game: str) -> Path:
    """The starter kit of ``game`` as a file, built once per version of what goes into it
    (the engine's sources, its dependencies, the game's starter bot and rules), so serving
    it costs a file read, not a 2 MB zip per request."""
    rules = get_game(game)
    digest = hashlib.sha256(engine_wheel().name.encode())
    digest.update(_sources_digest().encode())
    for path in [*dependency_wheels(), rules.builtin_bots()["starter"], rules.docs_path()]:
        digest.update(str(path).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    target = (
        Path(settings.DATA_DIR) / "downloads" / "kits" / digest.hexdigest()[:16]
    ) / starter_kit_name(game)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = target.with_suffix(f".{os.getpid()}.part")
        scratch.write_bytes(starter_kit(game))
        scratch.replace(target)  # atomic: a reader never sees half a zip
    return target
