"""Reports as text: every format th-ext prints, by name, for any program to use.
Nothing here touches a terminal: colour is an option the caller sets."""

from th_ext.report._formats import (
    FORMATS,
    Dispatched,
    FormatError,
    Renderer,
    RenderOptions,
    error_code,
    error_document,
    error_record,
    render,
    stream,
)
from th_ext.report._github import annotation
from th_ext.report._json import statistics_json, to_json
from th_ext.report._junit import junit_text
from th_ext.report._sarif import SARIF_SCHEMA, sarif_log
from th_ext.report._text import statistics_text, summary_text

__all__ = [
    "FORMATS",
    "SARIF_SCHEMA",
    "Dispatched",
    "FormatError",
    "RenderOptions",
    "Renderer",
    "annotation",
    "error_code",
    "error_document",
    "error_record",
    "junit_text",
    "render",
    "sarif_log",
    "statistics_json",
    "statistics_text",
    "stream",
    "summary_text",
    "to_json",
]
