"""The bubblewrap command line: which namespaces, which files, which descriptors.

The jail gets new user, PID, network, IPC, UTS and cgroup namespaces, and may not create
user namespaces of its own (``--disable-userns``). Its network namespace has only a
loopback device with nothing listening, so there is no network at all. The bot is PID 1 of
its PID namespace (``--as-pid-1``): when it dies the kernel kills anything left in the
namespace, the host measures and freezes exactly that process, and the seccomp filter can
tell "itself" (PID 1) from any other process.

The root file system is an empty tmpfs remounted read-only. Mounted into it: the Python
runtime (read-only, see ``sandbox.runtime``), the bot's private copy of its own files at
``/bot`` (read-only), operator-approved package directories (read-only), a minimal ``/dev``
(null, zero, random, ...; read-only, so ``/dev/shm`` is not writable) and a private ``/tmp``
tmpfs of bounded size. No ``/proc``, no ``/etc``, no ``/home``, no ``/sys``, nothing of the
project, the uploads or other bots.

bubblewrap itself must be started with an empty environment: it is the parent of the
jail, and anything in its environment could be read back by a bot were ``/proc`` mounted.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.config import SandboxConfig
from sandbox.limits import Limits
from sandbox.runtime import PythonRuntime, bootstrap_source

__all__ = [
    "BOT_DIR",
    "JAIL_UID",
    "PACKAGES_DIR",
    "JailFds",
    "bootstrap_command",
    "bwrap_command",
    "jail_python_paths",
]

#: Where the bot's files appear inside the jail.
BOT_DIR = "/bot"
#: Where the bot packages (``engine.botpackages``) appear inside the jail.
PACKAGES_DIR = "/opt/bot-packages"
#: uid/gid of the bot *inside* its user namespace (mapped to the unprivileged host uid
#: bwrap runs as; see ``SandboxConfig.bot_uid``).
JAIL_UID = 65534


@dataclass(frozen=True, slots=True)
class JailFds:
    """Descriptor numbers (in this process, inherited as-is) bwrap and the bot use."""

    to_bot: int  # read end of host -> bot
    from_bot: int  # write end of bot -> host
    seccomp: int  # BPF program for bwrap to install
    info: int | None = None  # bwrap writes {"child-pid": N} here
    block: int | None = None  # bwrap waits for a byte here before it execs the bot


def bootstrap_command(python: str, to_bot: int, from_bot: int, code_hex: str = "") -> list[str]:
    """The interpreter command: isolated mode, no site, no bytecode writes.

    With ``code_hex`` (the bootstrap compiled by this interpreter, ``PythonRuntime``) the
    ``-c`` program only unmarshals and runs it; without, it is the bootstrap's text. The
    protocol descriptors are the last two arguments either way (``sys.orig_argv[-2:]``).
    """
    program = (
        f"import marshal;exec(marshal.loads(bytes.fromhex('{code_hex}')))"
        if code_hex
        else bootstrap_source()
    )
    return [python, "-I", "-S", "-B", "-c", program, str(to_bot), str(from_bot)]


def jail_python_paths(config: SandboxConfig, *, packages: bool, jailed: bool) -> list[str]:
    """What the bootstrap appends to ``sys.path``: the bot packages (at their jail path, or
    their host path in unsafe mode), then the operator's extra paths."""
    first = [PACKAGES_DIR if jailed else config.packages_dir] if packages else []
    return [*first, *config.extra_python_paths]


def bwrap_command(
    config: SandboxConfig,
    runtime: PythonRuntime,
    limits: Limits,
    fds: JailFds,
    *,
    bot_dir: str | None,
    command: list[str] | None = None,
    packages: bool = False,
) -> list[str]:
    """The full bwrap argv; ``command`` defaults to the bootstrap on ``fds``.

    ``packages``: bind the installed bot packages (the caller reads
    ``SandboxConfig.packages_installed`` once per run and tells the bootstrap the same)."""
    args = [
        *_isolation_args(config),
        *_mount_args(config, runtime, limits, bot_dir=bot_dir, packages=packages),
    ]
    args += [
        "--remount-ro", "/dev",
        "--remount-ro", "/",
        "--chdir", "/tmp",  # noqa: S108 - the jail's private tmpfs
        "--seccomp", str(fds.seccomp),
    ]  # fmt: skip
    if fds.info is not None:
        args += ["--info-fd", str(fds.info)]
    if fds.block is not None:
        args += ["--block-fd", str(fds.block)]
    args.append("--")
    args += command or bootstrap_command(
        runtime.executable, fds.to_bot, fds.from_bot, runtime.bootstrap_hex
    )
    return args


def _isolation_args(config: SandboxConfig) -> list[str]:
    """bwrap's namespaces, identity and session options: every namespace new, no way to
    make another, no capabilities, an empty environment."""
    return [
        config.bwrap,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--cap-drop", "ALL",
        "--uid", str(JAIL_UID),
        "--gid", str(JAIL_UID),
        "--hostname", "bot",
        "--clearenv",
    ]  # fmt: skip


def _mount_args(
    config: SandboxConfig,
    runtime: PythonRuntime,
    limits: Limits,
    *,
    bot_dir: str | None,
    packages: bool,
) -> list[str]:
    """bwrap's mounts, in order: the interpreter, the bot, /dev and /tmp, then the packages
    and extra paths (after /tmp, so a path under /tmp stays visible)."""
    args: list[str] = []
    for source, dest in runtime.binds:
        args += ["--ro-bind", source, dest]
    if bot_dir is not None:
        args += ["--ro-bind", bot_dir, BOT_DIR]
    # No /proc: nothing in it is the bot's business, and it shows the host: the kernel's
    # configuration and symbols (config.gz, kallsyms), its command line, CPUs and memory,
    # and in /proc/<tid>/mountinfo the host path of every bind (the staged copy of /bot
    # included). Masking single entries cannot cover every thread id; not mounting it can.
    args += [
        "--dev", "/dev",
        "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",  # noqa: S108 - the jail's own
    ]  # fmt: skip
    # The bot packages (numpy), read-only at a fixed path that names nothing of the host,
    # then the operator's extra paths, read-only at their own; after /tmp, so a path under
    # /tmp stays visible.
    if packages:
        args += ["--ro-bind", config.packages_dir, PACKAGES_DIR]
    for path in config.extra_python_paths:
        args += ["--ro-bind", path, path]
    return args
