"""What a check finds, as data: a problem (``Problem``), its severity and layer, every code a
problem can have (``CODES``) and which of them count in a run (``Selection``), the text safety
every output applies to strings from a card or an agent (``clean``, ``escape_unsafe``), the
error document of a check that could not run (``error_record``), and the one "did you mean"
for a mistyped name (``closest_name``)."""

from th_ext.problems._errors import error_code, error_record
from th_ext.problems._problem import CODES, LAYERS, Code, Layer, Problem, Selection, Severity
from th_ext.problems._suggest import closest_name
from th_ext.problems._text import clean, escape_unsafe

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
    "error_code",
    "error_record",
    "escape_unsafe",
]
