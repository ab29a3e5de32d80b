"""The live check's own verdicts (the task read before, the answer received) and its check type;
like the extension's checks (``th_ext.checks``), they never raise on a malformed answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from th_ext._exceptions import cut
from th_ext.problems import counted

__all__ = ["LiveCheck", "answered", "check", "task_id_of"]

Status = Literal["pass", "fail", "warn", "skip"]
"""``warn``: a failed check of a SHOULD requirement or of a core A2A rule; it does not fail."""


@dataclass(frozen=True, slots=True)
class LiveCheck:
    """One check of the agent's answer."""

    name: str
    status: Status
    detail: str
    requirement: str = ""
    """The commands extension requirement the check guards (``CMD-5``...), if any."""


def check(name: str, ok: bool | None, detail: str) -> LiveCheck:
    """A check that passes (True), fails (False) or does not apply (None)."""
    status: Status = "skip" if ok is None else "pass" if ok else "fail"
    return LiveCheck(name, status, detail)


def answered(results: list[Any]) -> LiveCheck:
    """The agent answered: how many results, and what it said last."""
    said = _last_text(results)
    updates = sum(
        1 for r in results if isinstance(r, dict) and isinstance(r.get("statusUpdate"), dict)
    )
    detail = f"{counted(len(results), 'result')}, {counted(updates, 'status update')}"
    if said:
        detail += f"; last message: {cut(' '.join(said.split()), 100)!r}"
    return check("answered", True, detail)


def task_id_of(results: list[Any]) -> str | None:
    for result in results:
        if not isinstance(result, dict):
            continue
        for key, field in (
            ("task", "id"),
            ("statusUpdate", "taskId"),
            ("artifactUpdate", "taskId"),
            ("message", "taskId"),
        ):
            event = result.get(key)
            if isinstance(event, dict) and isinstance(event.get(field), str) and event[field]:
                value: str = event[field]
                return value
    return None


def _last_text(results: list[Any]) -> str:
    """The text of the last message the agent sent (a status message or a direct message)."""
    for result in reversed(results):
        if not isinstance(result, dict):
            continue
        message = result.get("message")
        for key in ("statusUpdate", "task"):
            event = result.get(key)
            if isinstance(event, dict) and isinstance(event.get("status"), dict):
                message = message or event["status"].get("message")
        if isinstance(message, dict) and isinstance(message.get("parts"), list):
            texts = [
                p["text"]
                for p in message["parts"]
                if isinstance(p, dict) and isinstance(p.get("text"), str)
            ]
            if texts:
                return " ".join(texts)
    return ""
