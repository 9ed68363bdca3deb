"""Statements of a game's hot path (a program, a turn's resolution), with the SQL built once per process.

At a few hundred busy games the site's CPU went to the ORM building each statement's SQL (and RawQuerySet
matching columns to fields on every run), more than to running it (docs/performance.md). These helpers build
a statement the way the ORM would, keep its SQL, and then only bind new values:

- `Compiled`: a queryset compiled with placeholder ids, run again with the real ones, rows made into model
  instances as the ORM makes them (`Model.from_db`, the fields' own converters).
- `update(instance, fields)`: `instance.save(update_fields=fields)` for a row that exists.
- `insert(instance)`: `Model.objects.create(...)`'s INSERT for an unsaved instance.
- `insert_many(instances)`: `bulk_create` as one INSERT ... VALUES: Django's UNNEST form escapes every
  value of a text array in Python, and a turn's events are long JSON texts.

They send no model signals (the models they write have no receivers) and run no validation the ORM would not
run either. Values go through each field's `pre_save` (auto_now) and `get_db_prep_save`, as in `save()`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from django.db import DatabaseError, connections, models
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)

DB = "default"


class Compiled:
    """A queryset the ORM compiles once per process and shape, with placeholder values, and that then runs with
    the real ones, its rows made into what the queryset would give: model instances (select_related and
    annotations included, through the ORM's own row converters and populators), or the tuples of a
    values_list().

    `build(variant, **placeholders)` returns the queryset; `run(variant, **values)` runs it with the same names
    given their values. A value that is a list (for `__in`) gets a list of placeholders of its length; each
    length is a shape of its own. A value the query holds that is not a placeholder (a status, a visibility)
    stays as compiled. Placeholders are positive and fit a 32-bit column (the ORM compiles a lookup with a
    value out of its field's range to NULL), and every placeholder must come back as a parameter of the SQL:
    one the ORM wrote into the SQL text (a slice's LIMIT) is refused at compile time."""

    _placeholders = iter(range(2_147_400_000, 2_147_483_647))
    _lock = threading.Lock()

    def __init__(self, build: Callable[..., models.QuerySet]):
        self.build = build
        self.compiled: dict[tuple, tuple] = {}

    def _compile(self, variant: object, values: dict) -> tuple:
        with self._lock:
            placeholders = {
                name: [next(self._placeholders) for _ in value] if isinstance(value, (list, tuple))
                else next(self._placeholders)
                for name, value in values.items()
            }
        queryset = self.build(variant, **placeholders)
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ValueError("a compiled query has no prefetch_related and comes from a model's manager")
        compiler = queryset.query.get_compiler(DB)
        sql, params = compiler.as_sql()
        slots = {}
        for name, placeholder in placeholders.items():
            for index, value in enumerate(placeholder if isinstance(placeholder, list) else [placeholder]):
                slots[value] = (name, index if isinstance(placeholder, list) else None)
        # An int parameter may come wrapped in the type it binds as (psycopg's Int4 under server-side binding).
        numbers = [int(value) for value in params if isinstance(value, int) and not isinstance(value, bool)]
        if not set(slots) <= set(numbers) or any(str(value) in sql for value in slots):
            raise ValueError(f"{queryset.model.__name__}: a placeholder is not a parameter of the compiled SQL")
        # Each parameter: (name, index in a list value or None, its int type) for a placeholder, else
        # (None, None, the value).
        params = [(*slots[int(value)], type(value))
                  if isinstance(value, int) and not isinstance(value, bool) and int(value) in slots
                  else (None, None, value) for value in params]
        iterable = queryset._iterable_class
        if iterable is ModelIterable:
            klass_info, select = compiler.klass_info, compiler.select
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            rows = (klass_info["model"], start, end, [column[0].target.attname for column in select[start:end]],
                    get_related_populators(klass_info, select, DB), compiler.annotation_col_map)
        elif iterable in (ValuesListIterable, FlatValuesListIterable):
            rows = None
        else:
            raise ValueError("a compiled query gives model instances or a values_list()")
        return sql, params, compiler, rows, iterable is FlatValuesListIterable

    def run(self, variant: object = None, **values) -> list:
        shape = (variant, *sorted((name, len(value) if isinstance(value, (list, tuple)) else None)
                                  for name, value in values.items()))
        compiled = self.compiled.get(shape)
        if compiled is None:
            compiled = self.compiled[shape] = self._compile(variant, values)
        sql, params, compiler, rows, flat = compiled
        bound = [constant if name is None else constant(values[name] if index is None else values[name][index])
                 for name, index, constant in params]
        with connections[DB].cursor() as cursor:
            cursor.execute(sql, bound)
            results = cursor.fetchall()
        converted = compiler.results_iter([results])
        if rows is None:
            return [row[0] for row in converted] if flat else [tuple(row) for row in converted]
        model, start, end, init_list, populators, annotations = rows
        instances = []
        for row in converted:
            instance = model.from_db(DB, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in annotations.items():
                setattr(instance, name, row[position])
            instances.append(instance)
        return instances


_updates: dict[tuple, str] = {}
_inserts: dict[tuple, tuple[str, list]] = {}


def _update_sql(model: type[models.Model], names: tuple[str, ...], keys: int) -> str:
    """UPDATE model's table SET the named columns WHERE its primary key is one of `keys` values."""
    sql = _updates.get((model, names, keys))
    if sql is None:
        meta, quote = model._meta, connections[DB].ops.quote_name
        columns = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
        where = "= %s" if keys == 1 else f"IN ({', '.join(['%s'] * keys)})"
        sql = _updates[(model, names, keys)] = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} {where}"
    return sql


def _run_update(model: type[models.Model], names: tuple[str, ...], values: list, keys: list) -> int:
    connection, meta = connections[DB], model._meta
    params = [meta.get_field(name).get_db_prep_save(value, connection) for name, value in zip(names, values, strict=True)]
    params.extend(meta.pk.get_db_prep_value(key, connection) for key in keys)
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, names, len(keys)), params)
        return cursor.rowcount


def update(instance: models.Model, fields: Iterable[str]) -> None:
    """`instance.save(update_fields=fields)`, for an instance read from the database: the same UPDATE (each
    field's `pre_save`, so auto_now too), its SQL built once per model and fields. Raises DatabaseError, as
    save() does, when no row was updated."""
    names = tuple(fields)
    meta = instance._meta
    values = [meta.get_field(name).pre_save(instance, False) for name in names]
    if _run_update(type(instance), names, values, [instance.pk]) != 1:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def update_many(model: type[models.Model], keys: list, **values) -> int:
    """`model.objects.filter(pk__in=keys).update(**values)` (no auto_now: the values are the columns written);
    its SQL built once per model, columns and number of keys. Returns the rows updated."""
    if not keys:
        return 0
    return _run_update(model, tuple(values), list(values.values()), keys)


def _insert_sql(model: type[models.Model], rows: int) -> tuple[str, list]:
    compiled = _inserts.get((model, rows))
    if compiled is None:
        connection = connections[DB]
        meta, quote = model._meta, connection.ops.quote_name
        fields = [field for field in meta.concrete_fields if not field.primary_key]
        placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
        compiled = _inserts[(model, rows)] = (
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
            f"VALUES {', '.join([placeholders] * rows)} RETURNING {quote(meta.pk.column)}",
            fields,
        )
    return compiled


def insert_many(instances: list[models.Model]) -> None:
    """Insert new instances of one model (an auto primary key) in one INSERT ... VALUES, and set their
    primary keys: what `bulk_create` does, without its UNNEST form (whose text arrays psycopg escapes value
    by value in Python: a turn's events are long JSON texts)."""
    if not instances:
        return
    model = type(instances[0])
    sql, fields = _insert_sql(model, len(instances))
    connection = connections[DB]
    params = []
    for instance in instances:
        params.extend(field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()]
    for instance, key in zip(instances, keys, strict=True):
        instance.pk = key
        instance._state.adding, instance._state.db = False, DB


def insert(instance: models.Model) -> models.Model:
    """`Model.objects.create(...)`'s INSERT for an unsaved instance (an auto primary key); returns it saved."""
    insert_many([instance])
    return instance
