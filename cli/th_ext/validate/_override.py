"""``--schema``: a draft of an extension's schema, read and checked before any card is.

The schema is read under the same limits as the card and must be a JSON object that is a valid
draft 2020-12 schema; otherwise nothing is validated and the reason is a ``SchemaError``.
"""

from __future__ import annotations

from th_ext._exceptions import SchemaError, SourceError
from th_ext.catalog._schemas import schema_defect
from th_ext.sources._limits import SourceLimits
from th_ext.sources._source import read_source
from th_ext.validate._document import parse_document
from th_ext.validate._validator import SchemaOverride

__all__ = ["read_schema_override"]

_REASON_LIMIT = 200


def read_schema_override(schema_source: str, limits: SourceLimits) -> SchemaOverride:
    """The schema at ``schema_source``; ``SchemaError`` when it cannot be read or is not one."""
    try:
        raw = read_source(schema_source, limits, well_known=False)
    except SourceError as exc:
        raise SchemaError(f"--schema: {exc}") from None
    document = parse_document(raw.data)
    if document.fatal or not isinstance(document.value, dict):
        problem = next((p for p in document.problems if p.fatal), None)
        reason = problem.message if problem else "a schema must be a JSON object"
        raise SchemaError(f"--schema {raw.location}: {reason}")
    defect = schema_defect(document.value)
    if defect is not None:
        reason = " ".join(defect.message.split())[:_REASON_LIMIT]
        raise SchemaError(f"--schema {raw.location}: not a valid JSON schema ({reason})")
    return SchemaOverride(document.value, raw.location, raw.notices)
