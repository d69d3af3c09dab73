"""The bot services, called as the pages and the API call them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.errors import Conflict, Forbidden, InvalidInput, TooLarge
from arena.models import Bot, BotVersion
from arena.services.bots import bot_create, bot_deactivate, bot_update, bot_version_upload
from tests.arena.factories import BotFactory
from tests.arena.helpers import stored_files

SOURCE = b"def act(observation):\n    return {}\n"


def test_bot_create_validates_like_the_model(owner):
    with pytest.raises(ValidationError) as caught:
        bot_create(owner=owner, name="no spaces please", game="lie21")

    assert "name" in caught.value.message_dict
    assert not Bot.objects.exists()


def test_bot_create_refuses_a_taken_name(owner):
    bot_create(owner=owner, name="twin", game="lie21")

    with pytest.raises(Conflict) as caught:
        bot_create(owner=owner, name="twin", game="lie21")

    assert caught.value.code == "name_taken"


def test_bot_update_and_deactivate_are_the_owner_s(owner, other_user):
    bot = BotFactory(owner=owner)

    with pytest.raises(Forbidden):
        bot_update(bot=bot, user=other_user, description="mine now")
    with pytest.raises(Forbidden):
        bot_deactivate(bot=bot, user=other_user)

    assert bot_update(bot=bot, user=owner, description="ok").description == "ok"
    assert bot_deactivate(bot=bot, user=owner).is_active is False


def test_bot_version_upload_stores_the_file_under_the_bot(owner, media_root, monkeypatch):
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: None)
    bot = BotFactory(owner=owner)

    version = bot_version_upload(
        bot=bot, user=owner, upload=SimpleUploadedFile("../../etc/My Bot.py", SOURCE)
    )

    assert (version.number, version.kind, version.size) == (1, "py", len(SOURCE))
    assert version.filename == "My Bot.py"  # no directories from the client
    assert version.status == BotVersion.Status.PENDING
    (path,) = stored_files(media_root)
    assert path.relative_to(media_root).as_posix() == f"bots/{bot.pk}/{version.sha256}.py"


def test_bot_version_upload_keeps_a_long_file_name_s_suffix(owner, monkeypatch):
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: None)
    name = "b" * 300 + ".py"

    version = bot_version_upload(
        bot=BotFactory(owner=owner), user=owner, upload=SimpleUploadedFile(name, SOURCE)
    )

    assert len(version.filename) == 200
    assert version.filename.endswith(".py")


def test_bot_version_upload_maps_file_errors_to_domain_errors(owner, settings):
    bot = BotFactory(owner=owner)
    settings.ARENA_UPLOAD_MAX_BYTES = 10

    with pytest.raises(TooLarge):
        bot_version_upload(bot=bot, user=owner, upload=SimpleUploadedFile("a.py", SOURCE))
    settings.ARENA_UPLOAD_MAX_BYTES = 1000
    with pytest.raises(InvalidInput) as caught:
        bot_version_upload(bot=bot, user=owner, upload=SimpleUploadedFile("a.py", b"x = (\n"))

    assert caught.value.code == "syntax_error"


def test_bot_version_upload_trusts_the_bytes_not_the_declared_size(owner, settings):
    """A client can declare a small size; what counts is what is read."""
    settings.ARENA_UPLOAD_MAX_BYTES = 100
    upload = SimpleUploadedFile("a.py", b"#" * 500)
    upload.size = 10

    with pytest.raises(TooLarge):
        bot_version_upload(bot=BotFactory(owner=owner), user=owner, upload=upload)


@pytest.mark.django_db
def test_a_deactivated_bot_takes_no_new_version(owner):
    bot = bot_create(owner=owner, name="retired", game="lie21")
    bot_deactivate(bot=bot, user=owner)
    with pytest.raises(Conflict) as caught:
        bot_version_upload(
            bot=bot, user=owner, upload=SimpleUploadedFile("b.py", b"def act(o):\n    return {}\n")
        )
    assert caught.value.code == "bot_inactive"
    assert not BotVersion.objects.filter(bot=bot).exists()
