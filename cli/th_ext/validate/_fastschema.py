"""A fast yes/no answer to "is this instance valid?" for a small subset of JSON Schema 2020-12.

jsonschema is the authority on every error, but importing it costs more than the rest of
``validate`` together, and it checks a card with 10,000 commands item by item in Python. Most
cards are valid, so the validator first asks this compiled check, which handles the keywords the
bundled schemas use (``type``, ``properties``, ``required``, ``additionalProperties``,
``items``, ``$ref`` to a JSON pointer, and annotations) and checks an array of objects column by
column with C-level ``map`` calls (a long one from the facts ``_tables`` shares with the other
passes). Only a ``False`` (or a schema outside the subset, for which
``compile_check`` returns ``None``) leads to jsonschema's ``iter_errors``. Property and
example tests hold the answer to jsonschema's ``is_valid`` on both sides of the table path's
threshold (255, 256, 257 rows and more), and pin the subset's edges. It stays hand-written
because its measured cost is what lets a large card be checked at the speed of the tools we
compare with (``benchmarks/``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from operator import methodcaller
from typing import Any
from urllib.parse import unquote, urljoin

from th_ext.validate._pointer import resolve_pointer
from th_ext.validate._tables import MIN_ROWS, Table, table

__all__ = ["compile_check"]

Check = Callable[[Any], bool]

_MISSING = object()
_IGNORED = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "$schema",
        "$defs",
        "definitions",
        "$id",
    }
)
_SUPPORTED = _IGNORED | {"type", "properties", "required", "additionalProperties", "items", "$ref"}
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "number": (int, float),
    "integer": (int,),
}


class _Unsupported(Exception):
    """The schema uses something outside the subset: let jsonschema decide."""


class _Node:
    """A compiled schema. ``one`` checks one instance; ``all`` a list of them."""

    def __init__(self) -> None:
        self.always: bool | None = None
        self.types: frozenset[type] | None = None
        self.integral_floats = False  # "integer" without "number": a float must be integral
        self.required: frozenset[str] = frozenset()
        self.properties: dict[str, _Node] = {}
        self.known: frozenset[str] = frozenset()
        self.additional: _Node | None = None
        self.items: _Node | None = None
        self.refs: list[_Node] = []
        self.uniform_values: frozenset[type] | None = None  # see _finish

    @property
    def is_type_only(self) -> bool:
        """Whether this node checks nothing but the JSON type of a scalar."""
        return (
            self.always is None
            and self.types is not None
            and not self.integral_floats
            and not self.types & {dict, list}
            and not (self.required or self.properties or self.additional or self.items)
            and not self.refs
        )

    def finish(self) -> None:
        """Note when every property is a plain type check of one same type set and no other
        key is allowed: then one pass over all values of all objects checks them together."""
        nodes = list(self.properties.values())
        closed = self.additional is not None and self.additional.always is False
        if closed and nodes and all(n.is_type_only for n in nodes):
            kinds = {n.types for n in nodes}
            if len(kinds) == 1:
                self.uniform_values = kinds.pop()

    def _type_ok(self, value: Any) -> bool:
        kind = type(value)
        assert self.types is not None
        if kind in self.types:
            return True
        return kind is float and self.integral_floats and value.is_integer()

    def one(self, value: Any) -> bool:
        if self.always is not None:
            return self.always
        if self.types is not None and not self._type_ok(value):
            return False
        kind = type(value)
        if kind is dict:
            if not self.required <= value.keys():
                return False
            for key, node in self.properties.items():
                item = value.get(key, _MISSING)
                if item is not _MISSING and not node.one(item):
                    return False
            if self.additional is not None:
                for key in value.keys() - self.known:
                    if not self.additional.one(value[key]):
                        return False
        elif kind is list and self.items is not None and not self.items.all(value):
            return False
        return all(ref.one(value) for ref in self.refs)

    def all(self, values: list[Any]) -> bool:
        if not values or self.always is True:
            return True
        if self.always is False:
            return False
        facts = table(values) if len(values) >= MIN_ROWS else None
        kinds = facts.kinds if facts is not None else set(map(type, values))
        if self.types is not None and not kinds <= self.types:
            if self.integral_floats and float in kinds:
                return all(map(self.one, values))
            return False
        if kinds == {dict}:
            if facts is not None:
                return self._all_rows(facts)
            return self._all_objects(values)
        if kinds == {list} and self.items is not None:
            if not all(map(self.items.all, values)):
                return False
            return all(ref.all(values) for ref in self.refs)
        if kinds & {dict, list}:
            return all(map(self.one, values))
        return all(ref.all(values) for ref in self.refs)

    def _all_objects(self, values: list[dict[str, Any]]) -> bool:
        if self.required and not all(map(self.required.issubset, values)):
            return False
        if self.additional is not None:
            if self.additional.always is False:
                if not all(map(self.known.issuperset, values)):
                    return False
            elif not all(map(self.one, values)):
                return False
        if self.uniform_values is not None:
            found = set(map(type, chain.from_iterable(map(dict.values, values))))
            if found <= self.uniform_values:
                return all(ref.all(values) for ref in self.refs)
            return False
        return self._all_columns(values)

    def _all_columns(self, values: list[dict[str, Any]]) -> bool:
        for key, node in self.properties.items():
            column = list(map(methodcaller("get", key, _MISSING), values))
            if key not in self.required and _MISSING in column:
                column = [item for item in column if item is not _MISSING]
            if not node.all(column):
                return False
        return all(ref.all(values) for ref in self.refs)

    def _all_rows(self, facts: Table) -> bool:
        """``_all_objects`` for a long array, from the facts its other passes share."""
        values = facts.rows
        if self.required:
            if facts.same_keys:
                if not self.required <= facts.keys:
                    return False
            elif not all(map(self.required.issubset, values)):
                return False
        if self.additional is not None:
            if self.additional.always is False:
                if not facts.keys <= self.known:
                    return False
            elif not all(map(self.one, values)):
                return False
        if self.uniform_values is not None:
            if facts.value_types <= self.uniform_values:
                return all(ref.all(values) for ref in self.refs)
            return False
        return self._all_columns(values)


class _Compiler:
    def __init__(self, root: Any, resources: Mapping[str, Any]) -> None:
        self.resources = dict(resources)
        self.root_id = _document_id(root)
        self.resources.setdefault(self.root_id, root)
        self.memo: dict[tuple[str, str], _Node] = {}

    def compile(self, schema: Any, base: str, *, is_root: bool = False) -> _Node:
        node = _Node()
        self._fill(node, schema, base, is_root=is_root)
        return node

    def _fill(self, node: _Node, schema: Any, base: str, *, is_root: bool) -> None:
        if isinstance(schema, bool):
            node.always = schema
            return
        if not isinstance(schema, dict) or not set(schema) <= _SUPPORTED:
            raise _Unsupported
        if "$id" in schema and not is_root:
            raise _Unsupported
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not all(isinstance(n, str) and n in _PY_TYPES for n in names):
                raise _Unsupported
            node.types = frozenset(t for n in names for t in _PY_TYPES[n])
            node.integral_floats = "integer" in names and "number" not in names
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(k, str) for k in required):
            raise _Unsupported
        node.required = frozenset(required)
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            raise _Unsupported
        node.properties = {k: self.compile(v, base) for k, v in properties.items()}
        node.known = frozenset(properties)
        if "additionalProperties" in schema:
            node.additional = self.compile(schema["additionalProperties"], base)
        if "items" in schema:
            node.items = self.compile(schema["items"], base)
        if "$ref" in schema:
            node.refs = [self._ref(schema["$ref"], base)]
        node.finish()

    def _ref(self, ref: Any, base: str) -> _Node:
        if not isinstance(ref, str):
            raise _Unsupported
        target = urljoin(base, ref) if base else ref
        document_uri, _, fragment = target.partition("#")
        if not document_uri:
            document_uri = base
        key = (document_uri, fragment)
        if key in self.memo:
            return self.memo[key]
        if document_uri not in self.resources:
            raise _Unsupported
        try:
            schema = resolve_pointer(self.resources[document_uri], unquote(fragment))
        except KeyError:
            raise _Unsupported from None  # a named anchor, or nothing there
        node = _Node()
        self.memo[key] = node
        self._fill(node, schema, document_uri, is_root=fragment == "")
        return node


def _document_id(schema: Any) -> str:
    identifier = schema.get("$id") if isinstance(schema, dict) else None
    return identifier.partition("#")[0] if isinstance(identifier, str) else ""


def compile_check(schema: Any, resources: Mapping[str, Any]) -> Check | None:
    """A function that answers exactly as jsonschema's ``is_valid`` would, or ``None``.

    ``resources`` maps the URI of every other schema a ``$ref`` may name to its contents.
    """
    try:
        compiler = _Compiler(schema, resources)
        node = compiler.compile(schema, compiler.root_id, is_root=True)
    except (_Unsupported, RecursionError):
        return None
    return node.one
