"""What a check finds, as data: a problem (``Problem``), its severity and layer, and the text
safety every output applies to strings from a card or an agent (``clean``, ``escape_unsafe``),
the error document of a check that could not run (``error_record``), and the one "did you
mean" for a mistyped name (``closest_name``)."""

from th_ext.problems._errors import error_code, error_record
from th_ext.problems._problem import LAYERS, Layer, Problem, Severity
from th_ext.problems._suggest import closest_name
from th_ext.problems._text import clean, escape_unsafe

__all__ = [
    "LAYERS",
    "Layer",
    "Problem",
    "Severity",
    "clean",
    "closest_name",
    "error_code",
    "error_record",
    "escape_unsafe",
]
