"""How fast the sandbox is: start-up, a decision, whole matches, next to plain processes.

Prints these lines (medians)::

    sandbox_startup: N ms        start() until the bot is ready for its first decision
                                 (jail + interpreter + import + on_match_start), the way the
                                 arena's workers start bots: from a pre-started jail when the
                                 tree has them (ARENA_SANDBOX_PRESTART), its spare ready
    sandbox_startup_cold: N ms   the same with no jail started ahead
    sandbox_startup_numpy: N ms  sandbox_startup for the random bot with ``import numpy`` on top
    sandbox_jail_cpu: N ms       CPU time one jail costs from launch to reaped, every process
                                 of it (host, bwrap, interpreter), cold; kernel work done later
                                 in kernel threads (a network namespace's teardown) not included
    pipe_roundtrip: N us         a decision's messages between this process and a plain
                                 Python child (the bots' interpreter) on pipes, each side
                                 encoding what it sends and decoding what it gets with the
                                 sandbox's own codecs (this side the tree's protocol module,
                                 the child the bootstrap's): the same request line with a
                                 real observation, a reply of an action's shape; both sides
                                 blocking in read()/poll(), the child on the CPU the tree
                                 would put a bot on (see ``SandboxConfig.colocate``)
    pipe_roundtrip_spin: N us    the same, this side spinning first as the sandbox does
                                 (ARENA_SANDBOX_SPIN_US, 200 us unless set; a tree that runs
                                 bots on the host's CPU does not spin, nor does this)
    sandbox_decision: N us       one act() round trip, freeze/thaw and the action's schema
                                 check included (spinning as configured)
    sandbox_decision_ratio: N x  sandbox_decision / pipe_roundtrip_spin (same run: both
                                 waiting the same way)
    sandbox_decision_nospin: N us  the same without spinning, as the arena's workers run
    sandbox_decision_nospin_ratio: N x  over pipe_roundtrip (neither spinning)
    inprocess_decision: N us     the same act() in this process
    sandbox_match_<game>: N ms   a whole match of random bots, every seat sandboxed: Lie 21
                                 (2 seats), Liars and Tieng Len (4 seats), played back to back
    inprocess_match_<game>: N ms the same match in this process

``--compare REF`` measures another tree too (a directory, or a commit, checked out in a
temporary worktree) and alternates the two in rounds (``--rounds``), each measuring every
figure of both trees in turn, so that both meet the same load; it then prints each figure
of this tree, the same figure of ``REF`` as ``<name>_base`` and their ratio as
``<name>_vs_base`` (this tree over ``REF``). Each tree runs in a process of its own that
imports that tree's ``sandbox`` and ``engine``; the measuring code is this file's.

The observations of the decision figures are real ones, recorded from in-process matches.
Run: ``.venv/bin/python benchmarks/sandbox_speed.py [--compare main] [--rounds 4]`` (as root
or not; ARENA_SANDBOX_* settings apply).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine_checkout import checkout

ROOT = Path(__file__).resolve().parents[1]
MATCH_GAMES = (("lie21", 2), ("liars", 4), ("tieng_len", 4))
#: Samples per figure in one round (a run without --compare is one round of FULL sizes).
FULL = {"startup": 40, "cold": 40, "numpy": 20, "cpu": 20, "decisions": 5000, "matches": 30}
ROUND = {"startup": 10, "cold": 10, "numpy": 5, "cpu": 10, "decisions": 1500, "matches": 8}
#: The order the figures are printed in, with their units.
FIGURES = [
    ("sandbox_startup", "ms"),
    ("sandbox_startup_cold", "ms"),
    ("sandbox_startup_numpy", "ms"),
    ("sandbox_jail_cpu", "ms"),
    ("pipe_roundtrip", "us"),
    ("pipe_roundtrip_spin", "us"),
    ("sandbox_decision", "us"),
    ("sandbox_decision_nospin", "us"),
    ("inprocess_decision", "us"),
    *[(f"sandbox_match_{game}", "ms") for game, _ in MATCH_GAMES],
    *[(f"inprocess_match_{game}", "ms") for game, _ in MATCH_GAMES],
]

#: Each decision figure's ratio is to the pipe round trip that waits the same way.
PIPE_OF = {"sandbox_decision": "pipe_roundtrip_spin", "sandbox_decision_nospin": "pipe_roundtrip"}

# -- the measuring side (runs in each tree's own process) ----------------------------------


class Bench:
    """The figures of one tree; ``tree``'s ``sandbox`` and ``engine`` are on ``sys.path``."""

    def __init__(self) -> None:
        import engine
        from sandbox import SandboxConfig, SandboxUnavailable, check_available

        self.engine = engine
        config = SandboxConfig.from_env()
        try:
            check_available(config)
        except SandboxUnavailable as exc:
            raise SystemExit(f"sandbox unavailable: {exc}") from None
        self.cold = config
        #: How this tree's workers start bots: from pre-started jails, where it has them.
        self.pooled = config
        if "prestart" in type(config).__dataclass_fields__ and not config.prestart:
            self.pooled = dataclasses.replace(config, prestart=6)
        self.has_pool = getattr(self.pooled, "prestart", 0) > 0
        #: How long the tree's sandbox spins for a reply: not at all where it runs bots on
        #: the host's CPU (nothing can answer while the host spins there).
        self.spin_s = 0.0 if getattr(config, "colocate", False) else config.spin_us / 1e6
        self.bot = engine.builtin_bot("lie21", "random")
        self.scratch = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
        self.numpy_bot = self.scratch / "numpy_bot.py"
        self.numpy_bot.write_text("import numpy\n" + self.bot.read_text())
        self.observations = self._record_observations()
        from engine.actions import action_problem

        self.game = engine.get_game("lie21")
        self.action_problem = action_problem

    def player(self, name: str, bot: Path, config: Any) -> Any:
        from sandbox import SandboxedPlayer

        return SandboxedPlayer(name, bot, config=config)

    def _settle(self, config: Any) -> None:
        """Let the pool finish launching and reaping (a worker's steady state between
        matches), so each start-up sample begins as a worker's next match would."""
        if getattr(config, "prestart", 0):
            from sandbox.pool import shared_pool

            shared_pool(config).wait_idle()

    def startup(self, count: int, config: Any, bot: Path | None = None) -> list[float]:
        if config is self.pooled and self.has_pool:  # a warm pool first: its first use is cold
            warm = self.player("warm", bot or self.bot, config)
            warm.start({"seed": 0, "seat": 0})
            warm.close()
        samples = []
        for index in range(count):
            self._settle(config)
            player = self.player(f"bench-{index}", bot or self.bot, config)
            began = time.perf_counter()
            player.start({"seed": index, "seat": 0})
            samples.append((time.perf_counter() - began) * 1e3)
            player.close()
        self._settle(config)
        return samples

    def phases(self, count: int, config: Any) -> dict[str, list[float]]:
        """Each step of ``count`` start-ups, in ms, from the players' ``startup_marks`` (for a
        pooled jail, the launch's steps ran on the pool's thread before ``start``)."""
        steps = {
            "stage": ("begin", "staged"),
            "cgroup": ("staged", "cgroup"),
            "spawn": ("cgroup", "spawned"),
            "bwrap_setup": ("spawned", "pid"),
            "release": ("pid", "released"),
            "cgroup_attach": ("released", "attached"),
            "interpreter": ("released", "interpreter"),
            "init_wait": ("interpreter", "init_received"),
            "prepare": ("init_received", "prepared"),
            "take": ("start", "jail"),
            "prepared_read": ("jail", "prepared"),
            "stage_files": ("prepared", "staged_files"),
            "load": ("load_sent", "ready"),
            "total": ("start", "ready"),
        }
        found: dict[str, list[float]] = {}
        for index in range(count):
            self._settle(config)
            player = self.player(f"phases-{index}", self.bot, config)
            player.start({"seed": index, "seat": 0})
            marks = player.startup_marks
            player.close()
            for name, (first, last) in steps.items():
                if first in marks and last in marks:  # a pooled jail's launch steps ran
                    found.setdefault(name, []).append((marks[last] - marks[first]) * 1e3)
        self._settle(config)
        return found

    def jail_cpu(self, count: int) -> list[float]:
        """CPU of ``count`` cold jails, start to reaped, per jail (one sample)."""
        self_before = resource.getrusage(resource.RUSAGE_SELF)
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for index in range(count):
            player = self.player(f"cpu-{index}", self.bot, self.cold)
            player.start({"seed": index, "seat": 0})
            player.close()
        self_after = resource.getrusage(resource.RUSAGE_SELF)
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = sum(
            getattr(after, field) - getattr(before, field)
            for before, after in ((self_before, self_after), (children_before, children_after))
            for field in ("ru_utime", "ru_stime")
        )
        return [used / count * 1e3]

    def _record_observations(self) -> list[dict[str, Any]]:
        """Real observations of the random bot's seat, from in-process matches."""
        engine = self.engine
        seen: list[dict[str, Any]] = []

        class Recorder(engine.InProcessPlayer):
            def act(self, observation: Any) -> dict[str, Any]:
                # A copy: an in-process bot may change its observation (the random bot
                # draws from its hand in place), and the engine may reuse its parts.
                seen.append(json.loads(json.dumps(observation)))
                return super().act(observation)

        seed = 0
        while len(seen) < 200:
            players = [Recorder("a", self.bot), engine.InProcessPlayer("b", self.bot)]
            engine.play_match("lie21", players, seed=seed)
            seed += 1
        return seen

    def decisions(self, count: int, player: Any) -> list[float]:
        copy = _json_copy
        player.start({"seed": 1, "seat": 0})
        samples = []
        check = self.action_problem
        try:
            for index in range(count):
                # Each decision gets an observation of its own, copied outside the timing
                # (an in-process bot may change it; a sandboxed one gets it encoded anyway).
                observation = copy(self.observations[index % len(self.observations)])
                began = time.perf_counter()
                action = player.act(observation)
                problem = check(self.game, action)
                samples.append((time.perf_counter() - began) * 1e6)
                if problem is not None:
                    raise SystemExit(f"the benchmark bot's action was refused: {problem}")
        finally:
            player.close()
        return samples

    def pipe(self, count: int, spin_s: float) -> list[float]:
        """Round trips of a decision's messages between this process and a plain Python
        child on pipes, each side encoding what it sends and decoding what it gets.

        This side encodes each request (the same ``{"op": "act", "seq", "obs"}`` line, with
        the observation the sandboxed bot gets) with the tree's protocol encoder, writes it,
        waits (spinning for ``spin_s`` first, as the sandbox does when configured to, then
        blocking in poll()), reads the reply and decodes it with the tree's decoder. The
        child (the bots' interpreter, ``-I -S``) blocks in read(), decodes the line with the
        codec the bootstrap uses (the C scanner and encoder of ``_json``), and encodes a
        reply of a real action's shape, cards from the hand it decoded and the request's
        ``seq``. What it leaves out is what makes the sandbox a sandbox: the jail, the
        bot's own code, freezing and thawing, the CPU clocks, the checks of the reply.
        """
        from sandbox.protocol import LineReader, decode, encode

        child_code = PIPE_CHILD
        child = subprocess.Popen(
            [self.cold.python, "-I", "-S", "-c", child_code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        assert child.stdin is not None
        assert child.stdout is not None
        if getattr(self.cold, "colocate", False):  # where the tree's bots run, the child runs
            from sandbox.player import colocate

            colocate(child.pid)
        out_fd, in_fd = child.stdin.fileno(), child.stdout.fileno()
        os.set_blocking(in_fd, False)
        reader = LineReader(in_fd, 65536)
        poller = select.poll()
        poller.register(in_fd, select.POLLIN)
        observations = self.observations
        samples = []
        try:
            for number in range(count):
                observation = observations[number % len(observations)]
                began = time.perf_counter()
                os.write(out_fd, encode({"op": "act", "seq": number + 1, "obs": observation}))
                end = began + spin_s
                while (line := reader.pop()) is None:  # the sandbox's own wait: spin, poll
                    if time.perf_counter() < end:
                        reader.fill()
                    else:
                        poller.poll(1000)
                        reader.fill()
                reply = decode(line)
                samples.append((time.perf_counter() - began) * 1e6)
                if reply["seq"] != number + 1:
                    raise SystemExit(f"the pipe child answered {reply!r}")
        finally:
            child.stdin.close()
            child.wait(5)
        return samples

    def match(self, game: str, seats: int, count: int, make: Callable[[str], Any]) -> list[float]:
        bot = self.engine.builtin_bot(game, "random")
        samples = []
        for seed in range(count):
            players = [make(f"seat{seat}", bot) for seat in range(seats)]
            began = time.perf_counter()
            result = self.engine.play_match(game, players, seed=seed)
            samples.append((time.perf_counter() - began) * 1e3)
            if result.faults:
                raise SystemExit(f"benchmark match {game} {seed} failed: {result.faults[0]}")
        return samples

    def figure(self, name: str, sizes: dict[str, int]) -> list[float]:
        engine = self.engine
        if name == "sandbox_startup":
            return self.startup(sizes["startup"], self.pooled)
        if name == "sandbox_startup_cold":
            return self.startup(sizes["cold"], self.cold)
        if name == "sandbox_startup_numpy":
            if not self.cold.packages_installed:
                return []
            return self.startup(sizes["numpy"], self.pooled, self.numpy_bot)
        if name == "sandbox_jail_cpu":
            return self.jail_cpu(sizes["cpu"])
        if name == "pipe_roundtrip":
            return self.pipe(sizes["decisions"], 0.0)
        if name == "pipe_roundtrip_spin":  # waiting as the tree's sandbox waits
            return self.pipe(sizes["decisions"], self.spin_s)
        if name == "sandbox_decision":
            return self.decisions(sizes["decisions"], self.player("bench", self.bot, self.cold))
        if name == "sandbox_decision_nospin":
            nospin = dataclasses.replace(self.cold, spin_us=0)
            return self.decisions(sizes["decisions"], self.player("bench", self.bot, nospin))
        if name == "inprocess_decision":
            return self.decisions(sizes["decisions"], engine.InProcessPlayer("bench", self.bot))
        kind, _, game = name.partition("_match_")
        seats = dict(MATCH_GAMES)[game]
        if kind == "sandbox":
            make = lambda seat, bot: self.player(seat, bot, self.pooled)  # noqa: E731
            samples = self.match(game, seats, sizes["matches"], make)
            self._settle(self.pooled)
            return samples
        return self.match(game, seats, sizes["matches"], engine.InProcessPlayer)


#: The pipe round trip's child: the bootstrap's codec (``sandbox/bootstrap.py``), a read
#: loop like its ``Channel``, and a reply of an action's shape.
PIPE_CHILD = """
import os, _json
class Context:
    strict = True
    object_hook = object_pairs_hook = memo = parse_constant = None
    parse_float = float
    parse_int = int
scan = _json.make_scanner(Context())
def not_json(value):
    raise TypeError(type(value).__name__)
encode = _json.make_encoder(
    None, not_json, _json.encode_basestring_ascii, None, ":", ",", False, False, False
)
buffer = b""
while True:
    end = buffer.find(b"\\n")
    if end < 0:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        buffer += chunk
        continue
    line, buffer = buffer[:end], buffer[end + 1 :]
    text = line.decode("utf-8")
    request, stop = scan(text, 0)
    if stop != len(text):
        raise ValueError("extra data")
    hand = request["obs"]["hand"]
    action = {"cards": hand[:3], "face_up": 0}
    reply = "".join(encode({"t": "action", "action": action, "seq": request["seq"]}, 0))
    data = reply.encode("ascii") + b"\\n"
    while data:
        data = data[os.write(1, data):]
"""


def _json_copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def serve(tree: Path) -> None:
    """Answer ``{"figure": name, "sizes": {...}}`` lines with ``{"samples": [...]}``."""
    sys.path.insert(0, str(tree))
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything else printed goes to stderr, never into the answers
    bench = Bench()
    print(json.dumps({"ready": True, "pool": bench.has_pool}), file=out, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        samples = bench.figure(request["figure"], request["sizes"])
        print(json.dumps({"samples": samples}), file=out, flush=True)


# -- the comparing side ---------------------------------------------------------------------


class Server:
    """A tree's measuring process."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        self.hello = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the benchmark process for {self.tree} failed")
        return json.loads(line)

    def figure(self, name: str, sizes: dict[str, int]) -> list[float]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"figure": name, "sizes": sizes}) + "\n")
        self.process.stdin.flush()
        return self._read()["samples"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(60)


def _median(samples: list[float]) -> float | None:
    return statistics.median(samples) if samples else None


def _line(name: str, value: float | None, unit: str) -> str:
    if value is None:
        return f"note: {name} skipped (the bot packages are not installed)"
    digits = 2 if value < 10 else 1 if value < 1000 else 0
    return f"{name}: {value:.{digits}f} {unit}"


def report(samples: dict[str, list[float]], base: dict[str, list[float]] | None) -> None:
    units = dict(FIGURES)
    medians = {name: _median(values) for name, values in samples.items()}
    for name, unit in FIGURES:
        if name not in samples:
            continue
        print(_line(name, medians[name], unit), flush=True)
        pipe = PIPE_OF.get(name)
        if pipe and medians.get(pipe):
            print(f"{name}_ratio: {medians[name] / medians[pipe]:.2f} x", flush=True)
    if base is None:
        return
    for name, _ in FIGURES:
        old = _median(base.get(name, []))
        if name not in samples or old is None:
            continue
        print(_line(f"{name}_base", old, units[name]), flush=True)
        if medians[name] is not None and old:
            print(f"{name}_vs_base: {medians[name] / old:.2f} x", flush=True)
    for name, pipe in PIPE_OF.items():
        if base.get(pipe) and base.get(name):
            ratio = _median(base[name]) / _median(base[pipe])
            print(f"{name}_ratio_base: {ratio:.2f} x", flush=True)


def print_phases() -> None:
    """``startup_<cold|pooled>_<step>: N ms`` lines (medians; this tree only)."""
    sys.path.insert(0, str(ROOT))
    bench = Bench()
    if not bench.has_pool:
        raise SystemExit("this tree's players have no start-up marks")
    warm = bench.player("warm", bench.bot, bench.pooled)
    warm.start({"seed": 0, "seat": 0})
    warm.close()
    for label, config in (("cold", bench.cold), ("pooled", bench.pooled)):
        for name, values in bench.phases(FULL["startup"], config).items():
            print(f"startup_{label}_{name}: {statistics.median(values):.2f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="REF", help="another tree: a directory or a commit")
    parser.add_argument("--rounds", type=int, default=4, help="rounds with --compare (4)")
    parser.add_argument("--only", nargs="*", help="these figures only (names as printed)")
    parser.add_argument(
        "--phases",
        action="store_true",
        help="where this tree's start-up goes: each step's median, cold and pooled",
    )
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve))
        return
    if args.phases:
        print_phases()
        return
    names = [name for name, _ in FIGURES if not args.only or name in args.only]
    print(f"load average: {Path('/proc/loadavg').read_text().split()[0]}", file=sys.stderr)
    if not args.compare:
        server = Server(ROOT)
        samples = {name: server.figure(name, FULL) for name in names}
        server.close()
        report(samples, None)
        return
    with checkout(args.compare) as tree:
        servers = {"new": Server(ROOT), "base": Server(tree)}
        got: dict[str, dict[str, list[float]]] = {"new": {}, "base": {}}
        try:
            for round_number in range(args.rounds):
                # Alternate which tree goes first, so neither always meets the other's wake.
                order = ["base", "new"] if round_number % 2 == 0 else ["new", "base"]
                for name in names:
                    for side in order:
                        got[side].setdefault(name, []).extend(servers[side].figure(name, ROUND))
                print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        finally:
            for server in servers.values():
                server.close()
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[0]}", file=sys.stderr)
    report(got["new"], got["base"])


if __name__ == "__main__":
    main()
