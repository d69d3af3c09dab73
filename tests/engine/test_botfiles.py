"""Reading bot files: every rejection gives a code and one line naming the file."""

import io
import stat
import zipfile

import pytest

from engine.botfiles import BotFileError, UploadLimits, read_bot

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
    ],
)
def test_an_act_imported_assigned_or_defined_conditionally_counts(source):
    """The quick check errs on the bot's side; the sandbox's import has the final word."""
    assert read_bot("bot.py", source).files["bot.py"] == source


@pytest.mark.parametrize("source", [b"act = None\n", b"act = 3\n", b"act = 'play'\n"])
def test_an_act_bound_to_a_constant_is_no_entry_point(source):
    with pytest.raises(BotFileError) as caught:
        read_bot("bot.py", source)
    assert caught.value.code == "no_entry_point"
