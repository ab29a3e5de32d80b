"""The regex check of ``make lint`` (dlint's DUO138) fails on a pattern that can backtrack
catastrophically, passes a linear one, and is run over every Python source by ``make lint``
and ``make test``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _check(tmp_path: Path, pattern: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "module.py"
    source.write_text(f"import re\n\nPATTERN = re.compile({pattern!r})\n", encoding="utf-8")
    command = [sys.executable, "-m", "flake8", "--isolated", "--select=DUO138", str(source)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("pattern", [r"^(a+)+$", r"(\w+\s?)*$", r"^(x+x+)+y"])
def test_a_pattern_that_backtracks_fails_the_check(tmp_path: Path, pattern: str) -> None:
    process = _check(tmp_path, pattern)
    assert process.returncode == 1
    assert "DUO138" in process.stdout


def test_a_linear_pattern_passes_the_check(tmp_path: Path) -> None:
    process = _check(tmp_path, r"^[a-z][a-z0-9-]*$")
    assert process.returncode == 0, process.stdout


def test_make_lint_and_test_run_the_check_over_every_source() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(
        r"^REGEX_CHECK := .*flake8 --isolated --select=DUO138 \$\(PY_SOURCES\)$", makefile, re.M
    )
    for target in ("test", "lint"):
        recipe = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
        assert "$(REGEX_CHECK)" in recipe, target
