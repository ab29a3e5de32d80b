"""Dispatch: what one message does to an agent that may implement the commands extension.

``plan_dispatch`` is the dry run (from the card alone); ``check_live`` sends the message and
checks the agent's answer against the extension. ``text_message`` and ``load_message`` make the
message to send. The live check (and its HTTP client) is imported on first use, so that a dry
run loads nothing it does not need.
"""

from __future__ import annotations

from th_ext.dispatch._live import (
    CHECK_NAMES,
    LiveCheck,
    LiveReport,
    check_live,
    check_live_async,
)
from th_ext.dispatch._message import check_message, load_message, read_message, text_message
from th_ext.dispatch._plan import DispatchPlan, DispatchRequest, ExtensionSummary, plan_dispatch

__all__ = [
    "CHECK_NAMES",
    "DispatchPlan",
    "DispatchRequest",
    "ExtensionSummary",
    "LiveCheck",
    "LiveReport",
    "check_live",
    "check_live_async",
    "check_message",
    "load_message",
    "plan_dispatch",
    "read_message",
    "text_message",
]
