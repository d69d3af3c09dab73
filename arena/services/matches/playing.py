"""Playing a claimed match in the sandbox: the bots' files, the engine, the result.

``match_play`` is the whole life of one delivery of the ``play_match`` task: claim
(``claiming``), play (here), record (``recording``). A bot's fault is a result (the engine
turns it into a placing). Anything else that stops a match is the platform's fault: the
claim is released and :class:`PlatformError` asks the task to retry with backoff; the third
failed attempt marks the match ``failed``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

import engine
from arena.models import BotVersion, Match, MatchSeat
from arena.services.matches.claiming import (
    PlatformError,
    claim_retrying,
    heartbeat,
    retrying,
)
from arena.services.matches.recording import (
    attempt_failed,
    not_claimed,
    played_result,
    record_kept,
    record_or_keep,
)
from arena.services.matches.scheduling import match_engine_kwargs, match_limits_of
from arena.services.unrecorded import unrecorded_take

if TYPE_CHECKING:
    from sandbox import Limits, SandboxConfig

__all__ = [
    "WORKDIR_PREFIX",
    "WORKDIR_PREFIXES",
    "match_play",
    "play",
    "sandbox_config",
    "version_bytes",
    "version_cache_clear",
    "version_materialize",
]

log = logging.getLogger("arena.services.matches")

#: Bot files of a match in play (or a version in validation) are copied under a temporary
#: directory named like this.
WORKDIR_PREFIX = "arena-match-"
WORKDIR_PREFIXES = (WORKDIR_PREFIX, "arena-version-")


def sandbox_config() -> SandboxConfig:
    """This host's sandbox settings, checked: a host that cannot sandbox is a platform error
    (the task is retried, maybe on another worker), never the bot's fault."""
    from sandbox import SandboxConfig, SandboxError, check_available

    try:
        config = SandboxConfig.from_env()
        if "ARENA_SANDBOX_SPIN_US" not in os.environ:
            # A worker runs a match per core: a host spinning for replies would take CPU
            # from the bots of the other matches.
            config = dataclasses.replace(config, spin_us=0)
        check_available(config)
    except SandboxError as exc:
        raise PlatformError(f"sandbox unavailable: {exc}") from None
    return config


#: Bytes of checked version files a process keeps in memory (see :func:`version_bytes`).
VERSION_CACHE_BYTES = 64 * 1024 * 1024
_version_cache: OrderedDict[tuple[int, str], bytes] = OrderedDict()


def version_bytes(version: BotVersion) -> bytes:
    """The stored file of a version, checked against its sha256.

    A file that changed in storage is a platform problem, not something to run.

    A version's file never changes, and a tournament plays the same few versions hundreds of
    times: each process keeps the files it has read and checked (the most recently used,
    up to :data:`VERSION_CACHE_BYTES`), so a worker fetches a version from storage (an
    object-store GET in production) once, not once per seat and match. What it runs is
    still the checked bytes; the sandbox stages a fresh private copy for every run.
    """
    key = (version.pk, version.sha256)
    data = _version_cache.get(key)
    if data is not None:
        _version_cache.move_to_end(key)
        return data
    try:
        with version.file.open("rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise PlatformError(f"cannot read the file of version {version.pk}: {exc}") from None
    if hashlib.sha256(data).hexdigest() != version.sha256:
        raise PlatformError(f"the stored file of version {version.pk} does not match its sha256")
    _version_cache[key] = data
    while sum(map(len, _version_cache.values())) > VERSION_CACHE_BYTES:
        _version_cache.popitem(last=False)
    return data


def version_cache_clear() -> None:
    """Forget every version file this process has kept (tests that change stored files)."""
    _version_cache.clear()


def version_materialize(version: BotVersion, directory: Path) -> Path:
    """Write a stored version's files into ``directory``; returns the directory."""
    data = version_bytes(version)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if version.kind == BotVersion.Kind.PY:
        # Checked at upload and validation; the checksum says it is the same file.
        (directory / "bot.py").write_bytes(data)
        return directory
    try:
        # The same unpacking the upload check ran, so an accepted zip always unpacks.
        engine.unpack_bot(version.filename or "bot.zip", data, directory)
    except engine.BotFileError as exc:
        raise PlatformError(f"version {version.pk} cannot be unpacked: {exc}") from None
    return directory


def seat_info(version: BotVersion) -> dict[str, Any]:
    """What a replay records of who sat in a seat."""
    return {
        "bot_id": version.bot_id,
        "owner": version.bot.owner.username,
        "version": version.number,
        "version_id": version.pk,
    }


def play(match: Match, limits: Limits | None = None) -> tuple[engine.MatchResult, list[str]]:
    """Play the match in the sandbox; the result and each seat's captured output.

    ``limits`` default to the match's own (its tournament's, where it set any).
    """
    from sandbox import SandboxedPlayer

    limits = limits or match_limits_of(match)
    config = sandbox_config()
    versions = [seat.version for seat in match.seats.all()]
    with tempfile.TemporaryDirectory(prefix=f"{WORKDIR_PREFIX}{match.pk}-") as tmp:
        players = [
            SandboxedPlayer(
                str(version.bot),
                version_materialize(version, Path(tmp) / f"seat{seat}"),
                limits=limits,
                config=config,
            )
            for seat, version in enumerate(versions)
        ]
        try:
            result = engine.play_match(
                match.game,
                players,
                **match_engine_kwargs(match.seed, len(players), match.options, limits),
                seat_info=[seat_info(version) for version in versions],
                collect_logs=True,
            )
            outputs = [player.output() for player in players]
        finally:
            for player in players:
                player.close()  # play_match closes them too; close() is idempotent
    return result, outputs


def match_play(*, match_id: int, worker: str) -> Match | None:
    """Claim, play and record one match; None when there was nothing to do.

    Raises :class:`MatchBusy` when a living attempt holds the match (ask again later) and
    :class:`PlatformError` when this attempt failed for a platform reason and the match went
    back to the queue (retry with backoff). A match that exhausted its attempts is returned
    with status ``failed``.
    """
    # Read first, claim second: the read needs no lock, so the claim's write is short.
    match = Match.objects.select_related("tournament").filter(pk=match_id).first()
    if match is None:
        return None
    kept = unrecorded_take(match_id)
    if kept is not None:  # played here before, but the database was away too long
        recorded = record_kept(match, *kept)
        if recorded is not None:
            return recorded
        match.refresh_from_db()
    # What the match needs from the database is read before the claim, each read retried on
    # a lost connection: a connection dropped after the claim would cost an attempt.
    match = retrying(lambda: _with_seats(match), match_id, what="read")
    limits = retrying(lambda: match_limits_of(match), match_id, what="read")
    token = claim_retrying(match_id, worker, attempts=match.attempts)
    if token is None:
        return not_claimed(match_id)
    # What the claim wrote, mirrored on our copy (the claim required it to be unchanged).
    match.status, match.claim_token, match.claimed_by = Match.Status.RUNNING, token, worker[:64]
    match.attempts += 1
    match.started_at = timezone.now()
    # The heartbeat runs until the result is recorded: a recording that waits for the
    # database to come back keeps its claim, so nobody plays the match again meanwhile.
    with heartbeat(match_id, token):
        try:
            if not match.seats.all():
                raise PlatformError(f"match {match.pk} has no seats")
            result, outputs = play(match, limits)
        except Exception as exc:  # whatever it was, it was not a bot's fault
            reason = str(exc) if isinstance(exc, PlatformError) else f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, PlatformError):
                log.exception(
                    "match=%s attempt=%s failed on the platform", match_id, match.attempts
                )
            return retrying(lambda: attempt_failed(match, token, reason[:1000]), match_id)
        return record_or_keep(match, token, played_result(result, outputs))


def _with_seats(match: Match) -> Match:
    """The match with its seats, versions, bots and owners loaded (one query more)."""
    seats = MatchSeat.objects.select_related("version__bot__owner").order_by("seat")
    prefetch_related_objects([match], Prefetch("seats", queryset=seats))
    return match
