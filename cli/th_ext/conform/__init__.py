"""Conformance: check a live agent against every requirement of the commands extension.

``run_conform(source, options, transport=...)`` sends every scenario (each registered command,
an unregistered name, the messages the rule keeps ordinary) on a new and an existing task,
streaming and with ``SendMessage``, over every JSON-RPC and HTTP+JSON interface the card
declares, and returns a ``ConformReport`` whose requirements carry the IDs of the spec page
(``CMD-1``...). Give ``transport`` (any ``httpx.AsyncBaseTransport``, e.g. ``httpx.ASGITransport``)
to run it in-process: every request, the card's included, goes through it.
"""

from th_ext.conform._model import (
    AgentInfo,
    Check,
    CheckStatus,
    ConformReport,
    InterfaceInfo,
    InterfaceRow,
    RequirementResult,
    RequirementStatus,
    interface_rows,
)
from th_ext.conform._run import (
    DEFAULT_MAX_INTERFACES,
    LEVELS,
    ConformOptions,
    requirement_ids,
    run_conform,
    run_conform_async,
)
from th_ext.conform._wire import BINDINGS

__all__ = [
    "BINDINGS",
    "DEFAULT_MAX_INTERFACES",
    "LEVELS",
    "AgentInfo",
    "Check",
    "CheckStatus",
    "ConformOptions",
    "ConformReport",
    "InterfaceInfo",
    "InterfaceRow",
    "RequirementResult",
    "RequirementStatus",
    "interface_rows",
    "requirement_ids",
    "run_conform",
    "run_conform_async",
]
