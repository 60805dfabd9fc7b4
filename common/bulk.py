"""Writing many rows in one statement, whatever their number (a round's matches, the tournaments' sync, draws,
standings and ratings).

On PostgreSQL an UPDATE from arrays (:func:`update_rows`) and ``COPY`` (:func:`copy_rows`, :func:`copy_new_rows`
with ids drawn beforehand by :func:`reserve_ids`), so that the statements a service sends do not grow with the
field; on SQLite, the first-look setup, Django's bulk methods.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from typing import Any

from django.db import connection, models
from django.utils import timezone


def _concrete(field: Any) -> models.Field[Any, Any]:
    """A model field that is a column (``get_field`` may also return a reverse relation, which has none)."""
    if not isinstance(field, models.Field):
        raise TypeError(f"{field!r} is not a column")
    _column(field)
    return field


def _column(field: models.Field[Any, Any]) -> str:
    if field.column is None:
        raise TypeError(f"{field!r} is not a column")
    return field.column


def update_rows(model: type[models.Model], rows: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of many model instances in one statement, whatever their number.

    On PostgreSQL: ``UPDATE ... FROM unnest(<one array per column>)``, whose cost per row does not grow with the
    rows (``bulk_update`` writes one ``CASE WHEN`` branch per row, which PostgreSQL scans for every row, and splits
    large sets into batches). Elsewhere (SQLite, the first-look setup): ``bulk_update``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(rows, fields, batch_size=500)
        return
    meta = model._meta
    columns = [meta.pk, *(_concrete(meta.get_field(name)) for name in fields)]
    qn = connection.ops.quote_name
    names = [qn(_column(c)) for c in columns]
    arrays = [[c.get_db_prep_value(getattr(row, c.attname), connection) for row in rows] for c in columns]
    unnest = ", ".join(f"%s::{c.db_type(connection)}[]" for c in columns)
    sql = (
        f"UPDATE {qn(meta.db_table)} AS t SET {', '.join(f'{n} = v.{n}' for n in names[1:])} "
        f"FROM unnest({unnest}) AS v({', '.join(names)}) WHERE t.{names[0]} = v.{names[0]}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, arrays)


def copy_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert rows (values of ``fields``, attribute names such as ``entry_id``) in one statement, whatever their
    number: PostgreSQL's ``COPY ... FROM STDIN`` through psycopg, which sends the rows as one stream and skips the
    per-value work of an INSERT. Elsewhere (SQLite, the first-look setup): ``bulk_create``. Returns the rows written.

    The COPY is recorded in Django's query log like any statement (``connection.queries``, and so in the query
    counts of tests), although it does not go through ``cursor.execute``."""
    meta = model._meta
    columns = [_concrete(meta.get_field(name)) for name in fields]
    if connection.vendor != "postgresql":
        made = [model(**dict(zip(fields, row, strict=True))) for row in rows]
        model._default_manager.bulk_create(made, batch_size=500)
        return len(made)
    # JSON values go as their text (COPY's text format), encoded as the field encodes them.
    convert = [(i, getattr(c, "encoder", None)) for i, c in enumerate(columns) if c.get_internal_type() == "JSONField"]
    qn = connection.ops.quote_name
    sql = f"COPY {qn(meta.db_table)} ({', '.join(qn(_column(c)) for c in columns)}) FROM STDIN"
    written = 0
    with connection.cursor() as cursor:
        logged = cursor.debug_sql(sql) if hasattr(cursor, "debug_sql") else nullcontext()
        with logged, cursor.cursor.copy(sql) as copy:
            for row in rows:
                if convert:
                    row = list(row)
                    for i, encoder in convert:
                        row[i] = None if row[i] is None else json.dumps(row[i], cls=encoder)
                copy.write_row(row)
                written += 1
    return written


def copy_instances(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """Insert unsaved model instances with :func:`copy_rows` (their primary keys are not read back: for rows the
    caller reads again, as the sync reads the pairings it needs)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    copy_rows(model, [f.attname for f in fields], ([f.pre_save(row, add=True) for f in fields] for row in rows))


def reserve_ids(model: type[models.Model], count: int) -> list[int]:
    """``count`` new primary keys of ``model``, drawn from its table's sequence in one statement (PostgreSQL), for
    rows then written by :func:`copy_new_rows` with their ids: the ids are known without reading the rows back."""
    meta = model._meta
    with connection.cursor() as cursor:
        cursor.execute(
            # The sequence is looked up once, not once for every id (which took most of the time).
            "WITH s AS MATERIALIZED (SELECT pg_get_serial_sequence(%s, %s)::regclass AS seq) "
            "SELECT nextval(s.seq) FROM s, generate_series(1, %s)",
            [meta.db_table, _column(_concrete(meta.pk)), count],
        )
        return [row[0] for row in cursor.fetchall()]


def copy_new_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert new rows given by the values of ``fields`` only, without a model instance per row: every other column
    takes its field's default (the time now for ``auto_now`` and ``auto_now_add``), computed once. On PostgreSQL one
    COPY (:func:`copy_rows`); elsewhere the instances are made and written by ``bulk_create``."""
    now = timezone.now()
    rest = [f for f in model._meta.concrete_fields if f.attname not in fields and not f.primary_key]
    stamped = [getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False) for f in rest]
    defaults = tuple(now if stamp else f.get_default() for f, stamp in zip(rest, stamped, strict=True))
    names = [*fields, *(f.attname for f in rest)]
    return copy_rows(model, names, ((*row, *defaults) for row in rows))


def create_keeping(model: type[models.Model], objs: Sequence[models.Model], *, keep: Sequence[str] = ()) -> None:
    """Insert ``objs`` (their ids are set) and keep the values they carry of the automatic time stamps named in
    ``keep``, which Django replaces on insert: rows restored from elsewhere (an event archive) keep their times. The
    stamps are put back by one UPDATE per row, sent as one batch (``bulk_update``'s CASE expression costs seconds
    for a few thousand log rows)."""
    if not objs:
        return
    kept = [[getattr(obj, name) for name in keep] for obj in objs]
    model._default_manager.bulk_create(objs, batch_size=1000)
    if not keep:
        return
    fields = [_concrete(model._meta.get_field(name)) for name in keep]
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(_column(field))} = %s" for field in fields)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {quote(_column(_concrete(model._meta.pk)))} = %s"
    params = []
    for obj, values in zip(objs, kept, strict=True):
        for field, value in zip(fields, values, strict=True):
            setattr(obj, field.attname, value)
        params.append([*(f.get_db_prep_value(v, connection) for f, v in zip(fields, values, strict=True)), obj.pk])
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
