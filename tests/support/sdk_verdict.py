"""The official Python SDK's verdict on an agent card, as the differential tests define it.

A card passes when the SDK's lenient parse (``ParseDict`` with unknown fields ignored)
succeeds, no REQUIRED field (``google.api.field_behavior``) is missing or empty anywhere in
the parsed message, and no content is lost: no value under a field the proto knows is gone
from the parsed message (serialised back with ``MessageToDict``) unless it was a default. The
last rule is what catches the A2A 0.3 shapes: the SDK parses them into empty messages.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sdk_accepts"]


def sdk_accepts(card: Any) -> bool:
    from a2a.types import AgentCard
    from google.protobuf import json_format

    if not isinstance(card, dict):
        return False
    try:
        message = json_format.ParseDict(card, AgentCard(), ignore_unknown_fields=True)
    except (json_format.ParseError, TypeError, ValueError):
        return False
    if _missing_required(message):
        return False
    parsed = json_format.MessageToDict(message)
    return not _lost(card, parsed, message.DESCRIPTOR)


def _missing_required(message: Any) -> bool:
    from google.api import field_behavior_pb2

    for field in message.DESCRIPTOR.fields:
        behaviors = field.GetOptions().Extensions[field_behavior_pb2.field_behavior]
        value = getattr(message, field.name)
        is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
        if field_behavior_pb2.REQUIRED in behaviors:
            if field.is_repeated or is_map:
                if len(value) == 0:
                    return True
            elif field.message_type is not None:
                if not message.HasField(field.name):
                    return True
            elif value in ("", b""):
                return True
        if field.message_type is None or field.message_type.full_name.startswith("google."):
            continue
        if is_map:
            values = list(value.values())
            nested = bool(values) and hasattr(values[0], "DESCRIPTOR")
            if nested and any(_missing_required(v) for v in values):
                return True
        elif field.is_repeated:
            if any(_missing_required(v) for v in value):
                return True
        elif message.HasField(field.name) and _missing_required(value):
            return True
    return False


def _is_default(value: Any) -> bool:
    return value in ("", 0, False, None) or value in ([], {})


def _has_content(value: Any) -> bool:
    """Whether a JSON value holds anything but defaults (an empty list counts as nothing)."""
    if isinstance(value, dict):
        return any(_has_content(v) for v in value.values())
    if isinstance(value, list):
        return bool(value)
    return not _is_default(value)


def _lost(given: Any, parsed: Any, descriptor: Any) -> bool:
    """Whether something the input gives under a known field is missing from ``parsed``.

    An object that parsed into an empty message is lost too when none of its keys is a field
    of that message (a 0.3 shape such as ``{"bearer": []}``).
    """
    if not isinstance(given, dict):
        return not _is_default(given) and _is_default(parsed)
    if not isinstance(parsed, dict):
        parsed = {}
    if not parsed and descriptor.full_name != "google.protobuf.Struct":
        known = set(descriptor.fields_by_camelcase_name) | set(descriptor.fields_by_name)
        if given and all(key not in known for key in given):
            return True
        if any(key in known and _has_content(value) for key, value in given.items()):
            return True
    for key, value in given.items():
        field = descriptor.fields_by_camelcase_name.get(key) or descriptor.fields_by_name.get(key)
        if field is None or not _has_content(value):
            continue
        back = parsed.get(field.json_name)
        if back is None or _is_default(back):
            return True
        target = field.message_type
        if target is None or target.full_name.startswith("google."):
            continue
        if target.GetOptions().map_entry:
            inner = target.fields_by_name["value"].message_type
            if isinstance(value, dict):
                for k, v in value.items():
                    there = back.get(k) if isinstance(back, dict) else None
                    if inner is None:
                        if not _is_default(v) and _is_default(there):
                            return True
                    elif _lost(v, there, inner):
                        return True
            continue
        if field.is_repeated and isinstance(value, list) and isinstance(back, list):
            if len(back) != len(value):
                return True
            if any(_lost(v, b, target) for v, b in zip(value, back, strict=True)):
                return True
        elif _lost(value, back, target):
            return True
    return False
