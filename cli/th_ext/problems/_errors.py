"""A check that could not run at all, as data: its error's stable code and its error document."""

from __future__ import annotations

import re
from typing import Any

from th_ext._exceptions import ThExtError
from th_ext.net import redact_url

__all__ = ["error_code", "error_record"]


def error_code(exc: ThExtError) -> str:
    """``exc``'s stable code: its own ``code``, or its class name in kebab case."""
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code:
        return code
    name = type(exc).__name__.removesuffix("Error") or "error"
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def error_record(exc: ThExtError, command: str | None, source: object = None) -> dict[str, Any]:
    """The error document of ``command`` that could not check ``source`` at all, as data:
    ``{"command", "source", "exit_code": 2, "error": {"code", "message"}}``, credentials in a
    source URL redacted; the line ``jsonl`` writes for it."""
    shown = None
    if isinstance(source, str):
        shown = redact_url(source) if "@" in source else source
    return {
        "command": command,
        "source": shown,
        "exit_code": 2,
        "error": {"code": error_code(exc), "message": " ".join(str(exc).split())},
    }
