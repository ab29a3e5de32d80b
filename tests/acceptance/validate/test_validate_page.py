"""The examples on the site's validate page are what the command really prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.acceptance.validate.conftest import good_card, run_validate

PAGES = Path(__file__).resolve().parents[3] / "site" / "th-ext"
PAGE = PAGES / "validate.md"
FLEET_PAGE = PAGES / "fleet.md"
CONSOLE = re.compile(
    r"```console\n\$ th-ext validate ([^\n]*)\n((?:(?!```).)*?)\n\$ echo \$\?\n(\d)\n```", re.S
)
BLOCK = re.compile(r"```(json|xml)\n(.*?)\n```", re.S)


def write_examples(folder: Path) -> None:
    """The two cards the page's examples are made from."""
    (folder / "card.json").write_text(json.dumps(good_card(), indent=2), encoding="utf-8")
    broken = good_card()
    broken["homepage"] = "https://agent.example"
    entry = broken["capabilities"]["extensions"][0]
    entry["required"] = True
    commands = entry["params"]["commands"]
    commands[1]["name"] = "Help"
    commands[2]["aliases"] = ["r"]
    commands.append({"name": "model", "description": "Pick a model again"})
    (folder / "broken-card.json").write_text(json.dumps(broken, indent=2), encoding="utf-8")


def test_console_examples_match(tmp_path: Path) -> None:
    write_examples(tmp_path)
    examples = [
        example
        for page in (PAGE, FLEET_PAGE)
        for example in CONSOLE.findall(page.read_text(encoding="utf-8"))
    ]
    assert len(examples) == 4
    for args, output, code in examples:
        run = run_validate(*args.split(), cwd=tmp_path)
        assert (run.stdout + run.stderr).rstrip("\n") == output, args
        assert str(run.code) == code, args


def test_json_and_junit_examples_match(tmp_path: Path) -> None:
    write_examples(tmp_path)
    blocks = dict(BLOCK.findall(PAGE.read_text(encoding="utf-8")))
    as_json = run_validate("broken-card.json", "--format", "json", cwd=tmp_path)
    assert as_json.stdout.rstrip("\n") == blocks["json"]
    as_junit = run_validate("broken-card.json", "--format", "junit", cwd=tmp_path)
    assert as_junit.stdout.rstrip("\n") == blocks["xml"]
