"""The messages conform sends: every selected command, and the messages that must stay ordinary."""

from __future__ import annotations

import base64
import functools
import re
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any

from th_ext.commands._card import CardCommand, asks_for_argument
from th_ext.commands._dispatch_rule import ASCII_WHITESPACE, NON_TEXT_CONTENT, decide
from th_ext.problems import cut, quoted

__all__ = [
    "RuleEdge",
    "Scenario",
    "command_text",
    "edge_scenarios",
    "other_whitespace",
    "rule_edges",
    "scenarios",
    "spec_table_rows",
    "user_message",
]


ARGUMENT = "th-ext conform"
"""The argument sent to a command whose hint requires one."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """One message to send, and what the extension says it must do."""

    label: str
    parts: tuple[dict[str, Any], ...]
    command: str | None
    """The command it runs, or None for a message that must stay ordinary."""
    requirement: str
    """The requirement its answer is checked against: CMD-1 for a command, CMD-6 for an
    unregistered name, CMD-8 for any other ordinary message."""
    source: str = "command"
    """Where it comes from: ``command`` (a registered command), ``unregistered``, ``plain``,
    ``table`` (a row of the rule's table) or ``condition N`` (a numbered condition)."""


def command_text(command: CardCommand) -> str:
    """``/name``, plus an argument when the hint asks for one outside square brackets (an
    optional one is left out, which keeps side effects small)."""
    if asks_for_argument(command.argument_hint):
        return f"/{command.name} {ARGUMENT}"
    return f"/{command.name}"


def scenarios(commands: list[CardCommand], registered: list[str]) -> list[Scenario]:
    """What every binding and mode gets, on a new and on an existing task: each selected
    command, an unregistered name and a plain question."""
    found = [
        Scenario(cut(f"/{c.name}", 80), ({"text": command_text(c)},), c.name, "CMD-1")
        for c in commands
    ]
    unregistered = _unregistered_name(registered)
    found += [
        Scenario(
            f"unregistered /{unregistered}",
            ({"text": f"/{unregistered}"},),
            None,
            "CMD-6",
            "unregistered",
        ),
        Scenario("an ordinary message", ({"text": "What is A2A?"},), None, "CMD-8", "plain"),
    ]
    return found


def edge_scenarios(spec: str, commands: list[CardCommand], registered: list[str]) -> list[Scenario]:
    """The edges of the rule (``th_ext.conform._scenarios``), sent once per interface on an
    existing task. They name a selected command, preferring one that takes no argument; with
    none selected, the unregistered name, and only the messages that must stay ordinary."""
    chosen = sorted(commands, key=lambda c: bool(c.argument_hint))[:1]
    name = chosen[0].name if chosen else _unregistered_name(registered)
    argument = ARGUMENT if chosen else ""
    found = []
    for edge in rule_edges(spec, name, argument, registered):
        if edge.command is not None and not chosen:
            continue
        requirement = "CMD-1" if edge.command else "CMD-6" if edge.unregistered_name else "CMD-8"
        found.append(Scenario(edge.label, edge.parts, edge.command, requirement, edge.source))
    return found


def user_message(
    parts: tuple[dict[str, Any], ...], task: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A fresh user message; with ``task``, addressed to that task and its context."""
    message: dict[str, Any] = {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [dict(part) for part in parts],
    }
    if task is not None:
        message["taskId"] = task["id"]
        if isinstance(task.get("contextId"), str) and task["contextId"]:
            message["contextId"] = task["contextId"]
    return message


def _unregistered_name(registered: list[str]) -> str:
    """A name that matches the name pattern and is not on the card."""
    name, n = "th-ext-unregistered", 1
    while name in registered:
        n += 1
        name = f"th-ext-unregistered-{n}"
    return name


_ROW = re.compile(r"^\|\s*`([^`]*)`([^|]*)\|([^|]*)\|\s*$")
_EXAMPLE_NAME = re.compile(r"with\s+`([a-z][a-z0-9-]*)`\s+registered")
_SECOND_PART = "beside a second part"
_PART_TEXT = "and a second part"


@dataclass(frozen=True, slots=True)
class RuleEdge:
    """One message at an edge of the rule, and where in the rule it comes from."""

    label: str
    parts: tuple[dict[str, Any], ...]
    source: str
    """``table`` (a row of the clarifications' table) or ``condition N``."""
    command: str | None
    """The command the rule says it runs, or None for an ordinary message."""
    unregistered_name: bool
    """The text names a command that is not registered (CMD-6 rather than CMD-8)."""


def spec_table_rows(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """The clarifications' table: its example name, and each row's message text and remark."""
    example = _EXAMPLE_NAME.search(spec)
    rows: list[tuple[str, str]] = []
    in_table = False
    for line in spec.splitlines():
        if line.startswith("| Message text"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        match = _ROW.match(line) if in_table else None
        if match:
            rows.append((match.group(1), match.group(2).strip()))
    return (example.group(1) if example else ""), rows


def rule_edges(spec: str, name: str, argument: str, registered: list[str]) -> list[RuleEdge]:
    """Every edge for the registered command ``name`` (``argument`` for one that needs it),
    made from the spec page's table and the rule's numbered conditions, never listed by hand;
    ``decide``, the rule itself, says what each must do."""
    return [
        *_table_edges(spec, name, registered),
        *_part_edges(name, registered),
        *_whitespace_edges(name, argument, registered),
    ]


def _edge(label: str, parts: list[dict[str, Any]], source: str, registered: list[str]) -> RuleEdge:
    decision = decide({"parts": parts}, registered)
    return RuleEdge(
        label=cut(label, 120),  # a label names the edge in every report: a name is cut
        parts=tuple(parts),
        source=source,
        command=decision.call.name if decision.call else None,
        unregistered_name=decision.call is None and bool(decision.name),
    )


def _table_edges(spec: str, name: str, registered: list[str]) -> list[RuleEdge]:
    example, rows = spec_table_rows(spec)
    edges = []
    for row_text, remark in rows:
        text = row_text
        if example:
            text = text.replace(example, name).replace(example.capitalize(), name.capitalize())
        parts: list[dict[str, Any]] = [{"text": text}]
        label = repr(text)
        if _SECOND_PART in remark:
            parts.append({"text": _PART_TEXT})
            label += f" {_SECOND_PART}"
        edges.append(_edge(label, parts, "table", registered))
    return edges


def _part_edges(name: str, registered: list[str]) -> list[RuleEdge]:
    """Condition 1: the text beside a part of each other kind, and alone in a data part."""
    text = f"/{name}"
    other: dict[str, dict[str, Any]] = {
        "raw": {"raw": base64.b64encode(b"th-ext conform").decode(), "mediaType": "text/plain"},
        "url": {"url": "https://example.com/th-ext-conform.txt", "mediaType": "text/plain"},
        "data": {"data": {"text": text}},
    }
    kinds = {"raw": "a file part (raw)", "url": "a file part (url)", "data": "a data part"}
    where = "condition 1"
    edges = [
        _edge(
            f"{quoted(text)} beside {kinds[kind]}", [{"text": text}, other[kind]], where, registered
        )
        for kind in NON_TEXT_CONTENT
    ]
    edges.append(_edge(f"{quoted(text)} alone in a data part", [other["data"]], where, registered))
    return edges


def _whitespace_edges(name: str, argument: str, registered: list[str]) -> list[RuleEdge]:
    """Condition 3: the name then each ASCII whitespace character (a command), and the name then
    whitespace outside ASCII (an ordinary message: only ASCII whitespace ends a name)."""
    endings = [(char, argument) for char in ASCII_WHITESPACE]
    endings += [(char, argument or "x") for char in other_whitespace()]
    return [
        _edge(
            f"'/{name}' then {_char(char)}",
            [{"text": f"/{name}{char}{after}"}],
            "condition 3",
            registered,
        )
        for char, after in endings
    ]


@functools.cache
def other_whitespace() -> tuple[str, ...]:
    """One whitespace character outside ASCII of each Unicode category that has one (a line
    separator, a paragraph separator, a space, a control): what ``str.split`` or a regular
    expression's ``\\s`` may take for the end of a name, and the rule does not."""
    seen: dict[str, str] = {}
    for code in range(0x80, 0x10000):  # every whitespace character is in the first plane
        char = chr(code)
        if char.isspace() and char not in ASCII_WHITESPACE:
            seen.setdefault(unicodedata.category(char), char)
    return tuple(sorted(seen.values()))


_ASCII_NAMES = dict(
    zip(
        ASCII_WHITESPACE,
        ("space", "tab", "line feed", "carriage return", "form feed", "vertical tab"),
        strict=True,
    )
)


def _char(char: str) -> str:
    name = _ASCII_NAMES.get(char) or unicodedata.name(char, "").lower()
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")
