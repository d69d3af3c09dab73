"""factory_boy factories for the arena's models.

Versions get a real file (under the test's MEDIA_ROOT, see conftest) so source downloads
work; matches default to a finished one with a result.
"""

from __future__ import annotations

import hashlib

import factory
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.utils import timezone

from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchLog,
    Rating,
    Replay,
    Tournament,
    TournamentEntry,
    TournamentSchedule,
)
from engine.replay import REPLAY_FORMAT, dumps

BOT_SOURCE = b"def act(observation):\n    return observation['legal_actions'][0]\n"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")


class BotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Bot

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"bot-{n}")
    game = "lie21"
    description = "A test bot."


class BotVersionFactory(factory.django.DjangoModelFactory):
    """A version; ``status="valid"`` and ``activate=True`` make it the bot's active one."""

    class Meta:
        model = BotVersion
        skip_postgeneration_save = True

    class Params:
        source = BOT_SOURCE

    bot = factory.SubFactory(BotFactory)
    number = factory.LazyAttribute(lambda version: version.bot.versions.count() + 1)
    filename = "bot.py"
    kind = BotVersion.Kind.PY
    sha256 = factory.LazyAttribute(lambda version: hashlib.sha256(version.source).hexdigest())
    size = factory.LazyAttribute(lambda version: len(version.source))
    status = BotVersion.Status.VALID
    # Saved through the field's upload_to, as an upload would be.
    file = factory.LazyAttribute(lambda version: ContentFile(version.source, name=version.filename))

    @factory.post_generation
    def activate(self: BotVersion, create: bool, extracted: bool | None, **kwargs) -> None:
        if create and extracted is not False and self.status == BotVersion.Status.VALID:
            Bot.objects.filter(pk=self.bot_id).update(active_version=self)
            self.bot.active_version = self


class MatchFactory(factory.django.DjangoModelFactory):
    """A finished ladder match that seat A won on match points."""

    class Meta:
        model = Match

    version_a = factory.SubFactory(BotVersionFactory)
    version_b = factory.SubFactory(BotVersionFactory)
    bot_a = factory.SelfAttribute("version_a.bot")
    bot_b = factory.SelfAttribute("version_b.bot")
    seed = factory.Sequence(lambda n: 1000 + n)
    status = Match.Status.DONE
    outcome = Match.Outcome.A
    reason = "match_points"
    match_points_a = 7
    match_points_b = 3
    game_wins_a = 4
    game_wins_b = 2
    points_a = 420
    points_b = 300
    games_played = 6
    duration_s = 1.5
    started_at = factory.LazyFunction(timezone.now)
    finished_at = factory.LazyFunction(timezone.now)
    rated = True


def replay_document(match: Match) -> dict:
    """A small, well-formed replay document for ``match``."""
    return {
        "format": REPLAY_FORMAT,
        "game": match.game,
        "seed": match.seed,
        "players": [match.bot_a.name, match.bot_b.name],
        "options": {},
        "limits": {},
        "first_dealer": 0,
        "games": [],
        "result": {"winner": 0, "reason": "match_points"},
    }


class ReplayFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Replay

    match = factory.SubFactory(MatchFactory)
    data = factory.LazyAttribute(lambda replay: dumps(replay_document(replay.match)))
    size = factory.LazyAttribute(lambda replay: len(replay.data))
    format = REPLAY_FORMAT


class MatchLogFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MatchLog

    match = factory.SubFactory(MatchFactory)
    seat = 0
    bot = factory.LazyAttribute(lambda log: log.match.bot_b if log.seat else log.match.bot_a)
    output = factory.LazyAttribute(lambda log: f"secret output of seat {log.seat}")
    traceback = ""


class RatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rating

    bot = factory.SubFactory(BotFactory)
    game = "lie21"
    mu = factory.Sequence(lambda n: 25.0 + n % 17)
    sigma = 2.0
    score = factory.LazyAttribute(lambda rating: rating.mu - 3 * rating.sigma)
    matches = 10
    wins = 6
    draws = 1
    losses = 3


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    game = "lie21"
    seed = factory.Sequence(lambda n: n)


class TournamentEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentEntry

    tournament = factory.SubFactory(TournamentFactory)
    version = factory.SubFactory(BotVersionFactory)
    bot = factory.SelfAttribute("version.bot")


class TournamentScheduleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentSchedule

    name = factory.Sequence(lambda n: f"Nightly {n}")
    game = "lie21"
    crontab = "0 3 * * *"
