"""The one deferred-import helper: a name is made on first use, once, and kept as an attribute."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from th_ext._lazy import lazy_names, load


@pytest.fixture
def package() -> Iterator[types.ModuleType]:
    module = types.ModuleType("lazy_probe")
    sys.modules["lazy_probe"] = module
    yield module
    del sys.modules["lazy_probe"]


def test_a_name_is_imported_from_its_module_on_first_use(package: types.ModuleType) -> None:
    getter = lazy_names("lazy_probe", {"dumps": "json", "decode": "json:loads"})
    assert getter("dumps") is sys.modules["json"].dumps
    assert getter("decode") is sys.modules["json"].loads  # exported under another name
    assert package.dumps is sys.modules["json"].dumps  # kept: no second look-up


def test_a_built_value_is_built_once(package: types.ModuleType) -> None:
    built: list[object] = []

    def build() -> object:
        built.append(object())
        return built[-1]

    setattr(package, "__getattr__", lazy_names("lazy_probe", {"whole": build}))  # noqa: B010
    first = package.whole
    assert package.whole is first
    assert built == [first]


def test_an_unknown_name_is_an_attribute_error(package: types.ModuleType) -> None:
    getter = lazy_names("lazy_probe", {"dumps": "json"})
    with pytest.raises(AttributeError, match="'lazy_probe' has no attribute 'nothing'"):
        getter("nothing")


def test_load_names_module_and_attribute() -> None:
    assert load("th_ext.cli._app:main") is sys.modules["th_ext.cli._app"].main
