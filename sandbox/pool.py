"""Jails started before their bots are chosen, so a bot's start-up is only its own.

A cold start pays bubblewrap, the interpreter and the cgroup move (on cgroup v1 the move
waits for an RCU grace period) before the bot's first line runs. A :class:`JailPool`
launches jails of the same :class:`~sandbox.launch.JailSpec` ahead of need on a thread of
its own: every jail it hands out replaces itself with a new one, so the next match's jails
start while the current match is played, and its bots only import and answer.

What keeps bots apart is unchanged: a pooled jail is a whole jail (its own bubblewrap,
namespaces, interpreter, ``/tmp``, cgroup and directory), launched with no bot in it and
every layer in place. :meth:`JailPool.take` removes it from the pool under the pool's lock
before it is returned, so it reaches exactly one player; the player copies its bot's files
into the jail's empty directory (``sandbox.staging.stage_into`` refuses one that is not
empty), then tells it to load (the bootstrap loads once, and ends on anything else). No
jail is ever put back: closing a player kills its jail, which the pool's thread then reaps
(bubblewrap's exit, the cgroup, the directory) off the match's path.

Spares the pool no longer needs (a six-seat table's, followed by two-seat matches) are
killed after ``idle_s``; all of them when the pool closes (at the latest when the process
exits: ``atexit``, and ``--die-with-parent`` kills any a killed worker leaves behind).
bubblewrap's parent-death signal follows the *thread* that started it, so every pooled jail
is started by the pool's one thread, which lives until the last jail it started is reaped.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import os
import select
import threading
import time
from collections.abc import Callable

from sandbox.config import SandboxConfig
from sandbox.launch import Jail, JailSpec, launch
from sandbox.limits import Limits

__all__ = ["JailPool", "launch_on", "shared_pool"]

log = logging.getLogger("sandbox")

#: Seconds a spare may wait for a bot before it is killed.
IDLE_S = 60.0
#: Tables of spares kept ready per table seen lately: one for the next match, and one more
#: for the match after it, since a match of quick bots (a Lie 21 best-of-seven of random
#: bots takes about 25 ms here) ends before its replacements' launches (spawn, bubblewrap,
#: the interpreter, the cgroup move: 25-30 ms) do. An idle spare costs about 10 MB.
AHEAD = 2
#: Seconds a start waits for a launch the pool's thread is making right now (it becomes a
#: starting spare within milliseconds) before it starts a jail cold instead.
LAUNCH_WAIT_S = 0.5
#: Seconds the pool stops launching after a launch failed (players then start cold, and
#: report the platform's failure themselves).
FAILURE_BACKOFF_S = 5.0


class JailPool:
    """Spare jails for one ``SandboxConfig``, at most ``config.prestart`` of each spec."""

    def __init__(
        self,
        config: SandboxConfig,
        *,
        spares: int | None = None,
        idle_s: float = IDLE_S,
        launcher: Callable[[SandboxConfig, Limits], Jail] | None = None,
    ) -> None:
        self.config = config
        self.spares = config.prestart if spares is None else spares
        self.idle_s = idle_s
        self._launch = launcher or (lambda config, limits: launch(config, limits))
        self._cond = threading.Condition()
        #: Spares whose bootstrap said ``prepared``, with when; and those it has not yet.
        self._ready: dict[JailSpec, collections.deque[tuple[float, Jail]]] = {}
        self._starting: dict[JailSpec, collections.deque[Jail]] = {}
        self._due: collections.Counter[JailSpec] = collections.Counter()  # launches to make
        self._launching: collections.Counter[JailSpec] = collections.Counter()
        self._limits: dict[JailSpec, Limits] = {}
        self._reaps: collections.deque[Callable[[], None]] = collections.deque()
        self._out = 0  # jails handed out and not yet given back for reaping
        #: Bots of each spec started and not yet closed (pooled or cold), and the most
        #: there were at once lately, with since when: how many spares a match takes.
        self._in_use: collections.Counter[JailSpec] = collections.Counter()
        self._peak: dict[JailSpec, tuple[int, float]] = {}
        self._busy = False  # the thread is launching or reaping now
        self._paused_until = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self._last_error_log = -1e9
        #: Counts, for monitoring and tests: hits (a start got a spare; "early" ones got a
        #: spare still starting), misses (a cold start), launched, errors (unexpected ones
        #: the pool's thread survived).
        self.stats: collections.Counter[str] = collections.Counter()

    # -- the players' side --------------------------------------------------------------

    def take(self, limits: Limits) -> Jail | None:
        """A spare jail for ``limits`` (a prepared one, else one still starting), or None
        (start one cold). Every start, pooled or cold, counts until :meth:`done`: the pool
        keeps as many spares as there were bots of the spec at once lately (at most
        ``spares``), so the next match finds a spare for each of its seats."""
        spec = JailSpec.of(self.config, limits)
        stale: list[Jail] = []
        with self._cond:
            if self._closed or os.getpid() != self._pid:
                return None
            deadline = time.monotonic() + LAUNCH_WAIT_S
            while True:
                jail = self._pop_spare(spec, stale)
                if jail is not None or not self._on_its_way(spec):
                    break
                # The pool's thread is launching one of this spec (or about to): it will
                # be a starting spare in a few ms; a cold start beside it would be a jail
                # more, launched on this thread while the match waits.
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            self.stats["hits" if jail is not None else "misses"] += 1
            if jail is not None:
                self._out += 1
            self._limits[spec] = limits
            self._in_use[spec] += 1
            self._refill(spec)
            for dead in stale:
                self._reaps.append(dead.close)
            self._start_thread()
            self._cond.notify_all()
        return jail

    def _on_its_way(self, spec: JailSpec) -> bool:
        """Whether the pool's thread is launching a jail of ``spec`` or will next (lock held)."""
        if self._closed:
            return False
        due = self._due[spec] and time.monotonic() >= self._paused_until
        return bool(self._launching[spec] or due)

    def _pop_spare(self, spec: JailSpec, stale: list[Jail]) -> Jail | None:
        """A prepared spare of ``spec``, else one still starting, else None (lock held);
        dead spares met on the way go to ``stale``."""
        ready = self._ready.get(spec)
        while ready:
            _, candidate = ready.popleft()
            if candidate.alive():
                return candidate
            stale.append(candidate)
        starting = self._starting.get(spec)
        if starting:  # on its way: sooner than a cold start
            self.stats["early"] += 1
            return starting.popleft()
        return None

    def done(self, limits: Limits) -> None:
        """A bot that :meth:`take` counted has closed."""
        spec = JailSpec.of(self.config, limits)
        with self._cond:
            self._in_use[spec] = max(0, self._in_use[spec] - 1)

    def _refill(self, spec: JailSpec) -> None:
        """Launch spares of ``spec`` up to the most bots of it at once lately (lock held)."""
        now = time.monotonic()
        peak, since = self._peak.get(spec, (0, now))
        if now - since > self.idle_s:  # an old peak: what is in use now is what counts
            peak, since = 0, now
        if self._in_use[spec] >= peak:
            peak, since = self._in_use[spec], now
        self._peak[spec] = (peak, since)
        missing = min(self.spares, AHEAD * peak) - self._count(spec)
        if missing > 0:
            self._due[spec] += missing
            self._start_thread()
            self._cond.notify_all()

    def fill(self, limits: Limits, count: int | None = None) -> None:
        """Start ``count`` (default: ``spares``) jails of ``limits``' spec now, without
        waiting for them (a worker about to play, a benchmark)."""
        spec = JailSpec.of(self.config, limits)
        with self._cond:
            if self._closed or os.getpid() != self._pid:
                return
            self._limits[spec] = limits
            wanted = min(self.spares, self.spares if count is None else count)
            self._due[spec] += max(0, wanted - self._count(spec))
            if not self._due[spec]:
                del self._due[spec]
            self._start_thread()
            self._cond.notify_all()

    def waiting(self) -> list[Jail]:
        """The spares waiting now, oldest first (monitoring and tests)."""
        with self._cond:
            return [jail for ready in self._ready.values() for _, jail in ready]

    def reap(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` (a killed jail's reaping) on the pool's thread."""
        with self._cond:
            self._out = max(0, self._out - 1)
            if self._closed and self._thread is None:
                run_now = True
            else:
                run_now = False
                self._reaps.append(cleanup)
                self._start_thread()
                self._cond.notify_all()
        if run_now:
            cleanup()

    @property
    def accepting(self) -> bool:
        """Whether a player may leave its jail's reaping to this pool."""
        return not self._closed and os.getpid() == self._pid

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until no launch or reap is pending or running and every spare is prepared
        (tests, benchmarks: a worker's state between matches)."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._due or self._launching or self._reaps or self._busy or self._starts():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(min(remaining, 0.05))
        return True

    def ready_count(self) -> int:
        """Spares waiting now."""
        with self._cond:
            return sum(len(ready) for ready in self._ready.values())

    def close(self, timeout_s: float = 10.0) -> None:
        """Kill every spare and finish every reap; the pool launches nothing more.

        Jails still held by players are reaped when those players close (the thread that
        started them lives until then). Idempotent.
        """
        with self._cond:
            if os.getpid() != self._pid:
                return  # a forked child's copy: the jails are the parent's
            self._closed = True
            self._due.clear()
            for ready in self._ready.values():
                self._reaps.extend(jail.close for _, jail in ready)
            self._ready.clear()
            for starting in self._starting.values():
                self._reaps.extend(jail.close for jail in starting)
            self._starting.clear()
            self._cond.notify_all()
            deadline = time.monotonic() + timeout_s
            while self._thread is not None and (self._reaps or self._busy or self._launching):
                if self._thread is threading.current_thread() or time.monotonic() > deadline:
                    break
                self._cond.wait(0.05)
            leftovers: list[Callable[[], None]] = []
            if self._thread is None:
                leftovers, self._reaps = list(self._reaps), collections.deque()
        for cleanup in leftovers:  # the thread had died: reap here
            _quietly(cleanup)

    # -- the pool's thread --------------------------------------------------------------

    def _count(self, spec: JailSpec) -> int:
        waiting = len(self._ready.get(spec, ())) + len(self._starting.get(spec, ()))
        return waiting + self._launching[spec] + self._due[spec]

    def _starts(self) -> int:
        return sum(len(starting) for starting in self._starting.values())

    def _start_thread(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="sandbox-pool", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        """The pool's thread: launch, collect, expire and reap until closed and done.

        Every jail this thread started dies with it (bubblewrap's parent-death signal
        follows the thread), bots in the middle of a match included. So it must not end
        on an error: anything unexpected in a round is logged and the next round goes on
        (a jail that caused it is reaped where it can be told apart, see
        :meth:`_collect_prepared`); the thread ends only when the pool is closed and no
        jail it started is still in use.
        """
        _widen_this_thread()
        try:
            while True:
                try:
                    if not self._round():
                        return
                except BaseException:  # see above: never end while jails depend on us
                    self._unexpected("the pool's thread")
        finally:
            with self._cond:
                self._thread = None
                self._busy = False
                self._cond.notify_all()

    def _round(self) -> bool:
        """One round of the pool's thread; False when it may end (closed, nothing out)."""
        with self._cond:
            self._busy = False
            self._cond.notify_all()
            while not self._work_now() and not self._starts():
                if self._closed and self._out == 0:
                    return False
                self._cond.wait(self._next_expiry())
            self._busy = True
            reaps = list(self._reaps)
            self._reaps.clear()
            expired = self._take_expired()
            spec = None
            if not self._closed and time.monotonic() >= self._paused_until and self._due:
                spec = next(iter(self._due))
                self._due[spec] -= 1
                if self._due[spec] <= 0:
                    del self._due[spec]
                self._launching[spec] += 1
                limits = self._limits[spec]
        for cleanup in reaps + [jail.close for jail in expired]:
            _quietly(cleanup)
        if spec is not None:
            self._launch_one(spec, limits)
        self._collect_prepared(0.0 if spec is not None or reaps else 0.005)
        return True

    def _unexpected(self, where: str) -> None:
        """Log an unexpected error of the pool's thread (at most once a second with its
        traceback) and pause a little, so that a fault that repeats cannot spin a core."""
        now = time.monotonic()
        self.stats["errors"] += 1
        if now - self._last_error_log >= 1.0:
            self._last_error_log = now
            log.exception("sandbox: unexpected error in %s; the pool goes on", where)
        with self._cond:
            self._busy = False
            self._cond.notify_all()
            self._cond.wait(0.01)

    def _collect_prepared(self, wait_s: float) -> None:
        """Move the spares whose bootstrap said ``prepared`` to the ready ones (waiting up
        to ``wait_s`` for one to), and reap any that failed to get there."""
        with self._cond:
            fds = [jail.process.reader.fd for s in self._starting.values() for jail in s]
        if fds and wait_s:
            try:
                poller = select.poll()
                for fd in fds:
                    poller.register(fd, select.POLLIN)
                poller.poll(wait_s * 1000)
            except (OSError, ValueError):  # each jail is read (and judged) below anyway
                pass
        failed: list[tuple[Jail, str]] = []
        with self._cond:  # a player takes a starting spare under this lock: never both
            for spec, starting in self._starting.items():
                for jail in list(starting):
                    try:
                        problem = jail.poll_prepared()
                    except BaseException as exc:  # a bug, not the jail's: reap it, go on
                        self._unexpected_in_jail(exc)
                        problem = f"unexpected error while reading its start message ({exc!r})"
                    if problem is None:
                        continue
                    starting.remove(jail)
                    if problem:
                        failed.append((jail, problem))
                    else:
                        ready = self._ready.setdefault(spec, collections.deque())
                        ready.append((time.monotonic(), jail))
            self._starting = {spec: s for spec, s in self._starting.items() if s}
            self._cond.notify_all()
        for jail, problem in failed:
            log.warning("sandbox: a pre-started jail failed before its bot (%s)", problem)
            _quietly(jail.close)

    def _unexpected_in_jail(self, exc: BaseException) -> None:
        self.stats["errors"] += 1
        log.error("sandbox: unexpected error reading a pre-started jail", exc_info=exc)

    def _work_now(self) -> bool:
        if self._reaps:
            return True
        if self._due and not self._closed and time.monotonic() >= self._paused_until:
            return True
        now = time.monotonic()
        return any(ready and now - ready[0][0] > self.idle_s for ready in self._ready.values())

    def _next_expiry(self) -> float:
        now = time.monotonic()
        times = [ready[0][0] + self.idle_s - now for ready in self._ready.values() if ready]
        if self._due:
            times.append(self._paused_until - now)
        return max(0.01, min(times)) if times else 1.0

    def _take_expired(self) -> list[Jail]:
        now = time.monotonic()
        expired = []
        for ready in self._ready.values():
            while ready and now - ready[0][0] > self.idle_s:
                expired.append(ready.popleft()[1])
        return expired

    def _launch_one(self, spec: JailSpec, limits: Limits) -> None:
        jail = None
        try:
            jail = self._launch(self.config, limits)
        except BaseException as exc:  # the host cannot start jails now: players start cold
            log.warning("sandbox: pre-starting a jail failed (%s); bots start cold for now", exc)
        with self._cond:
            self._launching[spec] -= 1
            if self._launching[spec] <= 0:
                del self._launching[spec]
            if jail is None:
                self._paused_until = time.monotonic() + FAILURE_BACKOFF_S
            elif self._closed:
                self._reaps.append(jail.close)
            else:
                self.stats["launched"] += 1
                self._starting.setdefault(spec, collections.deque()).append(jail)
            self._cond.notify_all()


def _quietly(cleanup: Callable[[], None]) -> None:
    try:
        cleanup()
    except BaseException:  # reaping must never stop the pool: log it for the operator
        log.exception("sandbox: reaping a jail failed")


#: The CPUs the pools' threads launch jails on (None: wherever the process may run).
_launch_cpus: frozenset[int] | None = None


def launch_on(cpus: set[int] | frozenset[int]) -> None:
    """Launch this process's spare jails on ``cpus``, though the process itself is pinned
    to fewer (a worker's pool process keeps its matches on one core: ``workers.cpus``).

    A spare's launch is CPU no match waits for: on a core of its own it fills whichever
    core is idle. The affinity is the pool thread's own (Linux sets it per thread), which
    the jails it starts inherit; a player places its bot on its own CPU when it takes the
    jail (``sandbox.player.colocate``).
    """
    global _launch_cpus
    _launch_cpus = frozenset(cpus)


def _widen_this_thread() -> None:
    if _launch_cpus:
        with contextlib.suppress(OSError):  # refused: launch where the process runs
            os.sched_setaffinity(0, _launch_cpus)


_pools: dict[SandboxConfig, JailPool] = {}
_pools_lock = threading.Lock()


def shared_pool(config: SandboxConfig) -> JailPool | None:
    """This process's pool for ``config`` (None when ``config.prestart`` is 0 or in unsafe
    mode). Created on first use; a forked child gets its own."""
    if config.prestart <= 0 or config.unsafe:
        return None
    with _pools_lock:
        pool = _pools.get(config)
        if pool is None or pool._pid != os.getpid():
            pool = _pools[config] = JailPool(config)
        return pool


def close_shared_pools() -> None:
    """Close every pool of this process (at exit, and in a worker's shutdown)."""
    with _pools_lock:
        pools = [pool for pool in _pools.values() if pool._pid == os.getpid()]
        _pools.clear()
    for pool in pools:
        pool.close()


def _forget_after_fork() -> None:
    # The parent's pools (and their thread) are not the child's: start afresh.
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()


atexit.register(close_shared_pools)
os.register_at_fork(after_in_child=_forget_after_fork)
