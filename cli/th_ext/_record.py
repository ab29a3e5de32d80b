"""Records: what ``@dataclass(frozen=True, slots=True)`` gives, for a tenth of its import time.

On CPython 3.11 the ``dataclass`` decorator compiles up to six methods for every class when
its module is imported (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``): about 4 M instructions a class. One command's path defines a dozen, more
than a tenth of ``th-ext``'s start-up. ``record`` keeps each class a real dataclass
(``dataclasses.fields``, ``asdict``, ``replace`` and ``is_dataclass`` work on it, type checkers
read it through ``dataclass_transform``), with the same equality, hash, ``repr`` and
immutability, but it shares one implementation of the methods that only iterate over fields,
and compiles ``__init__`` when the first instance is made, so a class that a run never uses
costs no more than a plain class statement.

What differs from ``dataclass``: ``__dataclass_params__`` says ``init``, ``repr``, ``eq`` and
``frozen`` are false (the record supplies those methods itself); until the first instance is
made, ``inspect.signature`` of the class shows ``(*args, **kwargs)``; ``InitVar`` pseudo-fields
and ``order`` are not supported.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["record"]

_T = TypeVar("_T")


class _FactoryDefault:
    """The default of an ``__init__`` parameter whose field has a ``default_factory``."""

    def __repr__(self) -> str:
        return "<factory>"  # as ``dataclass`` shows it in a signature


_FACTORY = _FactoryDefault()


def _eq(self: Any, other: object) -> object:
    names: tuple[str, ...] = self.__record_compared__
    if other.__class__ is not self.__class__:
        return NotImplemented
    mine: tuple[object, ...] = tuple([getattr(self, n) for n in names])
    return mine == tuple([getattr(other, n) for n in names])


def _hash(self: Any) -> int:
    return hash(tuple([getattr(self, n) for n in self.__record_hashed__]))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def _frozen_setattr(self: Any, name: str, value: object) -> None:
    cls = self.__class__
    if "__record_compared__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Any, name: str) -> None:
    cls = self.__class__
    if "__record_compared__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


# Pickling and copying restore a frozen record's fields without ``__setattr__``.
def _getstate(self: Any) -> list[object]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: list[object]) -> None:
    for f, value in zip(fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)


@overload
def record(cls: type[_T], /) -> type[_T]: ...
@overload
def record(*, frozen: bool = True, slots: bool = True) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(
    cls: type[_T] | None = None, /, *, frozen: bool = True, slots: bool = True
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """Make ``cls`` a record: ``@record`` (frozen, with slots) or ``@record(frozen=False)``."""

    def wrap(cls: type[_T]) -> type[_T]:
        documented = bool(cls.__doc__)
        made: Any = dataclass(init=False, repr=False, eq=False, slots=slots)(cls)
        own = made.__dict__
        every = fields(made)
        _check_order(made.__name__, every)
        made.__record_compared__ = tuple(f.name for f in every if f.compare)
        made.__record_shown__ = tuple(f.name for f in every if f.repr)
        deferred = _deferred_init(made, frozen)
        shared: dict[str, Any] = {
            "__init__": deferred,
            "__repr__": _repr,
            "__eq__": _eq,
            "__hash__": _hash if frozen else None,  # mutable and compared by value: unhashable
        }
        if frozen:
            made.__record_hashed__ = tuple(
                f.name for f in every if (f.compare if f.hash is None else f.hash)
            )
            shared |= {"__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr}
            if slots:
                shared |= {"__getstate__": _getstate, "__setstate__": _setstate}
        for name, implementation in shared.items():
            if name not in own:  # what the class defines itself stays, as with ``dataclass``
                setattr(made, name, implementation)
        if not documented:  # ``dataclass`` names the class and its signature instead
            import inspect

            if own["__init__"] is deferred:
                made.__init__ = _compile_init(made, frozen)
            made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
        return made  # type: ignore[no-any-return]

    return wrap if cls is None else wrap(cls)


def _check_order(name: str, every: tuple[Field[Any], ...]) -> None:
    """Refuse what ``dataclass`` refuses when it writes ``__init__``: a required parameter
    after one with a default."""
    seen_default = False
    for f in every:
        if f.name == "self":
            raise TypeError(f"a record cannot have a field named 'self' ({name})")
        if not f.init or f.kw_only:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument in {name}")


def _deferred_init(cls: Any, frozen: bool) -> Callable[..., None]:
    """An ``__init__`` that compiles the real one on first call, then hands over to it."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        compiled = _compile_init(cls, frozen)
        type.__setattr__(cls, "__init__", compiled)
        compiled(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compile_init(cls: Any, frozen: bool) -> Callable[..., None]:
    """The ``__init__`` ``dataclass`` would write for ``cls``: same parameters, same defaults."""
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    positional: list[str] = []
    keyword_only: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        name = f.name
        if f.default_factory is not MISSING:
            namespace[f"_factory_{name}"] = f.default_factory
        elif f.default is not MISSING:
            namespace[f"_default_{name}"] = f.default
        if f.init:
            namespace[f"_type_{name}"] = f.type
            if f.default_factory is not MISSING:
                default = "=_FACTORY"
                value = f"_factory_{name}() if {name} is _FACTORY else {name}"
            else:
                default = f"=_default_{name}" if f.default is not MISSING else ""
                value = name
            parameter = f"{name}: _type_{name}{default}"
            (keyword_only if f.kw_only else positional).append(parameter)
        elif f.default_factory is not MISSING:
            value = f"_factory_{name}()"
        elif f.default is not MISSING and "__slots__" in cls.__dict__:
            value = f"_default_{name}"
        else:
            continue
        body.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    parameters = ", ".join(["self", *positional, *(["*", *keyword_only] if keyword_only else [])])
    lines = "\n    ".join(body or ["pass"])
    source = f"def __init__({parameters}) -> None:\n    {lines}\n"
    # Compiled without this module's ``from __future__ import annotations``: the annotations
    # are the fields' types themselves, as in the ``__init__`` ``dataclass`` writes.
    exec(compile(source, f"<record {cls.__qualname__}>", "exec", dont_inherit=True), namespace)
    compiled: Callable[..., None] = namespace["__init__"]
    compiled.__qualname__ = f"{cls.__qualname__}.__init__"
    return compiled
