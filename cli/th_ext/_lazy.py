"""The one way th_ext defers an import: names that are imported (or built) on first use.

Every ``th-ext`` command imports ``th_ext`` and the packages it uses; a package that imported
all its modules up front would make each command pay for every other's code (the catalog, the
report formats, pydantic, the other subcommands). A package lists such names here instead, and
imports them under ``TYPE_CHECKING`` so that type checkers and readers still see where each
comes from. The command line resolves its subcommands with ``load`` in the same notation.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names", "load"]


def load(source: str) -> Any:
    """The value ``source`` names as ``module:attribute``, its module imported if need be:
    ``load("th_ext.cli._validate:validate_command")``."""
    module, _, attribute = source.partition(":")
    return getattr(importlib.import_module(module), attribute)


def lazy_names(
    package: str, sources: Mapping[str, str | Callable[[], Any]]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that makes ``name`` from ``sources[name]``.

    A source is a module name (the value of the same name in it), ``module:attribute`` when
    the name is exported under another, or a function that builds the value. Each value is
    made once, then kept in the package as an ordinary attribute.
    """

    def __getattr__(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if callable(source):
            value = source()
        else:
            value = load(source if ":" in source else f"{source}:{name}")
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
