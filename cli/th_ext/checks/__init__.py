r"""The checks of an agent's answer against the commands extension, shared by every checker:
pure functions from an ``Observation`` to ``Check``\ s, which never raise on a malformed answer."""

from th_ext.checks._command_checks import (
    TaskReader,
    command_checks,
    command_ran,
    find_reply,
    task_ref_check,
)
from th_ext.checks._observe import (
    CORE_RULES,
    Check,
    CheckStatus,
    CoreRule,
    Exchange,
    Observation,
    check,
    stream_order_check,
)
from th_ext.checks._ordinary_checks import ordinary_checks, stale_task_metadata

__all__ = [
    "CORE_RULES",
    "Check",
    "CheckStatus",
    "CoreRule",
    "Exchange",
    "Observation",
    "TaskReader",
    "check",
    "command_checks",
    "command_ran",
    "find_reply",
    "ordinary_checks",
    "stale_task_metadata",
    "stream_order_check",
    "task_ref_check",
]
