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

    def update(self, instance: Model, field_names: Iterable[str] | None = None) -> None:
        """``instance.save(update_fields=field_names)`` (every field but the
        key when None), without compiling it: each field's ``pre_save`` runs
        (``auto_now`` stamps the time), then one UPDATE."""
        meta = self.model._meta
        if field_names is None:
            field_names = [field.name for field in self.fields if not field.primary_key]
        values = {name: meta.get_field(name).pre_save(instance, False) for name in field_names}
        self.update_where({"pk": instance.pk}, assign=values)

    def update_where(self, where: dict, *, assign: dict | None = None, add: dict | None = None) -> int:
        """``filter(**where).update(...)`` without compiling it: each field in
        ``assign`` takes its value, each in ``add`` grows by its value (as
        ``F(name) + value``); the number of rows changed. ``where`` compares
        for equality, None as IS NULL."""
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
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.rowcount

    def _field(self, name: str):
        """A field by name or attname, as a filter names it ("pk" too)."""
        meta = self.model._meta
        return meta.pk if name == "pk" else meta.get_field(name)

    def insert(self, instances: Sequence[Model]) -> None:
        """``bulk_create(instances)`` in one INSERT, defaults and ``auto_now_add``
        applied; the new rows' primary keys are not read back."""
        quote = connection.ops.quote_name
        fields = [field for field in self.fields if not field.primary_key]
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for instance in instances for field in fields]  # fmt: skip
        names = ", ".join(quote(field.column) for field in fields)
        sql = f"INSERT INTO {quote(self.table)} ({names}) VALUES {', '.join([row] * len(instances))}"
        with connection.cursor() as cursor:
            cursor.execute(sql, values)


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
