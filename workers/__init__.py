"""Celery app and thin tasks; every task calls a function in ``arena.services``."""

from workers.celery import app

__all__ = ["app"]
