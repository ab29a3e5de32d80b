"""Facts about a long array of objects, computed once and shared by every pass that needs them.

A large card is mostly one array of hundreds of thousands of small objects (``commands``).
The document pass (depth), the schema's fast check (keys, value types) and the
commands rules each need a fact about every object in it, and each fact costs a C-level pass
over the array. Inside ``shared_tables()`` (one validation) the facts of an array are computed
at most once, on first use, and reused by the later passes; outside it they are computed afresh.
Arrays shorter than ``MIN_ROWS`` are not worth the bookkeeping: callers walk them as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import chain
from typing import Any

__all__ = ["MIN_ROWS", "Table", "shared_tables", "table"]

#: The shortest array whose facts are computed and shared as a table.
MIN_ROWS = 256

_SHARED: ContextVar[dict[int, Table] | None] = ContextVar("th_ext_tables", default=None)
_DICT_ONLY = frozenset({dict})


class Table:
    """The facts of one array (``rows``), each computed on first use.

    ``kinds`` is the set of the elements' types. The others describe an array of objects only
    (``kinds == {dict}``): the objects' sizes, the union of their keys, and the types of all
    their values.
    """

    __slots__ = ("_keys", "_kinds", "_lengths", "_value_types", "rows")

    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows
        self._kinds: frozenset[type] | None = None
        self._lengths: frozenset[int] | None = None
        self._keys: frozenset[Any] | None = None
        self._value_types: frozenset[type] | None = None

    @property
    def kinds(self) -> frozenset[type]:
        if self._kinds is None:
            self._kinds = frozenset(map(type, self.rows))
        return self._kinds

    @property
    def of_objects(self) -> bool:
        """Whether every element is a ``dict`` (and there is one)."""
        return self.kinds == _DICT_ONLY

    @property
    def lengths(self) -> frozenset[int]:
        if self._lengths is None:
            self._lengths = frozenset(map(len, self.rows))
        return self._lengths

    @property
    def keys(self) -> frozenset[Any]:
        """Every key of any of the objects."""
        if self._keys is None:
            self._keys = frozenset(chain.from_iterable(self.rows))
        return self._keys

    @property
    def same_keys(self) -> bool:
        """Whether every object has exactly the keys ``keys`` (then each has all of them)."""
        return len(self.lengths) == 1 and next(iter(self.lengths)) == len(self.keys)

    @property
    def value_types(self) -> frozenset[type]:
        """The types of the values of all the objects."""
        if self._value_types is None:
            values = chain.from_iterable(map(dict.values, self.rows))
            self._value_types = frozenset(map(type, values))
        return self._value_types

    def parsed_objects(self) -> bool:
        """``of_objects`` for an array ``json.loads`` built, found while listing ``value_types``.

        Listing the values of an element that is not a ``dict`` raises, and the parser builds
        no ``dict`` subclass, so a listing that succeeds shows every element is one: the pass
        over the elements' own types is saved.
        """
        if self._kinds is None and self._value_types is None:
            try:
                values = chain.from_iterable(map(dict.values, self.rows))
                self._value_types = frozenset(map(type, values))
            except TypeError:
                return self.of_objects
            self._kinds = _DICT_ONLY if self.rows else frozenset()
        return self.of_objects


def table(rows: list[Any]) -> Table:
    """The facts of ``rows``: shared within ``shared_tables()``, else new."""
    shared = _SHARED.get()
    if shared is None:
        return Table(rows)
    found = shared.get(id(rows))
    if found is None or found.rows is not rows:
        found = shared[id(rows)] = Table(rows)
    return found


@contextmanager
def shared_tables() -> Iterator[None]:
    """A scope (one validation of one value) in which ``table`` reuses what it computed.

    The value must not change inside the scope: the facts are not recomputed.
    """
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)
