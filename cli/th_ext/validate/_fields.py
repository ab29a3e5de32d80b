"""Small field checks shared by the card layer: presence, JSON type, non-empty, unknown keys.

Each check appends problems to a list and returns whether the value can be looked into further,
so a layer reports every problem in one pass instead of stopping at the first.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from th_ext.problems._problem import Problem
from th_ext.validate._pointer import pointer
from th_ext.validate._suggest import closest_name, minimal_card_member

__all__ = ["FieldChecker", "json_type"]

_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}")

_TYPE_NAMES = {
    "string": "a string",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "number": "a number",
}


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class FieldChecker:
    """Collects the card layer's problems; paths are tuples turned into RFC 6901 pointers."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems

    def error(self, code: str, path: tuple[str | int, ...], message: str, hint: str) -> None:
        self.problems.append(Problem("error", code, pointer(path), message, hint, "card"))

    def warn(
        self,
        code: str,
        path: tuple[str | int, ...],
        message: str,
        hint: str,
        *,
        at_key: bool = False,
    ) -> None:
        self.problems.append(
            Problem("warning", code, pointer(path), message, hint, "card", at_key=at_key)
        )

    def typed(
        self,
        obj: dict[str, Any],
        key: str,
        kind: str,
        path: tuple[str | int, ...],
        *,
        required: bool,
    ) -> bool:
        """Whether ``obj[key]`` is present with JSON type ``kind``; reports it if not."""
        where = (*path, key)
        if key not in obj:
            if required:
                member = minimal_card_member(path, key)
                self.error(
                    "missing-field",
                    where,
                    f"the required field {key!r} is missing",
                    f"add {member}" if member else f"add {key!r} ({_TYPE_NAMES[kind]})",
                )
            return False
        found = json_type(obj[key])
        if found != kind:
            self.error(
                "wrong-type",
                where,
                f"{key!r} must be {_TYPE_NAMES[kind]}, not {_article(found)}",
                f"make {key!r} {_TYPE_NAMES[kind]}",
            )
            return False
        return True

    def required_string(self, obj: dict[str, Any], key: str, path: tuple[str | int, ...]) -> bool:
        """A required string must also be set: the empty string counts as missing."""
        if not self.typed(obj, key, "string", path, required=True):
            return False
        if not obj[key].strip():
            self.error(
                "empty-field",
                (*path, key),
                f"the required field {key!r} is empty",
                f"give {key!r} a value",
            )
            return False
        return True

    def string_array(
        self, obj: dict[str, Any], key: str, path: tuple[str | int, ...], *, required: bool
    ) -> None:
        """An array of strings; a required one must have at least one element."""
        if not self.typed(obj, key, "array", path, required=required):
            return
        values = obj[key]
        if required and not values:
            self.error(
                "empty-array",
                (*path, key),
                f"the required array {key!r} is empty",
                f"{key!r} needs at least one element",
            )
        for index, item in enumerate(values):
            if not isinstance(item, str):
                self.error(
                    "wrong-type",
                    (*path, key, index),
                    f"{key!r} must hold strings, not {_article(json_type(item))}",
                    "use a string here",
                )

    def url(
        self,
        obj: dict[str, Any],
        key: str,
        path: tuple[str | int, ...],
        *,
        strict: bool,
        host_port: bool = False,
    ) -> None:
        """An absolute http(s) URL: an error when ``strict``, else a warning.

        With ``host_port`` (a gRPC interface) ``host:port`` is accepted too, as the A2A proto
        gives it (``grpc.example.com:443``).
        """
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            return
        if host_port and _HOST_PORT.fullmatch(value):
            return
        parts = urlsplit(value)
        if parts.scheme.lower() in ("http", "https") and parts.netloc:
            return
        if host_port and parts.scheme and parts.netloc:
            return
        report = self.error if strict else self.warn
        report(
            "invalid-url",
            (*path, key),
            f"{key!r} is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
        )

    def unknown_fields(
        self,
        obj: dict[str, Any],
        known: frozenset[str],
        path: tuple[str | int, ...],
        replaced: dict[str, str] | None = None,
        *,
        old_fields: str = "warning",
    ) -> None:
        """Warn about every key not in ``known``; ``replaced`` maps A2A 0.3 names to their fate.

        ``old_fields`` says what a 0.3 name is: a ``warning``, an ``info`` (a card that also
        serves a 0.3 interface carries them on purpose), or ``skip`` (already reported).
        """
        if obj and not any(key in known for key in obj):
            self.error(
                "no-known-field",
                path,
                "none of this object's fields is an A2A 1.0 field here",
                f"its fields are {', '.join(sorted(known))}; as it is, a client reads nothing",
            )
        for key in obj:
            if key in known:
                continue
            if replaced and key in replaced:
                if old_fields == "skip":
                    continue
                if old_fields == "info":
                    self.problems.append(
                        Problem(
                            "info",
                            "a2a-0.3-compat-field",
                            pointer((*path, key)),
                            f"{key!r} is an A2A 0.3 field, kept for the card's 0.3 interface",
                            "nothing to do while the agent serves A2A 0.3 too; " + replaced[key],
                            "card",
                            at_key=True,
                        )
                    )
                    continue
                self.warn(
                    "a2a-0.3-field",
                    (*path, key),
                    f"{key!r} is an A2A 0.3 field that 1.0 no longer has",
                    replaced[key],
                    at_key=True,
                )
            else:
                self.warn(
                    "unknown-field",
                    (*path, key),
                    f"{key!r} is not an A2A 1.0 field here; clients will ignore it",
                    _unknown_hint(key, known),
                    at_key=True,
                )


def _unknown_hint(key: str, known: frozenset[str]) -> str:
    suggestion = closest_name(key, known)
    if suggestion is not None:
        return f"did you mean {suggestion!r}?"
    return "check the spelling (field names are lowerCamelCase) or remove it"


def _article(type_name: str) -> str:
    return _TYPE_NAMES.get(type_name, type_name)
