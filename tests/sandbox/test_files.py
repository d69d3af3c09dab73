"""The jail's file system: nothing of the host, no secrets, bounded writes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from engine.players import FaultKind
from sandbox import SandboxConfig
from tests.sandbox.conftest import BOTS, REPO, TEST_BOT_UID, expect_fault

SECRET_KEY = "fake-secret-key-0a3f9c2e7d"
DATABASE_URL = "postgres://arena:fake-db-password-5b8e1@127.0.0.1:5432/arena"


def test_host_files_and_project_source_are_invisible(sandbox):
    paths = [
        str(REPO / "engine" / "players.py"),
        str(REPO / "arena" / "settings.py"),
        str(REPO / "sandbox" / "player.py"),
        str(REPO),
        "/work",
        str(BOTS / "echo_bot.py"),
        "/var/run/postgresql",
        "/run",
        "/sys/fs/cgroup",
    ]
    player = sandbox("read_files.py")
    player.start({"paths": paths})
    result = player.act({})
    leaked = {p: v for p, v in result["seen"].items() if v.startswith(("read:", "dir:"))}
    assert leaked == {}, leaked
    assert result["seen"]["/proc/1/environ"] == "FileNotFoundError"  # no /proc at all
    # /opt holds only the bot packages (numpy), read-only: tests/sandbox/test_packages.py.
    assert result["root"] == ["bot", "dev", "lib64", "opt", "tmp", "usr"]
    assert result["cwd"] == "/tmp"


def test_host_secrets_are_not_visible_anywhere(sandbox, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", SECRET_KEY)
    monkeypatch.setenv("DATABASE_URL", DATABASE_URL)
    player = sandbox("secret_hunter.py")
    player.start({})
    result = player.act({"needles": ["fake-secret-key", "fake-db-password", "DATABASE_URL"]})
    assert result["found"] == {}
    assert result["looked_at"] >= 2  # its own bot.py and os.environ at least
    # No variable of the host: only the one-thread settings of numpy's OpenBLAS.
    assert result["environ"] == {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    # No /proc: not even bwrap's PWD=/tmp in the initial environment block is readable.
    assert result["raw_environ"] is None


def test_another_bots_files_are_invisible(sandbox):
    victim = sandbox("echo_bot.py")
    victim.start({})
    victim_copy = list(Path(victim.config.work_dir).iterdir())
    assert len(victim_copy) == 1
    victim_file = victim_copy[0] / "bot" / "bot.py"
    assert victim_file.exists()
    attacker = sandbox("read_files.py")
    attacker.start({"paths": [str(victim_file), str(victim_copy[0]), str(BOTS / "echo_bot.py")]})
    seen = attacker.act({})["seen"]
    assert seen[str(victim_file)] == "FileNotFoundError"
    assert seen[str(victim_copy[0])] == "FileNotFoundError"
    assert seen[str(BOTS / "echo_bot.py")] == "FileNotFoundError"


def test_staged_copy_is_readable_only_by_root_and_the_bot_group(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    (root,) = Path(player.config.work_dir).iterdir()
    if os.geteuid() == 0:
        info = (root / "bot" / "bot.py").stat()
        assert (info.st_uid, info.st_gid) == (0, TEST_BOT_UID)
        assert info.st_mode & 0o777 == 0o640
    assert root.stat().st_mode & 0o007 == 0  # nothing for other users


def test_symlinks_in_a_bot_directory_are_not_followed(sandbox, work_dir, tmp_path):
    bot_dir = tmp_path / "linked_bot"
    bot_dir.mkdir()
    shutil.copy(BOTS / "read_files.py", bot_dir / "bot.py")
    (bot_dir / "settings.py").symlink_to(REPO / "engine" / "players.py")
    player = sandbox(bot_dir)
    player.start({"paths": ["/bot/settings.py"]})
    assert player.act({})["seen"]["/bot/settings.py"] == "FileNotFoundError"


def test_writing_a_huge_file_is_forbidden(sandbox):
    player = sandbox("huge_file.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "File too large" in fault.private


def test_filling_tmp_is_forbidden(sandbox):
    player = sandbox("fill_tmp.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "No space left on device" in fault.private


def test_writing_dev_shm_is_forbidden(sandbox):
    player = sandbox("fill_dev_shm.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "Read-only file system" in fault.private or "Permission denied" in fault.private


def test_the_bot_cannot_modify_its_own_files(sandbox):
    original = (BOTS / "write_own_files.py").read_text()
    player = sandbox("write_own_files.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "Permission denied" in fault.private or "Read-only file system" in fault.private
    assert (BOTS / "write_own_files.py").read_text() == original


def test_directory_bot_imports_its_sibling_modules(sandbox):
    player = sandbox("package_bot")
    player.start({})
    assert player.act({"n": 21}) == {"doubled": 42}


def test_engine_project_and_third_party_packages_cannot_be_imported(sandbox):
    player = sandbox("import_probe.py")
    player.start({})
    result = player.act({})
    assert result["json"] == "[1]"
    imported = {k: v for k, v in result["imported"].items() if v != "ModuleNotFoundError"}
    assert imported == {}


def test_operator_approved_packages_are_importable(sandbox, config, work_dir):
    packages = Path(work_dir).parent / f"arena-approved-{os.getpid()}"
    packages.mkdir(mode=0o755)
    try:
        (packages / "approved_pkg.py").write_text("VALUE = 42\n")
        os.chmod(packages / "approved_pkg.py", 0o644)
        cfg = SandboxConfig(**{**_fields(config), "extra_python_paths": (str(packages),)})
        player = sandbox("import_probe.py", config=cfg)
        player.start({})
        result = player.act({})
        assert result["imported"]["approved_pkg"] == str(packages / "approved_pkg.py")
        assert result["imported"]["django"] == "ModuleNotFoundError"
        player.close()
    finally:
        shutil.rmtree(packages)


def _fields(config: SandboxConfig) -> dict:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


def test_the_jail_shows_nothing_of_the_host(sandbox, work_dir):
    """Issue 13, finding 8: /proc/self/mountinfo named the host's staging path and
    /proc/config.gz was readable. The jail has no /proc and no /sys at all, and the system
    calls that name mount sources without /proc are refused."""
    player = sandbox("host_info.py")
    player.start({})
    result = player.act({})
    readable = {path: text for path, text in result["seen"].items() if text[:1] != "F"}
    assert readable == {}, readable  # every path: FileNotFoundError
    assert work_dir not in repr(result) and "arena-sandbox" not in repr(result)
    errno_eperm = 1
    assert result["calls"] == {"statmount": [-1, errno_eperm], "listmount": [-1, errno_eperm]}
