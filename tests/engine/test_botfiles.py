"""Reading bot files: every rejection gives a code and one line naming the file."""

import io
import stat
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.botfiles import BotFileError, UploadLimits, read_bot, unpack_bot
from engine.botpackages import BOT_PACKAGES

GOOD = b"def act(observation):\n    return {}\n"


def make_zip(entries, symlink=None):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def test_a_single_python_file_is_a_bot():
    package = read_bot("mine.py", GOOD)
    assert package.files == {"bot.py": GOOD}
    assert "def act" in package.source


def test_a_zip_with_bot_py_at_its_root_and_helpers_is_a_bot():
    data = make_zip(
        {"bot.py": b"from helper import act\n", "helper.py": GOOD, "data/x.json": b"{}"}
    )
    package = read_bot("mine.zip", data)
    assert set(package.files) == {"bot.py", "helper.py", "data/x.json"}


@pytest.mark.parametrize(
    ("filename", "data", "code", "message"),
    [
        ("bot.txt", GOOD, "bad_type", "bot.txt: a bot is a .py file or a .zip"),
        ("bot.py", b"x" * 2000, "too_large", "over the 1,000-byte limit"),
        ("bot.py", b"def act(o):\n  return {\n", "syntax_error", "syntax error on line 2"),
        ("bot.py", b"# \xff\xfe\ndef act(o): pass\n", "not_utf8", "is not UTF-8"),
        ("bot.py", b"def play(o):\n    return {}\n", "no_entry_point", "defines no top-level act"),
        ("bot.zip", b"PK not really", "bad_zip", "not a readable zip"),
        ("bot.zip", make_zip({"../bot.py": GOOD}), "unsafe_path", "points outside the zip"),
        ("bot.zip", make_zip({"/etc/bot.py": GOOD}), "unsafe_path", "points outside the zip"),
        ("bot.zip", make_zip({"bot.py": GOOD}, symlink="link"), "symlink", "symbolic link"),
        (
            "bot.zip",
            make_zip({f"f{i}.txt": b"" for i in range(6)} | {"bot.py": GOOD}),
            "too_many_files",
            "7 entries",
        ),
        ("bot.zip", make_zip({"bot.py": GOOD, "big.bin": b"\0" * 5000}), "zip_bomb", "unpacks to"),
        ("bot.zip", make_zip({"mybot/bot.py": GOOD}), "no_bot_py", "found mybot/bot.py"),
        (
            "bot.zip",
            make_zip({"bot.py": b"def act(o):\n  pass\n", "h.py": b"if\n"}),
            "syntax_error",
            "bot.zip: h.py: syntax error on line 1",
        ),
    ],
)
def test_bad_bots_are_refused_with_a_clear_reason(filename, data, code, message):
    limits = UploadLimits(
        max_bytes=1000 if code == "too_large" else 10_000, max_files=6, max_unpacked_bytes=4000
    )
    with pytest.raises(BotFileError) as caught:
        read_bot(filename, data, limits)
    assert caught.value.code == code
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "source",
    [
        b"from helpers import act\n",
        b"from helpers import *\n",
        b"import helpers as act\n",
        b"def _impl(o):\n    return {}\nact = _impl\n",
        b"class Bot:\n    def act(self, o):\n        return {}\nact = Bot().act\n",
        b"act, other = (lambda o: {}), 1\n",
        b"try:\n    import numpy\n    def act(o): return {}\n"
        b"except ImportError:\n    def act(o): return {}\n",
        b"if True:\n    def act(o):\n        return {}\n",
        b"with open(__file__):\n    act = print\n",
        b"import sys\nmatch sys.version_info[:1]:\n    case (3,):\n        def act(o):\n"
        b"            return {}\n",
    ],
)
def test_an_act_imported_assigned_or_defined_conditionally_counts(source):
    """The quick check errs on the bot's side; the sandbox's import has the final word."""
    assert read_bot("bot.py", source, importable=frozenset({"helpers"})).files["bot.py"] == source


@pytest.mark.parametrize("source", [b"act = None\n", b"act = 3\n", b"act = 'play'\n"])
def test_an_act_bound_to_a_constant_is_no_entry_point(source):
    with pytest.raises(BotFileError) as caught:
        read_bot("bot.py", source)
    assert caught.value.code == "no_entry_point"


# --- Whatever is accepted unpacks; everything else is a clear refusal ------------------------


def raw_zip(entries: list[tuple[str, bytes]], method=zipfile.ZIP_DEFLATED) -> bytes:
    """A zip with entries exactly as given (duplicates, odd names), no normalising."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            archive.writestr(info, data)
    return buffer.getvalue()


def corrupt_stream(method) -> bytes:
    """A zip whose only member's compressed stream is garbage (headers intact).

    For deflate the first byte declares a reserved block type (``zlib.error``); for LZMA the
    filter properties are invalid (``LZMAError``); bzip2 fails its magic (``OSError``).
    """
    payload = b"def act(o):\n    return {}\n" * 40
    data = bytearray(raw_zip([("bot.py", payload)], method))
    start = 30 + len("bot.py")  # the local header, then the compressed bytes
    offset = start + 4 if method == zipfile.ZIP_LZMA else start
    data[offset : offset + 12] = b"\xff" * 12
    return bytes(data)


@pytest.mark.parametrize(
    ("entries", "code", "words"),
    [
        ([("bot.py", GOOD), ("m", b"x"), ("m/x.py", b"")], "path_conflict", "'m' is both"),
        ([("bot.py", GOOD), ("m/x.py", b""), ("m", b"x")], "path_conflict", "'m' is both"),
        ([("bot.py", GOOD), ("bot.py", GOOD)], "duplicate_name", "name the same file"),
        ([("bot.py", GOOD), ("Lib.py", b""), ("lib.py", b"")], "duplicate_name", "same file"),
        ([("bot.py", GOOD), ("a//b.txt", b""), ("a/b.txt", b"")], "duplicate_name", "same file"),
        ([("bot.py", GOOD), ("x" * 300 + ".py", b"")], "name_too_long", "over 255 bytes"),
        ([("bot.py", GOOD), ("é" * 130, b"")], "name_too_long", "over 255 bytes"),
        ([("bot.py", GOOD), ("/".join(["d"] * 20) + "/f", b"")], "path_too_long", "deeper"),
        ([("bot.py", GOOD), ("/".join(["d" * 200] * 6), b"")], "path_too_long", "longer"),
        ([("bot.py", GOOD), ("a\x01b.txt", b"")], "bad_name", "control character"),
        ([("bot.py", GOOD), ("a\nb.txt", b"")], "bad_name", "control character"),
        ([("bot.py", GOOD), ("C:/x.txt", b"")], "unsafe_path", "outside the zip"),
        ([("bot.py", GOOD), ("a\\..\\..\\x.txt", b"")], "unsafe_path", "outside the zip"),
    ],
    ids=[
        "file-then-folder",
        "folder-then-file",
        "duplicate",
        "case-only",
        "double-slash",
        "long-name",
        "long-utf8-name",
        "deep",
        "long-path",
        "control-char",
        "newline",
        "drive",
        "backslash-dotdot",
    ],
)
@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_zip_names_that_could_not_be_unpacked_are_refused(entries, code, words):
    with pytest.raises(BotFileError) as caught:
        read_bot("bot.zip", raw_zip(entries))
    assert caught.value.code == code
    assert words in caught.value.message
    assert "\n" not in caught.value.message


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA, zipfile.ZIP_BZIP2])
def test_a_corrupt_compressed_stream_is_a_bad_zip(method):
    with pytest.raises(BotFileError) as caught:
        read_bot("bot.zip", corrupt_stream(method))
    assert caught.value.code == "bad_zip"


@pytest.mark.parametrize(
    "source",
    [
        b"x = " + b"-" * 200_000 + b"1\n",
        b"x = " + b"1+" * 300_000 + b"1\n",
        b"x = " + b"(" * 100_000 + b")" * 100_000 + b"\n",
        b"x = " + b"[" * 5_000 + b"]" * 5_000 + b"\n",
    ],
    ids=["minus-signs", "long-sum", "parentheses", "brackets"],
)
def test_source_the_compiler_cannot_handle_is_refused_not_a_crash(source):
    with pytest.raises(BotFileError) as caught:
        read_bot("bot.py", b"def act(o):\n    return {}\n" + source, UploadLimits(max_bytes=2**21))
    assert caught.value.code in {"too_complex", "syntax_error"}
    assert caught.value.message.startswith("bot.py: ")


def test_names_that_unpack_are_kept_under_their_clean_path(tmp_path):
    data = raw_zip([("bot.py", GOOD), ("./lib/./util.py", b"X = 1\n"), ("lib/", b"")])
    package = read_bot("bot.zip", data)
    assert set(package.files) == {"bot.py", "lib/util.py"}
    unpack_bot("bot.zip", data, tmp_path / "out")
    assert (tmp_path / "out" / "lib" / "util.py").read_bytes() == b"X = 1\n"


_name_parts = st.lists(
    st.sampled_from([*"aAbB.-_é/\\ :", "\x00", "\x7f", "x" * 120]), min_size=1, max_size=8
).map("".join)
_REFUSALS = {
    "unsafe_path",
    "bad_name",
    "name_too_long",
    "path_too_long",
    "duplicate_name",
    "path_conflict",
    "bad_zip",
}


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(_name_parts, min_size=1, max_size=5))
def test_whatever_is_accepted_unpacks(tmp_path_factory, names):
    """The property behind the upload check: accepted means unpackable, on this host."""
    data = raw_zip([("bot.py", GOOD)] + [(name, b"data") for name in names])
    try:
        read_bot("bot.zip", data)
    except BotFileError as error:
        refused = error.code
    else:
        refused = None
        unpack_bot("bot.zip", data, tmp_path_factory.mktemp("unpacked"))
    assert refused in {None, *_REFUSALS}


def test_a_byte_order_mark_is_utf8_and_python_reads_it():
    """Editors such as Notepad start a UTF-8 file with one; Python imports it as it is."""
    data = b"\xef\xbb\xbf" + GOOD
    package = read_bot("bom.py", data)
    assert package.files == {"bot.py": data}
    assert package.source.startswith("def act")


# --- imports: the standard library, the bot packages (numpy) and the bot's own files -----------


@pytest.mark.parametrize(
    ("source", "line", "name"),
    [
        (b"import pandas\ndef act(o): return {}\n", 1, "pandas"),
        (b"import json, scipy.linalg\ndef act(o): return {}\n", 1, "scipy.linalg"),
        (b"from requests import get\ndef act(o): return {}\n", 1, "requests"),
        (b"def act(o):\n    import torch\n    return {}\n", 2, "torch"),
        (b"import os\n\n\nimport engine\ndef act(o): return {}\n", 4, "engine"),
        (b"if True:\n    import django\ndef act(o): return {}\n", 2, "django"),
        (b"try:\n    pass\nfinally:\n    import yaml\ndef act(o): return {}\n", 4, "yaml"),
    ],
)
def test_an_import_bots_cannot_have_is_refused_with_its_line(source, line, name):
    with pytest.raises(BotFileError) as refused:
        read_bot("bot.py", source)
    assert refused.value.code == "forbidden_import"
    assert refused.value.line == line
    assert refused.value.message.startswith(f"bot.py: line {line}: import {name}: ")


@pytest.mark.parametrize(
    "source",
    [
        b"import json, random, collections.abc\nfrom itertools import product\n",
        b"from __future__ import annotations\nimport typing\n",
        b"try:\n    import torch\nexcept ImportError:\n    torch = None\n",
        b"try:\n    import torch\nexcept Exception:\n    pass\nelse:\n    pass\n",
        b"from . import helpers\n",  # relative: the bot's own files
        b"import approved_pkg\n",  # made importable by the operator (below)
    ],
)
def test_the_standard_library_guarded_relative_and_approved_imports_pass(source):
    data = source + b"def act(o):\n    return {}\n"
    assert read_bot("bot.py", data, importable=frozenset({"approved_pkg"})).files


@pytest.mark.parametrize(
    "source",
    [
        b"import numpy as np\n",
        b"import json, numpy.linalg\n",
        b"from numpy.random import default_rng\n",
        b"def helper():\n    import numpy\n    return numpy\n",
    ],
)
def test_the_bot_packages_are_importable_without_the_operator_naming_them(source):
    """Issue 32: numpy (engine.botpackages) passes the upload check, here and in the local
    runner alike: both read bots with read_bot, whatever the operator's extra paths."""
    data = source + b"def act(o):\n    return {}\n"
    assert read_bot("bot.py", data).files == {"bot.py": data}


def test_a_refused_import_names_the_packages_a_bot_may_import():
    """Issue 32: the message sent kit users to "the packages docs/bot-api.md lists", and a
    kit has no docs/: it names them, with their versions."""
    with pytest.raises(BotFileError) as refused:
        read_bot("mine.py", b"import pandas as pd\ndef act(o): return {}\n")
    assert str(refused.value) == (
        "mine.py: line 1: import pandas: bots may import only the Python standard library, "
        f"numpy {BOT_PACKAGES['numpy']} and their own files"
    )
    assert "docs/" not in str(refused.value)


def test_a_refusal_names_what_an_operator_made_importable_too():
    with pytest.raises(BotFileError) as refused:
        read_bot("x.py", b"import pandas\ndef act(o): return {}\n", importable=frozenset({"z3"}))
    assert str(refused.value).endswith(
        f"standard library, numpy {BOT_PACKAGES['numpy']}, z3 and their own files"
    )


def test_a_zipped_bot_imports_its_own_modules_and_packages():
    data = make_zip(
        {
            "bot.py": b"import helper\nfrom strategy.core import plan\n" + GOOD,
            "helper.py": b"import math\nimport numpy\n",
            "strategy/__init__.py": b"",
            "strategy/core.py": b"from strategy import tables\nplan = 1\n",
            "strategy/tables.py": b"",
        }
    )
    assert set(read_bot("bot.zip", data).files) >= {"bot.py", "helper.py", "strategy/core.py"}
    other = make_zip({"bot.py": GOOD, "helper.py": b"import requests\n"})
    with pytest.raises(BotFileError, match=r"^mine.zip: helper.py: line 1: import requests"):
        read_bot("mine.zip", other)


def test_a_syntax_error_carries_its_line():
    with pytest.raises(BotFileError) as refused:
        read_bot("bot.py", b"def act(o):\n    return 1\n\nx = (\n")
    assert refused.value.code == "syntax_error" and refused.value.line == 4
