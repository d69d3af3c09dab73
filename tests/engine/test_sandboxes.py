"""The local runner finds its sandbox as a plug-in (engine/sandboxes.py), so the engine
imports no sandbox by name; without one, or with a broken one, it says so in one line."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from engine import sandboxes
from engine.runner import run_matches


def test_the_checkout_registers_this_repositorys_sandbox():
    from sandbox.local import SANDBOX

    assert sandboxes.local_sandbox() is SANDBOX


def test_no_sandbox_registered_is_one_line_pointing_at_in_process(monkeypatch):
    monkeypatch.setattr(sandboxes, "group_entry_points", lambda group: [])
    with pytest.raises(sandboxes.SandboxMissing, match=r"no sandbox is installed.*--in-process"):
        run_matches(["random", "random"], matches=1, seed=1, game="lie21")
    # trusted bots still play in this process
    summary = run_matches(["random", "random"], matches=1, seed=1, game="lie21", sandbox=False)
    assert summary.matches == 1


def test_a_sandbox_that_cannot_be_loaded_is_named(monkeypatch):
    broken = EntryPoint("local", "no_such_module_here:SANDBOX", sandboxes.GROUP)
    monkeypatch.setattr(sandboxes, "group_entry_points", lambda group: [broken])
    with pytest.raises(sandboxes.SandboxMissing, match=r"no_such_module_here:SANDBOX"):
        sandboxes.local_sandbox()
