"""``record`` against the reference it stands in for: ``dataclass(frozen=True, slots=True)``.

Every behaviour a program can see is compared side by side on the same class body: equality,
hash, ``repr``, immutability, ``dataclasses`` helpers, pickling, copying, ``__init__``'s
parameters and errors. The property test builds random class shapes (defaults, factories,
fields left out of ``__init__``, of comparison or of ``repr``, keyword-only fields).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from th_ext._record import record

# Module-level classes, so that pickle can find them by name.


@record
class Point:
    """A frozen record with slots."""

    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class ReferencePoint:
    """The same class, written as the reference dataclass."""

    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", compare=False, repr=False)


@record(slots=False)
class Loose:
    """A frozen record without slots."""

    name: str
    size: int = 1


@record(frozen=False)
class Tally:
    """A mutable record with a ``__post_init__``."""

    label: str
    items: list[int] = field(default_factory=list)
    total: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.total = sum(self.items)


def test_equality_hash_and_repr_match_the_dataclass() -> None:
    mine, reference = Point(1, 2, ["a"], "n"), ReferencePoint(1, 2, ["a"], "n")
    assert repr(mine) == repr(reference).replace("ReferencePoint", "Point")
    assert mine == Point(1, 2, ["a"], "other note")  # ``note`` is not compared
    assert mine != Point(1, 3, ["a"])
    assert mine != reference  # type: ignore[comparison-overlap]  # another class: never equal
    assert Point(1) == Point(1)
    hashable, hashable_reference = Point(1, 2, note="n"), ReferencePoint(1, 2, note="n")
    with pytest.raises(TypeError):
        hash(mine)  # a list field makes it unhashable, as it does the dataclass
    hashable_reference = dataclasses.replace(hashable_reference, tags=())  # type: ignore[arg-type]
    hashable = dataclasses.replace(hashable, tags=())  # type: ignore[arg-type]
    assert hash(hashable) == hash(hashable_reference)


def test_a_frozen_record_refuses_assignment_and_deletion_with_the_dataclass_error() -> None:
    point, reference = Point(1), ReferencePoint(1)
    for target in (point, reference):
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
            target.x = 2  # type: ignore[misc]
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'x'"):
            del target.x
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
        point.other = 1  # type: ignore[attr-defined]
    loose = Loose("a")
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name'"):
        loose.name = "b"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        loose.extra = 1  # type: ignore[attr-defined]
    assert not hasattr(point, "__dict__")
    assert hasattr(loose, "__dict__")


def test_dataclass_helpers_work_on_records() -> None:
    point = Point(1, 2, ["a"])
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "tags", "note"]
    assert dataclasses.asdict(point) == {"x": 1, "y": 2, "tags": ["a"], "note": ""}
    assert dataclasses.astuple(point) == (1, 2, ["a"], "")
    assert dataclasses.replace(point, y=5) == Point(1, 5, ["a"])
    assert Point.__match_args__ == ReferencePoint.__match_args__
    match point:
        case Point(1, y):
            assert y == 2
        case _:
            pytest.fail("the record did not match by position")


def test_defaults_factories_and_init_parameters_match_the_dataclass() -> None:
    first, second = Point(1), Point(1)
    assert first.tags == [] and first.tags is not second.tags  # a fresh list for each
    Point(0)  # the first instance compiles ``__init__``
    assert str(inspect.signature(Point)) == str(inspect.signature(ReferencePoint))
    makers: tuple[Any, ...] = (Point, ReferencePoint)
    for make in makers:
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
            make()
        with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
            make(1, z=2)
        with pytest.raises(TypeError, match="takes from 2 to 5 positional arguments"):
            make(1, 2, [], "", 5)


def test_pickle_and_copy_give_equal_records() -> None:
    point = Point(1, 2, ["a"], "n")
    for restored in (
        pickle.loads(pickle.dumps(point)),
        copy.copy(point),
        copy.deepcopy(point),
    ):
        assert restored == point and restored.note == "n"
    loose = Loose("a", 3)
    assert pickle.loads(pickle.dumps(loose)) == loose
    assert copy.deepcopy(loose) == loose


def test_a_mutable_record_assigns_runs_post_init_and_is_unhashable() -> None:
    tally = Tally("t", [1, 2])
    assert tally.total == 3
    tally.label = "u"
    assert tally == Tally("u", [1, 2])
    assert repr(tally) == "Tally(label='u', items=[1, 2], total=3)"
    with pytest.raises(TypeError, match="unhashable"):
        hash(tally)


def test_a_required_field_after_a_default_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class Broken:
            a: int = 0
            b: int  # type: ignore[misc]


def test_a_field_named_self_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="cannot have a field named 'self'"):

        @record
        class Selfish:
            self: int = field(default=0, kw_only=True)


def test_what_the_class_defines_itself_is_kept() -> None:
    @record
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Named("n")) == "<n>"


def test_a_subclass_that_is_not_a_record_may_add_attributes() -> None:
    @dataclasses.dataclass(frozen=True)
    class ReferenceLoose:
        name: str

    bases: tuple[Any, ...] = (Loose, ReferenceLoose)
    for base in bases:
        sub = type("Sub", (base,), {})("a")
        sub.extra = 1
        assert sub.extra == 1
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name'"):
            sub.name = "b"


FIELD_KINDS = st.sampled_from(["required", "default", "factory", "no-init", "no-compare", "kw"])


@settings(max_examples=60)
@given(
    kinds=st.lists(FIELD_KINDS, min_size=0, max_size=6),
    values=st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), min_size=12),
    frozen=st.booleans(),
    slots=st.booleans(),
)
def test_any_class_shape_behaves_as_the_dataclass(
    kinds: list[str], values: list[Any], frozen: bool, slots: bool
) -> None:
    # Required fields first, so that every shape is a valid class.
    kinds = sorted(kinds, key=lambda kind: kind != "required")
    annotations = {f"f{i}": "Any" for i in range(len(kinds))}
    body: dict[str, Any] = {}
    arguments: dict[str, Any] = {}
    for i, kind in enumerate(kinds):
        name = f"f{i}"
        if kind == "default":
            body[name] = values[i]
        elif kind == "factory":
            body[name] = field(default_factory=lambda i=i: [i])  # type: ignore[misc]
        elif kind == "no-init":
            body[name] = field(init=False, default=values[i])
        elif kind == "no-compare":
            body[name] = field(default=values[i], compare=False)
        elif kind == "kw":
            body[name] = field(default=values[i], kw_only=True)
        if kind != "no-init":
            arguments[name] = values[i + 6]

    def make(decorate: Any) -> Any:
        namespace = {"__annotations__": dict(annotations), **body}
        return decorate(type("Shape", (), namespace))

    mine = make(record(frozen=frozen, slots=slots))
    reference = make(dataclasses.dataclass(frozen=frozen, slots=slots))
    a, b = mine(**arguments), reference(**arguments)
    assert repr(a) == repr(b)
    assert mine.__doc__ == reference.__doc__  # no docstring: the name and the signature
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    assert a == mine(**arguments)
    assert str(inspect.signature(mine)) == str(inspect.signature(reference))
    if frozen:
        try:
            expected: Any = hash(b)
        except TypeError:
            expected = TypeError
        if expected is TypeError:
            with pytest.raises(TypeError):
                hash(a)
        else:
            assert hash(a) == expected
    else:
        assert mine.__hash__ is None and reference.__hash__ is None


def test_the_library_declares_its_records_with_record(repo_root: Path) -> None:
    """A plain ``@dataclass`` in ``th_ext`` would bring back the start-up it costs."""
    package = repo_root / "cli" / "th_ext"
    offenders = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if path.name != "_record.py" and "@dataclass" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
