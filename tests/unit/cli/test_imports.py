"""The package uses its dependencies' public API only, and the command line the library's.

Imports are read with ``ast`` wherever they stand. A dependency's module is private when any
part of its name starts with an underscore, and typer's ``core`` and ``main`` are its internals.
The command line (``th_ext.cli``) imports from the library only names a package lists in its
``__all__``, never from a private module.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "cli" / "th_ext"
PRIVATE_OF_TYPER = ("typer.core", "typer.main")


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` of every absolute import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def private_dependency_imports(path: Path) -> list[str]:
    wrong = []
    for module, names in _imports(path):
        if module.split(".")[0] in ("th_ext", "__future__"):
            continue
        if (
            any(part.startswith("_") for part in module.split("."))
            or module.startswith(PRIVATE_OF_TYPER)
            or (module == "typer" and {"core", "main"} & set(names))
        ):
            wrong.append(module)
    return wrong


def _public_package(name: str) -> bool:
    """``th_ext.dispatch``, imported as ``from th_ext import dispatch``."""
    return (
        not name.rpartition(".")[2].startswith("_") and importlib.util.find_spec(name) is not None
    )


def private_library_imports(path: Path) -> list[str]:
    wrong = []
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] != "th_ext" or module.startswith("th_ext.cli"):
            continue
        if any(part.startswith("_") for part in parts):
            wrong.append(module)
            continue
        public = set(getattr(importlib.import_module(module), "__all__", ()))
        wrong += [
            f"{module}.{name}"
            for name in names
            if name not in public and not _public_package(f"{module}.{name}")
        ]
    return wrong


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_private_module_of_a_dependency(path: Path) -> None:
    assert private_dependency_imports(path) == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "cli").glob("*.py")), ids=lambda p: p.name)
def test_the_command_line_imports_public_library_names(path: Path) -> None:
    assert private_library_imports(path) == []


def test_the_rules_see_what_they_forbid(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typer.core import TyperOption\nimport click._compat\n"
        "from th_ext.validate._report import Report\nfrom th_ext.report import nothing\n"
    )
    assert private_dependency_imports(probe) == ["typer.core", "click._compat"]
    assert private_library_imports(probe) == ["th_ext.validate._report", "th_ext.report.nothing"]
