"""Request bodies over the upload limit are refused, with or without a declared length, and
the refusal is a clean 413 (or 411) under every server the arena runs on.

The test client shows the middleware's decisions; the live servers show what a client gets:
Django's own server (the one ``manage.py runserver`` runs, with its WSGI checks) and gunicorn
(as deployed), each driven over a raw socket, since no HTTP client library sends a chunked
upload the way a hostile one does.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.test import Client

from arena.models import BotVersion
from arena.web.limits import request_max_bytes
from tests.arena.factories import BotFactory

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]
BOT = b"def act(observation):\n    return {}\n"


def multipart(content: bytes, boundary: str = "arenaboundary") -> tuple[bytes, str]:
    body = (
        (
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="bot.py"\r\n'
            "Content-Type: text/x-python\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def chunked(body: bytes, size: int = 16 * 1024) -> bytes:
    """``body`` in HTTP/1.1 chunked framing."""
    out = io.BytesIO()
    for start in range(0, len(body), size):
        piece = body[start : start + size]
        out.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def post_unsized(client: Client, path: str, body: bytes, content_type: str, *, terminated: bool):
    """What Django sees of a chunked request: no CONTENT_LENGTH, a Transfer-Encoding header,
    and (under gunicorn) a stream that ends with the body."""
    extra = {"HTTP_TRANSFER_ENCODING": "chunked", "CONTENT_LENGTH": ""}
    if terminated:  # a stream one may read to its end, as gunicorn's is
        extra["wsgi.input_terminated"] = True
        extra["wsgi.input"] = io.BytesIO(body)
    return client.generic("POST", path, body, content_type=content_type, **extra)


# --- the middleware's decisions (test client) -------------------------------------------


@pytest.mark.parametrize(
    ("path", "json"), [("/api/bots/1/versions/", True), ("/bots/1/upload/", False)]
)
def test_a_body_declared_over_the_limit_is_refused_without_a_hop_by_hop_header(path, json):
    response = Client().post(
        path, data=b"0123456789", content_type="application/zip", CONTENT_LENGTH=str(100 << 20)
    )
    assert response.status_code == 413
    assert "Connection" not in response  # WSGI forbids it; runserver made it a 500
    if json:
        assert response.json()["code"] == "too_large"
    else:
        assert b"over the" in response.content


def test_a_chunked_upload_over_the_limit_is_413_and_nothing_is_stored(owner):
    bot = BotFactory(owner=owner)
    client = Client()
    client.force_login(owner)
    body, content_type = multipart(b"#" * request_max_bytes())

    response = post_unsized(
        client, f"/api/bots/{bot.pk}/versions/", body, content_type, terminated=True
    )

    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "sent without a length" in response.json()["detail"]
    assert not BotVersion.objects.filter(bot=bot).exists()


def test_a_chunked_upload_within_the_limit_is_taken_like_any_other(owner):
    bot = BotFactory(owner=owner)
    client = Client()
    client.force_login(owner)
    body, content_type = multipart(BOT)

    response = post_unsized(
        client, f"/api/bots/{bot.pk}/versions/", body, content_type, terminated=True
    )

    assert response.status_code == 201, response.content
    assert BotVersion.objects.get(bot=bot).file.read() == BOT


def test_a_chunked_page_upload_over_the_limit_is_413_on_a_page(owner):
    bot = BotFactory(owner=owner)
    client = Client()
    client.force_login(owner)
    body, content_type = multipart(b"#" * request_max_bytes())

    response = post_unsized(client, f"/bots/{bot.pk}/upload/", body, content_type, terminated=True)

    assert response.status_code == 413
    assert b"over the" in response.content and b"<html" in response.content
    assert not BotVersion.objects.filter(bot=bot).exists()


def test_a_chunked_body_a_server_cannot_read_is_411_not_an_empty_form(owner):
    bot = BotFactory(owner=owner)
    client = Client()
    client.force_login(owner)
    body, content_type = multipart(BOT)

    response = post_unsized(
        client, f"/api/bots/{bot.pk}/versions/", body, content_type, terminated=False
    )

    assert response.status_code == 411
    assert response.json()["code"] == "length_required"
    assert not BotVersion.objects.filter(bot=bot).exists()


# --- over the wire -------------------------------------------------------------------------


def raw_request(port: int, head: str, body: bytes = b"", *, timeout: float = 20) -> bytes:
    """Send a request as bytes while reading the answer (a server that refuses a body stops
    reading it); the whole answer: until the server closes, or its headers and
    Content-Length bytes of body have come, or, for an answer without a Content-Length,
    until nothing more comes for a second (runserver answers a refused body at once but,
    before it closes, drains the body the request declared, which never comes here)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:

        def send() -> None:
            # A refused body may be cut off: the server closes before it has all come.
            with contextlib.suppress(OSError):
                sock.sendall(head.encode() + b"\r\n" + body)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        answer = b""
        while True:
            try:
                data = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not data:
                break
            answer += data
            headers, found, rest = answer.partition(b"\r\n\r\n")
            lengths = [
                int(line.split(b":")[1])
                for line in headers.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ]
            if found and lengths and len(rest) >= lengths[0]:
                break
            if found and not lengths:
                sock.settimeout(min(timeout, 1.0))
        sender.join(timeout)
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def head(path: str, port: int, content_type: str, extra: str, token: str = "") -> str:
    auth = f"Authorization: Token {token}\r\n" if token else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}"
        f"Content-Type: {content_type}\r\n{extra}"
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_runserver_answers_an_oversized_upload_413_not_500(live_server):
    """The 413 used to carry ``Connection: close``; wsgiref (runserver) refuses hop-by-hop
    headers from an application with an AssertionError, so the client got a 500."""
    port = int(live_server.url.rsplit(":", 1)[1])
    answer = raw_request(
        port,
        head(
            "/api/bots/1/versions/",
            port,
            "application/zip",
            f"Content-Length: {100 << 20}\r\n",
        ),
        b"0123456789",
    )
    assert status_of(answer) == 413, answer[:300]
    assert b"too_large" in answer


@pytest.mark.django_db(transaction=True)
def test_runserver_answers_a_chunked_upload_411(live_server):
    port = int(live_server.url.rsplit(":", 1)[1])
    body, content_type = multipart(BOT)
    answer = raw_request(
        port,
        head("/api/bots/1/versions/", port, content_type, "Transfer-Encoding: chunked\r\n"),
        chunked(body),
    )
    assert status_of(answer) == 411, answer[:300]
    assert b"length_required" in answer


@contextlib.contextmanager
def _server_database(env: dict[str, str]) -> Iterator[None]:
    """The gunicorn arena's own database: on the PostgreSQL server of ``DATABASE_URL`` when it
    is set (as deployed; created, then dropped), else a SQLite file in its data directory."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        yield
        return
    import psycopg

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'arena'}_gunicorn_limits"
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    try:
        yield
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """The arena under gunicorn as the hostile client met it: ``DEBUG=0``, on PostgreSQL when
    ``DATABASE_URL`` names a server (a database of its own), with alice, her bot and token."""
    data = tmp_path_factory.mktemp("gunicorn-arena")
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "DEBUG": "0",
        "SECRET_KEY": "test-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "ARENA_DATA_DIR": str(data),
        "LOG_LEVEL": "WARNING",
    }
    python = sys.executable
    with _server_database(env):
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
        made = subprocess.run(
            [
                python,
                "manage.py",
                "shell",
                "-c",
                "from django.contrib.auth.models import User;"
                "from rest_framework.authtoken.models import Token;"
                "from arena.models import Bot;"
                "u = User.objects.create_user('alice', password='alice-pass-123');"
                "b = Bot.objects.create(owner=u, name='chunky', game='lie21');"
                "print('ids:', b.pk, Token.objects.create(user=u).key)",
            ],
            cwd=REPO,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        bot_id, token = made.stdout.split("ids:")[-1].split()
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        server = subprocess.Popen(
            [
                str(Path(python).with_name("gunicorn")),
                "arena.wsgi",
                # The deployed worker class (arena/gunicorn_conf.py, whose start-up check
                # wants collected static files this API-only test does not need).
                "--worker-class=gthread",
                "--threads=2",
                "--no-control-socket",
                "-b",
                f"127.0.0.1:{port}",
            ],
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            yield {"port": port, "bot": int(bot_id), "token": token, "env": env}
        finally:
            server.terminate()
            server.wait(timeout=20)


def stored_versions(gunicorn: dict) -> int:
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from arena.models import BotVersion; print(BotVersion.objects.count())",
        ],
        cwd=REPO,
        env=gunicorn["env"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout.split()[-1])


def chunked_upload(gunicorn: dict, body: bytes, content_type: str, size: int) -> bytes:
    port, path = gunicorn["port"], f"/api/bots/{gunicorn['bot']}/versions/"
    return raw_request(
        port,
        head(path, port, content_type, "Transfer-Encoding: chunked\r\n", gunicorn["token"]),
        chunked(body, size=size),
    )


@pytest.mark.slow
def test_gunicorn_answers_a_chunked_upload_over_the_limit_413_and_stores_nothing(gunicorn):
    """It used to be a 400 "file: No file was submitted": Django read no body at all."""
    body, content_type = multipart(b"#" * (4 * request_max_bytes()))
    before = stored_versions(gunicorn)
    started = time.monotonic()
    answer = chunked_upload(gunicorn, body, content_type, size=16 * 1024)
    assert status_of(answer) == 413, answer[:300]
    assert b"too_large" in answer
    assert time.monotonic() - started < 15
    assert stored_versions(gunicorn) == before


@pytest.mark.slow
def test_gunicorn_takes_a_chunked_upload_within_the_limit(gunicorn):
    body, content_type = multipart(BOT + b"# sent in chunks\n")
    before = stored_versions(gunicorn)
    answer = chunked_upload(gunicorn, body, content_type, size=7)
    assert status_of(answer) == 201, answer[:600]
    assert stored_versions(gunicorn) == before + 1
