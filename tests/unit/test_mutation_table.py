"""``make mutate``'s table and score: every listed module and test exists, an equivalent mutant
is left out of the score with its reason, and a stale one fails the run."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path

from tests.support.mutation_run import ROOT, _pyproject
from tests.support.mutation_scores import TABLE, MutationTable, load_table, report, score


def test_every_module_and_test_the_table_lists_exists() -> None:
    table = load_table(TABLE)
    assert table.minimum == 0.9
    for module, tests in table.modules.items():
        assert (ROOT / "cli" / "th_ext" / module.replace(".", "/")).with_suffix(".py").is_file()
        assert tests, module
        assert all((ROOT / test).exists() for test in tests), module
    for name, reason in table.equivalent.items():
        assert any(name.startswith(f"th_ext.{module}.x") for module in table.modules), name
        assert len(reason.split()) >= 4, name


def test_a_module_s_workspace_mutates_that_module_with_its_tests_alone() -> None:
    config = tomllib.loads(_pyproject("conform._verdicts", ["tests/unit/conform/x.py"]))
    mutmut = config["tool"]["mutmut"]
    assert mutmut["only_mutate"] == ["th_ext/conform/_verdicts.py"]
    assert mutmut["pytest_add_cli_args_test_selection"] == ["tests/unit/conform/x.py"]
    assert mutmut["source_paths"] == ["th_ext"]
    assert config["tool"]["pytest"]["ini_options"]["filterwarnings"][0] == "error"


def workspace(tmp_path: Path, codes: Mapping[str, int | None]) -> Path:
    meta = tmp_path / "mutants" / "th_ext" / "checks" / "_x.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    return tmp_path


def test_the_score_leaves_out_equivalent_and_skipped_mutants(tmp_path: Path) -> None:
    name = "th_ext.checks._x.x_f__mutmut_"
    codes = {f"{name}1": 1, f"{name}2": 0, f"{name}3": 0, f"{name}4": 33, f"{name}5": 34}
    found = score(workspace(tmp_path, codes), "checks._x", {f"{name}3": "an unused value"})
    assert (found.killed, found.counted, found.equivalent) == (1, 3, 1)
    assert found.survivors == [f"{name}2", f"{name}4"]
    assert found.stale == []


def test_an_equivalent_mutant_a_test_kills_or_that_is_gone_fails_the_run(tmp_path: Path) -> None:
    name = "th_ext.checks._x.x_f__mutmut_"
    place = workspace(tmp_path, {f"{name}{n}": 1 for n in range(1, 11)})
    listed = {f"{name}1": "no longer true", f"{name}99": "gone"}
    table = MutationTable({"checks._x": []}, listed, 0.9)
    assert score(place, "checks._x", listed).stale == [f"{name}1", f"{name}99"]
    assert report({"checks._x": place}, table) == 1
    clean = MutationTable({"checks._x": []}, {}, 0.9)
    assert report({"checks._x": place}, clean) == 0


def test_a_module_under_the_bar_fails_the_run(tmp_path: Path) -> None:
    name = "th_ext.checks._x.x_f__mutmut_"
    codes = {f"{name}{n}": (0 if n <= 2 else 1) for n in range(1, 11)}
    place = workspace(tmp_path, codes)
    assert report({"checks._x": place}, MutationTable({"checks._x": []}, {}, 0.9)) == 1
    assert report({"checks._x": place}, MutationTable({"checks._x": []}, {}, 0.8)) == 0
