"""A failed check's evidence: a short excerpt of what the agent sent, safe to print.

Each event of the answer becomes a few words (its kind, its state, the start of its message's
text, the command metadata it carries), joined with arrows, cleaned of control characters and
cut to a fixed length, so that a report leads to the bug without quoting a whole stream.
"""

from __future__ import annotations

from typing import Any

from th_ext.checks._observe import Exchange, event_kind, message_of, metadata, state
from th_ext.problems._text import clean

__all__ = ["MAX_EXCERPT", "excerpt"]

MAX_EXCERPT = 300
"""The most characters an excerpt holds."""
_TEXT = 60
_EVENTS = 8


def excerpt(exchange: Exchange) -> str:
    """What came back, in a line of at most ``MAX_EXCERPT`` characters."""
    if not exchange.results:
        return _cut(clean(exchange.problem() or "nothing"))
    shown = [_event(result) for result in exchange.results[:_EVENTS]]
    if len(exchange.results) > _EVENTS:
        shown.append(f"{len(exchange.results) - _EVENTS} more")
    if not exchange.ok:
        shown.append(exchange.problem())
    return _cut(clean(" -> ".join(shown)))


def _event(result: Any) -> str:
    kind = event_kind(result)
    if kind == "unknown":
        return "an unknown event"
    event = result[kind]
    words = [kind]
    if state(event):
        words.append(str(state(event)).removeprefix("TASK_STATE_"))
    message = event if kind == "message" else message_of(event)
    if kind == "artifactUpdate":
        message = event.get("artifact") if isinstance(event.get("artifact"), dict) else None
    if message is not None:
        role = message.get("role")
        if isinstance(role, str) and role:
            words.append(role.removeprefix("ROLE_").lower())
        text = _text(message)
        if text:
            words.append(repr(text if len(text) <= _TEXT else text[: _TEXT - 1] + "…"))
        if "command" in metadata(message):
            words.append(f"message metadata.command={metadata(message)['command']!r}")
    if kind != "message" and "command" in metadata(event):
        words.append(f"metadata.command={metadata(event)['command']!r}")
    return " ".join(words)


def _text(message: dict[str, Any]) -> str:
    parts = message.get("parts")
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            return str(part["text"])[: _TEXT * 2]
    return ""


def _cut(text: str) -> str:
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"
