"""A fleet's memory: every run of ``th-ext validate`` and ``conform`` recorded in SQLite, what
changed between runs, and the dashboard."""

from th_ext.history._categories import (
    CATEGORIES,
    CODE_CATEGORIES,
    Category,
    category_of,
    category_of_code,
    problem_counts,
    signature_status,
)
from th_ext.history._report import (
    FLAKY_WINDOW,
    STRIP_RUNS,
    Changes,
    SourceChange,
    changes_text,
    dashboard_html,
    parse_since,
    read_changes,
)
from th_ext.history._store import (
    APPLICATION_ID,
    DEFAULT_BUSY_TIMEOUT,
    SCHEMA_VERSION,
    HistoryError,
    HistoryStore,
    OutcomeRecord,
    RunInfo,
    RunRecorder,
    RunStatus,
)

__all__ = [
    "APPLICATION_ID",
    "CATEGORIES",
    "CODE_CATEGORIES",
    "DEFAULT_BUSY_TIMEOUT",
    "FLAKY_WINDOW",
    "SCHEMA_VERSION",
    "STRIP_RUNS",
    "Category",
    "Changes",
    "HistoryError",
    "HistoryStore",
    "OutcomeRecord",
    "RunInfo",
    "RunRecorder",
    "RunStatus",
    "SourceChange",
    "category_of",
    "category_of_code",
    "changes_text",
    "dashboard_html",
    "parse_since",
    "problem_counts",
    "read_changes",
    "signature_status",
]
