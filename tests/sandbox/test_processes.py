"""New processes, exec, signals, ptrace and raw system calls are refused."""

from __future__ import annotations

import errno
import os

import pytest

from engine.players import FaultKind
from tests.sandbox.conftest import expect_fault


def test_fork_bomb_is_forbidden(sandbox):
    player = sandbox("fork_bomb.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "os.fork()" in fault.private
    assert "PermissionError" in fault.private


def test_subprocess_is_forbidden(sandbox):
    player = sandbox("subprocess_bomb.py")
    player.start({})
    expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))


def test_thread_bomb_stops_at_the_thread_limit(sandbox):
    player = sandbox("thread_bomb.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "thread" in fault.detail
    assert "can't start new thread" in fault.private


def test_exec_is_forbidden(sandbox):
    player = sandbox("exec_bot.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "os.execv" in fault.private
    assert "escaped" not in player.output().splitlines()  # the new program never ran


def test_os_system_and_posix_spawn_start_nothing(sandbox):
    player = sandbox("os_system.py")
    player.start({})
    result = player.act({})
    assert result["system"] != 0
    assert result["posix_spawn"] == errno.EPERM
    assert result["escaped_file"] is False


def test_killing_the_parent_or_anyone_else_is_refused(sandbox):
    player = sandbox("kill_parent.py")
    player.start({"host_pid": os.getpid()})
    result = player.act({})
    assert result["ppid"] == 0  # its parent is outside its PID namespace
    assert result["kill_host"] == "PermissionError"
    assert result["kill_all"] == "PermissionError"
    assert result["kill_pid_2"] == "PermissionError"
    # kill(0) reaches only its own process group: itself, the namespace's unkillable init.
    assert player.act({})["ppid"] == 0


def test_ptrace_is_refused(sandbox):
    player = sandbox("ptrace_bot.py")
    player.start({"host_pid": os.getpid()})
    result = player.act({})
    assert result == {"attach_host": [-1, errno.EPERM], "traceme": [-1, errno.EPERM]}


def test_raw_syscalls_through_ctypes_are_refused(sandbox):
    player = sandbox("ctypes_syscalls.py")
    player.start({})
    result = player.act({})
    refused = {name: value for name, value in result.items() if value != [-1, errno.EPERM]}
    # clone3 answers ENOSYS on purpose: glibc then falls back to clone, which is filtered.
    assert refused == {"clone3": [-1, errno.ENOSYS]}


def test_ctypes_segfault_is_a_crash(sandbox):
    player = sandbox("ctypes_segfault.py")
    player.start({})
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.act({}))
    assert "SIGSEGV" in fault.detail


def test_bot_runs_unprivileged_in_its_own_namespaces(sandbox):
    player = sandbox("whoami.py")
    player.start({})
    seen = player.act({})
    assert seen["pid"] == 1  # PID 1 of its own PID namespace
    assert seen["proc"] is False  # no /proc to list other processes (or the host) in
    assert seen["uid"] == seen["gid"] == 65534
    assert seen["caps"] == "0000000000000000"
    assert seen["no_new_privs"] == "1"
    assert seen["seccomp"] == "2"
    assert seen["hostname"] == "bot"
    assert seen["ifaces"] is None  # no /sys at all
    limits = seen["limits"]
    assert limits["AS"] == [256 * 1024 * 1024] * 2
    assert limits["NPROC"] == [16, 16]
    assert limits["CORE"] == [0, 0]
    # On the host the bot never runs as root.
    bot_pid = player.process_ids[1]
    with open(f"/proc/{bot_pid}/status") as handle:
        status = {k: v.split() for k, _, v in (line.partition(":") for line in handle)}
    assert "0" not in status["Uid"]
    assert int(status["Seccomp_filters"][0]) >= 2  # the jail's and the exec filter, stacked


def test_foreign_abi_syscall_kills_the_bot_as_forbidden(sandbox):
    player = sandbox("foreign_abi_syscall.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "system call" in fault.detail


@pytest.mark.parametrize(
    "call",
    [
        "setuid",
        "setgid",
        "seteuid",
        "setegid",
        "setreuid",
        "setregid",
        "setresuid",
        "setresgid",
        "setgroups",
        "chroot",
    ],
)
def test_changing_identity_or_root_is_forbidden_not_a_crash(sandbox, call):
    # setuid(0) in the bot's user namespace failed with EINVAL (uid 0 is not mapped there),
    # which the bootstrap reported as a crash ("raised OSError"), not as what it is.
    player = sandbox("privilege_bot.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({"call": call}))
    assert "forbids" in fault.detail
    assert "PermissionError" in fault.private
