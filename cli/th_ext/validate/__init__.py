"""Checking an agent card: the document, the A2A 1.0 card, and the extensions it declares.

``validate_bytes`` turns a card document into a ``Report`` (``report.to_dict()`` is the JSON
format; ``th_ext.report`` renders it in every other). Nothing here prints, and nothing here imports
jsonschema unless an extension's params need its error messages.
"""

from __future__ import annotations

from th_ext.problems import LAYERS, Layer, Problem, Severity, clean
from th_ext.validate._deadline import deadline
from th_ext.validate._document import MAX_DEPTH, ParsedDocument, parse_document
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
    "deadline",
    "load_card",
    "parse_document",
    "pointer",
    "read_schema_override",
    "report_for_source_error",
    "validate_bytes",
    "validate_value",
]
