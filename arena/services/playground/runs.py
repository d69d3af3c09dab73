"""A playground run: drafts kept, opponents resolved, the draft checked as an upload is, its
matches queued (one ``play_playground_match`` task each); nothing stored for a refused run."""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import engine
from arena.errors import InvalidInput, NotFound, TooLarge, TooManyRequests
from arena.models import Bot, BotVersion, PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from arena.services.bots import bot_file_check
from arena.services.dispatch import enqueue
from arena.services.matches import (
    seconds_setting,
)
from engine.registry import GAMES

__all__ = [
    "MAX_MATCHES",
    "MAX_OPPONENTS_NAMED",
    "Opponent",
    "draft_save",
    "opponent_resolve",
    "run_create",
    "runs_per_hour",
    "source_size_check",
]

log = logging.getLogger("arena.services.playground")

#: Most matches one run may ask for.
MAX_MATCHES = 10
#: Most opponents a run may name (the largest table of any game is smaller).
MAX_OPPONENTS_NAMED = 16


def runs_per_hour() -> int:
    return int(seconds_setting("ARENA_PLAYGROUND_RUNS_PER_HOUR", 60))


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
