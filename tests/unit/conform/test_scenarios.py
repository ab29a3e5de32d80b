"""The messages conform sends, built from the card: each command (with an argument only when
its hint requires one), an unregistered name, a plain question and the rule's edges."""

from __future__ import annotations

import uuid

from th_ext import find
from th_ext.catalog._reader import spec_text
from th_ext.commands._card import CardCommand
from th_ext.conform._scenarios import (
    ARGUMENT,
    Scenario,
    command_text,
    edge_scenarios,
    scenarios,
    user_message,
)

SPEC = spec_text(find("commands/v1"))


def test_each_command_an_unregistered_name_and_a_plain_question() -> None:
    commands = [CardCommand("model", "m", "[<model>]"), CardCommand("review", "r", "<focus>")]
    assert scenarios(commands, ["model", "review"]) == [
        Scenario("/model", ({"text": "/model"},), "model", "CMD-1"),
        Scenario("/review", ({"text": f"/review {ARGUMENT}"},), "review", "CMD-1"),
        Scenario(
            "unregistered /th-ext-unregistered",
            ({"text": "/th-ext-unregistered"},),
            None,
            "CMD-6",
            "unregistered",
        ),
        Scenario("an ordinary message", ({"text": "What is A2A?"},), None, "CMD-8", "plain"),
    ]
    assert command_text(CardCommand("review", "r", "<focus>")) == "/review th-ext conform"


def test_the_unregistered_name_is_one_the_card_does_not_list() -> None:
    def unregistered(taken: list[str]) -> str:
        [found] = [s for s in scenarios([], taken) if s.source == "unregistered"]
        return str(found.parts[0]["text"])

    assert unregistered(["th-ext-unregistered"]) == "/th-ext-unregistered-2"
    assert (
        unregistered(["th-ext-unregistered", "th-ext-unregistered-2"]) == "/th-ext-unregistered-3"
    )


def test_the_edges_name_a_command_that_takes_no_argument_when_there_is_one() -> None:
    commands = [CardCommand("review", "r", "<focus>"), CardCommand("help", "h")]
    edges = edge_scenarios(SPEC, commands, ["review", "help"])
    runs = [e for e in edges if e.command is not None]
    assert runs
    assert {e.command for e in runs} == {"help"}
    assert all(e.requirement == "CMD-1" for e in runs)
    assert {e.requirement for e in edges if e.command is None} == {"CMD-6", "CMD-8"}
    tab = next(e for e in edges if e.source == "condition 3" and e.command)
    assert tab.parts == ({"text": "/help th-ext conform"},)
    unregistered = next(e for e in edges if e.requirement == "CMD-6")
    assert unregistered.source in ("table", "condition 3")


def test_the_edges_of_a_command_that_needs_an_argument_send_one() -> None:
    edges = edge_scenarios(SPEC, [CardCommand("review", "r", "<focus>")], ["review"])
    assert {e.command for e in edges if e.command} == {"review"}
    assert {"text": "/review\tth-ext conform"} in [e.parts[0] for e in edges]


def test_without_a_command_the_edges_are_the_ordinary_messages_alone() -> None:
    edges = edge_scenarios(SPEC, [], ["model"])
    assert edges
    assert all(e.command is None for e in edges)
    assert {e.requirement for e in edges} == {"CMD-6", "CMD-8"}
    texts = [e.parts[0].get("text", "") for e in edges]
    assert "/th-ext-unregistered\t" in texts  # no argument after the name
    assert "'/th-ext-unregistered' then U+0009 (tab)" in [e.label for e in edges]
    assert "/th-ext-unregistered" in texts
    assert "/Th-ext-unregistered" in texts


def test_a_user_message_is_fresh_and_addressed_to_the_task_when_given() -> None:
    parts = ({"text": "/help"},)
    first, second = user_message(parts), user_message(parts)
    assert first["messageId"] != second["messageId"]
    assert uuid.UUID(first["messageId"])
    assert first == {
        "messageId": first["messageId"],
        "role": "ROLE_USER",
        "parts": [{"text": "/help"}],
    }
    first["parts"][0]["text"] = "changed"
    assert parts == ({"text": "/help"},)
    to_task = user_message(parts, {"id": "t", "contextId": "c"})
    assert (to_task["taskId"], to_task["contextId"]) == ("t", "c")
    no_context = user_message(parts, {"id": "t", "contextId": ""})
    assert no_context["taskId"] == "t"
    assert "contextId" not in no_context
    assert "contextId" not in user_message(parts, {"id": "t", "contextId": 5})


def test_a_command_of_any_length_is_named_cut_and_sent_whole() -> None:
    long = "m" * 100_000
    found = scenarios([CardCommand(long, "m")], [long])
    assert found[0].label == "/" + "m" * 78 + "…"
    assert found[0].parts == ({"text": "/" + long},)
    edges = edge_scenarios(SPEC, [CardCommand(long, "m")], [long])
    assert edges
    assert max(len(e.label) for e in edges) == 120  # every edge's label, cut in one place
    assert any(len(e.parts[0].get("text", "")) > 100_000 for e in edges)
