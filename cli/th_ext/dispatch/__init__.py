"""Dispatch: what one message does to an agent that may implement the commands extension.

``plan_dispatch`` is the dry run (from the card alone); ``check_live`` sends the message and
checks the agent's answer against the extension. ``text_message`` and ``load_message`` make the
message to send.
"""

from th_ext.dispatch._live import (
    CHECK_NAMES,
    LiveReport,
    check_live,
    check_live_async,
)
from th_ext.dispatch._plan import (
    DispatchPlan,
    DispatchRequest,
    ExtensionSummary,
    check_message,
    load_message,
    plan_dispatch,
    read_message,
    text_message,
)
from th_ext.dispatch._verdict import LiveCheck

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
