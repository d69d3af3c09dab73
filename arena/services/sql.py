"""Plain SQL for the statements every played match runs; the rest of the arena uses the ORM.

A worker reads, claims, records and rates each match it plays: about fifteen statements per
match, hundreds of matches per tournament. Through the ORM each of them costs a millisecond
or more of Python (building the query, then the model instances), more than the database
takes to run it, and on a worker with a match per core that is CPU taken from the bots of
the match next door. Written out with these helpers they cost a fraction of that
(``benchmarks/match_bookkeeping.py``; docs/workers.md, "What bounds the pipeline").

What keeps them honest:

* table and column names come from the models, quoted by the backend;
* every value goes through its field's ``get_db_prep_save``, so dates, JSON and bytes are
  stored exactly as the ORM stores them, on SQLite and PostgreSQL alike;
* rows are read back as model instances by ``Model.objects.raw``, with the ORM's own
  converters;
* the tests read every row these statements write through the ORM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection, models

__all__ = ["column", "execute", "exists", "insert", "prep", "table", "update", "update_rows"]


def table(model: type[models.Model]) -> str:
    """The model's table name, quoted for the backend."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of field ``name`` (a name or an attname: ``match`` or ``match_id``)."""
    return connection.ops.quote_name(model._meta.get_field(name).column)


def prep(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` as field ``name`` of ``model`` is stored (a datetime on SQLite, JSON...)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def execute(sql: str, params: Sequence[Any] = ()) -> int:
    """Run one statement; the number of rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def exists(sql: str, params: Sequence[Any] = ()) -> bool:
    """Whether the query returns a row."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def update(
    model: type[models.Model], values: Mapping[str, Any], where: str, params: Sequence[Any] = ()
) -> int:
    """``UPDATE <model> SET <values> WHERE <where>``; the number of rows changed.

    ``where`` is SQL with ``%s`` for each of ``params``, which are passed as they are (use
    :func:`prep` for a value the backend stores differently, such as a datetime).
    """
    sets = ", ".join(f"{column(model, name)} = %s" for name in values)
    values_prepped = [prep(model, name, value) for name, value in values.items()]
    return execute(f"UPDATE {table(model)} SET {sets} WHERE {where}", [*values_prepped, *params])


def update_rows(rows: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of each instance (all of one model) to its row, by primary key.

    One statement run for every row (``executemany``: on PostgreSQL one round trip for all).
    """
    if not rows:
        return
    model = type(rows[0])
    sets = ", ".join(f"{column(model, name)} = %s" for name in fields)
    pk = connection.ops.quote_name(model._meta.pk.column)
    statement = f"UPDATE {table(model)} SET {sets} WHERE {pk} = %s"
    params = [[*(prep(model, name, getattr(row, name)) for name in fields), row.pk] for row in rows]
    with connection.cursor() as cursor:
        cursor.executemany(statement, params)


def insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> None:
    """One ``INSERT`` of ``rows`` (mappings with the same fields, by name or attname)."""
    if not rows:
        return
    names = list(rows[0])
    marks = "(" + ", ".join(["%s"] * len(names)) + ")"
    params = [prep(model, name, row[name]) for row in rows for name in names]
    columns = ", ".join(column(model, name) for name in names)
    execute(
        f"INSERT INTO {table(model)} ({columns}) VALUES {', '.join([marks] * len(rows))}", params
    )
