"""How ``th-ext dispatch`` prints a dry run and a live check for people.

Kept apart from the command so that its start-up and its JSON output never load it. Every
string that came from the card, the message or the agent is cleaned of control characters and
escape sequences before it reaches the terminal.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from th_ext.net import redact_url
from th_ext.problems._text import clean

if TYPE_CHECKING:
    from th_ext.dispatch import DispatchPlan, LiveReport

__all__ = ["render_live", "render_plan"]


def _paint(text: str, code: str, color: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if color else text


def render_plan(
    plan: DispatchPlan,
    location: str,
    extra_headers: int = 0,
    *,
    color: bool = False,
    compact: bool = False,
) -> str:
    """The dry run, for people; ``compact`` leaves out the JSON bodies."""

    def dump(value: Any, indent: int | None = None) -> list[str]:
        text = json.dumps(value, indent=indent, ensure_ascii=False)
        return [clean(line) for line in text.splitlines()]

    lines: list[str] = []
    if plan.outcome == "command":
        lines.append(f"outcome    {_paint('command', '1;32', color)} /{plan.command}")
        lines.append(f"arguments  {dump(plan.arguments)[0]}")
    else:
        lines.append(f"outcome    {_paint('ordinary message', '1;34', color)} (reaches the model)")
    lines.append(f"reason     {clean(plan.reason)}")
    ext = plan.extension
    location = clean(location)
    if ext.declared:
        names = ", ".join(f"/{name}" for name in ext.commands) or "none"
        lines.append(f"card       {location}: commands extension declared; commands {names}")
    else:
        lines.append(f"card       {location}: commands extension not declared")
    for note in plan.notes:
        lines.append(f"note       {clean(note)}")
    lines.append("")
    if plan.request is None:
        lines.append("request    none: the card offers no JSON-RPC interface")
    else:
        lines.append(f"request    {plan.request.method} {clean(redact_url(plan.request.url))}")
        lines.extend(f"  {name}: {value}" for name, value in plan.request.headers.items())
        if extra_headers:
            lines.append(f"  (and {extra_headers} header(s) from --header, not shown)")
        if compact:
            parts = dump(plan.message.get("parts"))[0]
            lines.append(f"  JSON-RPC {plan.request.body['method']}, message parts {parts}")
        else:
            lines.extend("  " + line for line in dump(plan.request.body, 2))
    lines.append("")
    reply = plan.expected_reply
    lines.append(f"expect     {reply['summary']}")
    if not compact and reply.get("stream") is not None:
        lines.append("  the stream, in order:")
        lines.extend("  " + line for line in dump(reply["stream"], 2))
    elif not compact and reply.get("stream_response") is not None:
        lines.extend("  " + line for line in dump(reply["stream_response"], 2))
    return "\n".join(lines)


def render_live(report: LiveReport, plan: DispatchPlan, *, color: bool = False) -> str:
    """The live check, one line per check, for people."""
    url = clean(redact_url(plan.request.url)) if plan.request is not None else "?"
    task = f" (task {clean(report.task_id)})" if report.task_id else ""
    lines = [f"live check against {url}{task}"]
    width = max(len(check.name) for check in report.checks) if report.checks else 0
    marks = {
        "pass": ("pass", "32"),
        "fail": ("FAIL", "1;31"),
        "warn": ("warn", "1;33"),
        "skip": ("skip", "2"),
    }
    for check in report.checks:
        word, code = marks[check.status]
        detail = clean(check.detail)
        lines.append(f"  {_paint(word, code, color)}  {check.name:<{width}}  {detail}")
    verdict = "all checks passed" if report.passed else "failed: " + ", ".join(report.failed())
    lines.append(_paint(verdict, "1;32" if report.passed else "1;31", color))
    return "\n".join(lines)
