"""Many sources in one run: cards validated (``check_cards``), agents checked (``check_agents``);
each ``Outcome`` is yielded when ready, and ``Summary`` keeps the totals and counts by code."""

from th_ext._sync import run_sync
from th_ext.batch._jsonl import ResumeState, exit_code_of, read_resume
from th_ext.batch._list import MAX_LINE, ListEntry, read_source_list
from th_ext.batch._origins import OriginGate, OriginLimiter
from th_ext.batch._revalidate import FETCHED_UNCHANGED, FETCHED_WHOLE, Revalidation
from th_ext.batch._run import (
    DEFAULT_GIVE_UP,
    DEFAULT_JOBS,
    DEFAULT_PER_ORIGIN,
    MAX_JOBS,
    MAX_RATE,
    BatchCounts,
    Outcome,
    check_agents,
    check_cards,
    validate_source,
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
    "DEFAULT_GIVE_UP",
    "DEFAULT_JOBS",
    "DEFAULT_PER_ORIGIN",
    "FETCHED_UNCHANGED",
    "FETCHED_WHOLE",
    "MAX_JOBS",
    "MAX_LINE",
    "MAX_RATE",
    "BatchCounts",
    "CodeCount",
    "Failing",
    "ListEntry",
    "OriginGate",
    "OriginLimiter",
    "Outcome",
    "ResumeState",
    "Revalidation",
    "SeenSources",
    "Statistics",
    "Summary",
    "WhyFailed",
    "check_agents",
    "check_cards",
    "exit_code_of",
    "read_resume",
    "read_source_list",
    "run_sync",
    "validate_source",
    "why_failed",
]
