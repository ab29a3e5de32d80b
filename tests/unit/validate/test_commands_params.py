"""The commands extension's rules beyond its schema, with the words a report prints."""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.validate._extensions import check_commands_params

BASE = ("capabilities", "extensions", 0)
WHERE = "/capabilities/extensions/0/params/commands"

NAME_HINT = "use lower-case letters, digits and '-', starting with a letter"
DUPLICATE_HINT = "register each command once; a message can run only one of them"


def found(params: Any, **entry: Any) -> list[tuple[str, str, str, str, str, str]]:
    problems, _ = check_commands_params(entry, params, BASE)
    return [(p.severity, p.code, p.path, p.message, p.hint, p.layer) for p in problems]


def bad_name(
    index: int, name: str, meant: str | None = None
) -> tuple[str, str, str, str, str, str]:
    return (
        "error",
        "command-name-pattern",
        f"{WHERE}/{index}/name",
        f"command name {name!r} does not match ^[a-z][a-z0-9-]*$",
        NAME_HINT if meant is None else f"{NAME_HINT}; did you mean {meant!r}?",
        "extension",
    )


def repeated(index: int, name: str, first: int) -> tuple[str, str, str, str, str, str]:
    return (
        "error",
        "duplicate-command",
        f"{WHERE}/{index}/name",
        f"command {name!r} is already registered at index {first}",
        DUPLICATE_HINT,
        "extension",
    )


def test_required_true_is_a_warning_with_its_reason() -> None:
    assert found({"commands": []}, required=True) == [
        (
            "warning",
            "required-extension",
            "/capabilities/extensions/0/required",
            "the commands extension is marked required: true",
            "set required: false (or leave it out): a client that does not know the "
            "extension must still be able to talk to the agent",
            "extension",
        )
    ]
    assert found({"commands": []}, required=False) == []
    assert found({"commands": []}, required="true") == []


def test_a_name_whose_only_fault_is_a_line_break() -> None:
    commands = [{"name": "good"}, {"name": "line\nbreak"}]
    assert found({"commands": commands}) == [bad_name(1, "line\nbreak", "line-break")]


#: The valid name a malformed one most likely meant, where there is one.
MEANT = {
    "Model": "model",
    "model ": "model",
    "-model": "model",
    "1model": "model",
    "mo_del": "mo-del",
}


@pytest.mark.parametrize("name", ["Model", "model ", "-model", "1model", "", "modèl", "mo_del"])
def test_one_bad_name_among_good_ones(name: str) -> None:
    commands = [{"name": "help"}, {"name": name}, {"name": "review"}]
    assert found({"commands": commands}) == [bad_name(1, name, MEANT.get(name))]


def test_names_in_a_list_that_also_holds_other_values() -> None:
    commands: list[Any] = ["help", {"name": "Bad"}, None, {"name": "a"}, {"x": 1}, {"name": "a"}]
    assert found({"commands": commands}) == [bad_name(1, "Bad", "bad"), repeated(5, "a", 3)]
    _, summary = check_commands_params({}, {"commands": commands}, BASE)
    assert summary == {"commands": ["Bad", "a", "a"]}


def test_a_value_that_is_not_a_name_does_not_stop_the_duplicate_search() -> None:
    commands = [{"name": "a"}, {"name": 5}, {"name": "b"}, {"name": "a"}, {"name": "b"}]
    assert found({"commands": commands}) == [repeated(3, "a", 0), repeated(4, "b", 2)]


def test_every_repeat_is_reported_against_the_first() -> None:
    commands = [{"name": "a"}, {"name": "a"}, {"name": "a"}]
    assert found({"commands": commands}) == [repeated(1, "a", 0), repeated(2, "a", 0)]


def test_the_summary_lists_the_names_in_order() -> None:
    _, summary = check_commands_params({}, {"commands": [{"name": "b"}, {"name": "a"}]}, BASE)
    assert summary == {"commands": ["b", "a"]}


@pytest.mark.parametrize("params", [None, [], "x", {"commands": {}}, {"commands": None}, {}])
def test_params_without_a_commands_list_have_no_names(params: Any) -> None:
    assert check_commands_params({}, params, BASE) == ([], {"commands": []})


@pytest.mark.parametrize("size", [255, 256, 300])
def test_a_long_list_of_entries_without_names_has_no_names_to_judge(size: int) -> None:
    commands = [{"description": "d"} for _ in range(size)]
    problems, summary = check_commands_params({}, {"commands": commands}, BASE)
    assert (problems, summary) == ([], {"commands": []})


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("Help", "help"),
        ("HELP", "help"),
        ("hElp", "help"),
        ("help!", "help"),
        ("?help", "help"),
        ("run_tests", "run-tests"),
        ("run tests", "run-tests"),
        ("run.tests", "run-tests"),
    ],
)
def test_a_name_one_step_from_a_valid_one_gets_it_in_the_hint(name: str, meant: str) -> None:
    commands = [{"name": name}]
    (problem,) = check_commands_params({}, {"commands": commands}, BASE)[0]
    assert problem.hint == (
        f"use lower-case letters, digits and '-', starting with a letter; did you mean {meant!r}?"
    )


@pytest.mark.parametrize(
    "name", ["", "-", "Run_Tests", "run__tests", "modèl", "a\u202eb!", "!help!", "12", "HELP ME!"]
)
def test_a_name_further_from_any_valid_one_gets_the_generic_hint(name: str) -> None:
    (problem,) = check_commands_params({}, {"commands": [{"name": name}]}, BASE)[0]
    assert problem.hint == NAME_HINT
