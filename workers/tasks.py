"""Celery tasks. Each one is a thin wrapper that calls ``arena.services``."""
