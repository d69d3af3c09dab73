"""A match's bots run on the CPU of the thread that plays it (``SandboxConfig.colocate``).

A match is a ping-pong (each bot is stopped while it is not its turn), so it never needs
two cores; on one, each hand-over is a switch on the same CPU instead of a wake-up of
another. These tests show where the bot runs, with and without it, and that a host pinned
to one CPU gets its bots there, wherever their jails were launched.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess

from sandbox.player import _current_cpu, colocate
from tests.sandbox.conftest import needs_two_cpus

pytestmark = needs_two_cpus


def _bot_cpus(player) -> set[int]:
    return os.sched_getaffinity(player.process_ids[1])


def test_a_bot_runs_on_the_cpu_of_its_host(sandbox, config):
    allowed = os.sched_getaffinity(0)
    player = sandbox("echo_bot.py", config=dataclasses.replace(config, colocate=True))
    player.start({})
    (cpu,) = _bot_cpus(player)
    assert cpu in allowed
    assert player.act({"n": 1})["moves"] == 1


def test_without_colocation_a_bot_may_run_anywhere_its_host_may(sandbox, config):
    player = sandbox("echo_bot.py", config=dataclasses.replace(config, colocate=False))
    player.start({})
    assert _bot_cpus(player) == os.sched_getaffinity(0)


def test_a_pinned_host_keeps_its_bot_on_its_cpu():
    """A pool process pinned to one CPU: a jail launched elsewhere (its pool launches on
    all the worker's CPUs) is moved to the host's CPU; the host does not spin for it."""
    allowed = os.sched_getaffinity(0)
    cpu = _current_cpu()
    assert cpu in allowed
    child = subprocess.Popen(["sleep", "30"])
    os.sched_setaffinity(0, {cpu})
    try:
        assert os.sched_getaffinity(child.pid) == allowed  # started before the pin
        assert colocate(child.pid) is None  # not placed by choice: no spinning
        assert os.sched_getaffinity(child.pid) == {cpu}
        assert colocate(os.getpid()) is None  # one CPU already: nothing to change
    finally:
        os.sched_setaffinity(0, allowed)
        child.kill()
        child.wait()
