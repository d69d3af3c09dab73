"""Who plays a tournament: every bot (the default), sign-up by owners until a deadline, or
the top N of the ladder; the entered version is frozen at the start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Bot, Tournament, TournamentEntry, TournamentSignup
from arena.services.tournaments import tournament_start_due
from tests.arena.factories import BotFactory, BotVersionFactory, RatingFactory, TournamentFactory
from tests.arena.helpers import assert_error
from workers.tasks import start_due_tournaments


def valid_bot(owner, name: str, game: str = "lie21") -> Bot:
    return BotVersionFactory(bot=BotFactory(owner=owner, name=name, game=game)).bot


def signup_tournament(**fields) -> Tournament:
    return TournamentFactory(
        entry="signup", signup_deadline=timezone.now() + timedelta(hours=1), **fields
    )


def sign_up(client, tournament: Tournament, bot: Bot):
    return client.post(f"/api/tournaments/{tournament.pk}/signups/", {"bot": bot.pk}, format="json")


class TestCreate:
    def test_staff_open_a_tournament_for_sign_up(self, staff_client):
        deadline = (timezone.now() + timedelta(days=1)).replace(microsecond=0)
        response = staff_client.post(
            "/api/tournaments/",
            {
                "name": "Open",
                "game": "lie21",
                "entry": "signup",
                "signup_deadline": deadline.isoformat(),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        body = response.json()
        assert (body["entry"], body["signups"]) == ("signup", 0)
        assert body["signup_deadline"].startswith(deadline.strftime("%Y-%m-%dT%H:%M:%S"))

    @pytest.mark.parametrize(
        ("extra", "code"),
        [
            ({"entry": "signup"}, "bad_signup_deadline"),
            ({"entry": "signup", "signup_deadline": "2001-01-01T00:00:00Z"}, "bad_signup_deadline"),
            ({"entry": "all", "signup_deadline": "2999-01-01T00:00:00Z"}, "bad_signup_deadline"),
            ({"entry": "top"}, "bad_entry_limit"),
            ({"entry": "all", "entry_limit": 4}, "bad_entry_limit"),
        ],
    )
    def test_entry_options_that_do_not_fit_are_a_400(self, staff_client, extra, code):
        response = staff_client.post(
            "/api/tournaments/", {"name": "x", "game": "lie21", **extra}, format="json"
        )
        assert assert_error(response, 400)["code"] == code
        assert not Tournament.objects.exists()

    def test_an_unknown_entry_is_a_400_naming_the_field(self, staff_client):
        response = staff_client.post(
            "/api/tournaments/", {"name": "x", "game": "lie21", "entry": "lottery"}, format="json"
        )
        assert "entry" in assert_error(response, 400)["fields"]


class TestSignUp:
    def test_an_owner_signs_a_bot_up_once(self, owner, owner_client, anon_client):
        tournament = signup_tournament()
        bot = valid_bot(owner, "mine")
        first = sign_up(owner_client, tournament, bot)
        assert first.status_code == 201, first.json()
        assert first.json()["bot"] == {"id": bot.pk, "name": "mine", "owner": owner.username}
        assert sign_up(owner_client, tournament, bot).status_code == 200
        assert TournamentSignup.objects.filter(tournament=tournament).count() == 1
        listed = anon_client.get(f"/api/tournaments/{tournament.pk}/signups/").json()
        assert [row["bot"]["id"] for row in listed["results"]] == [bot.pk]
        detail = anon_client.get(f"/api/tournaments/{tournament.pk}/").json()
        assert detail["signups"] == 1

    def test_the_signups_are_paged_first_come_first(self, owner, owner_client, anon_client):
        tournament = signup_tournament()
        bots = [valid_bot(owner, f"bot{i}") for i in range(3)]
        for bot in bots:
            assert sign_up(owner_client, tournament, bot).status_code == 201
        url = f"/api/tournaments/{tournament.pk}/signups/"
        first = anon_client.get(url, {"page_size": 2}).json()
        second = anon_client.get(url, {"page_size": 2, "page": 2}).json()
        assert first["count"] == 3 and first["next"] and second["next"] is None
        listed = [row["bot"]["id"] for row in first["results"] + second["results"]]
        assert listed == [bot.pk for bot in bots]
        assert_error(anon_client.get(url, {"page_size": 1000}), 400)
        assert_error(anon_client.get(url, {"page": 3, "page_size": 2}), 404)

    def test_the_signups_of_no_tournament_are_a_404(self, anon_client):
        assert_error(anon_client.get("/api/tournaments/999999/signups/"), 404)

    def test_nobody_signs_up_someone_elses_bot(self, other_user, owner_client):
        tournament = signup_tournament()
        theirs = valid_bot(other_user, "theirs")
        assert_error(sign_up(owner_client, tournament, theirs), 403)
        assert not TournamentSignup.objects.exists()

    def test_signing_up_needs_an_account(self, owner, anon_client):
        tournament = signup_tournament()
        assert sign_up(anon_client, tournament, valid_bot(owner, "mine")).status_code == 401
        assert not TournamentSignup.objects.exists()

    @pytest.mark.parametrize(
        ("tournament_fields", "code"),
        [
            ({"entry": "all"}, "no_signup"),
            ({"status": "running"}, "signup_closed"),
        ],
    )
    def test_a_tournament_not_taking_sign_ups_is_a_409(
        self, owner, owner_client, tournament_fields, code
    ):
        fields = {"entry": "signup", "signup_deadline": timezone.now() + timedelta(hours=1)}
        tournament = TournamentFactory(**{**fields, **tournament_fields})
        response = sign_up(owner_client, tournament, valid_bot(owner, "mine"))
        assert assert_error(response, 409)["code"] == code
        assert not TournamentSignup.objects.exists()

    def test_sign_up_closes_at_the_deadline(self, owner, owner_client):
        tournament = signup_tournament()
        Tournament.objects.filter(pk=tournament.pk).update(
            signup_deadline=timezone.now() - timedelta(seconds=1)
        )
        response = sign_up(owner_client, tournament, valid_bot(owner, "late"))
        assert assert_error(response, 409)["code"] == "signup_closed"

    def test_a_bot_of_another_game_or_without_a_valid_version_is_refused(self, owner, owner_client):
        tournament = signup_tournament()
        other_game = valid_bot(owner, "liar", game="liars")
        assert assert_error(sign_up(owner_client, tournament, other_game), 400)["code"] == (
            "game_mismatch"
        )
        pending = BotFactory(owner=owner, name="pending")
        BotVersionFactory(bot=pending, status="pending")
        assert assert_error(sign_up(owner_client, tournament, pending), 409)["code"] == (
            "not_valid"
        )
        missing = owner_client.post(
            f"/api/tournaments/{tournament.pk}/signups/", {"bot": 999999}, format="json"
        )
        assert_error(missing, 404)
        assert not TournamentSignup.objects.exists()

    def test_an_owner_withdraws_a_bot(self, owner, owner_client, other_client):
        tournament = signup_tournament()
        bot = valid_bot(owner, "mine")
        sign_up(owner_client, tournament, bot)
        url = f"/api/tournaments/{tournament.pk}/signups/{bot.pk}/"
        assert_error(other_client.delete(url), 403)
        assert owner_client.delete(url).status_code == 204
        assert not TournamentSignup.objects.exists()
        assert_error(owner_client.delete(url), 404)


class TestStart:
    def test_it_cannot_start_before_its_deadline(self, owner, staff_client):
        tournament = signup_tournament()
        response = staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
        assert assert_error(response, 409)["code"] == "signup_open"
        assert Tournament.objects.get(pk=tournament.pk).status == "pending"

    def test_the_control_tick_starts_it_at_the_deadline_with_the_bots_signed_up(
        self, owner, owner_client
    ):
        tournament = signup_tournament()
        bots = [valid_bot(owner, name) for name in ("a", "b", "c")]
        valid_bot(owner, "stayed-home")
        for bot in bots:
            sign_up(owner_client, tournament, bot)
        Tournament.objects.filter(pk=tournament.pk).update(
            signup_deadline=timezone.now() - timedelta(seconds=1)
        )
        start_due_tournaments()  # beat's tick, every few seconds
        tournament.refresh_from_db()
        assert tournament.status == "running"
        entries = TournamentEntry.objects.filter(tournament=tournament)
        assert {(e.bot_id, e.version_id) for e in entries} == {
            (bot.pk, bot.active_version_id) for bot in bots
        }
        assert tournament_start_due() == {"started": 0, "cancelled": 0}, "once"

    def test_too_few_sign_ups_cancel_it_at_the_deadline(self, owner, owner_client):
        tournament = signup_tournament()
        sign_up(owner_client, tournament, valid_bot(owner, "alone"))
        assert tournament_start_due() == {"started": 0, "cancelled": 0}, "not yet due"
        Tournament.objects.filter(pk=tournament.pk).update(
            signup_deadline=timezone.now() - timedelta(seconds=1)
        )
        assert tournament_start_due() == {"started": 0, "cancelled": 1}
        tournament.refresh_from_db()
        assert tournament.status == "cancelled" and not tournament.entries.exists()

    def test_the_top_of_the_ladder_is_invited(self, owner, staff_client):
        ratings = {}
        for name, rating in (("first", 30.0), ("third", 10.0), ("second", 20.0)):
            version = BotVersionFactory(bot=BotFactory(owner=owner, name=name))
            # The displayed rating decides (the live mu says the opposite here).
            ratings[name] = RatingFactory(version=version, rating=rating, mu=40 - rating)
        unrated = valid_bot(owner, "unrated")
        tournament = TournamentFactory(entry="top", entry_limit=2)
        assert staff_client.post(f"/api/tournaments/{tournament.pk}/start/").status_code == 200
        entered = set(tournament.entries.values_list("bot_id", flat=True))
        assert entered == {ratings["first"].bot_id, ratings["second"].bot_id}
        assert unrated.pk not in entered


def test_the_page_lists_the_bots_signed_up(owner, owner_client, anon_client):
    tournament = signup_tournament(name="Open")
    bot = valid_bot(owner, "entrant")
    sign_up(owner_client, tournament, bot)
    html = anon_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="signups"' in html and "Open to bot owners until" in html
    assert f'<li data-bot="{bot.pk}">' in html
