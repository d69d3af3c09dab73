"""Can this host run sandboxed bots? One clear line if not.

The check runs a real, empty jail once per configuration and process (~20 ms): it proves
bubblewrap, unprivileged user namespaces, the seccomp program, the runtime mounts and the
uid drop all work together, instead of guessing from sysctls that differ per distribution.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import subprocess
import threading

from sandbox.cgroups import cgroup_support
from sandbox.config import SandboxConfig
from sandbox.errors import SandboxUnavailable
from sandbox.jail import JailFds, bwrap_command
from sandbox.limits import Limits
from sandbox.runtime import PythonRuntime, discover_runtime
from sandbox.seccomp_filter import SeccompPrograms, SeccompUnavailable, build_programs

__all__ = [
    "check_available",
    "check_packages",
    "drop_command",
    "limits_in_force",
    "run_as",
    "seccomp_programs",
]

log = logging.getLogger("sandbox")

_UNSAFE_HINT = "or set ARENA_SANDBOX_MODE=unsafe for local development"
_checked: dict[SandboxConfig, str | None] = {}
_lock = threading.Lock()


def run_as(config: SandboxConfig) -> tuple[int, int] | None:
    """Host (uid, gid) to drop to before exec'ing bwrap: only when we are root."""
    if os.geteuid() != 0:
        return None
    return config.bot_uid, config.bot_gid


@functools.cache
def _setpriv() -> str | None:
    found = shutil.which("setpriv") or "/usr/bin/setpriv"
    return found if os.access(found, os.X_OK) else None


def drop_command(config: SandboxConfig) -> tuple[str, ...]:
    """For a root worker, the command prefix that drops to the bot's ids and execs bwrap
    (util-linux ``setpriv``, as ``subprocess``'s ``user=``/``group=``/``extra_groups=[]``
    would: real and effective uid and gid, no supplementary groups, no capabilities left);
    ``()`` when not root or without ``setpriv`` (then ``subprocess`` drops in the child)."""
    ids = run_as(config)
    setpriv = _setpriv()
    if ids is None or setpriv is None:
        return ()
    uid, gid = ids
    return (setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--")


def seccomp_programs(config: SandboxConfig) -> SeccompPrograms:
    """The compiled filters (cached); SandboxUnavailable if python3-seccomp is missing."""
    try:
        return build_programs([config.python, "/usr/bin/python3"])
    except SeccompUnavailable as exc:
        raise SandboxUnavailable(str(exc)) from None


def check_available(config: SandboxConfig | None = None) -> None:
    """Raise :class:`SandboxUnavailable` (one line) unless bots can be sandboxed here.

    In unsafe mode this always passes. The result is cached per config for the process.
    """
    config = config or SandboxConfig.from_env()
    if config.unsafe:
        return
    with _lock:
        if config not in _checked:
            try:
                _check(config)
                _checked[config] = None
            except SandboxUnavailable as exc:
                _checked[config] = str(exc)
        problem = _checked[config]
    if problem is not None:
        raise SandboxUnavailable(problem)


def check_packages(config: SandboxConfig | None = None) -> None:
    """Raise :class:`SandboxUnavailable` unless the packages bots may import are installed
    for the sandbox (``sandbox.packages``).

    The arena's workers require them: on a host without numpy, a bot that imports it would
    fail validation or lose its matches for the host's fault. The local runner does not (a
    bot that imports nothing of them runs anywhere; ``python -m engine packages`` says what
    is missing).
    """
    from sandbox.packages import missing

    config = config or SandboxConfig.from_env()
    problem = missing(config.packages_dir)
    if problem is not None:
        raise SandboxUnavailable(problem)


def _check(config: SandboxConfig) -> None:
    if not (os.path.isfile(config.bwrap) and os.access(config.bwrap, os.X_OK)):
        raise SandboxUnavailable(
            f"bubblewrap not found at {config.bwrap}: install the Debian package "
            f"'bubblewrap' {_UNSAFE_HINT}"
        )
    ids = run_as(config)
    if ids is not None and 0 in ids:
        raise SandboxUnavailable(
            "refusing to run bots as root: set ARENA_SANDBOX_UID/ARENA_SANDBOX_GID to an "
            "unprivileged id"
        )
    runtime = discover_runtime(config.python)
    programs = seccomp_programs(config)
    if config.cgroup == "required":
        support = cgroup_support(config.cgroup_root)
        if isinstance(support, str):
            raise SandboxUnavailable(f"{support} and ARENA_SANDBOX_CGROUP=required")
    _probe_jail(config, runtime, programs, ids)


def _probe_jail(
    config: SandboxConfig,
    runtime: PythonRuntime,
    programs: SeccompPrograms,
    ids: tuple[int, int] | None,
) -> None:
    """Run an empty jail exactly as a bot's would run; raise SandboxUnavailable if it fails."""
    seccomp_r, seccomp_w = os.pipe()
    try:
        os.write(seccomp_w, programs.jail)
        os.close(seccomp_w)
        fds = JailFds(to_bot=0, from_bot=1, seccomp=seccomp_r)
        argv = bwrap_command(
            config,
            runtime,
            Limits(),
            fds,
            bot_dir=None,
            command=[runtime.executable, "-I", "-S", "-c", "pass"],
            packages=config.packages_installed,
        )
        # run's defaults (None), unless run itself drops to the bot's ids (no helper)
        user: int | None = None
        group: int | None = None
        extra_groups: list[int] | None = None
        drop = drop_command(config)
        if drop:
            argv = [*drop, *argv]  # the way every jail is started: proves it works here
        elif ids is not None:
            user, group = ids
            extra_groups = []
        try:
            done = subprocess.run(
                argv,
                env={},
                stdin=subprocess.DEVNULL,
                capture_output=True,
                pass_fds=(seccomp_r,),
                timeout=30,
                check=False,
                user=user,
                group=group,
                extra_groups=extra_groups,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise SandboxUnavailable(f"cannot run bubblewrap: {exc} {_UNSAFE_HINT}") from None
    finally:
        with contextlib.suppress(OSError):
            os.close(seccomp_r)
    if done.returncode != 0:
        raise _probe_failure(config, done)


def _probe_failure(
    config: SandboxConfig, done: subprocess.CompletedProcess[bytes]
) -> SandboxUnavailable:
    """What a failed probe jail means, from bubblewrap's first line, with what to do."""
    lines = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
    said = lines[0] if lines else f"exit status {done.returncode}"
    if "Unknown option" in said:
        return SandboxUnavailable(
            f"bubblewrap at {config.bwrap} is too old ({said}): version 0.8.0 or later is "
            f"needed for --disable-userns {_UNSAFE_HINT}"
        )
    if "Can't find source path" in said:
        # A directory the jail mounts (the interpreter, the bot packages, the work directory)
        # lies below one the bots' uid may not enter: "Permission denied" here is the
        # directory's mode, not the kernel refusing namespaces.
        return SandboxUnavailable(
            f"the bots' uid {config.bot_uid} cannot reach a path the jail mounts ({said}): "
            "every directory above it must be searchable by that uid (chmod o+x), see "
            f"docs/sandbox.md, {_UNSAFE_HINT}"
        )
    if "namespace" in said.lower() or "permission" in said.lower():
        return SandboxUnavailable(
            f"user namespaces unavailable ({said}): allow unprivileged user namespaces, see "
            f"docs/sandbox.md, {_UNSAFE_HINT}"
        )
    return SandboxUnavailable(f"the sandbox does not start here ({said}) {_UNSAFE_HINT}")


def limits_in_force(config: SandboxConfig | None = None) -> list[str]:
    """One line per isolation layer saying whether and how it applies to bots on this host.

    For operators (``arena_check --sandbox``): a host that passes :func:`check_available`
    may still run bots with less than the full set, most often without cgroups inside a
    container, and that should be visible before the first match rather than found in a
    warning later. Raises :class:`SandboxUnavailable` like :func:`check_available`.
    """
    config = config or SandboxConfig.from_env()
    if config.unsafe:
        return [
            "mode: unsafe (ARENA_SANDBOX_MODE=unsafe): no namespaces, no seccomp, no cgroups; "
            "rlimits only, for local development"
        ]
    check_available(config)
    programs = seccomp_programs(config)
    ids = run_as(config)
    lines = [
        "mode: bubblewrap",
        "namespaces: user, mount, pid, network, ipc, uts, cgroup (no nested user namespaces, "
        "no capabilities, no network)",
        f"seccomp: jail deny-list ({len(programs.jail) // 8} BPF instructions) and "
        f"exec deny-list ({len(programs.exec_deny) // 8})",
        f"uid: bots run as host uid {ids[0]}, gid {ids[1]}"
        if ids is not None
        else f"uid: bots run as this worker's uid {os.geteuid()}, in their own user namespace",
    ]
    if config.cgroup == "off":
        lines.append("cgroups: off (ARENA_SANDBOX_CGROUP=off): rlimits only")
    else:
        support = cgroup_support(config.cgroup_root)
        if isinstance(support, str):
            lines.append(f"cgroups: {support}: rlimits only")
        else:
            where = ", ".join(f"{c or 'v2'} {path}" for c, path in support.parents)
            lines.append(f"cgroups: v{support.version}, memory and pids per bot (under {where})")
    lines.append("rlimits: address space, CPU, processes, open files, file size, core")
    return lines
