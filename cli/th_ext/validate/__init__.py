"""Checking an agent card: the document, the A2A 1.0 card, and the extensions it declares.
``validate_bytes`` turns a card document into a ``Report``; nothing here prints."""

from __future__ import annotations

from th_ext.problems import LAYERS, Layer, Problem, Severity, clean
from th_ext.validate._card import BEYOND_SCHEMA
from th_ext.validate._card_schema import (
    CARD_SCHEMA_KEY,
    CARD_SCHEMA_NAME,
    CARD_SCHEMA_URL,
    card_rules_sha256,
    card_schema,
    card_schema_bytes,
    published_schema_bytes,
)
from th_ext.validate._document import (
    MAX_DEPTH,
    LoadedCard,
    ParsedDocument,
    load_card,
    parse_card,
    parse_document,
)
from th_ext.validate._positions import first_difference, pointer
from th_ext.validate._report import FORMAT_VERSION, Report
from th_ext.validate._schema import SchemaOverride, read_schema_override
from th_ext.validate._validator import (
    ValidateOptions,
    report_for_source_error,
    validate_bytes,
    validate_value,
)

__all__ = [
    "BEYOND_SCHEMA",
    "CARD_SCHEMA_KEY",
    "CARD_SCHEMA_NAME",
    "CARD_SCHEMA_URL",
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
    "card_rules_sha256",
    "card_schema",
    "card_schema_bytes",
    "clean",
    "first_difference",
    "load_card",
    "parse_card",
    "parse_document",
    "pointer",
    "published_schema_bytes",
    "read_schema_override",
    "report_for_source_error",
    "validate_bytes",
    "validate_value",
]
