"""What a check finds, as data (``Problem``, ``CODES``, ``Selection``, ``error_record``), and
the words of messages: text safety, cut and quoted values, an OS error's words, "did you mean"."""

from th_ext._exceptions import counted, cut, os_reason
from th_ext.problems._problem import (
    CODES,
    LAYERS,
    Code,
    Layer,
    Problem,
    Selection,
    Severity,
    error_code,
    error_record,
)
from th_ext.problems._text import (
    SHOWN_NAMES,
    clean,
    closest_name,
    escape_unsafe,
    listed,
    quoted,
    shown_path,
)

__all__ = [
    "CODES",
    "LAYERS",
    "SHOWN_NAMES",
    "Code",
    "Layer",
    "Problem",
    "Selection",
    "Severity",
    "clean",
    "closest_name",
    "counted",
    "cut",
    "error_code",
    "error_record",
    "escape_unsafe",
    "listed",
    "os_reason",
    "quoted",
    "shown_path",
]
