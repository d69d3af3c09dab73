"""Who sees what on the pages, CSRF on every form, and 404s (Django's test client).

The fixed cast: ``owner`` (alice) owns the first seat's bot, ``other_user`` (bob) the
second's, a stranger owns nothing, staff owns nothing (and reads every seat's match log, as
the owners' helpers); anonymous visitors too. Every private string below is unique, so
finding it anywhere in a page is a leak.
"""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Bot, BotVersion
from tests.arena.factories import BotVersionFactory, TournamentFactory
from tests.arena.web.data import bot_make, match_record, user_make

VALIDATION_SECRET = "VALIDATION-LOG-SECRET-7f3a"
OUTPUT_SECRET = "ERROR-OUTPUT-SECRET-91bc"
FILENAME_SECRET = "secret-strategy-name.py"
LOG_A = "SEAT-A-PRINTED-SECRET-1d2e"
LOG_B = "SEAT-B-PRINTED-SECRET-5c6d"
TRACE_B = "SEAT-B-TRACEBACK-SECRET-0aa1"
SECRETS_A = (VALIDATION_SECRET, OUTPUT_SECRET, FILENAME_SECRET, LOG_A)
SECRETS_B = (LOG_B, TRACE_B)


@pytest.fixture
def world(owner, other_user):
    bot_a = bot_make(owner, name="alpha")
    BotVersionFactory(
        bot=bot_a,
        filename=FILENAME_SECRET,
        status=BotVersion.Status.INVALID,
        validation_log=f"invalid: crash at import: {VALIDATION_SECRET}",
        error_output=f"Traceback...\n{OUTPUT_SECRET}",
        activate=False,
    )
    bot_b = bot_make(other_user, name="beta")
    match = match_record(bot_a, bot_b, seed=5, logs=[(LOG_A, ""), (LOG_B, TRACE_B)])
    return {"a": bot_a, "b": bot_b, "match": match}


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _private_pages(world) -> list[str]:
    bot = world["a"]
    return [f"/bots/{bot.pk}/", f"/bots/{bot.pk}/versions/2/", f"/matches/{world['match'].pk}/"]


def _everything(client: Client, paths: list[str]) -> str:
    pages = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        pages.append(response.content.decode())
    return "\n".join(pages)


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_private_output_never_reaches_anyone_but_the_owner(world, who) -> None:
    user = {"anonymous": None, "stranger": user_make("carol")}[who]
    html = _everything(_client(user), _private_pages(world))
    for secret in SECRETS_A + SECRETS_B:
        assert secret not in html, (who, secret)


def test_staff_read_every_seats_match_log_but_no_bots_files(world, staff) -> None:
    html = _everything(_client(staff), _private_pages(world))
    for secret in (LOG_A, LOG_B, TRACE_B):
        assert secret in html, secret
    for secret in (VALIDATION_SECRET, OUTPUT_SECRET, FILENAME_SECRET):
        assert secret not in html, secret


def test_at_a_table_of_three_each_owner_reads_only_their_seats_log(db) -> None:
    owners = [user_make(f"owner{n}") for n in range(3)]
    bots = [bot_make(user, name=f"card{n}", game="highcard") for n, user in enumerate(owners)]
    secrets = [f"SEAT-{n}-SECRET-{n}f{n}" for n in range(3)]
    match = match_record(*bots, seed=2, logs=[(secret, "") for secret in secrets])
    for n, user in enumerate(owners):
        page = _client(user).get(f"/matches/{match.pk}/").content.decode()
        assert [secret in page for secret in secrets] == [seat == n for seat in range(3)]


def test_the_owner_sees_their_logs_and_output_and_only_theirs(world, owner, other_user) -> None:
    html = _everything(_client(owner), _private_pages(world))
    for secret in SECRETS_A:
        assert secret in html, secret
    for secret in SECRETS_B:
        assert secret not in html, secret

    match_page = _client(other_user).get(f"/matches/{world['match'].pk}/").content.decode()
    assert LOG_B in match_page
    assert TRACE_B in match_page
    assert LOG_A not in match_page


def test_it_serves_the_source_to_the_owner_only(world, owner, other_user) -> None:
    url = f"/bots/{world['a'].pk}/versions/1/source/"
    response = _client(owner).get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert b"def act" in response.content
    assert _client(other_user).get(url).status_code == 403
    anonymous = _client().get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")


def test_the_version_status_json_is_public_and_holds_no_logs(world) -> None:
    response = _client().get(f"/bots/{world['a'].pk}/versions/2/status/")
    assert response.status_code == 200
    assert response.json() == {
        "number": 2,
        "status": "invalid",
        "done": True,
        "validated_at": None,
    }


def test_only_the_owner_may_edit_deactivate_or_upload(world, other_user) -> None:
    bot = world["a"]
    client = _client(other_user)
    assert client.post(f"/bots/{bot.pk}/edit/", {"description": "pwned"}).status_code == 403
    assert client.post(f"/bots/{bot.pk}/deactivate/").status_code == 403
    assert client.get(f"/bots/{bot.pk}/upload/").status_code == 403
    assert client.post(f"/bots/{bot.pk}/upload/", {}).status_code == 403
    bot.refresh_from_db()
    assert bot.description != "pwned"
    assert bot.is_active
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "description-form" not in page
    assert "deactivate-form" not in page


def test_the_owner_edits_the_description_and_deactivates(world, owner) -> None:
    bot = world["a"]
    client = _client(owner)
    response = client.post(f"/bots/{bot.pk}/edit/", {"description": "Now with more bluff."})
    assert response.status_code == 302
    response = client.post(f"/bots/{bot.pk}/deactivate/", follow=True)
    assert "has left the ladder" in response.content.decode()
    bot.refresh_from_db()
    assert (bot.description, bot.is_active) == ("Now with more bluff.", False)


def test_anonymous_visitors_are_sent_to_log_in_for_private_pages(world) -> None:
    for path in ("/bots/new/", f"/bots/{world['a'].pk}/upload/", "/accounts/token/"):
        response = _client().get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/accounts/login/?next="), path


# --- CSRF ------------------------------------------------------------------------------------


def test_every_form_needs_its_csrf_token(world, owner) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    bot = world["a"]
    for path in (
        "/bots/new/",
        f"/bots/{bot.pk}/upload/",
        f"/bots/{bot.pk}/edit/",
        f"/bots/{bot.pk}/deactivate/",
        "/accounts/token/",
        "/accounts/logout/",
    ):
        assert client.post(path, {"description": "x"}).status_code == 403, path
    bot.refresh_from_db()
    assert bot.is_active and bot.description != "x"

    anonymous = Client(enforce_csrf_checks=True)
    for path in ("/accounts/login/", "/accounts/signup/"):
        assert anonymous.post(path, {"username": "x"}).status_code == 403, path


def test_forms_carry_the_token_and_a_post_with_it_succeeds(world, owner) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    bot = world["a"]
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert page.count('name="csrfmiddlewaretoken"') >= 3  # edit, deactivate, log out
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/bots/{bot.pk}/edit/", {"description": "ok", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302


def test_log_out_is_a_post(owner) -> None:
    client = _client(owner)
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


# --- 404s ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/bots/999999/",
        "/bots/999999/upload/",
        "/bots/{a}/versions/99/",
        "/bots/{a}/versions/99/status/",
        "/matches/999999/",
        "/tournaments/999999/",
        "/ladder/no-such-game/",
        "/games/no-such-game/",
        "/games/no-such-game/rules/",
        "/docs/no-such-doc/",
        "/docs/..%2Fsettings/",
        "/no/such/page/",
    ],
)
def test_it_answers_404_for_what_does_not_exist(world, owner, path) -> None:
    response = _client(owner).get(path.format(a=world["a"].pk))
    assert response.status_code == 404
    if not path.endswith("status/"):
        assert "Not found" in response.content.decode()


# --- escaping --------------------------------------------------------------------------------


def test_user_text_is_escaped_everywhere(owner) -> None:
    payload = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    bot = bot_make(owner, name="xss-bot", description=payload)
    tournament = TournamentFactory(name=payload)
    for path in (f"/bots/{bot.pk}/", f"/tournaments/{tournament.pk}/", "/tournaments/"):
        html = _client().get(path).content.decode()
        assert "<script>alert" not in html, path
        assert "<img src=x" not in html, path
        assert "&lt;script&gt;" in html, path


def test_a_new_bot_with_a_rejected_file_leaves_nothing_behind(owner, media_root) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = _client(owner)
    response = client.post(
        "/bots/new/",
        {
            "name": "broken",
            "game": "lie21",
            "file": SimpleUploadedFile("bot.py", b"def act(:\n"),
        },
    )
    assert response.status_code == 200
    assert "syntax error" in response.content.decode()
    assert not Bot.objects.filter(name="broken").exists()
    assert not [path for path in media_root.rglob("*") if path.is_file()]
