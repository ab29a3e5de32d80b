"""Checking an agent card: the document, the A2A 1.0 card, and the extensions it declares.

``validate_bytes`` turns a card document into a ``Report`` (``report.to_dict()`` is the JSON
format; ``th_ext.report`` renders it in every other). Nothing here prints. ``validate_bytes`` and
``validate_value`` take a ``deadline`` (``th_ext._deadline.Deadline``) that bounds one
validation alone, whatever thread or task it runs in.
"""

from __future__ import annotations

from th_ext.problems import LAYERS, Layer, Problem, Severity, clean
from th_ext.validate._document import (
    MAX_DEPTH,
    LoadedCard,
    ParsedDocument,
    load_card,
    parse_card,
    parse_document,
)
from th_ext.validate._positions import pointer
from th_ext.validate._report import FORMAT_VERSION, Report
from th_ext.validate._schema import SchemaOverride, read_schema_override
from th_ext.validate._validator import (
    ValidateOptions,
    report_for_source_error,
    validate_bytes,
    validate_value,
)

__all__ = [
    "FORMAT_VERSION",
    "LAYERS",
    "MAX_DEPTH",
    "Layer",
    "LoadedCard",
    "ParsedDocument",
    "Problem",
    "Report",
    "SchemaOverride",
    "Severity",
    "ValidateOptions",
    "clean",
    "load_card",
    "parse_card",
    "parse_document",
    "pointer",
    "read_schema_override",
    "report_for_source_error",
    "validate_bytes",
    "validate_value",
]
