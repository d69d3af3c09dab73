"""Every read of the arena, as plain keyword-only functions that return querysets or values.

The API views and the server-rendered pages share these, so each one selects what a list
of N rows needs in a constant number of queries (``select_related``, deferred blobs).
Writes live in ``arena.services``.
"""
