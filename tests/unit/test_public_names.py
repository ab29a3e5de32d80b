"""Every public package's ``__all__`` lists exactly its public names, and each one resolves.

A package's public names are what it re-exports from ``th_ext`` modules (at import, or under
``TYPE_CHECKING`` for a name imported on first use) and what it defines without a leading
underscore. Read with ``ast``, so that names imported on first use count without importing them.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "cli" / "th_ext"
PUBLIC_INITS = sorted(
    path
    for path in PACKAGE.rglob("__init__.py")
    if not any(part.startswith("_") for part in path.relative_to(PACKAGE).parts[:-1])
)


def module_of(path: Path) -> str:
    return ".".join(["th_ext", *path.relative_to(PACKAGE).parts[:-1]])


def public_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("th_ext"):
            names.update(alias.asname or alias.name for alias in node.names)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_") or name == "__version__"}


def declared_all(tree: ast.Module) -> list[str]:
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign) and node.value is not None
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            assert isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(item) for item in value]
    raise AssertionError("no __all__")


@pytest.mark.parametrize("path", PUBLIC_INITS, ids=module_of)
def test_all_lists_exactly_the_public_names(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    listed = declared_all(tree)
    assert len(listed) == len(set(listed)), f"{module_of(path)}: a name is listed twice"
    assert set(listed) == public_names(tree)


@pytest.mark.parametrize("path", PUBLIC_INITS, ids=module_of)
def test_every_listed_name_resolves(path: Path) -> None:
    module = importlib.import_module(module_of(path))
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []


def test_the_packages_are_found() -> None:
    assert {module_of(path) for path in PUBLIC_INITS} >= {
        "th_ext",
        "th_ext.cli",
        "th_ext.commands",
        "th_ext.demo",
        "th_ext.dispatch",
        "th_ext.publish",
        "th_ext.validate",
    }


def test_a_name_left_out_of_all_is_seen() -> None:
    tree = ast.parse("from th_ext._x import a, b\ndef c(): pass\n__all__ = ['a', 'c']\n")
    assert public_names(tree) - set(declared_all(tree)) == {"b"}
