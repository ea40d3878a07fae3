"""Model rows read and written by statements built once, for the busiest requests.

The ORM compiles a query each time it runs one. For a move against the AI,
compiling its five statements cost the server about three times the CPU of
sending them and reading the answers (docs/benchmarks.md, issue 19). The few
statements of that path (the API token with its player, the game locked with
its players, its moves, the move stored, the game updated), and the few that
as many requests make (a session read, the counters a game's end moves), are
built from the models' own metadata instead: table and column names, and the
database's own converters for each column. Rows become instances through
``Model.from_db``, as the ORM makes them, so a field added to a model is read
and written here too. Everything else goes through the ORM.

Statements run on ``django.db.connection``, so they join the caller's
transaction, and tests and ``DEBUG`` see them like any other query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from django.db import connection
from django.db.models import Model


class ModelRows:
    """One model's columns: a SELECT list to put in a statement, and the
    instance read back from its part of a row; its UPDATE and INSERT."""

    def __init__(self, model: type[Model]):
        self.model = model
        self.fields = model._meta.concrete_fields
        self.width = len(self.fields)
        self.attnames = [field.attname for field in self.fields]
        self.table = model._meta.db_table
        self._pk_index = self.fields.index(model._meta.pk)

    def columns(self, alias: str | None = None) -> str:
        """``"alias"."column", ...`` for every concrete field, in field order."""
        quote = connection.ops.quote_name
        prefix = quote(alias or self.table)
        return ", ".join(f"{prefix}.{quote(field.column)}" for field in self.fields)

    def column(self, name: str, alias: str | None = None) -> str:
        """``"alias"."column"`` of one field, named as a filter names it."""
        quote = connection.ops.quote_name
        return f"{quote(alias or self.table)}.{quote(self._field(name).column)}"

    def read(self, row: Sequence, start: int = 0) -> Model | None:
        """The instance in ``row[start:start + width]``; None where its primary
        key is NULL (a LEFT JOIN that found no row)."""
        values = list(row[start : start + self.width])
        if values[self._pk_index] is None:
            return None
        for index, converters, column in _converters(self, connection.vendor):
            value = values[index]
            for converter in converters:
                value = converter(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.attnames, values)

    def holds_pk(self, value: int) -> bool:
        """Whether ``value`` fits this model's primary key column on this
        database; one that does not names no row (as the ORM finds nothing)."""
        low, high = connection.ops.integer_field_range(self.model._meta.pk.get_internal_type())
        return (low is None or low <= value) and (high is None or value <= high)

    def update(self, instance: Model, field_names: Iterable[str] | None = None, writes: Writes | None = None) -> None:
        """``instance.save(update_fields=field_names)`` (every field but the
        key when None), without compiling it: each field's ``pre_save`` runs
        (``auto_now`` stamps the time), then one UPDATE (added to ``writes``
        when given)."""
        meta = self.model._meta
        if field_names is None:
            field_names = [field.name for field in self.fields if not field.primary_key]
        values = {name: meta.get_field(name).pre_save(instance, False) for name in field_names}
        self.update_where({"pk": instance.pk}, assign=values, writes=writes)

    def update_where(
        self,
        where: dict,
        *,
        assign: dict | None = None,
        add: dict | None = None,
        writes: Writes | None = None,
        then=None,
    ) -> int | None:
        """``filter(**where).update(...)`` without compiling it: each field in
        ``assign`` takes its value, each in ``add`` grows by its value (as
        ``F(name) + value``); the number of rows changed. ``where`` compares
        for equality, None as IS NULL. With ``writes``, the statement is added
        to them instead and ``then`` is given the number once they are sent."""
        quote = connection.ops.quote_name
        assign, add = assign or {}, add or {}
        assignments, values = [], []
        for name, value in assign.items():
            field = self._field(name)
            assignments.append(f"{quote(field.column)} = %s")
            values.append(field.get_db_prep_save(value, connection))
        for name, value in add.items():
            column = quote(self._field(name).column)
            assignments.append(f"{column} = {column} + %s")
            values.append(value)
        conditions = []
        for name, value in where.items():
            field = self._field(name)
            if value is None:
                conditions.append(f"{quote(field.column)} IS NULL")
            else:
                conditions.append(f"{quote(field.column)} = %s")
                values.append(field.get_db_prep_value(value, connection))
        sql = f"UPDATE {quote(self.table)} SET {', '.join(assignments)} WHERE {' AND '.join(conditions)}"
        if writes is not None:
            writes.add(sql, values, then)
            return None
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.rowcount

    def _field(self, name: str):
        """A field by name or attname, as a filter names it ("pk" too)."""
        meta = self.model._meta
        return meta.pk if name == "pk" else meta.get_field(name)

    def insert(self, instances: Sequence[Model], writes: Writes | None = None) -> None:
        """``bulk_create(instances)`` in one INSERT (added to ``writes`` when
        given), defaults and ``auto_now_add`` applied; the new rows' primary
        keys are not read back."""
        quote = connection.ops.quote_name
        fields = [field for field in self.fields if not field.primary_key]
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for instance in instances for field in fields]  # fmt: skip
        names = ", ".join(quote(field.column) for field in fields)
        sql = f"INSERT INTO {quote(self.table)} ({names}) VALUES {', '.join([row] * len(instances))}"
        if writes is not None:
            writes.add(sql, values)
            return
        with connection.cursor() as cursor:
            cursor.execute(sql, values)


class Writes:
    """A transaction's last writes, sent together: on PostgreSQL as one
    statement, each write a data-modifying query of its WITH (every one runs
    to completion whether or not anything reads it, all against the same
    snapshot, so no two may change the same row); elsewhere one after another.
    A move's insert and update, and the counters of a game it ends, were each
    a round trip of their own, and each statement costs the server more
    Python than the database's work for it (docs/benchmarks.md).

    A write added with ``then`` has it called with the number of rows it
    changed once they are sent (a counter's row that does not exist yet is
    made then)."""

    def __init__(self):
        self._writes: list[tuple[str, list, object]] = []

    def add(self, sql: str, params: Sequence, then=None) -> None:
        self._writes.append((sql, list(params), then))

    def send(self) -> None:
        writes, self._writes = self._writes, []
        if not writes:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql" and len(writes) > 1:
                counted = [n for n, (_sql, _params, then) in enumerate(writes) if then is not None]
                parts = [
                    f"w{n} AS ({sql}{' RETURNING 1' if then is not None else ''})"
                    for n, (sql, _params, then) in enumerate(writes)
                ]
                read = ", ".join(f"(SELECT COUNT(*) FROM w{n})" for n in counted) or "1"
                cursor.execute(
                    f"WITH {', '.join(parts)} SELECT {read}", [v for _s, params, _t in writes for v in params]
                )
                changed = dict(zip(counted, cursor.fetchone(), strict=True)) if counted else {}
            else:
                changed = {}
                for n, (sql, params, _then) in enumerate(writes):
                    cursor.execute(sql, params)
                    changed[n] = cursor.rowcount
        for n, (_sql, _params, then) in enumerate(writes):
            if then is not None:
                then(changed[n])


@cache
def _converters(rows: ModelRows, vendor: str) -> list[tuple[int, list, object]]:
    """What the ORM applies to each column read from this database (SQLite's
    text to datetimes, 0 and 1 to booleans; fields' own ``from_db_value``),
    as (index, converters, column) for the columns that have any."""
    found = []
    for index, field in enumerate(rows.fields):
        column = field.get_col(rows.table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            found.append((index, converters, column))
    return found


def fetch_one(sql: str, params: Sequence) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def fetch_column(sql: str, params: Sequence) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def for_update_of(table: str) -> str:
    """`` FOR UPDATE OF "table"`` where the database locks rows (PostgreSQL);
    nothing on SQLite, whose IMMEDIATE transactions let one writer in at a time."""
    if not connection.features.has_select_for_update:
        return ""
    of = (connection.ops.quote_name(table),) if connection.features.has_select_for_update_of else ()
    return " " + connection.ops.for_update_sql(of=of)
