"""HTTP Archive 1.2 as a JSON Schema, written from the HAR 1.2 specification (W3C Web
Performance working group draft, "HTTP Archive (HAR) format", version 1.2).

Every object lists the members the specification requires, the optional ones it names, and no
other member but a custom one (its name begins with ``_``, as the specification asks). Dates
are ISO 8601 with a time zone; sizes and times are numbers, ``-1`` where the specification
allows "not known".
"""

from __future__ import annotations

from typing import Any

__all__ = ["HAR_1_2"]

_ISO_8601 = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$"
_CUSTOM: dict[str, Any] = {"^_": {}}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "required": sorted(required),
        "properties": {**required, **(optional or {})},
        "patternProperties": _CUSTOM,
        "additionalProperties": False,
    }


_STRING = {"type": "string"}
_COMMENT = {"comment": _STRING}
_SIZE = {"type": "integer", "minimum": -1}
_TIME = {"type": "number", "minimum": -1}
_NAME_VALUE = _object({"name": _STRING, "value": _STRING}, _COMMENT)
_COOKIE = _object(
    {"name": _STRING, "value": _STRING},
    {
        "path": _STRING,
        "domain": _STRING,
        "expires": {"type": ["string", "null"]},
        "httpOnly": {"type": "boolean"},
        "secure": {"type": "boolean"},
        **_COMMENT,
    },
)
_DATE = {"type": "string", "pattern": _ISO_8601}

_REQUEST = _object(
    {
        "method": _STRING,
        "url": _STRING,
        "httpVersion": _STRING,
        "cookies": {"type": "array", "items": _COOKIE},
        "headers": {"type": "array", "items": _NAME_VALUE},
        "queryString": {"type": "array", "items": _NAME_VALUE},
        "headersSize": _SIZE,
        "bodySize": _SIZE,
    },
    {
        "postData": _object(
            {"mimeType": _STRING},
            {
                "params": {
                    "type": "array",
                    "items": _object(
                        {"name": _STRING},
                        {
                            "value": _STRING,
                            "fileName": _STRING,
                            "contentType": _STRING,
                            **_COMMENT,
                        },
                    ),
                },
                "text": _STRING,
                **_COMMENT,
            },
        ),
        **_COMMENT,
    },
)

_CONTENT = _object(
    {"size": {"type": "integer", "minimum": 0}, "mimeType": _STRING},
    {
        "compression": {"type": "integer"},
        "text": _STRING,
        "encoding": _STRING,
        **_COMMENT,
    },
)

_RESPONSE = _object(
    {
        "status": {"type": "integer"},
        "statusText": _STRING,
        "httpVersion": _STRING,
        "cookies": {"type": "array", "items": _COOKIE},
        "headers": {"type": "array", "items": _NAME_VALUE},
        "content": _CONTENT,
        "redirectURL": _STRING,
        "headersSize": _SIZE,
        "bodySize": _SIZE,
    },
    _COMMENT,
)

_CACHE_STATE = _object(
    {"lastAccess": _STRING, "eTag": _STRING, "hitCount": {"type": "integer"}},
    {"expires": _STRING, **_COMMENT},
)

_ENTRY = _object(
    {
        "startedDateTime": _DATE,
        "time": {"type": "number", "minimum": 0},
        "request": _REQUEST,
        "response": _RESPONSE,
        "cache": _object(
            {},
            {
                "beforeRequest": {"oneOf": [{"type": "null"}, _CACHE_STATE]},
                "afterRequest": {"oneOf": [{"type": "null"}, _CACHE_STATE]},
                **_COMMENT,
            },
        ),
        "timings": _object(
            {"send": _TIME, "wait": _TIME, "receive": _TIME},
            {"blocked": _TIME, "dns": _TIME, "connect": _TIME, "ssl": _TIME, **_COMMENT},
        ),
    },
    {"pageref": _STRING, "serverIPAddress": _STRING, "connection": _STRING, **_COMMENT},
)

_PAGE = _object(
    {
        "startedDateTime": _DATE,
        "id": _STRING,
        "title": _STRING,
        "pageTimings": _object({}, {"onContentLoad": _TIME, "onLoad": _TIME, **_COMMENT}),
    },
    _COMMENT,
)

_CREATOR = _object({"name": _STRING, "version": _STRING}, _COMMENT)

HAR_1_2: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "HTTP Archive 1.2",
    **_object(
        {
            "log": _object(
                {
                    "version": {"const": "1.2"},
                    "creator": _CREATOR,
                    "entries": {"type": "array", "items": _ENTRY},
                },
                {"browser": _CREATOR, "pages": {"type": "array", "items": _PAGE}, **_COMMENT},
            )
        }
    ),
}
"""The schema of a HAR 1.2 document."""
