"""What a check finds, as data (``Problem``, ``CODES``, ``Selection``, ``error_record``), the text
safety for strings from a card (``clean``, ``escape_unsafe``) and the one "did you mean"."""

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
from th_ext.problems._text import clean, closest_name, cut, escape_unsafe, quoted

__all__ = [
    "CODES",
    "LAYERS",
    "Code",
    "Layer",
    "Problem",
    "Selection",
    "Severity",
    "clean",
    "closest_name",
    "cut",
    "error_code",
    "error_record",
    "escape_unsafe",
    "quoted",
]
