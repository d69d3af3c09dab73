"""How a bot's own failures are reported: kind, public detail, private traceback."""

from __future__ import annotations

from engine.players import FaultKind
from tests.sandbox.conftest import expect_fault


def test_exception_in_act_is_a_crash_with_a_private_traceback(sandbox):
    player = sandbox("raises_in_act.py")
    player.start({})
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.act({}))
    assert fault.detail == "the bot raised ValueError in act()"
    assert "PUBLIC-REPLAY-INJECTION" in fault.private
    # Issue 32: the traceback names the author's file, not the jail's /bot/bot.py.
    assert 'File "raises_in_act.py", line 6, in act' in fault.private
    assert "/bot/" not in fault.private and "/bot/" not in player.output()
    # The public detail never carries the bot's own text or output.
    assert "INJECTION" not in fault.detail and "secret" not in fault.detail
    assert "my secret strategy output" in player.output()


def test_import_error_is_a_crash_at_start(sandbox):
    player = sandbox("crash_at_import.py")
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.start({}))
    assert fault.detail == "the bot raised ModuleNotFoundError while loading"
    assert "this_module_does_not_exist" in fault.private


def test_missing_act_is_a_crash_at_start(sandbox):
    player = sandbox("no_act.py")
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.start({}))
    assert fault.detail == "no_act.py defines no act() function"  # the author's file


def test_missing_act_names_the_uploaded_file_not_the_jails_bot_py(sandbox):
    """Issue 32: the message said "bot.py" whatever the author's file was called."""
    player = sandbox("no_act.py", source_name="my_strategy.py")
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.start({}))
    assert fault.detail == "my_strategy.py defines no act() function"


def test_sys_exit_is_a_crash(sandbox):
    player = sandbox("calls_exit.py")
    player.start({})
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.act({}))
    assert "exit()" in fault.detail


def test_process_exiting_without_a_word_is_a_crash(sandbox):
    player = sandbox("hard_exit.py")
    player.start({})
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.act({}))
    assert "exited unexpectedly (status 3)" in fault.detail


def test_directory_without_bot_py_is_a_crash_at_start(sandbox, tmp_path):
    (tmp_path / "main.py").write_text("def act(o):\n    return {}\n")
    player = sandbox(tmp_path)
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.start({}))
    assert "bot.py" in fault.detail


def test_a_zipped_bots_traceback_names_its_files_as_in_the_zip(sandbox):
    """Issue 32: a bot's own modules by their path in its zip, its entry by its name."""
    player = sandbox("package_bot", source_name="entry.py")
    player.start({})
    fault = expect_fault(player, FaultKind.CRASH, lambda: player.act({"n": None}))
    assert 'File "entry.py", line 7, in act' in fault.private
    assert 'File "helper.py", line 2, in double' in fault.private
    assert "/bot/" not in fault.private
