"""``th-ext commands``: the card's commands as completions, in the card's order."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from th_ext.demo import DemoServer, DemoVariant, demo_registry

from .conftest import Result

EXAMPLES = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples"


def test_the_text_listing_aligns_usage_and_description(th_ext: Callable[..., Result]) -> None:
    result = th_ext("commands", str(EXAMPLES / "card.json"))
    assert result.exit_code == 0
    assert result.stdout == (
        "/model [<model>]  Show or choose this task's model\n"
        "/help             List the commands this agent offers\n"
        "/review <focus>   Start a review of the conversation as a sub-task\n"
    )


def test_a_name_or_a_description_of_megabytes_is_cut_in_the_text_listing(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[0]["description"] = "d" * 5_000_000
    commands.append({"name": "x" * 100_000, "description": "long name"})
    path = tmp_path / "big.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = th_ext("commands", str(path))
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0] == "/model [<model>]".ljust(60) + "  " + "d" * 499 + "…"
    assert lines[3] == "/" + "x" * 58 + "…  long name"  # not padded to 100,000 columns
    listed = th_ext("commands", str(path), "--format", "json").json()["commands"]
    assert listed[0]["description"] == "d" * 5_000_000  # JSON keeps every character


def test_the_json_listing_of_the_demo_agent_is_its_registry(
    th_ext: Callable[..., Result], demo_agent: Callable[[DemoVariant], DemoServer]
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    result = th_ext("commands", server.base_url, "--format", "json")
    assert result.exit_code == 0
    listing = result.json()
    assert listing["declared"] is True and listing["problems"] == []
    assert listing["commands"] == demo_registry().card_params()["commands"]


def test_a_card_without_the_extension(th_ext: Callable[..., Result], tmp_path: Path) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["capabilities"].pop("extensions")
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(card))
    result = th_ext("commands", str(path))
    assert result.exit_code == 0
    assert "does not declare the commands extension" in result.stdout
    assert th_ext("commands", str(path), "-f", "json").json()["declared"] is False


def test_unusable_entries_are_warned_about_and_exit_1(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["capabilities"]["extensions"][0]["params"]["commands"].append(
        {"name": "Bad", "description": "x"}
    )
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(card))
    result = th_ext("commands", str(path))
    assert result.exit_code == 1
    assert result.stdout.count("\n") == 3
    assert (
        "th-ext: warning: /capabilities/extensions/0/params/commands/3: name 'Bad' does not match"
        in result.stderr
    )


def test_no_card_is_exit_2(th_ext: Callable[..., Result]) -> None:
    result = th_ext("commands", "missing.json")
    assert result.exit_code == 2
    assert result.stderr == "th-ext: error: missing.json: no such file\n"


def test_escape_sequences_from_the_card_never_reach_the_terminal(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    entry = card["capabilities"]["extensions"][0]
    entry["params"]["commands"][0]["description"] = "Clear \x1b[2J the screen\u202e"
    entry["params"]["commands"][0]["argument_hint"] = "[\x1b]0;title\x07<model>]"
    card["supportedInterfaces"][0]["url"] = "http://127.0.0.1:8000/a2a\x1b[31m"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(card))
    listing = th_ext("commands", str(path))
    assert listing.exit_code == 0
    assert "/model [<model>]  Clear  the screen\n" in listing.stdout
    plan = th_ext("dispatch", str(path), "/model \x1b[2Jfast")
    assert plan.exit_code == 0
    for text in (listing.stdout, plan.stdout):
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text


def test_the_warning_names_the_json_pointer_validate_reports(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["capabilities"]["extensions"].insert(0, {"uri": "https://other.example/ext/v1"})
    card["capabilities"]["extensions"][1]["params"]["commands"][1]["name"] = "Help"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(card))
    warned = th_ext("commands", str(path)).stderr.splitlines()
    pointer = "/capabilities/extensions/1/params/commands/1"
    assert warned == [f"th-ext: warning: {pointer}: name 'Help' does not match ^[a-z][a-z0-9-]*$"]
    reported = th_ext("validate", str(path), "-f", "json").json()["problems"]
    assert f"{pointer}/name" in [p["path"] for p in reported]
