"""The protocol channel and the bot's own output: corrupted, closed, oversize, flooded."""

from __future__ import annotations

import dataclasses

import pytest

from engine.players import FaultKind
from sandbox.protocol import LineReader, ProtocolViolation, decode, encode
from tests.sandbox.conftest import FAST, GAME_HOOKS, expect_fault


def test_garbage_on_the_protocol_descriptor_is_a_protocol_fault(sandbox):
    player = sandbox("protocol_garbage.py")
    player.start({})
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "not JSON" in fault.detail


def test_a_forged_extra_reply_is_a_protocol_fault(sandbox):
    player = sandbox("protocol_forge.py")
    player.start({})
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "malformed or unexpected message" in fault.detail


def test_closing_the_reply_descriptor_is_a_protocol_fault(sandbox):
    player = sandbox("protocol_close.py")
    player.start({})
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "protocol channel" in fault.detail


def test_closing_the_request_descriptor_is_a_protocol_fault_on_the_next_request(sandbox):
    player = sandbox("protocol_close_requests.py")
    player.start({})
    assert player.act({}) == {}
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "protocol channel" in fault.detail


def test_an_endless_line_on_the_protocol_is_a_protocol_fault(sandbox):
    player = sandbox("protocol_oversize.py")
    player.start({})
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "64 KiB" in fault.detail


def test_a_reply_over_the_message_cap_is_bad_output(sandbox):
    player = sandbox("oversize_reply.py")
    player.start({})
    fault = expect_fault(player, FaultKind.BAD_OUTPUT, lambda: player.act({}))
    assert "64 KiB message limit" in fault.detail


def test_a_reply_that_is_not_a_dict_is_bad_output(sandbox):
    player = sandbox("not_a_dict.py")
    player.start({})
    expect_fault(player, FaultKind.BAD_OUTPUT, lambda: player.act({}))


def test_a_reply_that_is_not_json_is_bad_output(sandbox):
    player = sandbox("not_json.py")
    player.start({})
    expect_fault(player, FaultKind.BAD_OUTPUT, lambda: player.act({}))


def test_printing_100_mb_is_capped_and_the_bot_still_answers(sandbox):
    player = sandbox("print_flood.py", limits=dataclasses.replace(FAST, move_timeout_s=5.0))
    player.start({})
    assert player.act({}) == {"printed_mib": 100}
    output = player.output()
    assert len(output) < FAST.output_bytes + 200
    assert output.startswith("x" * 1000)
    assert "output truncated" in output


def test_output_is_capped_per_match(sandbox):
    limits = dataclasses.replace(FAST, output_bytes=4096)
    player = sandbox("chatty.py", limits=limits)
    player.start({})
    for _ in range(10):
        player.act({})
    player.close()
    output = player.output()
    assert output.startswith("y" * 4096)
    assert "[output truncated: " in output
    assert len(output) < 4096 + 100


def test_the_step_where_output_reaches_the_cap_says_so_once(sandbox):
    limits = dataclasses.replace(FAST, output_bytes=25 * 1024)
    player = sandbox("chatty.py", limits=limits)
    player.start({})
    steps = []
    for _ in range(5):
        player.act({})
        steps.append(player.take_output())
    player.close()

    assert [len(step) for step in steps[:2]] == [10 * 1024 + 1] * 2  # each move's print
    assert steps[2].startswith("y" * (5 * 1024 - 2))
    assert steps[2].endswith("reached its 25600-byte cap for the match; the rest is dropped]\n")
    assert steps[3:] == ["", ""]


def test_output_keeps_prints_and_hooks(sandbox):
    player = sandbox("echo_bot.py")
    player.start({"seed": 7}, hooks=GAME_HOOKS)
    assert player.hooks == {"on_match_start", "on_hand_end"}
    player.notify("on_hand_end", {"hand": 1})
    player.notify("on_game_end", {"ignored": True})  # not defined by the bot: skipped
    assert player.act({"n": 1}) == {"echo": {"n": 1}, "moves": 1, "started": {"seed": 7}}
    assert player.output() == "hand ended {'hand': 1}\n"


def test_line_reader_and_codec():
    import os

    read_fd, write_fd = os.pipe()
    try:
        os.set_blocking(read_fd, False)
        reader = LineReader(read_fd, 1024)
        os.write(write_fd, encode({"t": "action", "action": {"x": "é\n"}})[:10])
        reader.fill()
        assert reader.pop() is None
        os.write(write_fd, encode({"t": "action", "action": {"x": "é\n"}})[10:])
        reader.fill()
        assert decode(reader.pop()) == {"t": "action", "action": {"x": "é\n"}}
        for bad in (b"[1]", b"NaN", b"\xff", b"[" * 100_000):
            with pytest.raises(ProtocolViolation):
                decode(bad)
        os.write(write_fd, b"x" * 2000)
        reader.fill()
        with pytest.raises(ProtocolViolation):
            reader.pop()
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_a_reply_with_unstorable_text_is_bad_output(sandbox):
    player = sandbox("nul_reply.py")
    player.start({})
    fault = expect_fault(player, FaultKind.BAD_OUTPUT, lambda: player.act({}))
    assert "NUL" in fault.detail
    assert "\x00" not in player.output() and "nul in output" in player.output()


def test_non_ascii_replies_pass_unchanged(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    text = "Liar's ♠ é 😀"
    assert player.act({"n": text})["echo"] == {"n": text}
