"""Output serializers shared by several endpoints (each view keeps its own inputs)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

__all__ = ["BotRefSerializer", "RatingRecordSerializer"]


class BotRefSerializer(serializers.Serializer):
    """A bot as other objects mention it: enough to name and link it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")


class RatingRecordSerializer(serializers.Serializer):
    """A version's rating and its record in rated matches (a ``Rating`` row).

    The displayed rating (``rating``, its 95% interval ``rating_low``..``rating_high``) is a
    whole-history fit (TrueSkill Through Time) of every rated match of the version, refitted
    as results arrive; the ladder ranks by it. ``mu`` and ``sigma`` are the live TrueSkill
    rating each match updates as it is recorded (what a match's rating change shows).
    Subclasses name the fields they add in ``LEADING`` to have them first.
    """

    LEADING: tuple[str, ...] = ()

    rating = serializers.FloatField(
        help_text="The displayed rating: the whole-history fit's estimate of the version's "
        "skill over all its rated matches (TrueSkill's scale; a first version starts at 25). "
        "The ladder ranks by it."
    )
    rating_sigma = serializers.FloatField(
        help_text="The rating's standard deviation: 25/3 before any match, shrinking as the "
        "version plays."
    )
    rating_low = serializers.FloatField(help_text="The rating's 95% interval, low end.")
    rating_high = serializers.FloatField(help_text="The rating's 95% interval, high end.")
    provisional = serializers.BooleanField(
        help_text="The interval is still wide (rating_sigma above 2.5): the version's place "
        "on the ladder is not firm yet."
    )
    mu = serializers.FloatField(
        help_text="The live TrueSkill rating, updated by each match as it is recorded (what "
        "a match's rating change shows); not the displayed rating."
    )
    sigma = serializers.FloatField(help_text="The live TrueSkill rating's uncertainty.")
    matches = serializers.IntegerField(help_text="Rated matches played.")
    wins = serializers.IntegerField(help_text="Matches placed first alone.")
    draws = serializers.IntegerField(help_text="Matches placed first, shared.")
    losses = serializers.IntegerField(help_text="Matches placed anywhere else.")
    first_places = serializers.IntegerField(help_text="wins + draws.")
    mean_place = serializers.FloatField(
        allow_null=True, help_text="Mean place, 1 = first; null before any match."
    )
    faults = serializers.IntegerField(help_text="Matches its own fault put it out of.")
    fault_rate = serializers.FloatField(
        allow_null=True, help_text="faults / matches; null before any match."
    )
    win_rate = serializers.FloatField(
        allow_null=True, help_text="wins / matches; null before any match."
    )

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        order = [*self.LEADING, *(name for name in fields if name not in self.LEADING)]
        return {name: fields[name] for name in order}
