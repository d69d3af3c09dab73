"""The playground's pages without a browser (Django's test client): who may open them, what
they hold, the upload through the normal path, and the framing rules of the inline viewer."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena.models import Bot, BotVersion, PlaygroundDraft
from tests.arena.factories import PlaygroundDraftFactory, PlaygroundRunFactory
from tests.arena.web.data import VALID_BOT, bot_make

pytestmark = pytest.mark.django_db

SECRET = "DRAFT-SECRET-STRATEGY-4e1f"


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    response = _client().get("/games/lie21/play/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_page_opens_on_the_starter_or_on_the_authors_own_draft(owner, other_user) -> None:
    page = _client(other_user).get("/games/lie21/play/").content.decode()
    assert "A Lie 21 starter bot" in page and SECRET not in page
    PlaygroundDraftFactory(owner=owner, source=f"# {SECRET}\ndef act(o):\n    return {{}}\n")
    mine = _client(owner).get("/games/lie21/play/").content.decode()
    assert SECRET in mine
    assert SECRET not in _client(other_user).get("/games/lie21/play/").content.decode()
    assert 'id="rules-lie21"' in mine and "editor.bundle.js" not in mine  # imported by script
    assert "arena/playground.js" in mine


def test_an_unknown_game_is_a_404(owner) -> None:
    assert _client(owner).get("/games/chess/play/").status_code == 404


def test_a_playground_match_page_is_its_authors_alone(owner, other_user, staff) -> None:
    run = PlaygroundRunFactory(owner=owner)
    url = f"/games/lie21/play/runs/{run.pk}/matches/1/"
    page = _client(owner).get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="replay-viewer"' in text and "hello from the draft" in text
    assert 'id="replay-data"' in text and "arena/viewer/shell.js" in text
    # The reason in the words the match page uses.
    run.matches.update(reason="match_points")
    assert "(match points)." in _client(owner).get(url).content.decode()
    for stranger in (other_user, staff):
        assert _client(stranger).get(url).status_code == 404
    assert _client(owner).get(f"/games/liars/play/runs/{run.pk}/matches/1/").status_code == 404
    assert _client(owner).get(f"/games/lie21/play/runs/{run.pk}/matches/2/").status_code == 404


def test_a_playground_matchs_game_by_game_table_heads_each_seat_and_leaves_out_awarded(
    owner,
) -> None:
    run = PlaygroundRunFactory(owner=owner)
    url = f"/games/lie21/play/runs/{run.pk}/matches/1/"
    summary = _client(owner).get(url).content.decode().split('id="game-summary"', 1)[1]
    head = summary.split("</thead>", 1)[0]
    assert re.findall(r'<th scope="col" class="num">([^<]*)</th>', head) == [
        "your draft",
        "random (built-in)",
    ]
    assert "Awarded" not in head
    framed = _client(owner).get(f"{url}?embed=1").content.decode()
    assert '<details class="game-summary">' in framed  # closed in the playground's frame


def test_only_the_site_itself_may_frame_a_playground_match(owner) -> None:
    run = PlaygroundRunFactory(owner=owner)
    response = _client(owner).get(f"/games/lie21/play/runs/{run.pk}/matches/1/?embed=1")
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in response["Content-Security-Policy"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert 'class="site-header"' not in response.content.decode()  # the bare, framed page
    playground = _client(owner).get("/games/lie21/play/")
    assert "frame-ancestors 'none'" in playground["Content-Security-Policy"]
    assert playground["X-Frame-Options"] == "DENY"


def test_upload_as_new_version_goes_through_the_normal_upload(
    owner, django_capture_on_commit_callbacks
) -> None:
    client = _client(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/games/lie21/play/upload/",
            {
                "bot": "new",
                "name": "from-the-playground",
                "source": VALID_BOT.replace("\n", "\r\n"),
            },
        )
    bot = Bot.objects.get(name="from-the-playground")
    version = BotVersion.objects.get(bot=bot)
    assert response.status_code == 302 and response["Location"] == f"/bots/{bot.pk}/versions/1/"
    assert version.file.read().decode() == VALID_BOT  # the editor's line ends, not the form's
    assert version.status == "valid"  # validated (eagerly here) like every upload
    assert PlaygroundDraft.objects.get(owner=owner, game="lie21").source == VALID_BOT
    again = client.post(
        "/games/lie21/play/upload/", {"bot": str(bot.pk), "source": VALID_BOT}, follow=True
    )
    assert "identical to version 1" in again.content.decode()  # refused as any upload is
    assert BotVersion.objects.filter(bot=bot).count() == 1


def test_a_refused_upload_says_why_and_stores_no_version(owner, other_user) -> None:
    theirs = bot_make(other_user, name="not-mine")
    client = _client(owner)
    response = client.post(
        "/games/lie21/play/upload/",
        {"bot": str(theirs.pk), "source": VALID_BOT},
        follow=True,
    )
    assert "Not uploaded: Choose one of your bots" in response.content.decode()
    response = client.post(
        "/games/lie21/play/upload/",
        {"bot": "new", "name": "broken", "source": "import pandas\ndef act(o):\n    return {}\n"},
        follow=True,
    )
    assert "Not uploaded: bot.py: line 1: import pandas" in response.content.decode()
    assert not BotVersion.objects.filter(bot__owner=owner).exists()
    # Issue 33: the new bot was created before the upload was refused, and stayed.
    assert not Bot.objects.filter(name="broken").exists()
    assert PlaygroundDraft.objects.get(owner=owner, game="lie21").source.startswith("import")


def test_a_refused_upload_into_a_new_bot_leaves_no_bot(owner) -> None:
    """Issue 33: "Upload as new version" into a new bot created the bot, then the upload was
    refused (a syntax error, too large, ...), and the empty bot stayed, its name taken."""
    client = _client(owner)
    for source in ("def act(o):\n    return {\n", "x = 1\n", ""):
        response = client.post(
            "/games/lie21/play/upload/",
            {"bot": "new", "name": "never-made", "source": source},
            follow=True,
        )
        assert "Not uploaded:" in response.content.decode(), source
        assert not Bot.objects.filter(owner=owner).exists(), source
    # The name is free: the next, valid, upload takes it.
    client.post(
        "/games/lie21/play/upload/", {"bot": "new", "name": "never-made", "source": VALID_BOT}
    )
    assert Bot.objects.get(owner=owner).name == "never-made"


def test_the_game_page_links_to_its_playground(owner) -> None:
    page = _client(owner).get("/games/lie21/").content.decode()
    assert 'href="/games/lie21/play/"' in page
