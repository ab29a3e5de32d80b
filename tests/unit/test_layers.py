"""The library's layers point one way, and only the CLI knows about the terminal.

Each module's imports (at any depth, ``TYPE_CHECKING`` ones included) are read with ``ast``.
A module may import its own package and the layers below its own; never a layer above, nor a
sibling of its own rank. Adding a package means giving it a rank here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "cli" / "th_ext"

#: Lower rank first. The network policy (``th_ext.net``) is the bottom; the top-level private
#: modules (``th_ext._source``, ``th_ext._problem``...) are the ground every package stands on.
RANKS: dict[str, int] = {
    "net": 0,
    "_ground": 1,
    "commands": 2,
    "validate": 3,
    "checks": 3,
    "dispatch": 4,
    "publish": 4,
    "conform": 5,
    "demo": 6,
    "testing": 6,  # th_ext.testing: the checks from an agent's own pytest suite
    "cli": 7,
    "_facade": 8,  # th_ext/__init__.py and __main__.py re-export what is below them
}

TERMINAL = ("typer", "click", "rich", "shellingham")


def layer_of(module: str) -> str:
    """``th_ext.validate._card`` -> ``validate``; ``th_ext._source`` -> ``_ground``."""
    parts = module.split(".")
    if parts in (["th_ext"], ["th_ext", "__main__"]):
        return "_facade"
    if len(parts) == 2 and parts[1].startswith("_"):
        return "_ground"
    return parts[1]


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, package: str) -> set[str]:
    """Every module ``path`` (in ``package``) imports, absolute, wherever the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module is not None:
                found.add(node.module)
    return found


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_package_has_a_rank() -> None:
    layers = {layer_of(module_name(path)) for path in modules()}
    assert layers <= set(RANKS), f"give these packages a rank: {sorted(layers - set(RANKS))}"


@pytest.mark.parametrize("path", modules(), ids=module_name)
def test_imports_point_down(path: Path) -> None:
    importer = layer_of(module_name(path))
    wrong = []
    for imported in sorted(imports_of(path, package_of(path))):
        if imported != "th_ext" and not imported.startswith("th_ext."):
            continue
        target = layer_of(imported)
        if target == importer:
            continue
        if RANKS[target] >= RANKS[importer]:
            wrong.append(f"{imported} ({target}, rank {RANKS[target]})")
    assert not wrong, (
        f"{module_name(path)} ({importer}, rank {RANKS[importer]}) imports upward: {wrong}"
    )


@pytest.mark.parametrize("path", modules(), ids=module_name)
def test_only_the_cli_imports_terminal_code(path: Path) -> None:
    if layer_of(module_name(path)) in ("cli", "_facade"):
        return
    terminal = sorted(m for m in imports_of(path, package_of(path)) if m.split(".")[0] in TERMINAL)
    assert not terminal, f"{module_name(path)} is library code but imports {terminal}"


def test_the_rule_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a ground module that reaches for validate is caught."""
    source = tmp_path / "probe.py"
    source.write_text(
        "def f():\n    from th_ext.validate._document import parse_document\n"
        "from ._exceptions import ThExtError\n",
        encoding="utf-8",
    )
    imported = imports_of(source, "th_ext")
    assert imported == {"th_ext.validate._document", "th_ext._exceptions"}
    assert RANKS[layer_of("th_ext.validate._document")] > RANKS[layer_of("th_ext._source")]
