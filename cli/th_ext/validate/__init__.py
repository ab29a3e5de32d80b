"""Checking an agent card: the document, the A2A 1.0 card, and the extensions it declares.

``validate_bytes`` turns a card document into a ``Report`` (``report.to_dict()`` is the JSON
format, ``to_junit(report)`` the JUnit one). Nothing here prints, and nothing here imports
jsonschema unless an extension's params need its error messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from th_ext.problems._problem import LAYERS, Layer, Problem, Severity
    from th_ext.problems._text import clean
    from th_ext.validate._document import MAX_DEPTH, ParsedDocument, parse_document
    from th_ext.validate._junit import to_junit
    from th_ext.validate._load import LoadedCard, load_card
    from th_ext.validate._override import read_schema_override
    from th_ext.validate._pointer import pointer
    from th_ext.validate._report import FORMAT_VERSION, Report
    from th_ext.validate._validator import (
        SchemaOverride,
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
    "parse_document",
    "pointer",
    "read_schema_override",
    "report_for_source_error",
    "to_junit",
    "validate_bytes",
    "validate_value",
]

# Imported on first use: ``dispatch`` and ``commands`` read a card with ``load_card`` and must
# not pay for the validator, the catalog or the report formats.
__getattr__ = _lazy_names(
    __name__,
    {
        "LAYERS": "th_ext.problems._problem",
        "Layer": "th_ext.problems._problem",
        "Problem": "th_ext.problems._problem",
        "Severity": "th_ext.problems._problem",
        "MAX_DEPTH": "th_ext.validate._document",
        "ParsedDocument": "th_ext.validate._document",
        "parse_document": "th_ext.validate._document",
        "to_junit": "th_ext.validate._junit",
        "LoadedCard": "th_ext.validate._load",
        "load_card": "th_ext.validate._load",
        "read_schema_override": "th_ext.validate._override",
        "pointer": "th_ext.validate._pointer",
        "FORMAT_VERSION": "th_ext.validate._report",
        "Report": "th_ext.validate._report",
        "clean": "th_ext.problems._text",
        "SchemaOverride": "th_ext.validate._validator",
        "ValidateOptions": "th_ext.validate._validator",
        "report_for_source_error": "th_ext.validate._validator",
        "validate_bytes": "th_ext.validate._validator",
        "validate_value": "th_ext.validate._validator",
    },
)
