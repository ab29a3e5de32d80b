"""The package keeps few enough modules that a newcomer can name them.

A module that only one other module imports belongs in that module; the limits below are the
ones CONTRIBUTING states. ``__init__.py`` and ``__main__.py`` are not counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "cli" / "th_ext"

LIMITS = {"validate": 10, "publish": 12, "cli": 13}
WHOLE_PACKAGE = 99


def modules(folder: Path) -> list[Path]:
    return [
        path for path in folder.rglob("*.py") if path.name not in ("__init__.py", "__main__.py")
    ]


def over_limits(package: Path) -> list[str]:
    """Each package (and the whole) with more modules than it may have, in words."""
    found = []
    for name, limit in LIMITS.items():
        count = len(modules(package / name))
        if count > limit:
            found.append(f"{name}: {count} modules (at most {limit})")
    total = len(modules(package))
    if total > WHOLE_PACKAGE:
        found.append(f"th_ext: {total} modules (at most {WHOLE_PACKAGE})")
    return found


def test_every_package_keeps_within_its_module_count() -> None:
    assert over_limits(PACKAGE) == []


@pytest.mark.parametrize("package", ["validate", "cli"])
def test_one_module_too_many_is_reported(tmp_path: Path, package: str) -> None:
    for index in range(LIMITS[package] + 1):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / f"_m{index}.py").write_text("", encoding="utf-8")
    (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    assert over_limits(tmp_path) == [
        f"{package}: {LIMITS[package] + 1} modules (at most {LIMITS[package]})"
    ]


def test_a_package_too_large_in_all_is_reported(tmp_path: Path) -> None:
    for index in range(WHOLE_PACKAGE + 1):
        (tmp_path / f"_m{index}.py").write_text("", encoding="utf-8")
    assert over_limits(tmp_path) == [
        f"th_ext: {WHOLE_PACKAGE + 1} modules (at most {WHOLE_PACKAGE})"
    ]
