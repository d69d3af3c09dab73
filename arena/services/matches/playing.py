"""Playing a claimed match in the sandbox: the bots' files, the engine, the result.

``match_play`` is the whole life of one delivery of the ``play_match`` task: claim
(``claiming``), play (here), record (``recording``). A bot's fault is a result (the engine
turns it into a placing). Anything else that stops a match is the platform's fault: the
claim is released and :class:`PlatformError` asks the task to retry with backoff; the third
failed attempt marks the match ``failed``.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import logging
import os
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.utils import timezone

import engine
from arena.models import Bot, BotVersion, Match, MatchSeat, Tournament
from arena.services import sql
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
from arena.services.matches.scheduling import match_engine_kwargs, match_limits, match_limits_of
from arena.services.unrecorded import unrecorded_take

if TYPE_CHECKING:
    from sandbox import Limits, SandboxConfig

__all__ = [
    "WORKDIR_PREFIX",
    "WORKDIR_PREFIXES",
    "distinct_labels",
    "match_load",
    "match_play",
    "play",
    "sandbox_config",
    "source_name",
    "version_bytes",
    "version_cache_clear",
    "version_dirs_sweep",
    "version_files",
    "version_materialize",
]

log = logging.getLogger("arena.services.matches")

#: Bot files of a playground match (or a version in validation) are copied under a
#: temporary directory named like this (a ladder or tournament match's come from
#: :func:`version_files`).
WORKDIR_PREFIX = "arena-match-"
WORKDIR_PREFIXES = (WORKDIR_PREFIX, "arena-version-")


#: Jails a worker process keeps started for its next match (``sandbox.pool``): enough for
#: the largest table any game has, unless ``ARENA_SANDBOX_PRESTART`` says otherwise.
PRESTART_JAILS = 6


def sandbox_config() -> SandboxConfig:
    """This host's sandbox settings, checked: a host that cannot sandbox is a platform error
    (the task is retried, maybe on another worker), never the bot's fault."""
    from sandbox import SandboxConfig, SandboxError, check_available, check_packages

    try:
        config = SandboxConfig.from_env()
        if "ARENA_SANDBOX_SPIN_US" not in os.environ:
            # A worker runs a match per core: a host spinning for replies would take CPU
            # from the bots of the other matches.
            config = dataclasses.replace(config, spin_us=0)
        if "ARENA_SANDBOX_PRESTART" not in os.environ:
            # Each bot starts in a jail launched while the previous match was played.
            config = dataclasses.replace(config, prestart=PRESTART_JAILS)
        check_available(config)
        check_packages(config)  # a numpy bot must never lose for the host's missing numpy
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
    while _version_dirs:
        _, path = _version_dirs.popitem()
        shutil.rmtree(path, ignore_errors=True)


#: Versions whose files a process keeps on disk for the sandbox to copy from (most recently
#: used last); more than any table has seats, so a match never loses one it is using.
VERSION_DIRS = 64
_version_dirs: OrderedDict[tuple[int, str], Path] = OrderedDict()
_version_root: list[Path] = []  # this process's directory for them, made on first use
VERSION_DIRS_PREFIX = "arena-versions-"


def version_files(version: BotVersion) -> Path:
    """A directory with the stored version's files, written once per worker process.

    A tournament plays the same few versions hundreds of times: each is fetched, checked
    (:func:`version_bytes`) and written out (unpacked, for a zip) once, and every match
    gives the sandbox that directory, which copies it into each jail's private ``/bot``.
    The directory belongs to this process (``0700``); it goes when the process exits, or,
    if it was killed, when the next worker of the host starts.
    """
    key = (version.pk, version.sha256)
    path = _version_dirs.get(key)
    if path is not None and path.is_dir():
        _version_dirs.move_to_end(key)
        return path
    root = _version_directory()
    path = Path(tempfile.mkdtemp(prefix=f"{version.pk}-", dir=root))
    try:
        version_materialize(version, path)
    except BaseException:
        shutil.rmtree(path, ignore_errors=True)
        raise
    _version_dirs[key] = path
    while len(_version_dirs) > VERSION_DIRS:
        _, old = _version_dirs.popitem(last=False)
        shutil.rmtree(old, ignore_errors=True)
    return path


def _version_directory() -> Path:
    if _version_root and _version_root[0].name.startswith(f"{VERSION_DIRS_PREFIX}{os.getpid()}-"):
        return _version_root[0]
    _version_dirs.clear()  # a forked child: the parent's directory is the parent's
    _version_root[:] = [Path(tempfile.mkdtemp(prefix=f"{VERSION_DIRS_PREFIX}{os.getpid()}-"))]
    atexit.register(shutil.rmtree, _version_root[0], ignore_errors=True)
    return _version_root[0]


def version_dirs_sweep() -> int:
    """Remove the version directories of worker processes that no longer run (their pid is
    in the name); how many were removed. Called when a worker starts."""
    from sandbox.cgroups import pid_alive

    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{VERSION_DIRS_PREFIX}*"):
        owner = path.name[len(VERSION_DIRS_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or pid_alive(int(owner)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += 1
    return removed


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


def source_name(version: BotVersion) -> str:
    """What the author called the entry file: the uploaded ``.py`` file's name (a zip's
    entry is its ``bot.py``), so tracebacks name the file they wrote."""
    if version.kind == BotVersion.Kind.PY and version.filename:
        return Path(version.filename).name
    return "bot.py"


def distinct_labels(seats: Sequence[tuple[str, int]]) -> list[str]:
    """Names for a table's seats from ``(bot name, version number)`` pairs: the bot's name,
    with its version where two seats share a bot (a version against its own earlier one
    reads "alice v3" and "alice v1", never "alice" twice), and the seat where even that is
    shared (a built-in filler in two seats)."""
    names = [name for name, _ in seats]
    labels = [f"{name} v{number}" if names.count(name) > 1 else name for name, number in seats]
    return [
        f"{label} (seat {seat + 1})" if labels.count(label) > 1 else label
        for seat, label in enumerate(labels)
    ]


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
    names = distinct_labels([(str(version.bot), version.number) for version in versions])
    players = [
        SandboxedPlayer(
            names[seat],
            version_files(version),
            limits=limits,
            config=config,
            source_name=source_name(version),
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
    # Read first, claim second: the read needs no lock, so the claim's write is short; and
    # each read is retried on a lost connection, since one dropped after the claim would
    # cost an attempt.
    loaded = retrying(lambda: match_load(match_id), match_id, what="read")
    if loaded is None:
        return None
    match, limits = loaded
    kept = unrecorded_take(match_id)
    if kept is not None:  # played here before, but the database was away too long
        recorded = record_kept(match, *kept)
        if recorded is not None:
            return recorded
        loaded = retrying(lambda: match_load(match_id), match_id, what="read")  # as it is now
        if loaded is None:
            return None
        match, limits = loaded
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


#: The match and its tournament's limits (null outside tournaments): one row.
_MATCH_QUERY = """
SELECT m.*, t."move_timeout_s" AS "limit_move_timeout_s", t."time_bank_s" AS "limit_time_bank_s"
FROM {match} m LEFT JOIN {tournament} t ON t."id" = m."tournament_id"
WHERE m."id" = %s
"""
#: The match's seats with what playing needs of each version, bot and owner: a row a seat.
_SEATS_QUERY = """
SELECT s.*, v."number" AS "v_number", v."file" AS "v_file", v."filename" AS "v_filename",
  v."kind" AS "v_kind", v."sha256" AS "v_sha256", b."id" AS "b_id", b."name" AS "b_name",
  b."game" AS "b_game", u."id" AS "u_id", u."username" AS "u_username"
FROM {seat} s JOIN {version} v ON v."id" = s."version_id" JOIN {bot} b ON b."id" = v."bot_id"
  JOIN {user} u ON u."id" = b."owner_id"
WHERE s."match_id" = %s ORDER BY s."seat"
"""


def match_load(match_id: int) -> tuple[Match, Limits] | None:
    """The match with its seats (each with its version, bot and owner) and its limits.

    Every match is read this way before its claim: two plain queries, where the ORM needs
    three and some milliseconds of Python building them and their model instances (see
    ``arena.services.sql``). ``match.seats.all()`` then needs no query. Only the version,
    bot and owner fields that playing and recording use are loaded (the others are
    deferred: reading one costs a query).
    """
    from django.contrib.auth import get_user_model

    names = {"match": sql.table(Match), "tournament": sql.table(Tournament)}
    found = list(Match.objects.raw(_MATCH_QUERY.format(**names), [match_id]))
    if not found:
        return None
    match = found[0]
    move_timeout_s = match.__dict__.pop("limit_move_timeout_s")
    time_bank_s = match.__dict__.pop("limit_time_bank_s")
    limits = match_limits(move_timeout_s=move_timeout_s, time_bank_s=time_bank_s)
    user = get_user_model()
    names = {
        "seat": sql.table(MatchSeat),
        "version": sql.table(BotVersion),
        "bot": sql.table(Bot),
        "user": sql.table(user),
    }
    seats = list(MatchSeat.objects.raw(_SEATS_QUERY.format(**names), [match_id]))
    db = match._state.db
    for seat in seats:
        extra = seat.__dict__
        owner = user.from_db(db, ["id", "username"], [extra.pop("u_id"), extra.pop("u_username")])
        bot = Bot.from_db(
            db,
            ["id", "owner_id", "name", "game"],
            [extra.pop("b_id"), owner.pk, extra.pop("b_name"), extra.pop("b_game")],
        )
        bot.owner = owner
        version = BotVersion.from_db(
            db,
            ["id", "bot_id", "number", "file", "filename", "kind", "sha256"],
            [seat.version_id, bot.pk]
            + [extra.pop(f"v_{name}") for name in ("number", "file", "filename", "kind", "sha256")],
        )
        version.bot = bot
        seat.version, seat.bot, seat.match = version, bot, match
    _set_prefetched(match, "seats", seats)
    return match, limits


def _set_prefetched(instance: Match, relation: str, rows: list[Any]) -> None:
    """Give ``instance.<relation>.all()`` these rows, as ``prefetch_related`` would.

    Django has no public call to hand a prefetch rows read another way; these three lines
    are what its ``prefetch_one_level`` does (Django is pinned in requirements.txt, and
    ``test_a_loaded_match_reads_its_seats_without_a_query`` checks it).
    """
    queryset = getattr(instance, relation).all()
    queryset._result_cache, queryset._prefetch_done = rows, True
    # Django's private cache of prefetched relations: the stubs do not declare it.
    instance._prefetched_objects_cache = {relation: queryset}  # type: ignore[attr-defined]
