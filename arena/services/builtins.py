"""The built-in bots as ordinary arena bots, owned by the platform user ``arena``.

They are the platform's own files, so they are marked valid without a smoke match; in
matches they run in the sandbox like every uploaded bot. A built-in file that changed
since the last install becomes a new version, so ratings keep their history.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from arena.models import Bot, BotVersion
from arena.services.ratings import rating_activate
from engine.registry import GAMES

__all__ = ["ARENA_USERNAME", "builtin_bots_install", "builtin_name"]

ARENA_USERNAME = "arena"
TRUSTED_LOG = "valid: a built-in bot shipped with the platform (trusted; not smoke-tested)."


def _arena_user() -> User:
    user, created = get_user_model().objects.get_or_create(username=ARENA_USERNAME)
    if created:
        user.set_unusable_password()  # nobody logs in as the platform
        user.save(update_fields=["password"])
    return user


def _description(path: Path) -> str:
    """The first line of the bot file's docstring, e.g. 'random: plays a uniformly ...'."""
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip().strip('"').strip("'").strip()
        if text:
            return text[:2000]
    return ""


def builtin_name(game: str, name: str) -> str:
    """The arena name of a built-in bot: ``<game>-<bot>``, e.g. ``lie21-heuristic``."""
    return f"{game}-{name}"


def _install(owner: User, game: str, name: str, path: Path) -> Bot:
    bot_name = builtin_name(game, name)
    legacy = Bot.objects.filter(owner=owner, name=name, game=game, is_builtin=True)
    if not Bot.objects.filter(owner=owner, name=bot_name).exists():
        legacy.update(name=bot_name)  # installed before every name carried its game
    bot, _ = Bot.objects.get_or_create(
        owner=owner, name=bot_name, defaults={"game": game, "is_builtin": True}
    )
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    latest = bot.versions.order_by("-number").first()
    version = latest
    if latest is None or latest.sha256 != sha:
        version = BotVersion(
            bot=bot,
            number=latest.number + 1 if latest else 1,
            filename=path.name,
            kind=BotVersion.Kind.PY,
            sha256=sha,
            size=len(data),
            status=BotVersion.Status.VALID,
            validation_log=TRUSTED_LOG,
            validated_at=timezone.now(),
        )
        # Stored through the FileField (upload_to needs bot and sha256), like an upload.
        version.file.save(path.name, ContentFile(data), save=False)
        version.save()
    Bot.objects.filter(pk=bot.pk).update(
        game=game,
        is_builtin=True,
        is_active=True,
        active_version=version,
        description=bot.description or _description(path),
    )
    bot.refresh_from_db()
    assert bot.active_version is not None  # saved just above
    rating_activate(version=bot.active_version)
    return bot


def builtin_bots_install() -> list[Bot]:
    """Create or update a Bot (with a valid version and a rating) per built-in bot file.

    Every game's bots but its ``starter`` (a template for authors to copy, not a rival).
    """
    bots = []
    with transaction.atomic():
        owner = _arena_user()
        for game_name, game in GAMES.items():
            for name, path in sorted(game.builtin_bots().items()):
                if name != "starter":
                    bots.append(_install(owner, game_name, name, path))
    return bots
