"""The ladder's cache version, kept under its old name for ``arena.services.rating_fit``.

It lives in :mod:`arena.freshness`, below the selectors that read it and the services that
bump it; import it from there.
"""

from arena.freshness import ladder_changed, ladder_version

__all__ = ["ladder_changed", "ladder_version"]
