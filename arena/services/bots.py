"""Bots and their versions: creating, describing, retiring, and uploading new code.

An upload is checked by :func:`engine.botfiles.read_bot` (the same checks the local runner
makes, so authors see the same messages), stored as a new immutable version, and queued for
validation in the workers. Nothing is stored for a rejected upload.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from arena.errors import Conflict, Forbidden, InvalidInput, TooLarge
from arena.freshness import ladder_changed
from arena.models import Bot, BotVersion
from arena.services.dispatch import enqueue
from engine.botfiles import BotFileError, BotPackage, UploadLimits, read_bot

__all__ = [
    "bot_create",
    "bot_deactivate",
    "bot_file_check",
    "bot_update",
    "bot_version_upload",
    "sandbox_importable",
]

#: Whoever asks: the owner is checked (:func:`_require_owner`), so anyone may.
AnyUser = AbstractBaseUser | AnonymousUser
_filename_length = BotVersion._meta.get_field("filename").max_length
assert _filename_length is not None  # a CharField: Django requires its length
_FILENAME_MAX: int = _filename_length


def bot_create(*, owner: User, name: str, game: str, description: str = "") -> Bot:
    """A new bot of ``owner``; it joins the ladder once a version validates."""
    if Bot.objects.filter(owner=owner, name=name).exists():
        raise Conflict(f"You already have a bot named {name!r}.", code="name_taken")
    bot = Bot(owner=owner, name=name, game=game, description=description)
    bot.full_clean(validate_constraints=False)  # checked above, with a clearer message
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:  # the same name created by a concurrent request
        raise Conflict(f"You already have a bot named {name!r}.", code="name_taken") from None
    return bot


def bot_update(*, bot: Bot, user: AnyUser, description: str) -> Bot:
    """Change the bot's description (the only thing an owner edits: code goes in versions)."""
    _require_owner(bot, user)
    bot.description = description
    bot.full_clean(validate_constraints=False)
    bot.save(update_fields=["description"])
    return bot


def bot_deactivate(*, bot: Bot, user: AnyUser) -> Bot:
    """Take the bot off the ladder for good; its matches and versions stay. Idempotent."""
    _require_owner(bot, user)
    if bot.is_active:
        bot.is_active = False
        bot.save(update_fields=["is_active"])
        transaction.on_commit(lambda: ladder_changed(bot.game))
    return bot


def bot_version_upload(*, bot: Bot, user: AnyUser, upload: File) -> BotVersion:
    """Store ``upload`` as the bot's next version and queue its validation.

    Raises TooLarge (413) or InvalidInput (400, with the BotFileError code) for a file the
    arena cannot accept, Conflict (409) when it is byte-identical to the latest version or
    when the bot was deactivated (a deactivated bot has left the arena for good).
    """
    _require_owner(bot, user)
    if not bot.is_active:
        raise Conflict(
            f"{bot.name} is deactivated: create a new bot to upload again.", code="bot_inactive"
        )
    data = _read_capped(upload, settings.ARENA_UPLOAD_MAX_BYTES)
    package = bot_file_check(filename=upload.name or "", data=data)
    digest = hashlib.sha256(data).hexdigest()
    with transaction.atomic():
        # Locking the bot row numbers concurrent uploads of one bot one after the other.
        Bot.objects.select_for_update().only("pk").get(pk=bot.pk)
        latest = bot.versions.order_by("-number").values("number", "sha256").first()
        if latest and latest["sha256"] == digest:
            raise Conflict(
                f"This file is identical to version {latest['number']}.", code="duplicate_version"
            )
        number = latest["number"] + 1 if latest else 1
        version = _store(bot, package.filename, data, digest, number)
        enqueue("validate_version", version.pk)
    return version


def bot_file_check(*, filename: str, data: bytes) -> BotPackage:
    """The upload check (:func:`engine.botfiles.read_bot` with the arena's limits): the
    bot's files, or TooLarge (413) / InvalidInput (400 with the check's code, and the
    ``line`` where the check names one). Uploads and the playground's drafts both pass here.
    """
    limits = UploadLimits(max_bytes=settings.ARENA_UPLOAD_MAX_BYTES)
    try:
        return read_bot(filename, data, limits, importable=sandbox_importable())
    except BotFileError as exc:
        error = TooLarge if exc.code == "too_large" else InvalidInput
        extra = {"line": exc.line} if exc.line else None
        raise error(exc.message, code=exc.code, extra=extra) from None


def sandbox_importable() -> frozenset[str]:
    """Top-level modules the operator made importable in the sandbox
    (``ARENA_SANDBOX_EXTRA_PYTHON_PATHS``): bots may import them besides the standard library.
    """
    from sandbox import SandboxConfig

    try:
        paths = SandboxConfig.from_env().extra_python_paths
    except ValueError:
        return frozenset()  # a bad setting is reported where the sandbox starts
    names: set[str] = set()
    for folder in paths:
        try:
            entries = list(Path(folder).iterdir())
        except OSError:
            continue
        names.update(entry.name.split(".")[0] for entry in entries if entry.name[:1] != "_")
    return frozenset(names)


def _require_owner(bot: Bot, user: AnyUser) -> None:
    if not user.is_authenticated or bot.owner_id != user.pk:
        raise Forbidden("Only the bot's owner may do this.")


def _read_capped(upload: File, limit: int) -> bytes:
    """At most ``limit + 1`` bytes: enough for read_bot to see an oversize file.

    A file whose declared size is over the limit is refused before any of it is read, so a
    huge upload costs no memory (read_bot words the same message from the bytes).
    """
    if upload.size is not None and upload.size > limit:
        name = PurePosixPath((upload.name or "upload").replace("\\", "/")).name
        raise TooLarge(f"{name}: {upload.size:,} bytes is over the {limit:,}-byte limit")
    upload.seek(0)
    return upload.read(limit + 1)


def _store(bot: Bot, filename: str, data: bytes, digest: str, number: int) -> BotVersion:
    path = PurePosixPath(filename)
    kind = BotVersion.Kind.ZIP if path.suffix.lower() == ".zip" else BotVersion.Kind.PY
    if len(filename) > _FILENAME_MAX:
        filename = path.stem[: _FILENAME_MAX - len(path.suffix)] + path.suffix
    version = BotVersion(
        bot=bot, number=number, filename=filename, kind=kind, sha256=digest, size=len(data)
    )
    version.file.save(filename, ContentFile(data), save=False)
    try:
        with transaction.atomic():
            version.save()
    except IntegrityError:
        # Another upload took this number (SQLite ignores the row lock): keep no file.
        version.file.delete(save=False)
        raise Conflict("Another upload of this bot is in progress; try again.") from None
    return version
