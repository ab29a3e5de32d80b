"""The scenario tables of the conform and dispatch pages, written from the code that sends them.

``conform.md`` lists every message conform sends to the demo agent and what each must do;
``dispatch.md`` lists what the dry run decides for each edge of the rule. Both tables sit
between ``<!-- scenarios -->`` and ``<!-- /scenarios -->`` and are made here from
``th_ext.conform``'s scenario plan and ``th_ext.commands.decide``; a test fails when a page and
the code disagree. ``python -m tests.support.scenario_docs`` rewrites both tables.
"""

from __future__ import annotations

from pathlib import Path

from th_ext import find
from th_ext.catalog._reader import spec_text
from th_ext.commands import decide
from th_ext.conform._scenarios import Scenario, edge_scenarios, scenarios
from th_ext.demo._harness import demo_registry

__all__ = ["PAGES", "block", "conform_table", "dispatch_table", "write"]

PAGES = Path(__file__).resolve().parents[2] / "site" / "th-ext"
START, END = "<!-- scenarios -->", "<!-- /scenarios -->"


def _plan() -> tuple[list[Scenario], list[Scenario], list[str]]:
    from th_ext.commands import read_card_commands

    registry = demo_registry()
    card = {"capabilities": {"extensions": [registry.card_extension()]}}
    extension = read_card_commands(card)
    commands = list(extension.commands)
    spec = spec_text(find("commands/v1"))
    return (
        scenarios(commands, extension.names),
        edge_scenarios(spec, commands, extension.names),
        extension.names,
    )


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def _message(scenario: Scenario) -> str:
    texts = []
    for part in scenario.parts:
        kind = next(iter(k for k in ("text", "raw", "url", "data") if k in part))
        texts.append(repr(part[kind]) if kind == "text" else f"a {kind} part")
    return " + ".join(texts)


def _must(scenario: Scenario) -> str:
    if scenario.command:
        return f"runs /{scenario.command} ({scenario.requirement})"
    return f"stays ordinary ({scenario.requirement})"


def conform_table() -> str:
    plan, edges, _ = _plan()
    lines = ["| Message | From | Sent | Must |", "|---|---|---|---|"]
    every = "every interface and mode, new and existing task"
    for scenario in plan:
        lines.append(
            f"| {_cell(_message(scenario))} | {scenario.source} | {every} | {_must(scenario)} |"
        )
    for scenario in edges:
        lines.append(
            f"| {_cell(_message(scenario))} | {scenario.source} | every interface, "
            f"existing task | {_must(scenario)} |"
        )
    first = plan[0].command
    lines.append(
        f"| {_cell(_message(plan[0]))} without `A2A-Extensions` | command | every interface, "
        f"new task | runs /{first} (CMD-15) |"
    )
    return "\n".join(lines)


def dispatch_table() -> str:
    _, edges, names = _plan()
    lines = ["| Message | Outcome | Reason |", "|---|---|---|"]
    for scenario in edges:
        decision = decide({"parts": list(scenario.parts)}, names)
        outcome = f"command /{decision.call.name}" if decision.call else "ordinary message"
        reason = decision.reason.replace("|", "\\|")
        lines.append(f"| {_cell(_message(scenario))} | {outcome} | {reason} |")
    return "\n".join(lines)


def block(page: str) -> str:
    """The table between the markers of ``page`` (``conform.md`` or ``dispatch.md``)."""
    text = (PAGES / page).read_text(encoding="utf-8")
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def write() -> None:
    for page, table in (("conform.md", conform_table()), ("dispatch.md", dispatch_table())):
        path = PAGES / page
        text = path.read_text(encoding="utf-8")
        head, rest = text.split(START, 1)
        path.write_text(f"{head}{START}\n{table}\n{END}{rest.split(END, 1)[1]}", encoding="utf-8")


if __name__ == "__main__":
    write()
