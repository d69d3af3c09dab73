"""The playground's services: drafts, runs checked as uploads are, unrated sandbox matches
that touch no rating or statistic, limits, privacy. Tasks run eagerly (tests/settings.py),
so a run is played, for real, in the sandbox, inside ``run_create``."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from arena.errors import InvalidInput, NotFound, TooLarge, TooManyRequests
from arena.models import (
    Match,
    MatchSeat,
    PlaygroundDraft,
    PlaygroundMatch,
    PlaygroundRun,
    Rating,
    RatingHistory,
)
from arena.selectors.playground import (
    draft_get,
    opponent_choices,
    playground_replay,
    run_get,
    run_view,
)
from arena.services.playground import (
    draft_save,
    playground_cleanup,
    playground_match_play,
    playground_sweep,
    run_create,
)
from engine import get_game
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    PlaygroundRunFactory,
    RatingFactory,
)

pytestmark = pytest.mark.django_db

STARTER = get_game("lie21").builtin_bots()["starter"].read_text()
#: The starter, edited to crash on its third move (as the browser test does it).
CRASH_THIRD = STARTER.replace(
    "def act(observation):\n",
    "MOVES = 0\n\n\ndef act(observation):\n    global MOVES\n    MOVES += 1\n"
    "    if MOVES == 3:\n        raise RuntimeError('third move!')\n",
)


_on_commit = {}


@pytest.fixture(autouse=True)
def _tasks_on_commit(django_capture_on_commit_callbacks):
    """Queued tasks run (eagerly) when the run's transaction commits, as in production."""
    _on_commit["capture"] = django_capture_on_commit_callbacks


def _run(user, source=STARTER, opponents=("random",), matches=1, game="lie21", **kwargs):
    with _on_commit["capture"](execute=True):
        return run_create(
            user=user,
            game=game,
            source=source,
            opponents=list(opponents),
            matches=matches,
            **kwargs,
        )


def test_it_plays_a_draft_unrated_in_the_sandbox_and_keeps_its_replay(owner) -> None:
    run = _run(owner, matches=2)
    view = run_view(run=run_get(user=owner, run_id=run.pk))
    assert view.status == "done" and view.played == 2
    assert [m.match.draft_seat for m in view.matches] == [0, 1]  # the seat turns round
    for item in view.matches:
        replay = playground_replay(match=item.match)
        assert replay["game"] == "lie21" and replay["seats"][item.match.draft_seat]["name"]
        assert item.result in ("win", "draw", "loss") and item.place
        assert item.seats[item.match.draft_seat] == "your draft"
    assert view.wins + view.draws + view.losses == 2


def test_a_playground_match_touches_no_match_seat_rating_or_statistic(
    owner, other_user, settings
) -> None:
    """A ladder bot that crashes in every playground match it is seated in is not paused,
    and its rating and record stay as they were: none of it is a ladder match."""
    settings.ARENA_PAUSE_MIN_MATCHES = 2
    rival = BotVersionFactory(
        bot=BotFactory(owner=other_user, game="lie21"),
        source=b"def act(observation):\n    raise ValueError('always')\n",
    )
    rating = RatingFactory(version=rival)
    before = (rating.mu, rating.sigma, rating.matches)
    _run(owner, opponents=[f"bot:{rival.bot_id}"], matches=4)
    played = PlaygroundMatch.objects.filter(status="done")
    assert played.count() == 4
    assert all(match.placings[match.draft_seat] == 0 for match in played)  # the rival crashed
    assert not Match.objects.exists() and not MatchSeat.objects.exists()
    assert not RatingHistory.objects.exists()
    rating = Rating.objects.get(pk=rating.pk)
    assert (rating.mu, rating.sigma, rating.matches) == before
    rival.refresh_from_db()
    assert rival.paused_at is None


def test_a_draft_that_crashes_on_its_third_move_shows_its_traceback_at_that_step(owner) -> None:
    run = _run(owner, source=CRASH_THIRD)
    match = run.matches.get()
    assert match.status == "done" and match.fault == "crash"
    assert match.placings[match.draft_seat] == 1
    assert "RuntimeError: third move!" in match.traceback
    replay = playground_replay(match=match)
    fault = replay["faults"][0]
    assert fault["seat"] == match.draft_seat and fault["kind"] == "crash"
    assert match.fault_link == f"game={fault['game']}&step={fault['step']}"
    # Its output is kept, filed by step: the traceback at the fault's own step.
    assert "RuntimeError: third move!" in match.output
    (at_fault,) = [entry for entry in match.steps if entry.get("fault")]
    assert (at_fault["game"], at_fault["step"]) == (fault["game"], fault["step"])


def _printing_on_every_move(text: str) -> str:
    """The starter bot printing ``text`` on each of its moves (whatever the deal: the
    starter alone prints only as the Liar, and a match swept before its first lie shows
    nothing)."""
    entry = "def act(observation):\n"
    assert entry in STARTER
    return STARTER.replace(entry, f"{entry}    print({text!r})\n")


def test_only_the_drafts_own_output_is_kept(owner, other_user) -> None:
    """An opponent's output belongs to its owner: the run's author never gets it."""
    chatty = BotVersionFactory(
        bot=BotFactory(owner=other_user, game="lie21"),
        source=_printing_on_every_move("SECRET of the rival").encode(),
    )
    RatingFactory(version=chatty)
    run = _run(
        owner,
        source=_printing_on_every_move("mine, on my move"),
        opponents=[f"version:{chatty.pk}"],
    )
    match = run.matches.get()
    assert "mine, on my move" in match.output
    assert "SECRET" not in match.output + match.traceback + str(match.steps)


@pytest.mark.parametrize(
    ("source", "code", "line"),
    [
        ("def act(observation):\n    return {\n", "syntax_error", 2),
        ("import json\nimport pandas\n\ndef act(o):\n    return {}\n", "forbidden_import", 2),
        ("def helper():\n    return 1\n", "no_entry_point", None),
    ],
)
def test_a_draft_that_fails_the_upload_check_is_refused_with_its_line(
    owner, source, code, line
) -> None:
    with (
        mock.patch("arena.services.playground.runs.enqueue") as enqueue,
        pytest.raises(InvalidInput) as refused,
    ):
        _run(owner, source=source)
    assert refused.value.code == code
    assert refused.value.extra.get("line") == line
    if line:
        assert f"line {line}" in refused.value.message
    assert not enqueue.called
    assert not PlaygroundRun.objects.exists() and not PlaygroundMatch.objects.exists()


def test_a_two_megabyte_draft_is_refused_and_nothing_is_stored(owner) -> None:
    big = STARTER + "#" * (2 * 1024 * 1024)
    with pytest.raises(TooLarge) as refused:
        _run(owner, source=big)
    assert "over the 1,048,576-byte limit" in refused.value.message
    with pytest.raises(TooLarge):
        draft_save(user=owner, game="lie21", source=big)
    assert not PlaygroundRun.objects.exists() and not PlaygroundDraft.objects.exists()


def test_an_opponent_of_another_game_is_refused(owner) -> None:
    other = BotVersionFactory(bot=BotFactory(owner=owner, game="liars"))
    with pytest.raises(InvalidInput) as refused:
        _run(owner, opponents=[f"version:{other.pk}"])
    assert refused.value.code == "game_mismatch"
    assert "plays Liars, not Lie 21" in refused.value.message
    assert not PlaygroundRun.objects.exists()


@pytest.mark.parametrize(
    ("opponents", "code"),
    [
        (["nosuchbot"], "unknown_opponent"),
        (["version:abc"], "bad_opponent"),
        (["random", "random"], "bad_table"),  # Lie 21 seats two
        ([], "bad_table"),
    ],
)
def test_bad_opponents_and_tables_are_refused(owner, opponents, code) -> None:
    with pytest.raises(InvalidInput) as refused:
        _run(owner, opponents=opponents)
    assert refused.value.code == code
    assert not PlaygroundRun.objects.exists()


def test_a_strangers_old_version_cannot_be_seated_but_its_ladder_bot_can(owner, other_user):
    bot = BotFactory(owner=other_user, game="lie21")
    old = BotVersionFactory(bot=bot, number=1)
    new = BotVersionFactory(bot=bot, number=2)
    with pytest.raises(NotFound) as refused:  # as if it did not exist (issue 33)
        _run(owner, opponents=[f"version:{old.pk}"])
    assert refused.value.code == "unknown_opponent"
    bot.refresh_from_db()
    assert bot.active_version_id == new.pk
    refs = [choice.ref for choice in opponent_choices(user=owner, game="lie21")]
    assert refs[0] == "random" and f"bot:{bot.pk}" in refs and f"version:{old.pk}" not in refs


def test_a_strangers_draft_is_not_found_and_nothing_runs(owner, other_user) -> None:
    theirs = draft_save(user=other_user, game="lie21", source=STARTER)
    with pytest.raises(NotFound):
        draft_get(user=owner, draft_id=theirs.pk)
    with pytest.raises(NotFound):
        run_create(user=owner, game="lie21", draft_id=theirs.pk, opponents=["random"], matches=1)
    assert not PlaygroundRun.objects.exists()
    mine = draft_save(user=owner, game="lie21", source=STARTER)
    run = _run(owner, source=None, draft_id=mine.pk)
    assert run.source == STARTER
    with pytest.raises(NotFound):
        run_get(user=other_user, run_id=run.pk)


def test_a_draft_is_kept_per_author_and_game(owner) -> None:
    first = draft_save(user=owner, game="lie21", source="a")
    again = draft_save(user=owner, game="lie21", source="b")
    other = draft_save(user=owner, game="liars", source="c")
    assert first.pk == again.pk != other.pk
    assert PlaygroundDraft.objects.get(pk=first.pk).source == "b"


def test_runs_are_limited_per_user_and_hour(owner, other_user, settings) -> None:
    settings.ARENA_PLAYGROUND_RUNS_PER_HOUR = 2
    _run(owner)
    _run(owner)
    with pytest.raises(TooManyRequests) as refused:
        _run(owner)
    assert refused.value.retry_after and 3500 < refused.value.retry_after <= 3600
    assert PlaygroundRun.objects.filter(owner=owner).count() == 2
    _run(other_user)  # a quota per user


def test_matches_per_run_are_one_to_ten(owner) -> None:
    for matches in (0, 11):
        with pytest.raises(InvalidInput) as refused:
            _run(owner, matches=matches)
        assert refused.value.code == "bad_matches"


def test_a_run_waiting_more_than_a_minute_for_a_worker_says_so(owner) -> None:
    with mock.patch("arena.services.playground.runs.enqueue"):  # no worker takes it
        run = _run(owner, matches=2)
    view = run_view(run=run_get(user=owner, run_id=run.pk))
    assert view.status == "queued" and not view.waiting_for_worker
    PlaygroundRun.objects.filter(pk=run.pk).update(created=timezone.now() - timedelta(seconds=61))
    view = run_view(run=run_get(user=owner, run_id=run.pk))
    assert view.waiting_for_worker
    assert view.message.startswith("Queued: waiting for a worker. Matches 1, 2 have waited 1 min")


def test_a_match_waiting_beside_a_running_one_says_so_too(owner) -> None:
    """Issue 33: while any match of the run was running, ``waiting_for_worker`` stayed false,
    however long the others had waited; each waiting match says so now."""
    with mock.patch("arena.services.playground.runs.enqueue"):
        run = _run(owner, matches=3)
    PlaygroundRun.objects.filter(pk=run.pk).update(created=timezone.now() - timedelta(seconds=90))
    first = run.matches.get(number=1)
    PlaygroundMatch.objects.filter(pk=first.pk).update(
        status=PlaygroundMatch.Status.RUNNING, started_at=timezone.now()
    )
    view = run_view(run=run_get(user=owner, run_id=run.pk))
    assert view.status == "running" and view.waiting_for_worker
    by_number = {m.match.number: m for m in view.matches}
    assert by_number[1].waiting_s is None and not by_number[1].waiting_for_worker
    assert by_number[2].waiting_for_worker and by_number[3].waiting_for_worker
    assert 89 < by_number[3].waiting_s < 120
    assert "Matches 2, 3 have waited 1 min 3" in view.message
    assert view.message.startswith("Playing: 0 of 3 matches over.")


def test_a_match_is_played_once_however_often_its_task_comes(owner) -> None:
    run = _run(owner)
    match = run.matches.get()
    assert playground_match_play(match_id=match.pk) is None  # already done
    assert PlaygroundMatch.objects.get(pk=match.pk).attempts == 1


def test_the_sweeper_sends_lost_matches_again_and_takes_over_dead_ones(owner, settings) -> None:
    with mock.patch("arena.services.playground.runs.enqueue"):
        run = _run(owner, matches=2)
    first, second = run.matches.order_by("number")
    PlaygroundRun.objects.filter(pk=run.pk).update(created=timezone.now() - timedelta(hours=1))
    long_ago = timezone.now() - timedelta(hours=2)
    PlaygroundMatch.objects.filter(pk=second.pk).update(
        status="running", started_at=long_ago, attempts=1
    )
    with mock.patch("arena.services.playground.sweeping.enqueue") as enqueue:
        counts = playground_sweep()
    assert counts == {"playground_requeued": 2, "playground_failed": 0}
    assert sorted(call.args[1] for call in enqueue.call_args_list) == [first.pk, second.pk]
    played = playground_match_play(match_id=second.pk)  # taken over
    assert played is not None and played.status == "done" and played.attempts == 2


def _aged(run: PlaygroundRun, **age) -> PlaygroundRun:
    PlaygroundRun.objects.filter(pk=run.pk).update(created=timezone.now() - timedelta(**age))
    return run


def test_the_clean_up_keeps_each_authors_newest_runs_of_the_last_days(
    owner, other_user, settings
) -> None:
    """Issue 33: playground runs and their replays were never cleaned up."""
    settings.ARENA_PLAYGROUND_KEEP_RUNS = 3
    settings.ARENA_PLAYGROUND_KEEP_DAYS = 7
    mine = [_aged(PlaygroundRunFactory(owner=owner), hours=10 - n) for n in range(6)]
    recent = [PlaygroundRunFactory(owner=owner) for _ in range(2)]  # within the quota's hour
    old = _aged(PlaygroundRunFactory(owner=other_user), days=8)
    playing = _aged(PlaygroundRunFactory(owner=other_user, played=False), days=9)  # queued
    theirs = _aged(PlaygroundRunFactory(owner=other_user), days=2)
    draft = draft_save(user=owner, game="lie21", source=STARTER)
    counts = playground_cleanup()
    kept = set(PlaygroundRun.objects.values_list("pk", flat=True))
    # Newest three of the owner's: the two of the last hour and the newest older one; the
    # last hour's are never deleted anyway, so the quota cannot be gamed.
    assert kept >= {run.pk for run in recent} | {mine[-1].pk}
    assert not kept & {run.pk for run in mine[:-1]}
    assert old.pk not in kept, "older than the days kept"
    assert playing.pk in kept, "a match still to play keeps its run"
    assert theirs.pk in kept
    assert counts == {"playground_runs_deleted": 6}
    assert not PlaygroundMatch.objects.filter(run_id__in=[r.pk for r in mine[:-1]]).exists()
    assert PlaygroundDraft.objects.filter(pk=draft.pk).exists(), "drafts stay"
    assert playground_cleanup() == {"playground_runs_deleted": 0}


def test_the_clean_up_is_an_hourly_periodic_task_through_the_services(owner) -> None:
    from arena.services.schedules import PERIODIC_TASKS
    from workers import tasks

    assert PERIODIC_TASKS["arena: clean up playground runs"] == (
        "workers.tasks.clean_up_playground",
        3600,
    )
    _aged(PlaygroundRunFactory(owner=owner), days=400)
    tasks.clean_up_playground()
    assert not PlaygroundRun.objects.exists()
