"""``SandboxedPlayer``: one uploaded bot in one match, in its own jailed process.

The player implements ``engine.players.Player``. Each decision is one request line and one
reply line on dedicated pipes. Around it the host thaws the bot (SIGCONT), reads its CPU
clock, waits for the reply while draining its output and watching the CPU allowance and the
wall-clock allowance, then freezes it again (SIGSTOP) and charges any overrun to the CPU or
wall-clock bank. Every message after ``prepared`` is the bot's claim, checked exactly; a
malformed, forged or out-of-order one is a ``protocol`` fault.

Every way a bot can fail ends as a ``BotFault`` (see ``sandbox.faults``); failures of the
platform itself raise ``SandboxError``. After a fault the process is killed at once and
every later call raises the same fault; ``close()`` reaps everything and never raises.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from engine.players import MATCH_HOOKS, BotFault, FaultKind
from sandbox.availability import check_available
from sandbox.cgroups import BotCgroup
from sandbox.config import SandboxConfig
from sandbox.faults import exit_fault, phase_text, reported_fault
from sandbox.jail import BOT_DIR
from sandbox.launch import Jail, launch, platform_failure
from sandbox.limits import Limits
from sandbox.pool import JailPool, shared_pool
from sandbox.process import BotProcess
from sandbox.protocol import ProtocolViolation, decode, encode
from sandbox.staging import StagedBot, stage_into

__all__ = ["SandboxedPlayer"]

log = logging.getLogger("sandbox")

#: Keys of each message a bot may send after ``prepared``, with their types (the ``fault``
#: report is checked by ``sandbox.faults.reported_fault``). Anything else is a protocol fault.
_REPLY_KEYS: dict[str, dict[str, type]] = {
    "ready": {"t": str, "hooks": list},
    "action": {"t": str, "action": dict, "seq": int},
    "done": {"t": str, "seq": int},
}


class SandboxedPlayer:
    """A bot (a ``.py`` file, or a directory with ``bot.py``) run in a sandbox.

    ``limits`` default to :class:`Limits()`, ``config`` to :meth:`SandboxConfig.from_env`.
    ``source_name`` is what the author calls the entry file (default: a ``.py`` bot's own
    file name): tracebacks and output show it instead of the jail's ``/bot/bot.py``, and a
    zipped bot's other files by their path in the zip. Nothing starts until :meth:`start`.
    Not thread-safe: one match drives one player.
    """

    trusted = False  # its actions meet the game's schema before the rules

    def __init__(
        self,
        name: str,
        bot_path: str | os.PathLike[str],
        *,
        limits: Limits | None = None,
        config: SandboxConfig | None = None,
        source_name: str | None = None,
    ) -> None:
        self.name = name
        self.bot_path = Path(bot_path)
        is_file = self.bot_path.suffix == ".py" and not self.bot_path.is_dir()
        self.source_name = source_name or (self.bot_path.name if is_file else "bot.py")
        self.limits = limits or Limits()
        self.config = config or SandboxConfig.from_env()
        #: Hooks the bot defines (known after ``start``); the match runner may skip others.
        self.hooks: frozenset[str] = frozenset()
        #: Whether the last decision ran over its per-move CPU or wall-clock time (and drew
        #: on a bank): games that replace a late move read it.
        self.last_move_late = False
        self._offered: tuple[str, ...] = MATCH_HOOKS
        self._bank_s = self.limits.time_bank_s
        self._wall_bank_s = self.limits.wall_bank_s
        self._wall_used_s = 0.0  # wall-clock time of all decisions so far
        self._seq = 0  # number of the current request; replies must echo it
        self._cpu_mark = 0.0  # the bot's CPU clock when it was last frozen
        self._spin_credit = 4  # see _spin
        self._spins = False  # whether to spin for replies at all (set at start)
        self._process: BotProcess | None = None
        self._cgroup: BotCgroup | None = None
        self._staged: StagedBot | None = None
        self._jail: Jail | None = None
        self._pool: JailPool | None = None  # the pool this player's jail came from
        self._counted: JailPool | None = None  # the pool that counts this bot as started
        self._marks: dict[str, float] = {}
        self._fault: BotFault | None = None
        self._started = False
        self._closed = False
        #: Runs _emergency_cleanup(process, cgroup, staged) if this player is collected.
        self._finalizer: weakref.finalize[..., SandboxedPlayer] | None = None
        self._cpus = max(1, len(os.sched_getaffinity(0)))

    # -- public API ---------------------------------------------------------------------

    @property
    def time_bank_s(self) -> float:
        """CPU seconds left in the time bank."""
        return max(self._bank_s, 0.0)

    @property
    def wall_bank_s(self) -> float:
        """Wall-clock seconds left in the wall-clock bank."""
        return max(self._wall_bank_s, 0.0)

    @property
    def wall_used_s(self) -> float:
        """Wall-clock seconds this seat's decisions took so far (``Limits.match_wall_s`` cap)."""
        return self._wall_used_s

    @property
    def process_ids(self) -> tuple[int, ...]:
        """Host pids of bwrap and the bot while running (for monitoring and tests)."""
        process = self._process
        if process is None or process.closed or self._closed:
            return ()
        return (process.popen.pid, process.pid)

    @property
    def cgroup_paths(self) -> tuple[str, ...]:
        """The bot's cgroup directories, if it has any (for monitoring and tests)."""
        return tuple(str(p) for p in self._cgroup.dirs.values()) if self._cgroup else ()

    def start(self, info: Mapping[str, Any], hooks: Sequence[str] = MATCH_HOOKS) -> None:
        """Start the jail, import the bot and run ``on_match_start(info)``.

        ``hooks`` are the hooks the game offers; the bot reports which of them it defines.
        """
        if self._started:
            raise RuntimeError(f"player {self.name!r} was already started")
        self._started = True
        self._offered = tuple(hooks)
        init = {"info": dict(info)}
        encode(init)  # a non-JSON info is the caller's bug: fail before anything starts
        try:
            self._launch(info)
        except BotFault as fault:
            self._fail(fault)
        except BaseException:
            self._shutdown()
            raise

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The bot's reply to ``observation`` (not yet checked against the rules)."""
        self._seq += 1
        request = encode({"op": "act", "seq": self._seq, "obs": observation})
        reply = self._call(request, "act", "action")
        action = reply.get("action")
        if not isinstance(action, dict):
            self._fail(
                BotFault(
                    FaultKind.BAD_OUTPUT,
                    "act() returned something that is not a JSON object (a dict)",
                )
            )
        return action

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        """Call ``hook(payload)`` in the bot if it defines it; the return value is ignored."""
        if hook not in self._offered:
            raise ValueError(f"hook {hook!r} is not one the game offers")
        if hook == "on_match_start" or hook not in self.hooks:
            if self._fault is not None:
                raise self._fault
            return
        self._seq += 1
        request = encode({"op": "hook", "seq": self._seq, "hook": hook, "payload": payload})
        self._call(request, hook, "done")

    def close(self) -> None:
        """Kill the bot, reap it, remove its cgroup and files. Idempotent; never raises.

        A jail from a pool is killed here and its output kept; the rest of its reaping
        (bubblewrap's exit, the cgroup, the files) is left to the pool's thread, off the
        match's path. Any other is reaped before this returns.
        """
        if self._closed:
            return
        self._closed = True
        if self._counted is not None:
            self._counted.done(self.limits)
        try:
            pool, process = self._pool, self._process
            if pool is not None and pool.accepting and process is not None and not process.closed:
                process.kill()
                process.output.drain()
                process.output.freeze()  # what it printed before it was killed is all
                if self._finalizer is not None:
                    self._finalizer.detach()
                assert self._jail is not None
                pool.reap(self._jail.close)
            else:
                self._shutdown()
        except BaseException:  # close() must never raise: log it for the operator
            log.exception("sandbox: cleaning up player %r failed", self.name)

    def output(self) -> str:
        """The bot's own stdout+stderr, capped at ``Limits.output_bytes`` (owner-only)."""
        if self._process is None:
            return ""
        if not self._closed and not self._process.closed:
            self._process.output.drain()
        return self._author_paths(self._process.output.text())

    def take_output(self) -> str:
        """What the bot printed since the last call (within the cap), for per-step logs."""
        if self._process is None:
            return ""
        if not self._closed and not self._process.closed:
            self._process.output.drain()
        return self._author_paths(self._process.output.take())

    def __enter__(self) -> SandboxedPlayer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- starting -----------------------------------------------------------------------

    def _launch(self, info: Mapping[str, Any]) -> None:
        """Get a jail, load the bot in it and wait until the bot says it is ready."""
        jail = self._take_jail()
        process = jail.process
        self._prepare(jail)
        self._send_load(jail, info)
        hooks = self._await_ready(process)
        process.freeze()
        self._cpu_mark = process.cpu_seconds()
        self._marks["ready"] = time.monotonic()
        self._check_quiet("while loading")
        self.hooks = frozenset(h for h in hooks if h in self._offered)

    def _take_jail(self) -> Jail:
        """A jail from the shared pool if one is ready, else one launched now; now ours.

        The pool counts this bot as started until :meth:`close`, pooled or not.
        """
        config, limits = self.config, self.limits
        if config.unsafe:
            print(
                f"WARNING: ARENA_SANDBOX_MODE=unsafe: bot {self.name!r} runs WITHOUT "
                "isolation (no namespaces, no seccomp, no cgroup). Never use this for "
                "uploaded bots.",
                file=sys.stderr,
            )
        check_available(config)
        began = time.monotonic()
        pool = shared_pool(config)
        jail = None
        if pool is not None:
            jail = pool.take(limits)
            self._counted = pool  # it counts this bot until close(), pooled or not
        if jail is None:
            jail = launch(config, limits, bot_path=self.bot_path)
        else:
            self._pool = pool
        self._adopt(jail, began)
        return jail

    def _prepare(self, jail: Jail) -> None:
        """Wait for the jail's bootstrap, choose whether to spin, give it the bot's files.

        Until "prepared" only platform code runs in the jail, so any failure is ours.
        """
        # (A pooled jail's "prepared" was read by the pool's thread, as soon as it came.)
        jail.await_prepared(self.name)
        self._marks.update(jail.marks)
        # Spinning for a reply pays only while the bot runs on another CPU: a bot on the
        # host's one CPU (placed there, or inherited from a host pinned to it) cannot run
        # while the host spins.
        placed = colocate(jail.process.pid) if self.config.colocate else None
        self._spins = bool(self.config.spin_us) and placed is None and _may_use_two_cpus()
        if not jail.has_files:  # a pooled jail: its bot is this one, from now on
            stage_into(jail.staged, self.bot_path, jail.group)
            jail.has_files = True
            self._marks["staged_files"] = time.monotonic()

    def _send_load(self, jail: Jail, info: Mapping[str, Any]) -> None:
        """Ask the bootstrap to import the bot; a jail that does not take it is our failure."""
        load = {
            "op": "load",
            "bot_dir": jail.bot_dir,
            "info": dict(info),
            "hooks": list(self._offered),
        }
        deadline = time.monotonic() + self.limits.startup_wall_s
        if not jail.process.write(encode(load), deadline):
            self._platform_failure("the jail did not accept its load message")
        self._marks["load_sent"] = time.monotonic()

    def _await_ready(self, process: BotProcess) -> list[str]:
        """The hooks the bot's ``ready`` message lists; BotFault if loading failed.

        From here on every byte on the channel may come from the bot: a claim to check.
        """
        limits = self.limits
        guard = limits.startup_wall_s
        try:
            reply = self._receive(
                cpu_start=process.cpu_seconds(),
                cpu_budget=limits.startup_timeout_s,
                wall_deadline=time.monotonic() + guard,
                phase="import",
                startup=True,
            )
        except _WallExpired as expired:
            raise BotFault(
                FaultKind.TIMEOUT,
                f"the bot did not finish loading within its {guard:g} s of wall-clock time "
                f"(it used {expired.cpu_used_s:.2f} s of CPU: it was sleeping or blocked)",
            ) from None
        if reply.get("t") == "fault":
            raise reported_fault(reply, "import", limits, process.output.tail(), self.source_name)
        hooks = reply.get("hooks")
        if (
            not _well_formed(reply, "ready")
            or not isinstance(hooks, list)  # (_well_formed checked it; this tells mypy)
            or not all(isinstance(h, str) for h in hooks)
        ):
            raise BotFault(
                FaultKind.PROTOCOL, "the bot sent a malformed or unexpected message while loading"
            )
        return hooks

    def _adopt(self, jail: Jail, began: float) -> None:
        """Make ``jail`` this player's: its process, cgroup and directory are ours now."""
        self._jail = jail
        self._process, self._cgroup, self._staged = jail.process, jail.cgroup, jail.staged
        self._finalizer = weakref.finalize(
            self, _emergency_cleanup, jail.process, jail.cgroup, jail.staged
        )
        self._marks = {**jail.marks, "start": began, "jail": time.monotonic()}

    @property
    def startup_marks(self) -> dict[str, float]:
        """Monotonic times of each step of the start-up (docs/sandbox.md, "Where start-up
        goes"): ``begin`` ... ``init_sent`` are the jail's launch (long before ``start``
        for a pooled jail), ``interpreter`` and ``init_received`` the bootstrap's own,
        ``start`` ... ``ready`` this player's ``start()``."""
        return dict(self._marks)

    def _platform_failure(self, what: str) -> None:
        """Raise SandboxError: the jail failed before any bot code ran."""
        platform_failure(self._process, what, self.name)

    # -- one decision -------------------------------------------------------------------

    def _call(self, request: bytes, phase: str, expect: str) -> dict[str, Any]:
        """One decision: send ``request``, wait for the reply, charge its time, check it.

        The wait, the charge and the checks are each one step here, in the order that
        decides which fault a bot gets when several apply (a reported fault first).
        """
        if self._fault is not None:
            raise self._fault
        process = self._process
        if process is None or self._closed:
            raise RuntimeError(f"player {self.name!r} is not running")
        limits = self.limits
        process.poll_events(0.0)  # anything written since the last reply is not an answer
        self._check_quiet("between its turns")
        # The bot's CPU clock as last read, after it was frozen at the end of its last
        # call: it has not run since (it is stopped), so this is where this decision's CPU
        # time starts, and anything it still ran after that reading (on its way into the
        # stop) is charged to this decision rather than lost. One system call less.
        cpu_start = self._cpu_mark
        wall_start = time.monotonic()
        reply = self._exchange(process, request, phase, cpu_start, wall_start)
        process.freeze()
        wall = time.monotonic() - wall_start
        self._wall_used_s += wall
        self._cpu_mark = process.cpu_seconds()
        used = self._cpu_mark - cpu_start
        if reply.get("t") == "fault":
            self._fail(
                reported_fault(reply, phase, limits, process.output.tail(), self.source_name)
            )
        self._charge(phase, used, wall)
        self._check_reply(reply, phase, expect)
        return reply

    def _exchange(
        self, process: BotProcess, request: bytes, phase: str, cpu_start: float, wall_start: float
    ) -> dict[str, Any]:
        """Thaw the bot with ``request`` and wait for its reply within this move's allowances.

        The CPU allowance is the move's time plus the bank; the wall-clock one the move's
        plus the wall-clock bank, never past the seat's wall-clock time for the match.
        """
        limits = self.limits
        allowance = limits.move_timeout_s + max(self._bank_s, 0.0)
        match_left = limits.match_wall_s - self._wall_used_s
        wall_allowance = min(limits.move_wall_s + max(self._wall_bank_s, 0.0), match_left)
        wall_deadline = wall_start + max(wall_allowance, 0.0)
        try:
            # Write first, then thaw: the stopped bot resumes straight into a ready read.
            if not process.write(request, wall_deadline):
                process.thaw()
                self._fail(self._lost(phase, wall_deadline))
            process.thaw()
            if self._spins:
                self._spin(process)
            return self._receive(
                cpu_start=cpu_start,
                cpu_budget=allowance,
                wall_deadline=wall_deadline,
                phase=phase,
            )
        except _WallExpired as expired:
            self._wall_used_s += time.monotonic() - wall_start
            bank_spent = wall_allowance < match_left  # else the match's cap was the limit
            self._fail(self._wall_timeout(phase, expired.cpu_used_s, bank_spent))
        except BotFault as fault:
            self._fail(fault)

    def _charge(self, phase: str, used: float, wall: float) -> None:
        """Charge a decision's overrun to the CPU and wall-clock banks; fail when one is spent."""
        limits = self.limits
        self.last_move_late = used > limits.move_timeout_s or wall > limits.move_wall_s
        if used > limits.move_timeout_s:
            self._bank_s -= used - limits.move_timeout_s
            if self._bank_s < 0:
                self._fail(self._cpu_timeout(phase, used))
        if wall > limits.move_wall_s:
            self._wall_bank_s -= wall - limits.move_wall_s
        if self._wall_bank_s < 0 or self._wall_used_s > limits.match_wall_s:
            self._fail(self._wall_timeout(phase, used, self._wall_bank_s < 0))

    def _check_reply(self, reply: dict[str, Any], phase: str, expect: str) -> None:
        """Fail unless ``reply`` is exactly an ``expect`` message answering this request
        and nothing else came after it on the channel."""
        if not _well_formed(reply, expect):
            self._fail(
                BotFault(
                    FaultKind.PROTOCOL,
                    f"the bot sent a malformed or unexpected message {phase_text(phase)}",
                )
            )
        if reply["seq"] != self._seq:
            self._fail(
                BotFault(
                    FaultKind.PROTOCOL, f"the bot sent a reply out of turn {phase_text(phase)}"
                )
            )
        self._check_quiet(phase_text(phase))

    def _spin(self, process: BotProcess) -> None:
        """Spin for the reply while spinning pays (``SandboxConfig.spin_us``).

        On a busy machine the bot often waits for a core while the host spins (on its
        core, maybe the one the bot needs): a spin that misses costs the whole budget and
        delays the reply. So the host spins only while most recent spins caught their
        reply, and, after a run of misses, tries again every 32 decisions.
        """
        if self._spin_credit <= 0:
            self._spin_credit += 1
            if self._spin_credit < 0:
                return
        if process.spin(self.config.spin_us / 1e6):
            self._spin_credit = min(self._spin_credit + 1, 8)
        else:
            self._spin_credit = -32 if self._spin_credit <= 2 else self._spin_credit - 2

    def _check_quiet(self, where: str) -> None:
        """Extra bytes after a reply mean someone besides the bootstrap wrote on the pipe."""
        process = self._process
        assert process is not None
        if process.reader.pending:
            self._fail(
                BotFault(
                    FaultKind.PROTOCOL,
                    f"the bot wrote unexpected data on its protocol channel {where}",
                )
            )

    def _receive(
        self,
        *,
        cpu_start: float,
        cpu_budget: float,
        wall_deadline: float,
        phase: str,
        startup: bool = False,
    ) -> dict[str, Any]:
        """Wait for the next message, enforcing the CPU allowance and the wall guard."""
        process = self._process
        assert process is not None
        reader = process.reader
        used = None  # the CPU clock is first read after the first wait: the bot just began
        while True:
            try:
                line = reader.pop()
            except ProtocolViolation as exc:
                raise BotFault(exc.kind, str(exc)) from None
            if line is not None:
                try:
                    return decode(line)
                except ProtocolViolation as exc:
                    raise BotFault(exc.kind, str(exc)) from None
            if process.exited or reader.eof:
                raise self._death(phase)
            if used is None and not startup:
                used = 0.0
                wait = min(wall_deadline - time.monotonic(), cpu_budget / self._cpus, 0.25)
                process.poll_events(max(wait, 0.0))
                continue
            used = process.cpu_seconds() - cpu_start
            if used > cpu_budget:
                raise self._startup_timeout(used) if startup else self._cpu_timeout(phase, used)
            now = time.monotonic()
            if now >= wall_deadline:
                raise _WallExpired(used)
            # Wake in time to catch a multi-threaded bot burning its allowance on all cores.
            wait = min(wall_deadline - now, max((cpu_budget - used) / self._cpus, 0.002), 0.25)
            process.poll_events(wait)

    # -- faults -------------------------------------------------------------------------

    def _death(self, phase: str) -> BotFault:
        """The fault for a bot process that has ended (or closed its end of the pipe)."""
        process = self._process
        assert process is not None
        if not process.wait_exit(0.5):
            # The reply pipe is closed but the bot lives on: it closed its channel.
            return BotFault(
                FaultKind.PROTOCOL, f"the bot closed its protocol channel {phase_text(phase)}"
            )
        returncode = process.collect_exit()
        line = None
        with contextlib.suppress(ProtocolViolation):
            line = process.reader.pop()
        if line is not None:
            try:
                report = decode(line)
            except ProtocolViolation:
                report = {}
            if report.get("t") == "fault":  # checked there: a forged report is a protocol fault
                return reported_fault(
                    report, phase, self.limits, process.output.tail(), self.source_name
                )
        cgroup = self._cgroup
        return exit_fault(
            returncode,
            phase,
            oom_killed=cgroup is not None and cgroup.oom_kills() > 0,
            cpu_used_s=process.cpu_seconds(),
            limits=self.limits,
            output_tail=process.output.tail(),
        )

    def _lost(self, phase: str, deadline: float) -> BotFault:
        process = self._process
        assert process is not None
        if process.wait_exit(max(0.0, min(deadline - time.monotonic(), 0.5))):
            return self._death(phase)
        return BotFault(
            FaultKind.TIMEOUT, f"the bot stopped reading its requests {phase_text(phase)}"
        )

    def _cpu_timeout(self, phase: str, used: float) -> BotFault:
        limits = self.limits
        return BotFault(
            FaultKind.TIMEOUT,
            f"the bot used {used:.2f} s of CPU {phase_text(phase)}, over its "
            f"{limits.move_timeout_s:g} s limit with its {limits.time_bank_s:g} s time bank spent",
        )

    def _wall_timeout(self, phase: str, cpu_used: float, bank_spent: bool) -> BotFault:
        limits = self.limits
        if bank_spent:
            what = (
                f"the bot took more than its {limits.move_wall_s:g} s of wall-clock time "
                f"{phase_text(phase)} with its {limits.wall_bank_s:g} s wall-clock bank spent"
            )
        else:
            what = (
                f"the bot used up its {limits.match_wall_s:g} s of wall-clock time for the "
                f"match {phase_text(phase)}"
            )
        return BotFault(
            FaultKind.TIMEOUT,
            f"{what} (it used {cpu_used:.2f} s of CPU: it was sleeping, blocked, or starved "
            "of CPU)",
        )

    def _startup_timeout(self, used: float) -> BotFault:
        return BotFault(
            FaultKind.TIMEOUT,
            f"the bot used over {self.limits.startup_timeout_s:g} s of CPU to load "
            f"(import and on_match_start)",
        )

    def _fail(self, fault: BotFault) -> NoReturn:
        """Record ``fault``, stop the bot at once, raise the fault."""
        if self._fault is None:
            self._fault = fault
        process = self._process
        if process is not None:
            process.kill()
            process.collect_exit(1.0)
            if not fault.private:
                fault.private = process.output.tail()
        self._fault.private = self._author_paths(self._fault.private)
        raise self._fault

    def _author_paths(self, text: str) -> str:
        """Tracebacks as the author knows the files: ``File "/bot/bot.py"`` (or the staged
        copy's host path in unsafe mode) becomes ``File "my_bot.py"``, and a zipped bot's
        ``File "/bot/lib/x.py"`` becomes ``File "lib/x.py"``."""
        if 'File "' not in text:
            return text
        roots = [BOT_DIR + "/"]
        if self._staged is not None:
            roots.append(str(self._staged.bot_dir) + "/")
        for root in roots:
            text = text.replace(f'File "{root}bot.py"', f'File "{self.source_name}"')
            text = text.replace(f'File "{root}', 'File "')
        return text

    def _shutdown(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        else:
            _emergency_cleanup(self._process, self._cgroup, self._staged)


def colocate(pid: int) -> int | None:
    """Keep process ``pid`` (a bot not yet loaded: the threads it starts inherit this) on
    the CPU this thread runs on now; the CPU, or None when left alone (see
    ``SandboxConfig.colocate``).

    A thread pinned to one CPU (a worker's pool process) gets its bot there too: a jail it
    launched itself inherited that already, one its pool launched elsewhere
    (``sandbox.pool.launch_on``) is moved here. Either way the host does not spin.
    """
    cpu = _current_cpu()
    if cpu is None:
        return None
    try:
        allowed = os.sched_getaffinity(0)
        if cpu not in allowed:
            return None
        if len(allowed) < 2:  # pinned: the bot goes to this CPU, not placed by us
            if os.sched_getaffinity(pid) != allowed:
                os.sched_setaffinity(pid, allowed)
            return None
        os.sched_setaffinity(pid, {cpu})
    except OSError:  # refused, or the bot is gone: the scheduler places it, as before
        return None
    return cpu


def _may_use_two_cpus() -> bool:
    try:
        return len(os.sched_getaffinity(0)) > 1
    except OSError:
        return True


def _current_cpu() -> int | None:
    """The CPU this thread runs on (``sched_getcpu``), or None where it cannot be asked."""
    global _sched_getcpu
    if _sched_getcpu is None:
        try:
            import ctypes

            _sched_getcpu = ctypes.CDLL(None, use_errno=True).sched_getcpu
        except (OSError, AttributeError):
            _sched_getcpu = False
    if _sched_getcpu is False:
        return None
    cpu = _sched_getcpu()
    return cpu if cpu >= 0 else None


_sched_getcpu: Any = None


def _emergency_cleanup(
    process: BotProcess | None, cgroup: BotCgroup | None, staged: StagedBot | None
) -> None:
    """Kill, reap and remove everything of one player (also run if it is garbage-collected)."""
    if process is not None:
        process.close()
    if cgroup is not None and not cgroup.remove():
        log.warning("sandbox: could not remove cgroup %s", list(cgroup.dirs.values()))
    if staged is not None:
        staged.remove()


class _WallExpired(Exception):
    """A decision ran out of wall-clock time; the caller words the fault."""

    def __init__(self, cpu_used_s: float) -> None:
        super().__init__(cpu_used_s)
        self.cpu_used_s = cpu_used_s


def _well_formed(message: Mapping[str, Any], kind: str) -> bool:
    """``message`` is a ``kind`` message with exactly its keys, each of the right type.

    ``bool`` is not accepted for an ``int`` (JSON ``true`` would otherwise equal seq 1).
    """
    keys = _REPLY_KEYS[kind]
    if message.get("t") != kind or message.keys() != keys.keys():
        return False
    return all(type(message[key]) is expected for key, expected in keys.items())
