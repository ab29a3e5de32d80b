"""The library's layers point one way, and only the CLI knows about the terminal.

Each module's imports (at any depth, ``TYPE_CHECKING`` ones included) are read with ``ast``.
A module may import its own package and the layers below its own; never a layer above, nor a
sibling of its own rank. Adding a package means giving it a rank here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "cli" / "th_ext"

#: Lower rank first. The top-level private modules (``th_ext._exceptions``, ``th_ext._version``,
#: are the ground every package stands on; then the network policy and the
#: HTTP exchange (``th_ext.net``), problems as data (``th_ext.problems``), reading a source
#: (``th_ext.sources``) and the extensions' catalog (``th_ext.catalog``).
RANKS: dict[str, int] = {
    "_ground": 0,
    "net": 1,
    "problems": 2,
    "sources": 3,
    "catalog": 4,
    "commands": 5,
    "validate": 6,
    "checks": 6,
    "dispatch": 7,
    "publish": 7,
    "signatures": 7,  # th_ext.signatures: signed cards, on the card model and the card fetch
    "conform": 8,
    "demo": 9,
    "testing": 10,  # th_ext.testing: the checks from an agent's own pytest suite, on the batch
    "batch": 9,  # th_ext.batch: many sources checked at once, each result streamed
    "report": 10,  # th_ext.report: every report format, by name
    "history": 10,  # th_ext.history: the runs of the batch recorded in SQLite, read, charted
    "_facade": 11,  # th_ext/__init__.py re-exports what is below it
    "cli": 12,  # the command line (and th_ext/__main__.py): public names, th_ext's too
}

TERMINAL = ("typer", "click", "rich", "shellingham")


def layer_of(module: str) -> str:
    """``th_ext.validate._card`` -> ``validate``; ``th_ext._exceptions`` -> ``_ground``."""
    parts = module.split(".")
    if parts == ["th_ext", "__main__"]:
        return "cli"
    if parts == ["th_ext"]:
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
    assert RANKS[layer_of("th_ext.validate._document")] > RANKS[layer_of("th_ext._exceptions")]


def drawn_rows(readme: str) -> list[set[str]]:
    """The layers of the README's drawing, top row first, each as the set of its names."""
    block = readme.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    rows = []
    for line in block.splitlines():
        if not line.strip() or line.startswith("```") or line.strip() == "▼":
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        rows.append({name.strip() for name in names.split(" · ")})
    return rows


def ranked_rows() -> list[set[str]]:
    """The layers of ``RANKS``, top first, named as the drawing names them."""
    ground = {f"{p.stem}" for p in PACKAGE.glob("_*.py") if p.stem not in ("__init__", "__main__")}
    named = {"_facade": {"th_ext"}, "_ground": ground}
    by_rank: dict[int, set[str]] = {}
    for layer, rank in RANKS.items():
        by_rank.setdefault(rank, set()).update(named.get(layer, {layer}))
    return [by_rank[rank] for rank in sorted(by_rank, reverse=True)]


def test_the_readme_draws_the_layers_in_this_order() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert drawn_rows(readme) == ranked_rows()


def test_the_drawing_check_sees_a_row_out_of_place() -> None:
    """The check itself: the drawing with two rows swapped is not the order of ``RANKS``."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    swapped = readme.replace("sources   ", "@@@", 1).replace("problems  ", "sources   ", 1)
    swapped = swapped.replace("@@@", "problems  ", 1)
    assert drawn_rows(swapped) != drawn_rows(readme)
    assert drawn_rows(swapped) != ranked_rows()
