"""Uploading bot versions: every rejection is clear, and stores nothing."""

from __future__ import annotations

import io
import stat
import warnings
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import BotVersion
from tests.arena.factories import BOT_SOURCE, BotFactory, BotVersionFactory
from tests.arena.helpers import assert_error, stored_files

GOOD = b"def act(observation):\n    return observation['legal_actions'][0]\n"


def make_zip(entries: dict[str, bytes], *, symlinks: tuple[str, ...] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name)
            if name in symlinks:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def upload(client, bot, filename: str, data: bytes):
    file = SimpleUploadedFile(filename, data, content_type="application/octet-stream")
    return client.post(f"/api/bots/{bot.pk}/versions/", {"file": file}, format="multipart")


@pytest.fixture
def bot(owner):
    return BotFactory(owner=owner, name="mybot")


@pytest.fixture
def enqueued(monkeypatch) -> list[tuple]:
    """The tasks the upload service queued (not run: validation is the workers' job)."""
    calls: list[tuple] = []
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: calls.append(args))
    return calls


def test_it_stores_a_py_upload_as_version_1_and_queues_its_validation(
    owner_client, bot, media_root, enqueued
):
    response = upload(owner_client, bot, "my_bot.py", GOOD)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1
    assert body["status"] == "pending"
    assert body["kind"] == "py"
    assert body["filename"] == "my_bot.py"
    assert body["size"] == len(GOOD)
    version = BotVersion.objects.get(bot=bot)
    assert version.file.read() == GOOD
    assert [path.name for path in stored_files(media_root)] == [f"{version.sha256}.py"]
    assert enqueued == [("validate_version", version.pk)]


def test_it_stores_a_zip_with_bot_py_at_its_root(owner_client, bot, media_root, enqueued):
    data = make_zip({"bot.py": b"from helper import act\n", "helper.py": GOOD})

    response = upload(owner_client, bot, "package.zip", data)

    assert response.status_code == 201, response.json()
    assert response.json()["kind"] == "zip"
    assert BotVersion.objects.get(bot=bot).file.read() == data


def test_it_numbers_a_second_different_upload_2(owner_client, bot, enqueued):
    upload(owner_client, bot, "bot.py", GOOD)

    response = upload(owner_client, bot, "bot.py", GOOD + b"# better\n")

    assert response.status_code == 201
    assert response.json()["number"] == 2
    assert list(bot.versions.values_list("number", flat=True)) == [2, 1]


def test_it_refuses_the_same_file_as_the_latest_version(owner_client, bot, media_root, enqueued):
    upload(owner_client, bot, "bot.py", GOOD)
    files_before = stored_files(media_root)

    response = upload(owner_client, bot, "renamed.py", GOOD)

    body = assert_error(response, 409, "duplicate_version")
    assert "version 1" in body["detail"]
    assert bot.versions.count() == 1
    assert stored_files(media_root) == files_before
    assert len(enqueued) == 1


def test_it_accepts_going_back_to_an_older_version_s_content(owner_client, bot, enqueued):
    upload(owner_client, bot, "bot.py", GOOD)
    upload(owner_client, bot, "bot.py", GOOD + b"# experiment\n")

    response = upload(owner_client, bot, "bot.py", GOOD)  # same as v1, not the latest

    assert response.status_code == 201
    assert response.json()["number"] == 3


def test_it_continues_the_numbering_after_factory_versions(owner_client, bot, enqueued):
    BotVersionFactory(bot=bot, source=BOT_SOURCE + b"# v1\n")

    response = upload(owner_client, bot, "bot.py", GOOD + b"# v2\n")

    assert response.json()["number"] == 2


def raw_zip(entries: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip with its entries exactly as listed: duplicates and odd names included."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for name, data in entries:
                archive.writestr(zipfile.ZipInfo(name), data, method)
    return buffer.getvalue()


def corrupt_deflate() -> bytes:
    """bot.py's deflate stream starts with a reserved block type (zlib.error when read)."""
    data = bytearray(raw_zip([("bot.py", GOOD * 20)]))
    start = 30 + len("bot.py")
    data[start : start + 12] = b"\xff" * 12
    return bytes(data)


ZIP_BOMB = make_zip({"bot.py": GOOD, "padding.txt": b"\0" * (10 * 1024 * 1024 + 1)})
MANY_FILES = make_zip({"bot.py": GOOD, **{f"f{n}.txt": b"x" for n in range(200)}})

REJECTIONS = [
    # (case, filename, data, status, code, words the message must contain)
    ("other type", "bot.txt", GOOD, 400, "bad_type", [".py file or a .zip"]),
    ("no extension", "bot", GOOD, 400, "bad_type", [".zip"]),
    ("not a zip", "bot.zip", b"PK\x03\x04 broken", 400, "bad_zip", ["not a readable zip"]),
    (
        "zip path up",
        "bot.zip",
        make_zip({"bot.py": GOOD, "../evil.py": GOOD}),
        400,
        "unsafe_path",
        ["../evil.py", "outside"],
    ),
    (
        "zip absolute path",
        "bot.zip",
        make_zip({"bot.py": GOOD, "/etc/evil.py": GOOD}),
        400,
        "unsafe_path",
        ["/etc/evil.py"],
    ),
    (
        "zip symlink",
        "bot.zip",
        make_zip({"bot.py": GOOD, "link": b"/etc/passwd"}, symlinks=("link",)),
        400,
        "symlink",
        ["'link'", "symbolic link"],
    ),
    ("too many files", "bot.zip", MANY_FILES, 400, "too_many_files", ["201 entries"]),
    ("zip bomb", "bot.zip", ZIP_BOMB, 400, "zip_bomb", ["10,485,760 bytes"]),
    (
        "zip file and folder of one name",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("m", b"x"), ("m/x.py", b"")]),
        400,
        "path_conflict",
        ["'m' is both a file and a folder"],
    ),
    (
        "zip duplicate entry",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("lib.py", b""), ("lib.py", b"")]),
        400,
        "duplicate_name",
        ["'lib.py'"],
    ),
    (
        "zip names differing in case",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("Util.py", b""), ("util.py", b"")]),
        400,
        "duplicate_name",
        ["same file"],
    ),
    (
        "zip 300-character name",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("n" * 300 + ".py", b"")]),
        400,
        "name_too_long",
        ["over 255 bytes"],
    ),
    (
        "zip deep nesting",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("d/" * 40 + "x.py", b"")]),
        400,
        "path_too_long",
        ["deeper than 16 folders"],
    ),
    (
        "zip control character in a name",
        "bot.zip",
        raw_zip([("bot.py", GOOD), ("a\x1bb.py", b"")]),
        400,
        "bad_name",
        ["control character"],
    ),
    ("zip corrupt deflate stream", "bot.zip", corrupt_deflate(), 400, "bad_zip", ["bot.py"]),
    (
        "source too deep to compile",
        "bot.py",
        GOOD + b"x = " + b"-" * 200_000 + b"1\n",
        400,
        "too_complex",
        ["too large or too deeply nested"],
    ),
    (
        "source too long to compile",
        "bot.py",
        GOOD + b"x = " + b"1+" * 300_000 + b"1\n",
        400,
        "too_complex",
        ["too large or too deeply nested"],
    ),
    (
        "zip without bot.py",
        "bot.zip",
        make_zip({"src/bot.py": GOOD}),
        400,
        "no_bot_py",
        ["no bot.py at its root", "src/bot.py"],
    ),
    ("non-UTF-8", "bot.py", b"def act(o):\n    return '\xff'\n", 400, "not_utf8", ["UTF-8"]),
    (
        "syntax error",
        "bot.py",
        b"def act(o):\n    return o\n\ndef broken(:\n",
        400,
        "syntax_error",
        ["line 4"],
    ),
    (
        "syntax error in a zip",
        "bot.zip",
        make_zip({"bot.py": GOOD, "lib/helper.py": b"x = (\n"}),
        400,
        "syntax_error",
        ["lib/helper.py", "line 1"],
    ),
    (
        "import of a module bots cannot have",
        "bot.py",
        b"import json\nimport pandas as pd\n\ndef act(o):\n    return {}\n",
        400,
        "forbidden_import",
        ["line 2", "import pandas", "standard library"],
    ),
    (
        "forbidden import in a zip",
        "bot.zip",
        make_zip({"bot.py": b"import helper\n" + GOOD, "helper.py": b"import requests\n"}),
        400,
        "forbidden_import",
        ["helper.py", "line 1", "import requests"],
    ),
    ("no act()", "bot.py", b"def play(o):\n    return 0\n", 400, "no_entry_point", ["act("]),
    ("empty file", "bot.py", b"", 400, "no_entry_point", ["act("]),
    ("oversize", "bot.py", b"#" * (1024 * 1024 + 1), 413, "too_large", ["1,048,577 bytes"]),
]


@pytest.mark.parametrize(
    ("filename", "data", "status", "code", "words"),
    [case[1:] for case in REJECTIONS],
    ids=[case[0] for case in REJECTIONS],
)
def test_it_rejects_a_bad_upload_clearly_and_stores_nothing(
    owner_client, bot, media_root, enqueued, filename, data, status, code, words
):
    response = upload(owner_client, bot, filename, data)

    body = assert_error(response, status, code)
    assert body["detail"].startswith(filename)  # names the file...
    for word in words:  # ...and the problem
        assert word in body["detail"], body["detail"]
    assert not BotVersion.objects.exists()
    assert stored_files(media_root) == []
    assert enqueued == []


def test_it_uses_the_configured_size_limit(owner_client, bot, settings, media_root):
    settings.ARENA_UPLOAD_MAX_BYTES = 50

    response = upload(owner_client, bot, "bot.py", GOOD)

    body = assert_error(response, 413, "too_large")
    assert "50-byte limit" in body["detail"]
    assert stored_files(media_root) == []


def test_it_needs_a_file(owner_client, bot):
    response = owner_client.post(f"/api/bots/{bot.pk}/versions/", {}, format="multipart")

    body = assert_error(response, 400, "required")
    assert body["fields"] == {"file": ["No file was submitted."]}


def test_it_takes_one_file_per_upload(owner_client, bot, media_root, enqueued):
    files = [SimpleUploadedFile(name, GOOD) for name in ("a.py", "b.py")]

    response = owner_client.post(
        f"/api/bots/{bot.pk}/versions/", {"file": files}, format="multipart"
    )

    body = assert_error(response, 400, "one_file")
    assert "put several files in a .zip" in body["detail"]
    assert not BotVersion.objects.exists()
    assert stored_files(media_root) == []
    assert enqueued == []


def test_it_wants_multipart(owner_client, bot):
    response = owner_client.post(f"/api/bots/{bot.pk}/versions/", {"file": "x"}, format="json")

    assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("client_name", ["other_client", "staff_client"])
def test_it_lets_only_the_owner_upload(request, bot, media_root, client_name):
    response = upload(request.getfixturevalue(client_name), bot, "bot.py", GOOD)

    assert_error(response, 403, "permission_denied")
    assert not BotVersion.objects.exists()
    assert stored_files(media_root) == []


def test_it_wants_authentication_to_upload(anon_client, bot):
    response = upload(anon_client, bot, "bot.py", GOOD)

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_it_answers_404_for_a_missing_bot(owner_client):
    response = owner_client.post(
        "/api/bots/999999/versions/",
        {"file": SimpleUploadedFile("bot.py", GOOD)},
        format="multipart",
    )

    assert_error(response, 404, "not_found")
