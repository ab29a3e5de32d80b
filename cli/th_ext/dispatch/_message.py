"""The message a dispatch sends: built from a line of text, or read as a whole A2A 1.0 Message.

A message given whole is checked only as far as sending it needs: a JSON object with a
``messageId``, a 1.0 ``role`` and at least one part with exactly one content field. The dispatch
rule itself never rejects a message; it only calls it ordinary.
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

from th_ext._exceptions import MessageError

__all__ = ["check_message", "load_message", "read_message", "text_message"]

_ROLES = ("ROLE_USER", "ROLE_AGENT")
_CONTENT = ("text", "raw", "url", "data")


def text_message(text: str, *, task_id: str | None = None) -> dict[str, Any]:
    """A user message whose only part is ``text``, for the task ``task_id`` if given."""
    message: dict[str, Any] = {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [{"text": text}],
    }
    if task_id:
        message["taskId"] = task_id
    return message


def read_message(path: str, max_bytes: int, *, task_id: str | None = None) -> dict[str, Any]:
    """The message in the file ``path`` (``-`` for standard input), at most ``max_bytes`` long.

    ``MessageError`` when it cannot be read, is over the cap, or is not an A2A 1.0 Message.
    """
    from th_ext.sources._source import read_bounded

    try:
        if path == "-":
            data = read_bounded(sys.stdin.buffer, max_bytes)
            where = "<stdin>"
        else:
            with open(path, "rb") as handle:  # noqa: PTH123 (keeps pathlib off the start-up path)
                data = read_bounded(handle, max_bytes)
            where = path
    except OSError as exc:
        raise MessageError(
            f"{path}: cannot be read ({(exc.strerror or str(exc)).lower()})"
        ) from None
    if data is None:
        raise MessageError(f"{where}: larger than the cap of {max_bytes} bytes")
    return load_message(data, where, task_id=task_id)


def load_message(data: bytes, where: str, *, task_id: str | None = None) -> dict[str, Any]:
    """Parse ``data`` (read from ``where``) as an A2A 1.0 Message; ``MessageError`` if it is not."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(f"{where}: not valid JSON ({exc})") from None
    return check_message(value, where, task_id=task_id)


def check_message(value: Any, where: str, *, task_id: str | None = None) -> dict[str, Any]:
    """``value`` if it can be sent as an A2A 1.0 Message, with ``taskId`` set from ``task_id``."""
    if not isinstance(value, dict):
        raise MessageError(f"{where}: a message must be a JSON object")
    if "kind" in value:
        raise MessageError(f"{where}: has 'kind', which is A2A 0.3; a 1.0 Message has none")
    message_id = value.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        raise MessageError(f"{where}: messageId is missing or empty")
    if value.get("role") not in _ROLES:
        raise MessageError(
            f"{where}: role must be ROLE_USER or ROLE_AGENT, not {value.get('role')!r}"
        )
    parts = value.get("parts")
    if not isinstance(parts, list) or not parts:
        raise MessageError(f"{where}: parts must be a list with at least one part")
    for index, part in enumerate(parts):
        if not isinstance(part, dict):
            raise MessageError(f"{where}: parts[{index}] is not a JSON object")
        present = [key for key in _CONTENT if key in part]
        if len(present) != 1:
            found = ", ".join(present) or "none"
            raise MessageError(
                f"{where}: parts[{index}] needs exactly one of text, raw, url, data (found {found})"
            )
        if "kind" in part:
            raise MessageError(f"{where}: parts[{index}] has 'kind', which is A2A 0.3")
    if task_id:
        existing = value.get("taskId")
        if existing and existing != task_id:
            raise MessageError(f"{where}: taskId {existing!r} differs from --task-id {task_id!r}")
        value = {**value, "taskId": task_id}
    message: dict[str, Any] = value
    return message
