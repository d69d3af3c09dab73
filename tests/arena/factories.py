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
    MatchSeat,
    PlaygroundDraft,
    PlaygroundMatch,
    PlaygroundRun,
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
    """A finished ladder match that seat 0 won: ``MatchFactory(versions=[v1, v2, v3],
    placings=(0, 2, 1), scores=(5, 1, 3), faults={2: "crash"})``.

    Without ``versions``, two new bots of Lie 21 (each with a valid, active version).
    Seats are created with it; ``placings=None`` leaves them unplaced (a queued match).
    """

    class Meta:
        model = Match

    game = None  # the first version's game (Lie 21 when no versions are given)
    seed = factory.Sequence(lambda n: 1000 + n)
    status = Match.Status.DONE
    reason = "match_points"
    games_played = 6
    totals = factory.LazyFunction(
        lambda: {"game_wins": [4, 2], "points": [420, 300], "sweeps": [0, 0]}
    )
    duration_s = 1.5
    started_at = factory.LazyFunction(timezone.now)
    finished_at = factory.LazyFunction(timezone.now)
    rated = True

    @classmethod
    def _create(
        cls,
        model_class,
        *args,
        versions=None,
        placings=(0, 1),
        scores=None,
        faults=None,
        **kwargs,
    ):
        if versions is None:
            game = kwargs.get("game") or "lie21"
            count = len(placings) if placings is not None else 2
            versions = [BotVersionFactory(bot__game=game) for _ in range(count)]
        if not kwargs.get("game"):
            kwargs["game"] = versions[0].bot.game
        kwargs.setdefault("seat_count", len(versions))
        match = super()._create(model_class, *args, **kwargs)
        scores = scores if scores is not None else [7, 3, 2, 1, 0, 0][: len(versions)]
        faults = faults or {}
        MatchSeat.objects.bulk_create(
            MatchSeat(
                match=match,
                seat=seat,
                version=version,
                bot_id=version.bot_id,
                placing=placings[seat] if placings is not None else None,
                score=scores[seat] if placings is not None else 0,
                fault=faults.get(seat, ""),
                fault_detail=f"the bot failed ({faults[seat]})" if seat in faults else "",
            )
            for seat, version in enumerate(versions)
        )
        return match


def replay_document(match: Match) -> dict:
    """A small, well-formed (format 2) replay document for ``match``, with no games."""
    seats = list(match.seats.order_by("seat"))
    return {
        "format": REPLAY_FORMAT,
        "game": match.game,
        "rules_version": 1,
        "options": {},
        "limits": {},
        "seed": match.seed,
        "first_dealer": 0,
        "seats": [
            {"seat": s.seat, "name": s.bot.name, "bot_seed": 0, "bot_id": s.bot_id} for s in seats
        ],
        "placings": [s.placing or 0 for s in seats],
        "scores": [s.score for s in seats],
        "reason": match.reason or "match_points",
        "games_played": 0,
        "totals": {},
        "faults": [],
        "games": [],
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
    bot = factory.LazyAttribute(lambda log: log.match.seats.get(seat=log.seat).bot)
    output = factory.LazyAttribute(lambda log: f"secret output of seat {log.seat}")
    traceback = ""


class RatingFactory(factory.django.DjangoModelFactory):
    """The rating of a version (by default its bot's current ladder entry)."""

    class Meta:
        model = Rating

    version = factory.SubFactory(BotVersionFactory)
    bot = factory.SelfAttribute("version.bot")
    game = factory.SelfAttribute("version.bot.game")
    current = True
    mu = factory.Sequence(lambda n: 25.0 + n % 17)
    sigma = 2.0
    score = factory.LazyAttribute(lambda rating: rating.mu - 3 * rating.sigma)
    # The displayed rating: by default the fit agrees with the live rating.
    prior_mu = 25.0
    rating = factory.SelfAttribute("mu")
    rating_sigma = factory.SelfAttribute("sigma")
    matches = 10
    wins = 6
    draws = 1
    losses = 3
    first_places = 7
    placing_sum = 3


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


class PlaygroundDraftFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlaygroundDraft

    owner = factory.SubFactory(UserFactory)
    game = "lie21"
    source = BOT_SOURCE.decode()


class PlaygroundRunFactory(factory.django.DjangoModelFactory):
    """A run of one played match against the built-in random bot, with a real replay (the
    engine plays it in-process: a few milliseconds) and the draft's output."""

    class Meta:
        model = PlaygroundRun
        skip_postgeneration_save = True

    owner = factory.SubFactory(UserFactory)
    game = "lie21"
    source = BOT_SOURCE.decode()
    sha256 = factory.LazyAttribute(lambda run: hashlib.sha256(run.source.encode()).hexdigest())
    opponents = factory.LazyFunction(
        lambda: [{"ref": "random", "label": "random (built-in)", "builtin": "random"}]
    )
    matches_requested = 1
    seed = factory.Sequence(lambda n: n + 1)

    @factory.post_generation
    def played(self: PlaygroundRun, create: bool, extracted: bool | None, **kwargs) -> None:
        if not create:
            return
        import engine

        bots = [engine.builtin_bot(self.game, "random")] * 2
        players = [engine.InProcessPlayer(name, bot) for name, bot in zip("ab", bots, strict=True)]
        result = engine.play_match(self.game, players, seed=self.seed, collect_logs=True)
        PlaygroundMatch.objects.create(
            run=self,
            number=1,
            seed=self.seed,
            seat_count=2,
            draft_seat=0,
            status=PlaygroundMatch.Status.DONE if extracted is not False else "queued",
            placings=list(result.placings),
            scores=list(result.scores),
            reason=result.reason,
            games_played=result.games_played,
            replay=dumps(result.replay) if extracted is not False else None,
            output="hello from the draft\n",
        )


def staff_match(staff) -> Match:
    """Rows for an API test of every endpoint to find as ``staff``: a rated bot of staff's
    (``staffbot``) and one of another owner's, and their match with its replay."""
    mine = BotVersionFactory(bot=BotFactory(owner=staff, name="staffbot")).bot
    theirs = BotVersionFactory().bot
    for bot in (mine, theirs):
        RatingFactory(version=bot.active_version)
    match = MatchFactory(versions=[mine.active_version, theirs.active_version])
    ReplayFactory(match=match)
    return match
