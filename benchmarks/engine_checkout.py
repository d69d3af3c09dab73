"""An older commit's engine beside this one, for the benchmarks that compare the two.

``engine_speed.py --compare`` and ``engine_fingerprint.py --compare`` run the same script
against two engines: this checkout's and a commit's, exported (``git archive``) into a
temporary folder and put first on the child's ``sys.path`` with ``--engine-root``. The
script itself is this checkout's in both runs, so only the engine differs.

``sandbox_speed.py --compare`` and ``tournament_speed.py --compare`` run a whole tree, this
checkout's and a commit's, each in its own process: :func:`checkout` gives the commit's as a
temporary git worktree.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["REPO", "checkout", "export", "use_engine"]

REPO = Path(__file__).resolve().parents[1]


def export(commit: str) -> Path:
    """The commit's tree in a fresh temporary folder (removed when the process exits)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    holder = tempfile.TemporaryDirectory(prefix=f"engine-{commit[:12]}-")
    _KEEP.append(holder)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(holder.name, filter="data")
    return Path(holder.name)


_KEEP: list[tempfile.TemporaryDirectory[str]] = []


def use_engine(argv: list[str]) -> list[str]:
    """Put ``--engine-root DIR`` (or this checkout) first on ``sys.path``; the other args."""
    root = REPO
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--engine-root":
            root = Path(next(args))
        elif arg.startswith("--engine-root="):
            root = Path(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    sys.path.insert(0, str(root))
    return rest


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """``ref`` as a tree: a directory as it is, else a commit in a temporary worktree."""
    if Path(ref).is_dir():
        yield Path(ref).resolve()
        return
    where = Path(tempfile.mkdtemp(prefix="bench-base-"))
    git = ["git", "-C", str(REPO)]
    subprocess.run([*git, "worktree", "add", "--detach", str(where), ref], check=True)
    try:
        yield where
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(where)], check=False)
