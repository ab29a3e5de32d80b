"""Names a package exports but imports only when a program first asks for one.

Every ``th-ext`` command imports ``th_ext`` and the packages it uses; a package that imported
all its modules up front would make each command pay for every other's code (the catalog, the
report formats, pydantic). A package lists its names here instead, and imports them under
``TYPE_CHECKING`` so that type checkers and readers still see where each comes from.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, sources: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``name`` from ``sources[name]``.

    A source is a module name, or ``module:attribute`` when the name is exported under another.
    """

    def __getattr__(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = source.partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
