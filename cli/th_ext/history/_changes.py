"""What changed: the latest complete run against the previous run of the same command and list.

``read_changes`` compares the two and sorts the sources into new failures, fixed, still
failing, appeared and went, and finds the flaky ones (their verdict changed at least twice in
the last ``FLAKY_WINDOW`` runs); ``changes_text`` renders it for a person and
``Changes.to_dict`` for a program. A run that did not complete is never compared: it is named
in ``unfinished``.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import Any

from th_ext.history._store import HistoryError, HistoryStore, OutcomeRecord, RunInfo

__all__ = [
    "FLAKY_WINDOW",
    "Changes",
    "SourceChange",
    "changes_text",
    "parse_since",
    "read_changes",
]

FLAKY_WINDOW = 7
"""A source is flaky when its verdict changed at least twice in this many last runs."""
TEXT_LIMIT = 20
"""The most sources a text list shows; the JSON lists every one."""
LIST_WIDTH = 72
"""The text shows a run's list cut to this many characters."""


@dataclass(frozen=True, slots=True)
class SourceChange:
    """One source in a list of changes: its outcome now and in the previous run (either may be
    missing), and for a flaky one its verdicts over the window (``True`` passed, ``False``
    failed, ``None`` not in that run), oldest first."""

    source: str
    now: OutcomeRecord | None
    before: OutcomeRecord | None
    verdicts: tuple[bool | None, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "source": self.source,
            "now": self.now.to_dict() if self.now else None,
            "before": self.before.to_dict() if self.before else None,
        }
        if self.verdicts:
            data["verdicts"] = [
                None if verdict is None else ("pass" if verdict else "fail")
                for verdict in self.verdicts
            ]
        return data


@dataclass(frozen=True, slots=True)
class Changes:
    """The latest complete run against the previous one of the same command and list."""

    latest: RunInfo | None
    previous: RunInfo | None
    new_failures: list[SourceChange] = field(default_factory=list)
    fixed: list[SourceChange] = field(default_factory=list)
    still_failing: list[SourceChange] = field(default_factory=list)
    flaky: list[SourceChange] = field(default_factory=list)
    appeared: list[SourceChange] = field(default_factory=list)
    went: list[SourceChange] = field(default_factory=list)
    unfinished: list[RunInfo] = field(default_factory=list)
    source_pattern: str | None = None

    @property
    def exit_code(self) -> int:
        """1 when there are new failures (for alerting), 0 otherwise."""
        return 1 if self.new_failures else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "latest": self.latest.to_dict() if self.latest else None,
            "previous": self.previous.to_dict() if self.previous else None,
            "source_pattern": self.source_pattern,
            "new_failures": [c.to_dict() for c in self.new_failures],
            "fixed": [c.to_dict() for c in self.fixed],
            "still_failing": [c.to_dict() for c in self.still_failing],
            "flaky": [c.to_dict() for c in self.flaky],
            "appeared": [c.to_dict() for c in self.appeared],
            "went": [c.to_dict() for c in self.went],
            "unfinished": [run.to_dict() for run in self.unfinished],
            "exit_code": self.exit_code,
        }


def parse_since(text: str) -> float:
    """``YYYY-MM-DD`` or an ISO 8601 date and time (UTC unless it says otherwise) as Unix
    seconds; raises ``HistoryError`` for anything else."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise HistoryError(
            f"--since {text!r}: not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)", code="bad-argument"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


def read_changes(
    store: HistoryStore, *, since: float | None = None, source: str | None = None
) -> Changes:
    """What changed in the latest complete run (started at or after ``since``), against the
    previous complete run of the same command and list; ``source`` a glob pattern narrowing
    the sources."""
    complete = store.runs(since=since, status=("complete",))
    if not complete:
        unfinished = store.runs(since=since, status=("running", "interrupted"))
        return Changes(None, None, unfinished=unfinished, source_pattern=source)
    latest = complete[-1]
    same = [run for run in complete if run.command == latest.command and run.list == latest.list]
    previous = same[-2] if len(same) > 1 else None
    unfinished = [
        run
        for run in store.runs(since=latest.started, status=("running", "interrupted"))
        if run.id != latest.id
    ]
    now = store.outcomes(latest.id, source=source)
    before = store.outcomes(previous.id, source=source) if previous else {}
    window = [run.id for run in same[-FLAKY_WINDOW:]]
    verdicts = store.verdicts(window, source=source) if len(window) > 2 else {}

    changes = Changes(latest, previous, unfinished=unfinished, source_pattern=source)
    for name in sorted(now):
        current, earlier = now[name], before.get(name)
        change = SourceChange(name, current, earlier)
        if previous is not None and earlier is None:
            changes.appeared.append(change)
        elif earlier is None:
            continue
        elif not current.passed and earlier.passed:
            changes.new_failures.append(change)
        elif current.passed and not earlier.passed:
            changes.fixed.append(change)
        elif not current.passed:
            changes.still_failing.append(change)
    if previous is None:  # the first run of its list: every failing source is still failing
        changes.still_failing.extend(
            SourceChange(name, now[name], None) for name in sorted(now) if not now[name].passed
        )
    changes.went.extend(
        SourceChange(name, None, before[name]) for name in sorted(set(before) - set(now))
    )
    for name in sorted(verdicts):
        seen = tuple(None if code is None else code == 0 for code in verdicts[name])
        if _flips(seen) >= 2:
            changes.flaky.append(SourceChange(name, now.get(name), before.get(name), seen))
    return changes


def _flips(verdicts: tuple[bool | None, ...]) -> int:
    known = [verdict for verdict in verdicts if verdict is not None]
    return sum(1 for a, b in itertools.pairwise(known) if a != b)


def changes_text(changes: Changes) -> str:
    """``th-ext history``'s text: the two runs compared, then each list that is not empty."""
    latest, previous = changes.latest, changes.previous
    if latest is None:
        lines = ["no complete run recorded yet"]
        lines += [f"  {_run_line(run)}" for run in changes.unfinished]
        return "\n".join(lines) + "\n"
    lines = [f"latest:   {_run_line(latest)}"]
    if previous is None:
        lines.append("previous: none (the first complete run of this command and list)")
    else:
        lines.append(f"previous: {_run_line(previous)}")
        differ = sorted(
            name
            for name in {*previous.options, *latest.options}
            if previous.options.get(name) != latest.options.get(name)
        )
        if differ:
            lines.append(f"note: the runs' verdict options differ: {', '.join(differ)}")
    lines += [f"note: run {run.id} did not complete ({run.status})" for run in changes.unfinished]
    if changes.source_pattern is not None:
        lines.append(f"sources matching {changes.source_pattern}")
    sections = (
        ("new failures", changes.new_failures),
        ("fixed", changes.fixed),
        ("still failing", changes.still_failing),
        ("flaky", changes.flaky),
        ("appeared", changes.appeared),
        ("went", changes.went),
    )
    for title, items in sections:
        if not items:
            continue
        lines.append("")
        lines.append(f"{title} ({len(items)}):")
        lines += [f"  {_source_line(title, item)}" for item in items[:TEXT_LIMIT]]
        if len(items) > TEXT_LIMIT:
            lines.append(f"  and {len(items) - TEXT_LIMIT} more (--format json lists them all)")
    counts = ", ".join(f"{len(items)} {title}" for title, items in sections)
    lines += ["", counts]
    return "\n".join(lines) + "\n"


def _run_line(run: RunInfo) -> str:
    total = f", {run.passed}/{run.total} passed" if run.total is not None else ""
    listed = run.list if len(run.list) <= LIST_WIDTH else run.list[: LIST_WIDTH - 3] + "..."
    return f"run {run.id} of {run.command} {listed} at {run.to_dict()['started']}{total}"


def _source_line(title: str, item: SourceChange) -> str:
    if title == "flaky":
        strip = "".join("-" if v is None else ("P" if v else "F") for v in item.verdicts)
        return f"{item.source}  {strip} (oldest first)"
    outcome = item.now or item.before
    assert outcome is not None
    where = f"{item.source}  {outcome.category} (exit {outcome.exit_code})"
    if item.now and item.before and item.now.category != item.before.category:
        where += f", was {item.before.category}"
    return where
