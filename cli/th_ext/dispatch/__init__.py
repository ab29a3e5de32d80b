"""Dispatch: what one message does to an agent that may implement the commands extension, as a dry
run from the card alone (``plan_dispatch``) or sent and checked live (``check_live``)."""

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
