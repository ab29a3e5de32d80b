"""Many sources in one run: cards validated or agents checked at once, each result streamed.

``check_cards`` and ``check_agents`` take sources (any iterable or async iterable of strings,
such as ``read_source_list``) and limits, and return an async iterator of ``Outcome``, one per
source as soon as it is checked; the command line only renders them. ``jobs`` sources are in
flight at once on one event loop, and at most ``per_origin`` requests go to one origin at once.
A source listed twice is checked once. An outcome's ``document`` is its line of JSON Lines
(``th_ext.report``'s ``jsonl`` format); ``read_resume`` reads such a file back to skip what it
holds, ``Summary`` keeps the totals, the failing sources with their first problem (``why_failed``)
and the counts by code (``Statistics``).

Past one machine, this function is the unit another engine maps: give each worker its share of
the list and concatenate their JSON Lines.
"""

from th_ext.batch._jsonl import ResumeState, exit_code_of, read_resume
from th_ext.batch._list import MAX_LINE, ListEntry, read_source_list
from th_ext.batch._polite import OriginLimiter, PoliteTransport
from th_ext.batch._run import (
    DEFAULT_JOBS,
    DEFAULT_PER_ORIGIN,
    MAX_JOBS,
    BatchCounts,
    Outcome,
    check_agents,
    check_cards,
    error_document,
)
from th_ext.batch._seen import SeenSources
from th_ext.batch._summary import (
    CodeCount,
    Failing,
    Statistics,
    Summary,
    WhyFailed,
    why_failed,
)

__all__ = [
    "DEFAULT_JOBS",
    "DEFAULT_PER_ORIGIN",
    "MAX_JOBS",
    "MAX_LINE",
    "BatchCounts",
    "CodeCount",
    "Failing",
    "ListEntry",
    "OriginLimiter",
    "Outcome",
    "PoliteTransport",
    "ResumeState",
    "SeenSources",
    "Statistics",
    "Summary",
    "WhyFailed",
    "check_agents",
    "check_cards",
    "error_document",
    "exit_code_of",
    "read_resume",
    "read_source_list",
    "why_failed",
]
