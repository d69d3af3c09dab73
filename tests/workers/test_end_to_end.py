"""The whole pipeline with a real Redis and real Celery workers (no eager mode).

Bots are uploaded through the API, validated by a worker, entered into a tournament whose
six matches the workers play, record and rate; the test reads the results back through
the API. Needs Redis (REDIS_URL, default redis://127.0.0.1:6379/15, flushed): skipped
without it locally, a failure when CI=true.
"""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import BotVersion, Match, MatchLog, Rating, RatingHistory, Replay, Tournament
from engine import builtin_bot
from tests.arena import bots
from tests.workers.processes import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.slow]

SOURCES = {
    "first-three": bots.GOOD,
    "chatty": bots.CHATTY,
    "greedy-copy": builtin_bot("lie21", "greedy").read_text(),
    "heuristic-copy": builtin_bot("lie21", "heuristic").read_text(),
}


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def upload(client: APIClient, name: str, source: str) -> int:
    created = client.post("/api/bots/", {"name": name, "game": "lie21"}, format="json")
    assert created.status_code == 201, created.content
    bot_id = created.json()["id"]
    file = SimpleUploadedFile(f"{name}.py", source.encode(), content_type="text/x-python")
    uploaded = client.post(f"/api/bots/{bot_id}/versions/", {"file": file}, format="multipart")
    assert uploaded.status_code == 201, uploaded.content
    return bot_id


def all_over() -> bool:
    return not Match.objects.filter(status__in=["queued", "running"]).exists()


def test_uploaded_bots_play_a_tournament_on_real_workers(redis, start_worker, owner, staff):
    start_worker("e2e", concurrency=2)
    client = api(owner)
    bot_ids = [upload(client, name, source) for name, source in SOURCES.items()]

    wait_for(
        lambda: not BotVersion.objects.filter(status="pending").exists(),
        timeout=60,
        what="validation",
    )
    assert set(BotVersion.objects.values_list("status", flat=True)) == {"valid"}
    for bot_id in bot_ids:
        bot = client.get(f"/api/bots/{bot_id}/").json()
        assert bot["active_version"] == 1

    admin = api(staff)
    created = admin.post(
        "/api/tournaments/", {"name": "E2E cup", "game": "lie21", "seed": 5}, format="json"
    )
    assert created.status_code == 201, created.content
    tournament_id = created.json()["id"]
    started = admin.post(f"/api/tournaments/{tournament_id}/start/")
    assert started.status_code == 200, started.content

    tournament = wait_for(
        lambda: Tournament.objects.filter(pk=tournament_id, status="finished").first(),
        timeout=120,
        what="the tournament to finish",
    )
    matches = Match.objects.filter(tournament=tournament)
    assert matches.count() == 6
    assert set(matches.values_list("status", flat=True)) == {"done"}
    assert set(matches.values_list("attempts", flat=True)) == {1}

    standings = client.get(f"/api/tournaments/{tournament_id}/standings/").json()
    assert standings["status"] == "finished"
    assert (standings["matches_total"], standings["matches_done"]) == (6, 6)
    assert sorted(row["bot"]["id"] for row in standings["rows"]) == sorted(bot_ids)
    assert all(row["played"] == 3 for row in standings["rows"])
    assert standings["rows"][0]["rank"] == 1
    assert len(standings["crosstable"]["cells"]) == 12
    assert standings == tournament.standings

    # Placement matches ran too; wait for everything, then every result is rated once.
    wait_for(all_over, timeout=60, what="ladder placement matches")
    wait_for(
        lambda: not Match.objects.filter(status="done", rated=False).exists(),
        timeout=30,
        what="rating",
    )
    done = Match.objects.filter(status="done")
    assert RatingHistory.objects.count() == 2 * done.count()
    for rating in Rating.objects.filter(bot_id__in=bot_ids):
        played = done.filter(seats__version=rating.version_id).count()
        assert rating.matches == played == rating.wins + rating.draws + rating.losses
        assert rating.sigma < 25 / 3
        assert rating.score == pytest.approx(rating.mu - 3 * rating.sigma)

    # Every match has its replay and both bots' logs; the API serves the replay.
    assert Replay.objects.filter(match__in=done).count() == done.count()
    assert MatchLog.objects.filter(match__in=done).count() == 2 * done.count()
    match = matches.first()
    response = client.get(f"/api/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="identity")
    assert response.status_code == 200
    body = response.content
    replay = json.loads(gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body)
    assert replay["seed"] == match.seed
    seats = list(match.seats.order_by("seat"))
    assert replay["scores"] == [seat.score for seat in seats]
    assert replay["placings"] == [seat.placing for seat in seats]
    chatty = MatchLog.objects.filter(bot__name="chatty").first()
    assert "hello from the chatty bot" in chatty.output
