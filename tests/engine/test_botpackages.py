"""The one list of packages a bot may import, and its page for authors."""

from __future__ import annotations

import re
from pathlib import Path

from engine.botpackages import BOT_PACKAGES, requirements, summary

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_bot_api_page_lists_exactly_the_pinned_packages():
    text = (DOCS / "bot-api.md").read_text()
    section = text.split("## Packages a bot may import", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\w+) \| ([\d.]+) \| `", section, flags=re.MULTILINE)
    assert dict(rows) == BOT_PACKAGES


def test_the_pins_read_as_pip_requirements_and_as_words():
    assert requirements() == [f"{name}=={v}" for name, v in sorted(BOT_PACKAGES.items())]
    assert summary() == "the standard library and numpy " + BOT_PACKAGES["numpy"]
