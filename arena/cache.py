"""The shared cache's Redis backend: Django's, without building a client per command.

Django's ``RedisCacheClient`` makes a new ``redis.Redis`` for every cache call, and redis-py
fills a table of some 170 response callbacks for each new client: about a fifth of a
millisecond of CPU per ``cache.get``, paid several times by every page (ladder versions,
rendered pages). A client is only a handle on its connection pool and is safe to share, so
here each pool gets one, made once. Everything else (pools, serialisation, timeouts) is
Django's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.cache.backends import redis as django_redis

__all__ = ["RedisCache"]


class _ReusingClient(django_redis.RedisCacheClient):
    if TYPE_CHECKING:  # Django's, private: its stubs leave them out

        def _get_connection_pool(self, write: bool) -> Any: ...

        _client: Callable[..., Any]  # redis.Redis

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusingClient
