"""``manage.py run_tournament``: start now, follow the matches, print the standings."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from arena.models import MatchSeat, Tournament
from tests.workers.fixtures import REPO


@pytest.mark.slow
def test_it_runs_a_tournament_and_prints_the_standings(transactional_db, make_bot):
    for name in ("anna", "bert", "cleo"):
        make_bot(name)
    out = StringIO()
    # Eager tasks: the whole tournament plays while the command starts it.
    call_command("run_tournament", "--game", "lie21", "--name", "Friday cup", "--wait", stdout=out)
    text = out.getvalue()
    tournament = Tournament.objects.get()
    assert tournament.name == "Friday cup"
    assert tournament.status == "finished"
    assert f"Tournament {tournament.pk} ('Friday cup') started: 3 bots, 3 matches." in text
    assert "3/3" in text  # the progress bar, complete
    assert "Friday cup: finished" in text
    for name in ("anna", "bert", "cleo"):
        assert name in text


def test_it_refuses_too_few_bots_and_leaves_nothing_behind(db, make_bot):
    make_bot("alone")
    with pytest.raises(CommandError, match="at least 2 bots"):
        call_command("run_tournament", "--game", "lie21", stdout=StringIO())
    assert not Tournament.objects.exists()


@pytest.mark.slow
def test_it_runs_a_swiss_round_by_round(transactional_db, make_bot):
    for name in ("anna", "bert", "cleo", "dora"):
        make_bot(name)
    out = StringIO()
    call_command(
        "run_tournament",
        "--game",
        "lie21",
        "--format",
        "swiss",
        "--rounds",
        "2",
        "--wait",
        stdout=out,
    )
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.rounds, tournament.status) == ("swiss", 2, "finished")
    assert "4/4" in out.getvalue(), "the progress counts the rounds created later"


def test_it_refuses_bad_options_and_leaves_nothing_behind(db, make_bot):
    make_bot("anna")
    with pytest.raises(CommandError, match="rounds are set for Swiss tournaments only"):
        call_command("run_tournament", "--game", "lie21", "--rounds", "3", stdout=StringIO())
    assert not Tournament.objects.exists()


@pytest.mark.slow
def test_it_waits_for_a_real_worker_on_the_filesystem_broker(
    transactional_db, make_bot, start_worker, worker_env, tmp_path
):
    """No Redis at all: the command and a worker share the filesystem queue."""
    for name in ("anna", "bert", "cleo"):
        make_bot(name)
    data_dir = str(tmp_path / "data")  # the filesystem queue lives under it
    start_worker("fs", concurrency=1, unset=("REDIS_URL",), ARENA_DATA_DIR=data_dir)
    env = {**worker_env, "ARENA_DATA_DIR": data_dir}
    env.pop("REDIS_URL", None)
    command = [
        sys.executable,
        "manage.py",
        "run_tournament",
        "--game",
        "lie21",
        "--wait",
        "--timeout",
        "90",
    ]
    done = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "finished" in done.stdout
    tournament = Tournament.objects.get()
    assert tournament.status == "finished"
    assert set(tournament.matches.values_list("status", flat=True)) == {"done"}


@pytest.mark.slow
def test_waiting_survives_a_dropped_connection(transactional_db, make_bot, worker_env, tmp_path):
    """The command's connection is terminated while it waits: it reconnects and goes on."""
    from arena.models import Match
    from arena.services.tournaments import tournament_finish
    from tests.workers.faults import require_postgresql, terminate_backends
    from tests.workers.processes import wait_for

    require_postgresql()
    for name in ("anna", "bert", "cleo"):
        make_bot(name)
    # No worker: the matches stay queued until this test writes their results.
    env = {**worker_env, "ARENA_DATA_DIR": str(tmp_path / "data")}
    env.pop("REDIS_URL", None)
    out_path = tmp_path / "out.txt"
    command = [sys.executable, "manage.py", "run_tournament", "--game", "lie21", "--wait"]
    command += ["--timeout", "60"]
    with out_path.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=out)
    try:
        wait_for(lambda: "0/3 matches over" in out_path.read_text(), timeout=30, what="waiting")
        assert terminate_backends() >= 1
        wait_for(
            lambda: "reconnect" in out_path.read_text(), timeout=10, what="the command to notice"
        )
        tournament = Tournament.objects.get()
        Match.objects.filter(tournament=tournament).update(status="done", reason="match_points")
        for match in Match.objects.filter(tournament=tournament):
            for seat in match.seats.all():
                MatchSeat.objects.filter(pk=seat.pk).update(placing=seat.seat, score=3 - seat.seat)
        tournament_finish(tournament_id=tournament.pk)
        assert process.wait(timeout=30) == 0, out_path.read_text()
    finally:
        if process.poll() is None:
            process.kill()
    text = out_path.read_text()
    assert "Traceback" not in text
    assert "finished" in text
