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
* the tests read every row these statements write through the ORM
  (``tests/arena/services/matches/test_match_statements.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

__all__ = ["execute", "exists", "insert", "prep", "table", "update", "update_rows"]

Model = type[models.Model]


def table(model: Model) -> str:
    """The model's table name, quoted for the backend."""
    return _db().ops.quote_name(model._meta.db_table)


def prep(model: Model, name: str, value: Any) -> Any:
    """``value`` as field ``name`` of ``model`` is stored (a datetime on SQLite, JSON...)."""
    return _field(model, name).get_db_prep_save(value, _db())


def execute(sql: str, params: Sequence[Any] = ()) -> int:
    """Run one statement; the number of rows it changed."""
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def exists(sql: str, params: Sequence[Any] = ()) -> bool:
    """Whether the query returns a row."""
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def update(model: Model, values: Mapping[str, Any], where: str, params: Sequence[Any] = ()) -> int:
    """``UPDATE <model> SET <values> WHERE <where>``; the number of rows changed.

    ``values`` are by field name or attname (``match`` or ``match_id``). ``where`` is SQL
    with ``%s`` for each of ``params``, which are passed as they are (use :func:`prep` for a
    value the backend stores differently, such as a datetime).
    """
    db, names = _db(), tuple(values)
    statement = _update_statement(db.vendor, model, names) + where
    return execute(statement, [*_prepared(db, model, names, values), *params])


def update_rows(rows: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of each instance (all of one model) to its row, by primary key.

    One statement run for every row (``executemany``: on PostgreSQL one round trip for all).
    """
    if not rows:
        return
    db, model, names = _db(), type(rows[0]), tuple(fields)
    pk = db.ops.quote_name(_column(model, model._meta.pk))
    statement = f"{_update_statement(db.vendor, model, names)}{pk} = %s"
    params = [[*_prepared(db, model, names, _attributes(row, names)), row.pk] for row in rows]
    with db.cursor() as cursor:
        cursor.executemany(statement, params)


def insert(model: Model, rows: Sequence[Mapping[str, Any]]) -> None:
    """One ``INSERT`` of ``rows`` (mappings with the same fields, by name or attname)."""
    if not rows:
        return
    db, names = _db(), tuple(rows[0])
    marks = "(" + ", ".join(["%s"] * len(names)) + ")"
    columns = ", ".join(_columns(db.vendor, model, names))
    params = [value for row in rows for value in _prepared(db, model, names, row)]
    rows_sql = ", ".join([marks] * len(rows))
    execute(f"INSERT INTO {table(model)} ({columns}) VALUES {rows_sql}", params)


# --- what every call would otherwise look up again ---------------------------------------


def _db() -> BaseDatabaseWrapper:
    """This thread's default connection (``django.db.connection`` looks it up at every use)."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _field(model: Model, name: str) -> models.Field:
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):  # a reverse relation: nothing of its own to write
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def _column(model: Model, field: models.Field | None) -> str:
    """The column of one of ``model``'s concrete fields (its pk included)."""
    if field is None or field.column is None:
        raise TypeError(f"{model.__name__}: {field!r} has no column")
    return field.column


@functools.cache
def _columns(vendor: str, model: Model, names: tuple[str, ...]) -> tuple[str, ...]:
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name  # the same for every thread
    return tuple(quote(_column(model, _field(model, name))) for name in names)


@functools.cache
def _update_statement(vendor: str, model: Model, names: tuple[str, ...]) -> str:
    """``UPDATE <table> SET <column> = %s, ... WHERE `` (the caller adds the condition)."""
    sets = ", ".join(f"{column} = %s" for column in _columns(vendor, model, names))
    return f"UPDATE {table(model)} SET {sets} WHERE "


def _prepared(
    db: BaseDatabaseWrapper, model: Model, names: tuple[str, ...], values: Mapping[str, Any]
) -> list[Any]:
    return [_field(model, name).get_db_prep_save(values[name], db) for name in names]


def _attributes(row: models.Model, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}
