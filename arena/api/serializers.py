"""Output serializers shared by several endpoints (each view keeps its own inputs)."""

from __future__ import annotations

from rest_framework import serializers

__all__ = ["BotRefSerializer"]


class BotRefSerializer(serializers.Serializer):
    """A bot as other objects mention it: enough to name and link it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
