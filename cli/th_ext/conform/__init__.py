"""Conformance: check a live agent against every requirement of the commands extension."""

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
    checked_requirements,
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
    "checked_requirements",
    "interface_rows",
    "requirement_ids",
    "run_conform",
    "run_conform_async",
]
