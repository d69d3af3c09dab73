"""Configuration from the environment, limits validation and the availability check."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import tempfile

import pytest

from sandbox import Limits, SandboxConfig, SandboxUnavailable, check_available


def test_from_env_reads_every_variable():
    config = SandboxConfig.from_env(
        {
            "ARENA_SANDBOX_MODE": "Unsafe",
            "ARENA_SANDBOX_PYTHON": "/opt/python/bin/python3.11",
            "ARENA_SANDBOX_BWRAP": "/opt/bin/bwrap",
            "ARENA_SANDBOX_UID": "5000",
            "ARENA_SANDBOX_GID": "5001",
            "ARENA_SANDBOX_EXTRA_PYTHON_PATHS": "/opt/a:/opt/b",
            "ARENA_SANDBOX_CGROUP": "required",
            "ARENA_SANDBOX_CGROUP_ROOT": "/arena/bots",
            "ARENA_SANDBOX_WORK_DIR": "/var/tmp/arena",
            "ARENA_SANDBOX_SPIN_US": "0",
        }
    )
    assert config == SandboxConfig(
        mode="unsafe",
        python="/opt/python/bin/python3.11",
        bwrap="/opt/bin/bwrap",
        bot_uid=5000,
        bot_gid=5001,
        extra_python_paths=("/opt/a", "/opt/b"),
        cgroup="required",
        cgroup_root="/arena/bots",
        work_dir="/var/tmp/arena",
        spin_us=0,
    )


def test_from_env_defaults():
    config = SandboxConfig.from_env({})
    assert config.mode == "bubblewrap"
    assert config.python == "/usr/bin/python3.11" or not os.path.exists("/usr/bin/python3.11")
    assert (config.bot_uid, config.bot_gid) == (65534, 65534)
    assert config.extra_python_paths == ()
    assert config.cgroup == "auto"
    assert config.spin_us == 200


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ARENA_SANDBOX_MODE", "docker"),
        ("ARENA_SANDBOX_UID", "nobody"),
        ("ARENA_SANDBOX_CGROUP", "maybe"),
        ("ARENA_SANDBOX_EXTRA_PYTHON_PATHS", "relative/path"),
        ("ARENA_SANDBOX_SPIN_US", "-5"),
        ("ARENA_SANDBOX_SPIN_US", "fast"),
    ],
)
def test_from_env_refuses_bad_values_in_one_line(name, value):
    with pytest.raises(SandboxUnavailable) as info:
        SandboxConfig.from_env({name: value})
    assert "\n" not in str(info.value)


def test_limits_validate_their_values():
    assert Limits().move_timeout_s == 1.0
    assert Limits().memory_bytes == 512 * 1024 * 1024
    assert Limits().message_bytes == Limits().output_bytes == 64 * 1024
    with pytest.raises(ValueError):
        Limits(move_timeout_s=0)
    with pytest.raises(ValueError):
        Limits(memory_bytes=-1)
    with pytest.raises(TypeError):
        Limits(max_processes="32")  # type: ignore[arg-type]
    assert dataclasses.replace(Limits(), time_bank_s=0).time_bank_s == 0


def test_missing_bubblewrap_is_refused_in_one_clear_line():
    config = SandboxConfig(bwrap="/nonexistent/bwrap")
    with pytest.raises(SandboxUnavailable) as info:
        check_available(config)
    message = str(info.value)
    assert "\n" not in message
    assert "install the Debian package 'bubblewrap'" in message
    assert "ARENA_SANDBOX_MODE=unsafe" in message


def test_missing_python_is_refused_in_one_clear_line():
    with pytest.raises(SandboxUnavailable) as info:
        check_available(SandboxConfig(python="/nonexistent/python3.11"))
    assert "\n" not in str(info.value)
    assert "ARENA_SANDBOX_PYTHON" in str(info.value)


def test_unsafe_mode_is_always_available():
    check_available(SandboxConfig(mode="unsafe", bwrap="/nonexistent/bwrap"))


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop only applies to a root worker")
def test_running_bots_as_root_is_refused():
    with pytest.raises(SandboxUnavailable) as info:
        check_available(SandboxConfig(bot_uid=0, bot_gid=0))
    assert "root" in str(info.value)


def _refusal_of_a_bwrap_saying(line: str) -> str:
    """The check's message with a stand-in bwrap that prints ``line`` and fails; it must be
    executable by the bot uid, so it lives in a world-readable directory."""
    directory = tempfile.mkdtemp(prefix="fake-bwrap-", dir="/tmp")
    try:
        os.chmod(directory, 0o755)
        fake = os.path.join(directory, "bwrap")
        with open(fake, "w") as handle:
            handle.write(f"#!/bin/sh\necho {shlex.quote(line)} >&2\nexit 1\n")
        os.chmod(fake, 0o755)
        with pytest.raises(SandboxUnavailable) as info:
            check_available(SandboxConfig(bwrap=fake))
    finally:
        shutil.rmtree(directory)
    return str(info.value)


def test_broken_user_namespaces_are_refused_in_one_line():
    # bwrap on a host without unprivileged user namespaces.
    message = _refusal_of_a_bwrap_saying(
        "bwrap: No permissions to creating new namespace, likely "
        "because the kernel does not allow non-privileged user namespaces."
    )
    assert message.startswith("user namespaces unavailable")
    assert "\n" not in message


def test_a_path_the_bot_uid_cannot_reach_is_named_not_blamed_on_namespaces():
    """A checkout under a 0700 directory (a ``mktemp -d``) made every start fail with "user
    namespaces unavailable": bubblewrap's own line was about a path the bot uid cannot reach."""
    message = _refusal_of_a_bwrap_saying(
        "bwrap: Can't find source path /tmp/x/.venv/bot-packages/p: Permission denied"
    )
    assert message.startswith("the bots' uid")
    assert "/tmp/x/.venv/bot-packages/p" in message and "chmod o+x" in message
    assert "namespaces unavailable" not in message and "\n" not in message


def test_colocation_is_on_unless_switched_off():
    assert SandboxConfig.from_env({}).colocate is True
    for value, expected in (("off", False), ("0", False), ("On", True), ("true", True)):
        assert SandboxConfig.from_env({"ARENA_SANDBOX_COLOCATE": value}).colocate is expected
    with pytest.raises(SandboxUnavailable) as info:
        SandboxConfig.from_env({"ARENA_SANDBOX_COLOCATE": "sometimes"})
    assert "ARENA_SANDBOX_COLOCATE" in str(info.value) and "\n" not in str(info.value)
