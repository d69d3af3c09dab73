"""django-filter FilterSets for the public lists, shared by the API and the pages.

A page passes ``request.GET`` to a selector's ``filters`` argument; the API hands the same
FilterSet to DRF's ``DjangoFilterBackend`` so the OpenAPI schema documents each parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from arena.models import Bot, Match, MatchSeat, Tournament
from arena.models.games import GAME_CHOICES
from engine.registry import GAMES

__all__ = ["BotFilter", "MatchFilter", "TournamentFilter", "apply_filters"]

# Ids are 64-bit: a larger number would overflow the database's integer, not just miss.
MAX_ID = 2**63 - 1


class IdFilter(django_filters.NumberFilter):
    """An exact id: an integer in the database's range (NumberFilter would take 1.5)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class _GameField(django_filters.fields.ChoiceField):
    def validate(self, value: Any) -> None:
        if value not in self.empty_values and not self.valid_value(value):
            raise ValidationError(
                f"Unknown game {value!r}; hosted games: {', '.join(GAMES)}.", code="unknown_game"
            )
        super().validate(value)


class GameFilter(django_filters.ChoiceFilter):
    """A hosted game's id; any other is ``unknown_game``, the code every ``game`` field uses."""

    field_class = _GameField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("choices", GAME_CHOICES)
        super().__init__(*args, **kwargs)


def apply_filters(
    filterset: type[django_filters.FilterSet], queryset: QuerySet, filters: Mapping[str, Any] | None
) -> QuerySet:
    """``queryset`` narrowed by ``filters`` (e.g. ``request.GET``); bad values raise.

    Raising instead of ignoring a bad value (django-filter's default) keeps a typo in a
    filter from silently showing every row.
    """
    if not filters:  # none given (None or empty): nothing to narrow, no form to build
        return queryset
    bound = filterset(filters, queryset=queryset)
    if not bound.is_valid():
        raise ValidationError(bound.errors.as_data())
    return bound.qs


class BotFilter(django_filters.FilterSet):
    game = GameFilter()
    owner = django_filters.CharFilter(
        field_name="owner__username", help_text="The owner's username."
    )
    is_active = django_filters.BooleanFilter()
    search = django_filters.CharFilter(
        field_name="name", lookup_expr="icontains", help_text="Part of the bot's name."
    )

    class Meta:
        model = Bot
        fields = ["game", "owner", "is_active", "search"]


class MatchFilter(django_filters.FilterSet):
    bot = IdFilter(method="filter_bot", help_text="A bot id: its matches in any seat.")
    opponent = IdFilter(
        method="filter_opponent",
        help_text="A second bot id: only the matches it shared with ``bot`` (a pairing's "
        "matches, with ``tournament``).",
    )
    version = IdFilter(method="filter_version", help_text="A bot version's id: its matches.")
    tournament = IdFilter(field_name="tournament_id")
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    game = GameFilter()
    kind = django_filters.ChoiceFilter(choices=Match.Kind.choices)

    class Meta:
        model = Match
        fields = ["bot", "opponent", "version", "tournament", "status", "game", "kind"]

    def filter_bot(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        # A subquery, not a join: a bot's two versions may share a match (a comparison).
        seats = MatchSeat.objects.filter(bot_id=value).values("match_id")
        return queryset.filter(pk__in=seats)

    def filter_opponent(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(pk__in=MatchSeat.objects.filter(bot_id=value).values("match_id"))

    def filter_version(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(pk__in=MatchSeat.objects.filter(version_id=value).values("match_id"))


class TournamentFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    game = GameFilter()

    class Meta:
        model = Tournament
        fields = ["status", "game"]
