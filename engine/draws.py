"""Random draws written out, draw for draw as the standard library makes them.

``random.Random.shuffle`` and ``randrange`` spend most of their time in Python-level calls
(one ``_randbelow`` call per index); a deal shuffles on every game, so the games share these
written-out copies. Each draws exactly what the standard library draws from the same
generator and leaves it in the same state (``tests/engine/test_draws.py`` checks both), so a
seed deals the same cards as before, and the order is tied to the Mersenne Twister alone
rather than to how a Python version happens to draw.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["below", "shuffle"]


def below(rng: random.Random, n: int) -> int:
    """A number from 0 to n - 1, as ``rng.randrange(n)`` draws it (n > 0)."""
    bits = rng.getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle in place exactly as ``rng.shuffle(items)`` does (Fisher-Yates, each index
    drawn with ``getrandbits`` and drawn again while out of range): the same order from the
    same generator at half the cost."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
