"""How long the upload check takes, now that the compiler runs in a limited child process.

Prints exactly these lines (medians over 30 runs)::

    upload_check_py: N ms      a built-in bot's .py file (the search bot, ~20 KB)
    upload_check_zip: N ms     the same bot zipped with two helper files
    upload_check_bomb: N ms    200,000 minus signs: refused as too complex, not a crash

The check must stay small next to a web request's budget (target: < 100 ms for a normal
bot) while a compiler bomb costs the web process nothing but the wait.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from engine import builtin_bot
from engine.botfiles import BotFileError, read_bot

RUNS = 30


def _median_ms(filename: str, data: bytes) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        with contextlib.suppress(BotFileError):
            read_bot(filename, data)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    source = builtin_bot("lie21", "search").read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.py", source)
        archive.writestr("lib/helpers.py", source)
        archive.writestr("data/table.json", b"{}" * 1000)
    bomb = b"def act(o):\n    return {}\nx = " + b"-" * 200_000 + b"1\n"
    print(f"upload_check_py: {_median_ms('bot.py', source):.1f} ms")
    print(f"upload_check_zip: {_median_ms('bot.zip', buffer.getvalue()):.1f} ms")
    print(f"upload_check_bomb: {_median_ms('bot.py', bomb):.1f} ms")


if __name__ == "__main__":
    main()
