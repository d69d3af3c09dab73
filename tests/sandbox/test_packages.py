"""numpy in the jail (issue 32): the packages of engine.botpackages, installed for the
sandbox's interpreter, importable by every bot, read-only, and at no cost to a bot that does
not import them."""

from __future__ import annotations

import dataclasses

import pytest

from engine.botpackages import BOT_PACKAGES
from engine.players import FaultKind
from sandbox import SandboxConfig, SandboxUnavailable, check_packages
from sandbox.jail import PACKAGES_DIR
from sandbox.packages import default_dir, missing
from tests.sandbox.conftest import expect_fault


@pytest.fixture
def installed(config: SandboxConfig) -> SandboxConfig:
    problem = missing(config.packages_dir)
    if problem is not None:
        pytest.fail(f"{problem} (make test installs them)", pytrace=False)
    return config


def test_the_pinned_numpy_imports_and_computes_in_the_jail(sandbox, installed):
    player = sandbox("numpy_bot.py")
    player.start({})
    result = player.act({"try": "compute"})
    assert result["version"] == BOT_PACKAGES["numpy"]
    assert (result["sum"], result["eig"]) == (1134.0, 502.176644)
    # Seen at a fixed path that names nothing of the host, after the bot's own files.
    assert result["file"] == f"{PACKAGES_DIR}/numpy/__init__.py"
    assert result["path"][-1] == PACKAGES_DIR
    # One OpenBLAS thread, and no other variable of any host.
    assert result["threads"] == "1"
    assert result["environ"] == ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"]


def test_the_package_directory_is_read_only(sandbox, installed):
    before = (default_dir(installed.python) / "numpy" / "__init__.py").read_bytes()
    player = sandbox("numpy_bot.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({"try": "write"}))
    assert "Read-only file system" in fault.private or "Permission denied" in fault.private
    assert (default_dir(installed.python) / "numpy" / "__init__.py").read_bytes() == before


def test_numpy_fits_in_the_memory_limit_and_a_hog_is_a_memory_fault(sandbox, installed):
    player = sandbox("numpy_bot.py")  # FAST: 256 MiB of address space, half the arena's
    player.start({})
    assert player.act({"try": "memory", "bytes": 64 * 1024 * 1024}) == {"allocated": True}
    expect_fault(player, FaultKind.MEMORY, lambda: player.act({"try": "memory", "bytes": 1 << 30}))


def test_a_bot_that_does_not_import_numpy_does_not_load_it(sandbox, installed):
    player = sandbox("no_numpy_bot.py")
    player.start({})
    assert player.act({})["numpy_loaded"] is False


def test_without_the_install_numpy_is_missing_and_the_arena_refuses(sandbox, config, tmp_path):
    empty = dataclasses.replace(config, packages_dir=str(tmp_path))
    with pytest.raises(SandboxUnavailable, match="python -m engine packages --install"):
        check_packages(empty)
    player = sandbox("numpy_bot.py", config=empty)
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.start({}))
    assert "ModuleNotFoundError: No module named 'numpy'" in fault.private
