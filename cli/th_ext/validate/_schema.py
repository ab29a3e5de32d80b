"""An extension's ``params`` against its JSON schema: jsonschema draft 2020-12, every error.

``$ref`` resolves only against the schemas given here (the bundled ones, and a replacement
given with ``--schema``), through a ``referencing`` registry that has no retrieval function:
nothing is ever fetched. jsonschema is imported only when the fast check (``_fastschema``)
says the params are invalid, or cannot decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from th_ext._exceptions import SchemaError
from th_ext.problems._problem import Problem
from th_ext.validate._fastschema import Check, compile_check
from th_ext.validate._limits import ProblemList, TooManyProblems
from th_ext.validate._schema_messages import problems_for

__all__ = ["ParamsSchema"]

_MESSAGE_LIMIT = 240


class ParamsSchema:
    """One extension's params schema, with every other known schema available to ``$ref``."""

    def __init__(self, schema: Any, resources: Mapping[str, Any], *, name: str) -> None:
        self.schema = schema
        self.resources = dict(resources)
        self.name = name
        self._fast: Check | None = None
        self._fast_compiled = False

    def is_valid_fast(self, instance: Any) -> bool | None:
        """The fast check's answer, or ``None`` when the schema is outside its subset."""
        if not self._fast_compiled:
            self._fast = compile_check(self.schema, self.resources)
            self._fast_compiled = True
        if self._fast is None:
            return None
        try:
            return self._fast(instance)
        except RecursionError:  # a $ref cycle with no end: jsonschema says what is wrong
            return None

    def problems(self, instance: Any, base: tuple[str | int, ...]) -> list[Problem]:
        """A ``schema-violation`` problem for every error (see ``_schema_messages``), in
        document order.

        The errors are read one at a time and only the first ``MAX_PER_CODE`` are kept (see
        ``ProblemList``): jsonschema's errors are heavy, and a hostile card has millions.
        """
        if self.is_valid_fast(instance):
            return []
        from referencing.exceptions import Unresolvable

        validator = self._validator()
        kept: list[tuple[list[tuple[bool, str | int]], Problem]] = []
        found = ProblemList()
        try:
            for error in validator.iter_errors(instance):
                path = list(error.absolute_path)
                problems = problems_for(error, base, self.name)
                del error
                for problem in problems:
                    before = len(found)
                    found.append(problem)
                    if len(found) > before:
                        kept.append(([(isinstance(p, str), p) for p in path], problem))
        except Unresolvable as exc:
            raise SchemaError(
                f"{self.name}: $ref {getattr(exc, 'ref', '')!r} cannot be resolved "
                "(only the bundled schemas are available)"
            ) from None
        except RecursionError:
            raise SchemaError(
                f"{self.name}: the schema refers to itself without end ($ref recursion)"
            ) from None
        except TooManyProblems:
            pass
        kept.sort(key=lambda pair: pair[0])
        found[:] = [problem for _, problem in kept]
        return found.finished()

    def _validator(self) -> Any:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        from th_ext.catalog._schemas import schema_defect

        defect = schema_defect(self.schema)
        if defect is not None:
            raise SchemaError(f"{self.name}: not a valid JSON schema ({_shorten(defect.message)})")
        resources = [
            (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
            for uri, contents in self.resources.items()
            if uri
        ]
        registry: Registry[Any] = Registry().with_resources(resources)
        return Draft202012Validator(self.schema, registry=registry)


def _shorten(message: str) -> str:
    one_line = " ".join(message.split())
    if len(one_line) <= _MESSAGE_LIMIT:
        return one_line
    return one_line[: _MESSAGE_LIMIT - 1] + "…"
