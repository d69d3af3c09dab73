"""The playground: write a bot on the site, play it unrated in the sandbox, then upload it.

* A **draft** is an author's source for one game (:func:`draft_save`): kept per author and
  game, private to its author, never a version.
* A **run** (:func:`run_create`) checks the draft exactly as an upload is checked
  (:func:`arena.services.bots.bot_file_check`: size, syntax, ``act``, imports; a refusal
  names its line), then queues 1-:data:`MAX_MATCHES` unrated matches against the opponents
  chosen (built-in bots, the author's own versions, any bot on the game's ladder), one
  ``play_playground_match`` task each, on the ``playground`` queue that workers read before
  validations and ladder work. Nothing is stored or queued for a refused run.
* Playing (:func:`playground_match_play`) is a real match in the sandbox with the arena's
  limits and keyed bot seeds (``matches.match_engine_kwargs``), so a draft behaves there as
  it will on the ladder. Its result, replay and the draft's own output are kept on the
  :class:`PlaygroundMatch`; no ``Match``, seat, rating or statistic is written, so a
  playground match never touches ratings, ladder or version statistics, or pausing.

Clean-up (:func:`playground_cleanup`, the hourly ``clean_up_playground`` task): an author
keeps their newest ``ARENA_PLAYGROUND_KEEP_RUNS`` runs (100) of at most
``ARENA_PLAYGROUND_KEEP_DAYS`` days (30), replays and output with them; drafts stay.

Limits: ``ARENA_PLAYGROUND_RUNS_PER_HOUR`` runs per author in any rolling hour (beyond it
:class:`TooManyRequests`, a 429 with ``Retry-After``), checked before the source is, so a
run over it costs no check; drafts over ``ARENA_UPLOAD_MAX_BYTES`` are refused like uploads.
Runs asked for, refused ones included, are limited where they are asked for
(``ARENA_THROTTLE_PLAYGROUND_CHECKS``, ``arena.http.throttles``): each costs a check.
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

import engine
from arena.errors import InvalidInput, NotFound, TooLarge, TooManyRequests
from arena.models import Bot, BotVersion, PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from arena.services.bots import bot_file_check
from arena.services.dispatch import enqueue
from arena.services.matches import (
    WORKDIR_PREFIX,
    PlatformError,
    match_engine_kwargs,
    match_limits,
    sandbox_config,
    seconds_setting,
    version_materialize,
)
from arena.services.matches.recording import STEP_LOG_ENTRIES
from engine import replay as replay_io
from engine.registry import GAMES, get_game

__all__ = [
    "MAX_MATCHES",
    "MAX_OPPONENTS_NAMED",
    "Opponent",
    "draft_save",
    "keep_days",
    "keep_runs",
    "opponent_resolve",
    "playground_cleanup",
    "playground_match_play",
    "playground_sweep",
    "run_create",
    "runs_per_hour",
    "source_size_check",
]

log = logging.getLogger("arena.services.playground")

#: Most matches one run may ask for.
MAX_MATCHES = 10
#: Most opponents a run may name (the largest table of any game is smaller).
MAX_OPPONENTS_NAMED = 16
#: Attempts at one playground match before it is marked failed (a platform problem).
MAX_ATTEMPTS = 3
#: The draft's name in its replays and logs.
DRAFT_NAME = "your draft"


def runs_per_hour() -> int:
    return int(seconds_setting("ARENA_PLAYGROUND_RUNS_PER_HOUR", 60))


def keep_runs() -> int:
    """``ARENA_PLAYGROUND_KEEP_RUNS``: the newest runs of each author that are kept."""
    return max(1, int(seconds_setting("ARENA_PLAYGROUND_KEEP_RUNS", 100)))


def keep_days() -> float:
    """``ARENA_PLAYGROUND_KEEP_DAYS``: how long a run is kept at most."""
    return max(1.0, seconds_setting("ARENA_PLAYGROUND_KEEP_DAYS", 30.0))


# --- drafts -------------------------------------------------------------------------------


def draft_save(*, user: Any, game: str, source: str) -> PlaygroundDraft:
    """Keep ``source`` as the user's draft of ``game`` (one per author and game).

    A draft may be unfinished (it is checked when it runs), but never larger than an upload
    may be: TooLarge, and nothing stored.
    """
    _game(game)
    source_size_check(source)
    draft, _ = PlaygroundDraft.objects.update_or_create(
        owner=user, game=game, defaults={"source": source}
    )
    return draft


def source_size_check(source: str) -> bytes:
    """The source's UTF-8 bytes, or TooLarge (413 ``too_large``) over the upload limit."""
    data = source.encode("utf-8", "surrogatepass")
    limit = settings.ARENA_UPLOAD_MAX_BYTES
    if len(data) > limit:
        raise TooLarge(
            f"bot.py: {len(data):,} bytes is over the {limit:,}-byte limit", code="too_large"
        )
    return data


def _game(game: str) -> engine.Game:
    found = GAMES.get(game)
    if found is None:
        raise InvalidInput(f"there is no game {game!r}", code="unknown_game")
    return found


# --- opponents ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opponent:
    """Who sits in a seat of a run besides the draft: a built-in bot or a stored version."""

    ref: str  # as asked: "random", "version:12", "bot:7"
    label: str  # for people: "random (built-in)", "alice/bluffer v3"
    builtin: str = ""
    version_id: int | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ref": self.ref, "label": self.label}
        if self.builtin:
            data["builtin"] = self.builtin
        else:
            data["version_id"] = self.version_id
        return data


def _on_ladder(version: BotVersion | None) -> bool:
    """Whether ``version`` is public as an opponent: its bot's active, valid version, on the
    ladder of its game."""
    return (
        version is not None
        and version.status == BotVersion.Status.VALID
        and version.bot.is_active
        and version.bot.active_version_id == version.pk
    )


def _unseen(ref: str) -> NotFound:
    """The one answer for an id the user may not seat: missing, or a stranger's bot or
    version that is not on a ladder. Alike, so ids cannot be probed for what is hidden."""
    return NotFound(
        f"opponent {ref!r}: no bot or version you can play against has this id (your own, "
        "or a bot on the ladder)",
        code="unknown_opponent",
    )


def opponent_resolve(*, user: Any, game: str, ref: str) -> Opponent:
    """An opponent from its reference, or InvalidInput/NotFound saying why not.

    ``<name>`` is one of the game's built-in bots (``random``, ...); ``version:<id>`` one of
    the user's own valid versions or a ladder bot's active version; ``bot:<id>`` a bot on
    the ladder (its active version) or one of the user's own. Each must play ``game``.

    What the user may not see (a stranger's bot or version off the ladder) is answered
    exactly as an id that does not exist (:func:`_unseen`, 404), and a refusal names no
    stranger's bot.
    """
    rules = _game(game)
    ref = str(ref).strip()
    kind, _, number = ref.partition(":")
    if not number:
        return _builtin_opponent(rules, ref)
    if kind not in ("version", "bot") or not number.isdigit() or len(number) > 18:
        raise InvalidInput(
            f"opponent {ref!r}: write a built-in bot's name, version:<id> or bot:<id>",
            code="bad_opponent",
        )
    version: BotVersion | None
    if kind == "bot":
        version = _bot_version(user=user, ref=ref, bot_id=int(number))
    else:
        version = BotVersion.objects.select_related("bot__owner").filter(pk=int(number)).first()
        if version is None or not (version.bot.owner_id == user.pk or _on_ladder(version)):
            raise _unseen(ref)
    bot = version.bot
    own = bot.owner_id == user.pk
    if bot.game != game:
        # Only what the user may see is named: their own bot, or one on another game's
        # ladder (public there), which is not named either, for want of a reason to.
        title = GAMES[bot.game].title if bot.game in GAMES else bot.game
        who = f"your {bot.name}" if own else "that bot"
        raise InvalidInput(
            f"opponent {ref!r}: {who} plays {title}, not {rules.title}", code="game_mismatch"
        )
    if version.status != BotVersion.Status.VALID:
        raise InvalidInput(
            f"opponent {ref!r}: your {bot.name} v{version.number} is not a valid version "
            "(only valid versions can play)",
            code="opponent_not_available",
        )
    label = f"{bot.owner.username}/{bot.name} v{version.number}"
    return Opponent(ref=ref, label=label, version_id=version.pk)


def _builtin_opponent(rules: engine.Game, ref: str) -> Opponent:
    """One of the game's built-in bots by name (the starter is a template, not an
    opponent); InvalidInput naming the ones there are, and how to name anything else."""
    builtins = sorted(name for name in rules.builtin_bots() if name != "starter")
    if ref not in builtins:
        raise InvalidInput(
            f"opponent {ref!r}: no built-in bot of {rules.title} has this name (there are "
            f"{', '.join(builtins)}); name a version as version:<id> or a bot as bot:<id>",
            code="unknown_opponent",
        )
    return Opponent(ref=ref, label=f"{ref} (built-in)", builtin=ref)


def _bot_version(*, user: Any, ref: str, bot_id: int) -> BotVersion:
    """``bot:<id>``'s active version, its bot attached: 404 (:func:`_unseen`) for a bot the
    user may not see, as for one that does not exist; InvalidInput for the user's own bot
    with no valid version."""
    bot = Bot.objects.select_related("owner", "active_version").filter(pk=bot_id).first()
    version = bot.active_version if bot is not None else None
    if bot is not None and version is not None:
        version.bot = bot
    visible = bot is not None and (bot.owner_id == user.pk or _on_ladder(version))
    if not visible:
        raise _unseen(ref)
    assert bot is not None
    if version is None:
        raise InvalidInput(
            f"opponent {ref!r}: your bot {bot.name} has no valid version to play",
            code="opponent_not_available",
        )
    return version


# --- runs -----------------------------------------------------------------------------------


def run_create(
    *,
    user: Any,
    game: str,
    opponents: Sequence[str],
    matches: int,
    source: str | None = None,
    draft_id: int | None = None,
) -> PlaygroundRun:
    """Check the draft as an upload is checked and queue its unrated matches.

    The source is ``source`` or the user's draft ``draft_id`` (a draft of someone else's is
    NotFound, exactly like one that does not exist). Refusals, before anything is stored:
    InvalidInput (a bad source with its ``line``, bad opponents, a table the game cannot
    seat, a bad number of matches), TooLarge, NotFound, TooManyRequests (the hourly quota).
    """
    rules = _game(game)
    source = _run_source(user=user, rules=rules, source=source, draft_id=draft_id)
    if not 1 <= matches <= MAX_MATCHES:
        raise InvalidInput(f"ask for 1 to {MAX_MATCHES} matches", code="bad_matches")
    table = _table_check(rules, len(opponents))
    data = source_size_check(source)
    chosen = [opponent_resolve(user=user, game=game, ref=ref) for ref in opponents]
    # The cheap refusals first: the source check starts a child interpreter (up to 5 s of
    # CPU), which a run over the quota, or with a bad opponent, never gets to cost.
    _check_quota(user)
    bot_file_check(filename="bot.py", data=data)  # exactly the upload check
    with transaction.atomic():
        # The user's row is locked, so two requests at once cannot both take the last run.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        _check_quota(user)
        run = PlaygroundRun.objects.create(
            owner=user,
            game=game,
            source=source,
            sha256=hashlib.sha256(data).hexdigest(),
            opponents=[opponent.as_json() for opponent in chosen],
            matches_requested=matches,
            seed=secrets.randbits(53),
        )
        _queue_matches(run, matches=matches, table=table)
    log.info("playground run=%s user=%s game=%s matches=%s", run.pk, user.pk, game, matches)
    return run


def _run_source(*, user: Any, rules: engine.Game, source: str | None, draft_id: int | None) -> str:
    """The run's source: ``source`` or the user's own draft ``draft_id``, exactly one of
    them. Someone else's draft is NotFound, like one that does not exist, so a draft's id
    tells nothing about other users."""
    if (source is None) == (draft_id is None):
        raise InvalidInput("send the draft's source, or the id of your saved draft", code="source")
    if draft_id is None:
        assert source is not None
        return source
    draft = PlaygroundDraft.objects.filter(pk=draft_id, owner_id=user.pk).first()
    if draft is None:
        raise NotFound(f"You have no draft {draft_id}.")
    if draft.game != rules.name:
        raise InvalidInput(
            f"draft {draft_id} is a draft of {GAMES[draft.game].title}, not {rules.title}",
            code="game_mismatch",
        )
    return str(draft.source)


def _table_check(rules: engine.Game, opponents: int) -> int:
    """The table's size (the draft and its opponents); InvalidInput ``bad_table`` when the
    game cannot seat that many, saying how many it seats."""
    table = 1 + opponents
    if not rules.min_players <= table <= rules.max_players:
        seats = (
            f"{rules.min_players}"
            if rules.min_players == rules.max_players
            else f"{rules.min_players} to {rules.max_players}"
        )
        raise InvalidInput(
            f"{rules.title} seats {seats} bots: your draft and {opponents} "
            f"opponent{'s' if opponents != 1 else ''} make {table}",
            code="bad_table",
        )
    return table


def _queue_matches(run: PlaygroundRun, *, matches: int, table: int) -> None:
    """Store the run's matches and queue each: every match its own seed derived from the
    run's, the draft's seat turning round the table so it plays every seat."""
    rows = PlaygroundMatch.objects.bulk_create(
        PlaygroundMatch(
            run=run,
            number=number,
            seed=engine.derive_seed(run.seed, "playground", number),
            seat_count=table,
            draft_seat=(number - 1) % table,  # the draft's seat turns round the table
        )
        for number in range(1, matches + 1)
    )
    for row in rows:
        enqueue("play_playground_match", row.pk)


def _check_quota(user: Any) -> None:
    limit = runs_per_hour()
    since = timezone.now() - timedelta(hours=1)
    recent = PlaygroundRun.objects.filter(owner=user, created__gte=since)
    if recent.count() < limit:
        return
    oldest = recent.order_by("created").values_list("created", flat=True).first()
    wait = 1
    if oldest is not None:
        wait = max(1, math.ceil((oldest + timedelta(hours=1) - timezone.now()).total_seconds()))
    raise TooManyRequests(
        f"you may start {limit} playground runs an hour; the next one in {wait} s",
        code="quota",
        retry_after=wait,
    )


# --- playing --------------------------------------------------------------------------------


def _stale_after_s() -> float:
    """A running playground match older than its task's hard time limit has lost its worker."""
    return float(settings.CELERY_TASK_TIME_LIMIT) + 30.0


def _claim(match_id: int) -> str | None:
    """Take the match for this attempt (one conditional UPDATE); its token, or None."""
    token = uuid.uuid4().hex
    now = timezone.now()
    stale = now - timedelta(seconds=_stale_after_s())
    open_ = Q(status=PlaygroundMatch.Status.QUEUED) | Q(
        status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
    )
    changed = PlaygroundMatch.objects.filter(open_, pk=match_id, attempts__lt=MAX_ATTEMPTS).update(
        status=PlaygroundMatch.Status.RUNNING,
        claim_token=token,
        started_at=now,
        attempts=F("attempts") + 1,
    )
    return token if changed == 1 else None


def playground_match_play(*, match_id: int, worker: str = "") -> PlaygroundMatch | None:
    """Claim, play and record one playground match; None when there was nothing to do.

    Raises :class:`PlatformError` when the platform failed (the match goes back to the
    queue, and the task retries); the last attempt marks the match failed instead.
    """
    token = _claim(match_id)
    if token is None:
        return None
    match = PlaygroundMatch.objects.select_related("run").get(pk=match_id)
    try:
        result, output = _play(match)
    except Exception as exc:  # whatever it was, it was not the draft's fault
        reason = str(exc) if isinstance(exc, PlatformError) else f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, PlatformError):
            log.exception("playground match=%s failed on the platform", match_id)
        last = match.attempts >= MAX_ATTEMPTS
        PlaygroundMatch.objects.filter(pk=match_id, claim_token=token).update(
            status=PlaygroundMatch.Status.FAILED if last else PlaygroundMatch.Status.QUEUED,
            claim_token="",
            failure_reason=reason[:1000],
            finished_at=timezone.now() if last else None,
        )
        if last:
            match.refresh_from_db()
            return match
        raise PlatformError(reason) from None
    _record(match, token, result, output)
    match.refresh_from_db()
    return match


def _play(match: PlaygroundMatch) -> tuple[engine.MatchResult, str]:
    """The match in the sandbox: the draft at its seat, the opponents round it."""
    from sandbox import SandboxedPlayer

    run = match.run
    limits = match_limits()
    config = sandbox_config()
    others = list(run.opponents)
    order: list[dict[str, Any] | None] = []
    for seat in range(match.seat_count):
        order.append(None if seat == match.draft_seat else others.pop(0))
    versions: dict[int | None, BotVersion] = {  # looked up by an opponent's version_id, if any
        version.pk: version
        for version in BotVersion.objects.select_related("bot__owner").filter(
            pk__in=[who["version_id"] for who in order if who and who.get("version_id")]
        )
    }
    with tempfile.TemporaryDirectory(prefix=f"{WORKDIR_PREFIX}playground-{match.pk}-") as tmp:
        players: list[engine.Player] = []
        seat_info: list[dict[str, Any]] = []
        for seat, who in enumerate(order):
            folder = Path(tmp) / f"seat{seat}"
            folder.mkdir(mode=0o700)
            info: dict[str, Any]
            if who is None:
                (folder / "bot.py").write_text(run.source, encoding="utf-8")
                name, info = DRAFT_NAME, {"playground": "draft"}
            elif who.get("builtin"):
                path = get_game(run.game).builtin_bots().get(who["builtin"])
                if path is None:
                    raise PlatformError(f"the built-in bot {who['builtin']!r} is gone")
                (folder / "bot.py").write_bytes(path.read_bytes())
                name, info = who["builtin"], {"builtin": who["builtin"]}
            else:
                version = versions.get(who.get("version_id"))
                if version is None:
                    raise PlatformError(f"version {who.get('version_id')} is gone")
                version_materialize(version, folder)
                name = str(version.bot)
                info = {
                    "bot_id": version.bot_id,
                    "owner": version.bot.owner.username,
                    "version": version.number,
                    "version_id": version.pk,
                }
            players.append(SandboxedPlayer(name, folder, limits=limits, config=config))
            seat_info.append(info)
        try:
            result = engine.play_match(
                run.game,
                players,
                **match_engine_kwargs(match.seed, len(players), None, limits),
                seat_info=seat_info,
                collect_logs=True,
            )
            output = players[match.draft_seat].output()
        finally:
            for player in players:
                player.close()
    return result, output


def _record(match: PlaygroundMatch, token: str, result: engine.MatchResult, output: str) -> None:
    """Write the result once, and only while this attempt holds the claim."""
    seat = match.draft_seat
    fault = next((f for f in result.faults if f.seat == seat), None)
    updated = PlaygroundMatch.objects.filter(
        pk=match.pk, status=PlaygroundMatch.Status.RUNNING, claim_token=token
    ).update(
        status=PlaygroundMatch.Status.DONE,
        claim_token="",
        finished_at=timezone.now(),
        duration_s=round(result.duration_s, 3),
        reason=result.reason[:16],
        games_played=result.games_played,
        placings=list(result.placings),
        scores=list(result.scores),
        fault=fault.kind[:16] if fault else "",
        fault_detail=fault.detail[:500] if fault else "",
        fault_link=_fault_link(result.replay, fault) if fault else "",
        replay=replay_io.dumps(result.replay),
        output=output,
        traceback=fault.private if fault else "",
        steps=list(result.logs[seat][:STEP_LOG_ENTRIES]) if result.logs else [],
        failure_reason="",
    )
    if updated != 1:
        log.warning("playground match=%s attempt superseded; result discarded", match.pk)


def _fault_link(replay: dict[str, Any], fault: engine.MatchError) -> str:
    """The viewer position of a fault (``game=G&step=S``): its game with the steps it let be
    played, as the match pages link it; "" for a fault before the first game."""
    games = replay.get("games") or []
    if not 1 <= fault.game <= len(games):
        return ""
    played = len(games[fault.game - 1].get("steps") or [])
    step = played if fault.step is None else min(fault.step, played)
    return f"game={fault.game}&step={step}"


def playground_sweep(*, limit: int = 200) -> dict[str, int]:
    """Send again playground matches whose message was lost, and free those whose worker
    died (running past the task's hard time limit); the sweeper runs this every minute."""
    now = timezone.now()
    counts = {"playground_requeued": 0, "playground_failed": 0}
    stale = now - timedelta(seconds=_stale_after_s())
    dead = PlaygroundMatch.objects.filter(
        status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
    )
    for row in dead.only("id", "attempts")[:limit]:
        if row.attempts >= MAX_ATTEMPTS:
            counts["playground_failed"] += PlaygroundMatch.objects.filter(
                pk=row.pk, status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
            ).update(
                status=PlaygroundMatch.Status.FAILED,
                claim_token="",
                finished_at=now,
                failure_reason="its worker stopped answering",
            )
        else:
            enqueue("play_playground_match", row.pk)  # the claim takes a stale match over
            counts["playground_requeued"] += 1
    lost = now - timedelta(seconds=seconds_setting("ARENA_SWEEP_QUEUED_AFTER_S", 600.0))
    waiting = PlaygroundMatch.objects.filter(
        Q(started_at__lt=lost) | Q(started_at__isnull=True, run__created__lt=lost),
        status=PlaygroundMatch.Status.QUEUED,
    )
    for row in waiting.only("id")[:limit]:
        # Touched (started_at) so a long but healthy queue gets one extra message per period.
        PlaygroundMatch.objects.filter(pk=row.pk, status=PlaygroundMatch.Status.QUEUED).update(
            started_at=now
        )
        enqueue("play_playground_match", row.pk)
        counts["playground_requeued"] += 1
    return counts


def playground_cleanup(*, batch: int = 500) -> dict[str, int]:
    """Delete the runs an author no longer keeps, with their matches, replays and output:
    those beyond the author's newest :func:`keep_runs`, and those older than
    :func:`keep_days`. Never a run of the last hour (the hourly quota counts them: deleting
    one would give its author another) nor one with a match still queued or playing (its
    worker would find nothing to record). Drafts are kept: one per author and game.
    """
    now = timezone.now()
    quota_window = now - timedelta(hours=1)
    expired = now - timedelta(days=keep_days())
    keep = keep_runs()
    beyond: list[int] = []
    crowded = (
        PlaygroundRun.objects.values("owner_id")
        .annotate(runs=Count("id"))
        .filter(runs__gt=keep)
        .values_list("owner_id", flat=True)
    )
    for owner_id in crowded:
        beyond += (
            PlaygroundRun.objects.filter(owner_id=owner_id)
            .order_by("-created", "-id")[keep:]
            .values_list("id", flat=True)
        )
    open_runs = PlaygroundMatch.objects.filter(
        status__in=[PlaygroundMatch.Status.QUEUED, PlaygroundMatch.Status.RUNNING]
    ).values("run_id")
    doomed = (
        PlaygroundRun.objects.filter(Q(created__lt=expired) | Q(pk__in=beyond))
        .filter(created__lt=quota_window)
        .exclude(pk__in=open_runs)
        .values_list("id", flat=True)
    )
    deleted = 0
    while ids := list(doomed[:batch]):
        PlaygroundMatch.objects.filter(run_id__in=ids).delete()
        deleted += (
            PlaygroundRun.objects.filter(pk__in=ids).delete()[1].get(PlaygroundRun._meta.label, 0)
        )
    if deleted:
        log.info("playground clean-up: %s runs deleted", deleted)
    return {"playground_runs_deleted": deleted}
