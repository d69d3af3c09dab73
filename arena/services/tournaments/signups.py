"""Who plays a tournament: its entry rule at the start, and owners' sign-ups before it.

A sign-up tournament takes bots until its deadline: each owner signs up their own bots (one
entry per bot), organisers also the platform's built-in bots; the version that plays is
the bot's active version at the start, frozen then.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from arena.errors import Conflict, Forbidden, InvalidInput, NotFound
from arena.models import Bot, BotVersion, Rating, Tournament, TournamentSignup
from arena.selectors.accounts import is_organiser
from arena.services.builtins import ARENA_USERNAME

__all__ = [
    "eligible_count",
    "tournament_participants",
    "tournament_signup",
    "tournament_withdraw",
]


def _eligible(game: str) -> Any:
    return Bot.objects.filter(
        game=game, is_active=True, active_version__status=BotVersion.Status.VALID
    )


def eligible_count(*, game: str) -> int:
    """How many bots could enter a tournament of ``game`` now (every one of ``all``)."""
    return _eligible(game).count()


def tournament_participants(*, game: str, tournament: Tournament | None = None) -> list[Bot]:
    """Who plays, as the tournament's entry says (without one: every bot of the game).

    Always active bots of ``game`` whose active version is valid, in id order: every one
    (``all``), those signed up (``signup``), or the ``entry_limit`` best by the ladder's
    displayed rating (``top``).
    """
    bots = _eligible(game).select_related("active_version")
    if tournament is not None and tournament.entry == Tournament.Entry.SIGNUP:
        bots = bots.filter(pk__in=tournament.signups.values("bot_id"))
    elif tournament is not None and tournament.entry == Tournament.Entry.TOP:
        top = (
            Rating.objects.filter(
                game=game, current=True, bot__in=bots, version=F("bot__active_version")
            )
            .order_by("-rating", "id")
            .values_list("bot_id", flat=True)[: tournament.entry_limit]
        )
        bots = bots.filter(pk__in=list(top))
    return list(bots.order_by("id"))


def tournament_signup(
    *, tournament_id: int, bot_id: int, user: Any
) -> tuple[TournamentSignup, bool]:
    """Enter ``bot_id`` into a sign-up tournament before its deadline; (the sign-up,
    whether it is new). Signing up twice keeps the first.

    The bot's owner may; so may an organiser for a built-in bot. NotFound for a missing bot;
    Forbidden for anyone else's; InvalidInput for a bot of another game; Conflict when the
    tournament takes no sign-ups (not ``signup``, started, or past its deadline) or the bot
    has no valid active version.
    """
    with transaction.atomic():
        tournament = _signup_open(tournament_id)
        bot = _enterable_bot(bot_id, user)
        if bot.game != tournament.game:
            raise InvalidInput(
                f"{bot.name} plays {bot.game}; this tournament is {tournament.game}",
                code="game_mismatch",
            )
        if (
            not bot.is_active
            or bot.active_version is None
            or (bot.active_version.status != BotVersion.Status.VALID)
        ):
            raise Conflict(f"{bot.name} has no valid active version to enter", code="not_valid")
        return TournamentSignup.objects.get_or_create(tournament=tournament, bot=bot)


def tournament_withdraw(*, tournament_id: int, bot_id: int, user: Any) -> None:
    """Take a signed-up bot out again, before the deadline (whoever may sign it up)."""
    with transaction.atomic():
        tournament = _signup_open(tournament_id)
        bot = _enterable_bot(bot_id, user)
        deleted, _ = TournamentSignup.objects.filter(tournament=tournament, bot=bot).delete()
        if not deleted:
            raise NotFound(f"{bot.name} is not signed up for this tournament.")


def _signup_open(tournament_id: int) -> Tournament:
    """The tournament, locked, if it takes sign-ups now (else Conflict)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    if tournament.entry != Tournament.Entry.SIGNUP:
        raise Conflict("this tournament takes no sign-ups", code="no_signup")
    if tournament.status != Tournament.Status.PENDING or (
        tournament.signup_deadline is not None and tournament.signup_deadline <= timezone.now()
    ):
        raise Conflict("sign-up for this tournament is closed", code="signup_closed")
    return tournament


def _enterable_bot(bot_id: int, user: Any) -> Bot:
    """The bot, if ``user`` may sign it up: its owner, or an organiser for a built-in bot."""
    bot = Bot.objects.select_related("active_version", "owner").filter(pk=bot_id).first()
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    if not user.is_authenticated:
        raise Forbidden("Only the bot's owner may enter it.")
    if bot.owner_id == user.pk:
        return bot
    if bot.is_builtin and bot.owner.username == ARENA_USERNAME and is_organiser(user):
        return bot
    raise Forbidden("Only the bot's owner (or an organiser, for a built-in bot) may enter it.")
