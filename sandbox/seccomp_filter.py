"""The seccomp deny-list, compiled to BPF with libseccomp (Debian ``python3-seccomp``).

Two programs, because bubblewrap must still exec the interpreter after it installs its
filter (``--seccomp FD`` is applied right before bwrap's own ``execvp``):

* the *jail* program, passed to bwrap: everything except exec. Processes (fork, vfork,
  clone without ``CLONE_THREAD`` or with namespace flags; ``clone3`` answers ENOSYS so glibc
  falls back to ``clone``, whose flags a filter can read), sockets, ptrace and cross-process
  memory access, signals to any process but the bot itself (the bot is PID 1 of its own PID
  namespace), changes of identity (setuid, setgid, setgroups and kin, capset), chroot,
  mounts and namespaces, io_uring (it would bypass this filter), memfd (memory
  outside the address-space limit), BPF, perf, keyrings, kernel modules and the like;
* the *exec* program, installed by the in-jail bootstrap before it imports the bot:
  ``execve`` and ``execveat``. Seccomp filters stack and can never be removed, so from
  then on neither the bot nor anything it loads can exec.

Refused calls fail with EPERM (``PermissionError`` in Python) rather than killing the
process, so the bot's traceback shows exactly which call was refused; the bootstrap reports
an uncaught refusal as ``FaultKind.FORBIDDEN``. A system call from a foreign architecture
(32-bit ``int 0x80``, x32) kills the process with SIGSYS, also reported as FORBIDDEN.

The host interpreter usually cannot import ``seccomp`` (it is Debian's module for Debian's
``python3``), so :func:`build_programs` runs this file as a script under the Debian
interpreter once per process and caches the bytes. The script part uses only the standard
library and ``seccomp``.
"""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

__all__ = ["SeccompPrograms", "SeccompUnavailable", "build_programs", "exec_rules", "jail_rules"]

CLONE_THREAD = 0x00010000
#: Namespace flags; a thread (CLONE_THREAD) may not carry any of them either.
CLONE_NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)
#: The bot's PID inside its PID namespace (bwrap ``--as-pid-1``): signals to 0 (own group)
#: and 1 (itself) are allowed, anything else is another process.
BOT_PID = 1

#: Refused outright with EPERM.
DENIED_SYSCALLS = (
    # new processes
    "fork", "vfork",
    # network
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    # other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp",
    "tkill", "pidfd_open", "pidfd_send_signal", "pidfd_getfd",
    # identity: inside the bot's user namespace only its own uid/gid are mapped, so these
    # failed with EINVAL (reported as a crash) instead of the refusal they are
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "setfsuid", "setfsgid", "capset",
    # namespaces and mounts
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree",
    "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "name_to_handle_at", "open_by_handle_at",
    # kernel interfaces a game bot never needs
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "keyctl", "add_key", "request_key", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
    "swapoff", "acct", "syslog", "quotactl", "quotactl_fd", "lookup_dcookie", "iopl",
    "ioperm", "fanotify_init", "settimeofday", "clock_settime", "clock_adjtime",
    "adjtimex", "vhangup", "memfd_create", "memfd_secret",
)  # fmt: skip
#: Refused too, by number where libseccomp is older than the call (bookworm's 2.5.4 is).
#: Since Linux 5.1 new calls have the same number on every architecture. ``statmount`` and
#: ``listmount`` (6.8) would tell a bot each mount's source path on the host.
NUMBERED_SYSCALLS = {"statmount": 457, "listmount": 458}
#: Signal calls whose first argument is the target process (group): allowed only for 0/1.
SIGNAL_SYSCALLS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
EXEC_SYSCALLS = ("execve", "execveat")


class SeccompUnavailable(RuntimeError):
    """libseccomp's Python binding is missing; the message says which package to install."""


@dataclass(frozen=True, slots=True)
class SeccompPrograms:
    """Raw BPF (``struct sock_filter`` array) for bwrap and for the bootstrap."""

    jail: bytes
    exec_deny: bytes


#: A condition on a syscall argument: (arg index, comparison, datum_a, datum_b).
Condition = tuple[int, str, int, int]


class Rule(TypedDict):
    """One libseccomp rule, JSON-able: the helper interpreter gets the rules as JSON (where
    the conditions arrive as lists, unpacked the same way)."""

    syscall: str
    errno: int
    args: list[Condition]
    number: NotRequired[int]  # the syscall's number, for a name libseccomp may not know


def _rule(name: str, err: int, *conditions: Condition) -> Rule:
    return {"syscall": name, "errno": err, "args": list(conditions)}


def jail_rules() -> list[Rule]:
    """Rules of the program bwrap installs (see the module docstring). JSON-able."""
    rules = [_rule(name, errno.EPERM) for name in DENIED_SYSCALLS]
    for name, number in NUMBERED_SYSCALLS.items():
        rules.append({**_rule(name, errno.EPERM), "number": number})
    rules.append(_rule("clone3", errno.ENOSYS))
    # (arg index, comparison, datum_a, datum_b): masked_eq compares arg & a == b.
    rules.append(_rule("clone", errno.EPERM, (0, "masked_eq", CLONE_THREAD, 0)))
    for flag in CLONE_NAMESPACE_FLAGS:
        rules.append(_rule("clone", errno.EPERM, (0, "masked_eq", flag, flag)))
    for name in SIGNAL_SYSCALLS:
        rules.append(_rule(name, errno.EPERM, (0, "gt", BOT_PID, 0)))
    return rules


def exec_rules() -> list[Rule]:
    """Rules of the program the bootstrap installs before importing the bot."""
    return [_rule(name, errno.EPERM) for name in EXEC_SYSCALLS]


def _compile(rules: list[Rule]) -> bytes:
    """Compile rules with libseccomp (only where ``import seccomp`` works)."""
    import seccomp  # Debian's binding, importable only by Debian's own interpreter

    ops = {"gt": seccomp.GT, "masked_eq": seccomp.MASKED_EQ}
    program = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    program.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    for rule in rules:
        args = [seccomp.Arg(index, ops[op], a, b) for index, op, a, b in rule["args"]]
        names = [rule["syscall"]] + ([rule["number"]] if "number" in rule else [])
        for name in names:
            try:
                program.add_rule(seccomp.ERRNO(rule["errno"]), name, *args)
                break
            except (RuntimeError, ValueError, OSError):
                # A name this libseccomp or architecture does not know has no number to
                # block (a rule may give the number itself to fall back on).
                continue
    with tempfile.TemporaryFile() as out:
        program.export_bpf(out)
        out.seek(0)
        return out.read()


def _compile_spec(spec: dict[str, list[Rule]]) -> dict[str, str]:
    return {name: _compile(rules).hex() for name, rules in spec.items()}


_cache: dict[tuple[str, ...], SeccompPrograms] = {}
_lock = threading.Lock()


def build_programs(pythons: Sequence[str]) -> SeccompPrograms:
    """Compile both programs, trying this interpreter, then each of ``pythons``.

    Cached for the life of the process (about 30 ms the first time).
    """
    key = tuple(pythons)
    with _lock:
        if key not in _cache:
            _cache[key] = _build(pythons)
        return _cache[key]


def _build(pythons: Sequence[str]) -> SeccompPrograms:
    spec = {"jail": jail_rules(), "exec_deny": exec_rules()}
    if importlib.util.find_spec("seccomp") is None:  # the usual case: a venv interpreter
        compiled = _compile_with_helper(spec, pythons)
    else:
        compiled = _compile_spec(spec)
    return SeccompPrograms(
        jail=bytes.fromhex(compiled["jail"]), exec_deny=bytes.fromhex(compiled["exec_deny"])
    )


def _compile_with_helper(spec: dict[str, list[Rule]], pythons: Sequence[str]) -> dict[str, str]:
    payload = json.dumps(spec).encode()
    tried = []
    for python in dict.fromkeys(pythons):
        if not os.path.exists(python):
            continue
        tried.append(python)
        try:
            done = subprocess.run(
                [python, "-I", os.path.abspath(__file__)],
                input=payload,
                capture_output=True,
                timeout=30,
                env={},
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            try:
                compiled: dict[str, str] = json.loads(done.stdout)  # _compile_spec's result
            except ValueError:
                continue
            return compiled
    raise SeccompUnavailable(
        "python3-seccomp not found: install the Debian package 'python3-seccomp' "
        f"(tried {', '.join(tried) or 'no interpreter'}) or set ARENA_SANDBOX_MODE=unsafe "
        "for local development"
    )


if __name__ == "__main__":
    try:
        result = _compile_spec(json.loads(sys.stdin.buffer.read()))
    except ImportError:
        sys.stderr.write("no seccomp module\n")
        sys.exit(3)
    sys.stdout.write(json.dumps(result))
