"""Every state change of the arena, as plain keyword-only functions named ``<entity>_<action>``.

Views, serializers, admin actions, management commands and Celery tasks call these and stay
thin. Reads live in ``arena.selectors``.
"""
