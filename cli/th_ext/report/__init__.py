"""Reports as text: every format th-ext prints, by name, for any program to use.

``render(report, format="json")`` gives a report in a format; ``stream`` gives the reports of a
run chunk by chunk, as each arrives; ``FORMATS`` maps each format name (``text``, ``concise``,
``json``, ``jsonl``, ``junit``, ``github``, ``html``, ``sarif``) to its ``Renderer``. A new
format is one ``Renderer`` and one entry in ``FORMATS``. ``error_document`` is what a machine
format gets from a command that could not run. Nothing here touches a terminal: colour is an
option the caller sets.

``sarif_log`` is the SARIF 2.1.0 log of ``--format sarif`` as a value. ``statistics_text`` and
``statistics_json`` show the counts by code of a run (``--statistics``), ``summary_text`` the
summary that ends a text run over many sources.
"""

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
