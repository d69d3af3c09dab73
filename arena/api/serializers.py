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
    """A version's TrueSkill rating and its record in rated matches (a ``Rating`` row).

    Subclasses name the fields they add in ``LEADING`` to have them first.
    """

    LEADING: tuple[str, ...] = ()

    mu = serializers.FloatField(help_text="Estimated skill (TrueSkill mean); starts at 25.")
    sigma = serializers.FloatField(
        help_text="Uncertainty of mu; starts at 25/3 and shrinks as the version plays."
    )
    score = serializers.FloatField(
        help_text="mu - 3 sigma: the conservative skill the ladder sorts by."
    )
    low = serializers.FloatField(help_text="mu - 3 sigma (the same as score).")
    high = serializers.FloatField(help_text="mu + 3 sigma: the skill is very likely below.")
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
