"""Reads of the playground: an author's drafts and runs (theirs alone), and whom a run may
seat. A draft or run of someone else's is NotFound, exactly like one that does not exist."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from arena.errors import NotFound
from arena.models import Bot, BotVersion, PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from engine import replay as replay_io
from engine.registry import GAMES

__all__ = [
    "WAIT_WARNING_S",
    "MatchView",
    "OpponentChoice",
    "RunView",
    "draft_for",
    "draft_get",
    "draft_list",
    "opponent_choices",
    "opponent_search",
    "playground_match_get",
    "playground_replay",
    "run_get",
    "run_latest_id",
    "run_list",
    "run_view",
]


def draft_get(*, user: Any, draft_id: int) -> PlaygroundDraft:
    draft = PlaygroundDraft.objects.filter(pk=draft_id, owner_id=user.pk).first()
    if draft is None:
        raise NotFound(f"You have no draft {draft_id}.")
    return draft


def draft_for(*, user: Any, game: str) -> PlaygroundDraft | None:
    """The user's draft of ``game``, if it saved one."""
    return PlaygroundDraft.objects.filter(owner_id=user.pk, game=game).first()


def draft_list(*, user: Any) -> QuerySet[PlaygroundDraft]:
    return PlaygroundDraft.objects.filter(owner_id=user.pk).order_by("-updated", "-id")


def _runs(user: Any) -> QuerySet[PlaygroundRun]:
    matches = PlaygroundMatch.objects.defer("replay", "steps").order_by("number")
    return PlaygroundRun.objects.filter(owner_id=user.pk).prefetch_related(
        Prefetch("matches", queryset=matches)
    )


def run_list(*, user: Any, game: str | None = None) -> QuerySet[PlaygroundRun]:
    """The user's runs, newest first (of one game with ``game``)."""
    runs = _runs(user).defer("source")
    return runs.filter(game=game) if game else runs


def run_latest_id(*, user: Any, game: str) -> int | None:
    """The id of the user's newest run of ``game`` (the playground shows it on opening)."""
    return (
        PlaygroundRun.objects.filter(owner_id=user.pk, game=game)
        .order_by("-created", "-id")
        .values_list("id", flat=True)
        .first()
    )


def run_get(*, user: Any, run_id: int) -> PlaygroundRun:
    run = _runs(user).filter(pk=run_id).first()
    if run is None:
        raise NotFound(f"You have no playground run {run_id}.")
    return run


def playground_match_get(*, user: Any, run_id: int, number: int) -> PlaygroundMatch:
    """One match of the user's run, with its replay and the draft's logs."""
    match = (
        PlaygroundMatch.objects.select_related("run")
        .filter(run_id=run_id, run__owner_id=user.pk, number=number)
        .first()
    )
    if match is None:
        raise NotFound(f"You have no match {number} in playground run {run_id}.")
    return match


def playground_replay(*, match: PlaygroundMatch) -> dict[str, Any]:
    """The match's replay document; NotFound until it is played."""
    if match.status != PlaygroundMatch.Status.DONE or not match.replay:
        raise NotFound("This match has no replay yet.", code="no_replay")
    return replay_io.loads(bytes(match.replay))


# --- what a run looks like --------------------------------------------------------------------

#: A run whose matches have waited this long for a worker says so.
WAIT_WARNING_S = 60


@dataclass(frozen=True, slots=True)
class MatchView:
    match: PlaygroundMatch
    seats: list[str]  # who sat where, in seat order
    place: str  # the draft's place: "1st", "=1st", "2nd"; "" before the result
    result: str  # "win", "draw", "loss" (from the draft's side); "" before the result
    waiting_s: float | None = None  # a queued match: how long it has waited for a worker

    @property
    def waiting_for_worker(self) -> bool:
        return self.waiting_s is not None and self.waiting_s > WAIT_WARNING_S


@dataclass(frozen=True, slots=True)
class RunView:
    run: PlaygroundRun
    matches: list[MatchView]
    status: str  # "queued" (nothing started), "running", "done"
    played: int
    wins: int
    draws: int
    losses: int
    faults: int  # matches the draft lost by its own fault
    failed: int  # matches the platform could not play

    @property
    def waiting(self) -> list[MatchView]:
        """Its queued matches that have waited more than a minute for a worker, whatever
        the others are doing (one match playing does not make the rest less late)."""
        return [view for view in self.matches if view.waiting_for_worker]

    @property
    def waiting_for_worker(self) -> bool:
        return bool(self.waiting)

    @property
    def waiting_s(self) -> float:
        """The longest wait of a queued match (0: none is queued)."""
        return max((view.waiting_s or 0.0 for view in self.matches), default=0.0)

    @property
    def message(self) -> str:
        """What the author is told about the run's progress, in one sentence or two."""
        if self.status == "queued":
            progress = "Queued: waiting for a worker."
        elif self.status == "running":
            progress = f"Playing: {self.played + self.failed} of {len(self.matches)} matches over."
        else:
            return f"Done: {self.played} match{'es' if self.played != 1 else ''} played."
        late = self.waiting
        if not late:
            return progress
        wait = self.waiting_s
        numbers = ", ".join(str(view.match.number) for view in late)
        which = f"Match {numbers} has" if len(late) == 1 else f"Matches {numbers} have"
        return (
            f"{progress} {which} waited {int(wait // 60)} min {int(wait % 60)} s for a worker: "
            "the arena's workers are busy (or none is running). They stay queued and play as "
            "soon as one is free."
        )


def _seat_labels(match: PlaygroundMatch, run: PlaygroundRun) -> list[str]:
    others = [opponent.get("label", "?") for opponent in run.opponents]
    labels = []
    for seat in range(match.seat_count):
        labels.append("your draft" if seat == match.draft_seat else others.pop(0))
    return labels


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _result(match: PlaygroundMatch) -> tuple[str, str]:
    if match.status != PlaygroundMatch.Status.DONE or not match.placings:
        return "", ""
    mine = match.placings[match.draft_seat]
    counts = Counter(match.placings)
    shared = counts[mine] > 1
    place = ("=" if shared else "") + _ordinal(mine + 1)
    if mine == 0:
        return place, "draw" if shared else "win"
    return place, "loss"


def run_view(*, run: PlaygroundRun) -> RunView:
    """The run's progress and results from the draft's side (no query: matches prefetched)."""
    now = timezone.now()
    matches = []
    for match in run.matches.all():
        place, result = _result(match)
        # A queued match has waited for a worker since its run was asked for.
        waiting = (
            max(0.0, (now - run.created).total_seconds())
            if match.status == PlaygroundMatch.Status.QUEUED
            else None
        )
        matches.append(MatchView(match, _seat_labels(match, run), place, result, waiting))
    statuses = Counter(view.match.status for view in matches)
    open_ = statuses[PlaygroundMatch.Status.QUEUED] + statuses[PlaygroundMatch.Status.RUNNING]
    if not open_:
        status = "done"
    elif statuses[PlaygroundMatch.Status.QUEUED] == len(matches):
        status = "queued"
    else:
        status = "running"
    return RunView(
        run=run,
        matches=matches,
        status=status,
        played=statuses[PlaygroundMatch.Status.DONE],
        wins=sum(view.result == "win" for view in matches),
        draws=sum(view.result == "draw" for view in matches),
        losses=sum(view.result == "loss" for view in matches),
        faults=sum(bool(view.match.fault) for view in matches),
        failed=statuses[PlaygroundMatch.Status.FAILED],
    )


# --- whom a run may seat ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpponentChoice:
    ref: str  # what a run names it by
    label: str
    group: str  # "Built-in bots", "Your versions", "On the ladder"


def opponent_choices(*, user: Any, game: str, ladder_limit: int = 200) -> list[OpponentChoice]:
    """Whom a run of ``game`` may seat, as the page first offers it: the game's built-in bots
    (``random`` first), the user's own valid versions (by bot name, newest first) and the
    first ``ladder_limit`` bots on the ladder by name; :func:`opponent_search` reaches the
    rest."""
    rules = GAMES[game]
    names = sorted(
        (n for n in rules.builtin_bots() if n != "starter"), key=lambda n: (n != "random", n)
    )
    choices = [OpponentChoice(name, f"{name} (built-in)", "Built-in bots") for name in names]
    own = _own_versions(user, game)
    choices += [
        OpponentChoice(f"version:{v.pk}", f"{v.bot.name} v{v.number}", "Your versions")
        for v in own[:ladder_limit]
    ]
    ladder = _ladder_bots(user, game)
    choices += [_ladder_choice(bot) for bot in ladder[:ladder_limit]]
    return choices


def _own_versions(user: Any, game: str) -> QuerySet[BotVersion]:
    return (
        BotVersion.objects.filter(
            bot__owner_id=user.pk, bot__game=game, status=BotVersion.Status.VALID
        )
        .select_related("bot")
        .order_by("bot__name", "-number", "id")
    )


def _ladder_bots(user: Any, game: str) -> QuerySet[Bot]:
    return (
        Bot.objects.filter(
            game=game,
            is_active=True,
            is_builtin=False,
            active_version__status=BotVersion.Status.VALID,
        )
        .exclude(owner_id=user.pk)
        .select_related("owner", "active_version")
        .order_by("name", "id")
    )


def _ladder_choice(bot: Bot) -> OpponentChoice:
    """A stranger's bot of :func:`_ladder_bots`, as the picker offers it."""
    version = bot.active_version
    assert version is not None  # _ladder_bots asks for a valid one
    return OpponentChoice(
        f"bot:{bot.pk}", f"{bot.owner.username}/{bot.name} v{version.number}", "On the ladder"
    )


class OpponentMatches:
    """The user's own valid versions of a game, then the strangers' bots on its ladder, that
    match a search: one list as a paginator reads it (a count and slices), two queries a
    page, never the whole ladder in memory."""

    def __init__(self, own: QuerySet[BotVersion], ladder: QuerySet[Bot]) -> None:
        self.own, self.ladder = own, ladder
        self._own_count: int | None = None

    def _owned(self) -> int:
        if self._own_count is None:
            self._own_count = self.own.count()
        return self._own_count

    def count(self) -> int:
        return self._owned() + self.ladder.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[OpponentChoice]:
        start, stop = window.start or 0, window.stop
        if stop is None or window.step is not None:
            raise TypeError("an OpponentMatches is read a page (a plain slice) at a time")
        owned = self._owned()
        found = [
            OpponentChoice(f"version:{v.pk}", f"{v.bot.name} v{v.number}", "Your versions")
            for v in self.own[min(start, owned) : min(stop, owned)]
        ]
        if stop > owned:
            found += [
                _ladder_choice(bot) for bot in self.ladder[max(0, start - owned) : stop - owned]
            ]
        return found


def opponent_search(*, user: Any, game: str, search: str = "") -> OpponentMatches:
    """Whom a run of ``game`` may seat beyond the built-in bots, narrowed by ``search``:
    every word must be in the bot's name (or, on the ladder, its owner's username). The
    playground's picker pages through it (``GET /api/playground/opponents/``), so any
    ladder bot is reachable by name, however long the ladder."""
    own, ladder = _own_versions(user, game), _ladder_bots(user, game)
    for word in search.split()[:8]:
        own = own.filter(bot__name__icontains=word)
        ladder = ladder.filter(Q(name__icontains=word) | Q(owner__username__icontains=word))
    return OpponentMatches(own, ladder)
