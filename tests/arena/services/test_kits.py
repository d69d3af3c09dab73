"""The engine installs from its wheel and a starter kit runs outside the repo; both are
built by ``manage.py arena_kits`` (never in a request) without touching the source tree."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from arena.services import kits
from arena.services.kits import downloads_build, engine_wheel, starter_kit
from engine.botpackages import BOT_PACKAGES, requirements
from engine.registry import GAMES

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[3]
STATIC = REPO / "arena" / "static" / "arena"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Every download built once for the module, as ``manage.py arena_kits`` builds them."""
    folder = tmp_path_factory.mktemp("downloads")
    with override_settings(ARENA_DOWNLOADS_DIR=folder):
        call_command("arena_kits", stdout=io.StringIO())
    return folder


@pytest.fixture
def data_dir(settings, tmp_path, built):
    settings.DATA_DIR = tmp_path / "data"
    settings.ARENA_DOWNLOADS_DIR = built
    return settings.DATA_DIR


def run(command, cwd, env):
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_every_game_has_a_starter_kit_that_runs_from_its_own_folder(data_dir, tmp_path):
    wheel = engine_wheel()
    assert wheel.name.endswith("-py3-none-any.whl")
    assert downloads_build()[0] == wheel, "built once per version of the sources"
    site = tmp_path / "site"
    installed = run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", site, wheel],
        tmp_path,
        os.environ,
    )
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PYTHONPATH": str(site), "ARENA_EXTRA_GAMES": ""}
    for game in [name for name in GAMES if name != "highcard"]:
        kit = zipfile.ZipFile(io.BytesIO(starter_kit(game)))
        names = set(kit.namelist())
        folder = f"{game}-starter"
        for part in ("README.md", "my_bot.py", "test_my_bot.py", "rules.md", wheel.name):
            assert f"{folder}/{part}" in names, (game, part)
        shipped = {
            name.split("/")[-1].split("-")[0].lower() for name in names if "/wheels/" in name
        }
        assert {"fastjsonschema", "rich", "trueskillthroughtime", "pygments"} <= shipped, shipped
        kit.extractall(tmp_path / "kits")
        here = tmp_path / "kits" / folder
        readme = (here / "README.md").read_text()
        assert f"pip install --no-index --find-links wheels {wheel.name}" in readme
        assert f"--game {game}" in readme
        # numpy is not in the kit (its wheel is per platform): the README says it comes from
        # PyPI, at the pinned version, and that it needs the network.
        assert not any("numpy" in name for name in names), names
        assert "numpy is not in this kit" in readme and "PyPI" in readme
        assert f"pip install {' '.join(requirements())}" in readme
        played = run(
            [
                sys.executable,
                "-m",
                "engine",
                "play",
                "my_bot.py",
                "random",
                "--game",
                game,
                "--matches",
                "2",
                "--in-process",
                "--json",
                "--replay-dir",
                "replays",
            ],
            here,
            env,
        )
        assert played.returncode == 0, played.stderr
        assert f'"game": "{game}"' in played.stdout
        # The wheel carries the site's viewer: a replay becomes one HTML page, offline.
        replay = sorted((here / "replays").glob("*.json.gz"))[0]
        page = run(
            [sys.executable, "-m", "engine", "replay", replay, "--html", "m.html"], here, env
        )
        assert page.returncode == 0, page.stderr
        html = (here / "m.html").read_text()
        modules = json.loads(
            re.search(r'<script type="application/json" id="viewer-modules">(.*?)</script>', html)[
                1
            ]
        )
        assert modules["viewer/shell.js"] == (STATIC / "viewer/shell.js").read_text()
        assert modules["renderer"] == (STATIC / f"games/{game}/renderer.js").read_text()
        checked = run([sys.executable, "test_my_bot.py"], here, env)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "without a fault" in checked.stdout
    # The engine came from the wheel, not from the repository.
    where = run(
        [sys.executable, "-c", "import engine; print(engine.__file__)"], tmp_path / "kits", env
    )
    assert where.stdout.strip().startswith(str(site))
    assert not Path(where.stdout.strip()).is_relative_to(Path(__file__).resolve().parents[3])


def test_the_site_serves_the_kit_and_the_wheel(data_dir, client, monkeypatch):
    """Issue 32: the kit the README promised could not be downloaded from anywhere."""
    monkeypatch.setattr(kits.subprocess, "run", _no_pip)
    response = client.get("/games/lie21/kit.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="lie21-starter-kit.zip"' in response["Content-Disposition"]
    body = response.getvalue()
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert client.get("/games/lie21/kit.zip").getvalue() == body, "built once, then served"
    assert "lie21-starter/my_bot.py" in names and any("/wheels/rich-" in n for n in names)
    latest = client.get("/downloads/engine/")
    assert latest.status_code == 302
    wheel = latest["Location"].rsplit("/", 1)[1]
    assert wheel == engine_wheel().name
    served = client.get(latest["Location"])
    assert served.status_code == 200 and served.getvalue() == engine_wheel().read_bytes()
    assert client.get(
        "/downloads/engine/bluff_arena_engine-0.0.1-py3-none-any.whl"
    ).status_code == (404)
    assert client.get("/games/nosuchgame/kit.zip").status_code == 404


def _no_pip(*args, **kwargs):
    raise AssertionError(f"a request ran {args[0] if args else kwargs}: it only reads")


def test_a_request_never_builds_and_says_the_kit_is_not_built_yet(
    settings, tmp_path, client, monkeypatch
):
    """Issue 32: the kit was built inside the request (pip wheel of the sources and, with
    no cache, the dependencies from the index: ~12 s, and a 503 in the image, whose /app is
    read-only). A request reads what ``arena_kits`` built, or is told it is not built yet."""
    settings.DATA_DIR = tmp_path / "data"
    settings.ARENA_DOWNLOADS_DIR = None
    monkeypatch.setattr(kits.subprocess, "run", _no_pip)
    for path in ("/games/lie21/kit.zip", "/downloads/engine/"):
        refused = client.get(path)
        assert refused.status_code == 503, path
        assert refused["Retry-After"] == str(kits.RETRY_AFTER_S)
        assert b"not built on this server yet" in refused.content
        assert b"manage.py arena_kits" in refused.content
    # A build that failed is quoted, so the operator (and the author) know why.
    monkeypatch.undo()
    monkeypatch.setattr(kits, "_pins", lambda: ["no-such-package-for-arena-tests==0.0.1"])
    with pytest.raises(kits.KitError):
        downloads_build()
    refused = client.get("/games/lie21/kit.zip")
    assert refused.status_code == 503 and b"The last build failed" in refused.content
    assert b"no-such-package-for-arena-tests" in refused.content


def test_a_kit_missing_beside_built_wheels_is_zipped_without_pip(
    settings, tmp_path, built, client, monkeypatch
):
    """New rules of a game (the kit's digest changed) need no pip: the wheels are there."""
    downloads = tmp_path / "downloads"
    shutil.copytree(built / "engine", downloads / "engine")
    shutil.copytree(built / "wheels", downloads / "wheels")
    settings.ARENA_DOWNLOADS_DIR = downloads
    monkeypatch.setattr(kits.subprocess, "run", _no_pip)
    served = client.get("/games/liars/kit.zip")
    assert served.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(served.getvalue())).namelist()
    assert "liars-starter/my_bot.py" in names


def test_building_the_wheel_leaves_the_source_tree_as_it_was(settings, tmp_path, monkeypatch):
    """Issue 32: ``pip wheel ROOT`` wrote build/ and *.egg-info into the sources (the image's
    /app is read-only to the arena's user). The wheel is built from a copy."""
    tree = tmp_path / "checkout"
    for relative in kits._source_files():
        (tree / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / relative, tree / relative)
    before = sorted(str(p.relative_to(tree)) for p in tree.rglob("*"))
    monkeypatch.setattr(kits, "ROOT", tree)
    settings.ARENA_DOWNLOADS_DIR = tmp_path / "downloads"
    wheel = kits.engine_wheel_build()
    assert wheel.is_file() and wheel.is_relative_to(tmp_path / "downloads")
    after = sorted(str(p.relative_to(tree)) for p in tree.rglob("*"))
    assert after == before, set(after) ^ set(before)
    assert not list((tmp_path / "downloads").glob(".engine-src-*")), "the scratch copy is gone"
    with zipfile.ZipFile(wheel) as built_wheel:
        assert "engine/_viewer/viewer/shell.js" in built_wheel.namelist()


def test_kit_files_unzip_readable_by_everyone(data_dir, tmp_path):
    """Issue 32: the kit's text files unzipped as -rw------- (zipfile's default for
    writestr), its README unreadable to anyone but the one who unzipped it."""
    kit = zipfile.ZipFile(io.BytesIO(starter_kit("lie21")))
    for info in kit.infolist():
        mode = info.external_attr >> 16
        assert stat.S_ISREG(mode) and stat.S_IMODE(mode) == 0o644, (info.filename, oct(mode))
    unzip = shutil.which("unzip")
    if unzip:  # as an author unzips it, modes and all
        (tmp_path / "kit.zip").write_bytes(starter_kit("lie21"))
        subprocess.run([unzip, "-q", "kit.zip"], cwd=tmp_path, check=True)
        for path in (tmp_path / "lie21-starter").rglob("*"):
            if path.is_file():
                assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


def _numpy_wheels(folder: Path) -> Path | None:
    """The pinned numpy's wheel for this machine, fetched as pip is configured here (its
    cache, a local index, the wheel folders it is given): None where none is reachable."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(folder),
            *requirements(),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return folder if done.returncode == 0 and list(folder.glob("numpy-*.whl")) else None


def test_a_numpy_bot_plays_from_a_kit_venv_once_numpy_is_installed_as_its_readme_says(
    data_dir, tmp_path, request
):
    """Issue 32: the kit does not carry numpy (its wheel is per platform) and its README says
    where numpy comes from; done as it says, a numpy bot plays in-process and in the sandbox
    from a fresh venv, the author's shell having no network (numpy from a local wheel here,
    where the README's ``pip install`` would reach PyPI)."""
    wheels = _numpy_wheels(tmp_path / "numpy-wheels")
    if wheels is None:
        pytest.skip("no numpy wheel reachable from this machine without a network")
    (tmp_path / "kit.zip").write_bytes(starter_kit("lie21"))
    zipfile.ZipFile(tmp_path / "kit.zip").extractall(tmp_path)
    here = tmp_path / "lie21-starter"
    (here / "np_bot.py").write_text(
        "import numpy as np\n\n"
        "def act(observation):\n"
        "    hand = observation['hand']\n"
        "    order = [int(i) for i in np.argsort([len(c) for c in hand], kind='stable')]\n"
        "    cards = [hand[i] for i in order[:3]]\n"
        "    print('numpy', np.__version__)\n"
        "    if observation['role'] == 'liar':\n"
        "        return {'cards': cards, 'face_up': 0}\n"
        "    return {'cards': cards, 'challenge': False}\n"
    )
    base = next(
        (p for p in ("/usr/bin/python3.11", "/usr/bin/python3") if Path(p).exists()),
        sys.executable,
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_FIND_LINKS": str(wheels),  # where the README's pip install reaches PyPI
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    # The venv where the jail's unprivileged uid can read the packages it binds: pytest's
    # base folder is root's alone (an author's own sandbox runs as the author).
    venv = Path(tempfile.mkdtemp(prefix="arena-kit-venv-"))
    venv.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(venv, ignore_errors=True))
    assert run([base, "-m", "venv", str(venv)], tmp_path, env).returncode == 0
    python = str(venv / "bin" / "python")
    readme = (here / "README.md").read_text()
    wheel = next(here.glob("bluff_arena_engine-*.whl")).name
    steps = [  # as the README says them, run with the venv's python
        f"pip install --no-index --find-links wheels {wheel}",
        f"pip install {' '.join(requirements())}",
        "python -m engine packages --install",
    ]
    for step in steps:
        assert step in readme, step
        done = run([python, "-m", *step.removeprefix("python -m ").split()], here, env)
        assert done.returncode == 0, (step, done.stdout, done.stderr)
    for mode in (["--in-process"], []):  # in this venv, and in the sandbox as on the site
        played = run(
            [python, "-m", "engine", "play", "np_bot.py", "random", "--json", *mode], here, env
        )
        assert played.returncode == 0, played.stderr
        summary = json.loads(played.stdout)
        assert summary["errors"] == [], summary["errors"]
        assert f"numpy {BOT_PACKAGES['numpy']}" in played.stderr, mode
    # The local refusal names the packages, as the site's does (the kit has no docs/).
    (here / "pd_bot.py").write_text("import pandas\n\ndef act(o):\n    return {}\n")
    refused = run([python, "-m", "engine", "play", "pd_bot.py", "random"], here, env)
    assert refused.returncode == 2
    assert f"numpy {BOT_PACKAGES['numpy']} and their own files" in refused.stderr
