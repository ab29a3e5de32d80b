"""Checks of core A2A 1.0 rules that a command's or an ordinary message's answer shows.

They are not the extension's requirements: a report lists them in a section of their own, with
IDs named after the A2A section (``A2A-3.1.2``), as warnings that fail a run only when it is
strict. ``CORE_RULES`` describes each one for that section.
"""

from __future__ import annotations

from dataclasses import dataclass

from th_ext.checks._observe import Check, CheckStatus, Observation, event_kind

__all__ = ["CORE_RULES", "CoreRule", "stream_order_check"]


@dataclass(frozen=True, slots=True)
class CoreRule:
    """A rule of core A2A that conform reports beside the extension's requirements."""

    id: str
    summary: str
    url: str


CORE_RULES = (
    CoreRule(
        id="A2A-3.1.2",
        summary=(
            "A stream for a task begins with the Task object (for an existing task, its current "
            "snapshot) or, for a direct answer, a Message; status and artifact updates follow."
        ),
        url="https://a2a-protocol.org/latest/specification/#312-send-streaming-message",
    ),
)
"""Every core rule the checks may report, in report order."""


def _check(obs: Observation, ok: bool, detail: str) -> Check:
    status: CheckStatus = "pass" if ok else "fail"
    return Check("A2A-3.1.2", status, obs.binding, obs.scenario, obs.mode, detail)


def stream_order_check(obs: Observation) -> Check:
    """A2A-3.1.2: the stream's first event is the Task of the message's task, or a Message."""
    kinds = [event_kind(r) for r in obs.results]
    if not kinds:
        return _check(obs, False, "the stream held no event")
    first = kinds[0]
    if first == "message":
        return _check(obs, True, "the stream is one Message")
    if first != "task":
        return _check(obs, False, f"the stream began with {first}, not the Task")
    task = obs.results[0]["task"]
    if obs.existing and obs.before is not None and task.get("id") != obs.before.get("id"):
        return _check(obs, False, "the stream's Task is not the task the message went to")
    return _check(obs, True, "the stream began with the Task")
