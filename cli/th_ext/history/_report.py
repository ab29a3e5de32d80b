"""What a store's history says: what changed since the previous run, and the dashboard."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import itertools
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import pygal
from pygal.style import Style

from th_ext._version import __version__
from th_ext.history._categories import CATEGORIES
from th_ext.history._store import HistoryError, HistoryStore, OutcomeRecord, RunInfo
from th_ext.problems import clean, counted, cut

__all__ = [
    "FLAKY_WINDOW",
    "STRIP_RUNS",
    "Changes",
    "SourceChange",
    "changes_text",
    "dashboard_html",
    "parse_since",
    "read_changes",
]

FLAKY_WINDOW = 7
"""A source is flaky when its verdict changed at least twice in this many last runs."""
TEXT_LIMIT = 20
"""The most sources a text list shows; the JSON lists every one."""
LIST_WIDTH = 72
"""The text shows a run's list cut to this many characters."""
_LISTS = ("new_failures", "fixed", "still_failing", "flaky", "appeared", "went")
"""The lists of ``Changes``, in the order its JSON and its text give them."""


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
    since: float | None = None

    @property
    def exit_code(self) -> int:
        """1 when there are new failures (for alerting), 0 otherwise."""
        return 1 if self.new_failures else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "latest": self.latest.to_dict() if self.latest else None,
            "previous": self.previous.to_dict() if self.previous else None,
            "source_pattern": self.source_pattern,
            **{name: [c.to_dict() for c in getattr(self, name)] for name in _LISTS},
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
        return Changes(None, None, unfinished=unfinished, source_pattern=source, since=since)
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
        if changes.since is not None:
            since = time.strftime("%Y-%m-%d %H:%M", time.gmtime(changes.since))
            lines = [f"no complete run started at or after {since} UTC"]
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
    sections = [(name.replace("_", " "), getattr(changes, name)) for name in _LISTS]
    for title, items in sections:
        if not items:
            continue
        lines.append("")
        lines.append(f"{title} ({len(items)}):")
        lines += [f"  {_source_line(title, item)}" for item in items[:TEXT_LIMIT]]
        if len(items) > TEXT_LIMIT:
            lines.append(f"  and {len(items) - TEXT_LIMIT} more (--format json lists them all)")
    counts = ", ".join(
        counted(len(items), "new failure") if title == "new failures" else f"{len(items)} {title}"
        for title, items in sections
    )
    lines += ["", counts]
    return "\n".join(lines) + "\n"


def _run_line(run: RunInfo) -> str:
    total = f", {run.passed}/{run.total} passed" if run.total is not None else ""
    listed = cut(run.list, LIST_WIDTH)
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


# the dashboard

STRIP_RUNS = 14
"""How many recent runs a source's strip shows."""
REPORT_PROBLEMS = 8
"""The most problems a source's last report lists in the page (the store holds them all)."""

_CATEGORY_COLOURS = {
    "passed": "#2da44e",
    "unreachable": "#8250df",
    "http-status": "#bf3989",
    "not-a-card": "#e16f24",
    "card-invalid": "#cf222e",
    "extension-invalid": "#d4a72c",
    "signature": "#0969da",
    "protocol": "#1b7c83",
    "conformance": "#953800",
    "bad-input": "#6e7781",
    "other": "#57606a",
}

_STYLE = """
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;
--pass:#1a7f37;--fail:#cf222e;--none:#d1d9e0;--link:#0550ae;--panel:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;
--line:#3d444d;--pass:#3fb950;--fail:#f85149;--none:#3d444d;--link:#58a6ff;--panel:#151b23}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
header,main{max-width:1200px;margin:0 auto;padding:0 16px}
h1{font-size:1.5rem;margin:16px 0 4px}h2{font-size:1.2rem;margin:28px 0 8px}
h3{font-size:1rem;margin:16px 0 4px;overflow-wrap:anywhere}
a{color:var(--link)}p.meta{color:var(--muted);margin:0 0 8px;overflow-wrap:anywhere}
.lists{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:16px}
.lists section{background:var(--panel);border:1px solid var(--line);border-radius:6px;
padding:8px 12px}.lists ul{margin:0;padding-left:20px;overflow-wrap:anywhere}
figure{margin:0 0 16px}figure svg{width:100%;height:auto;display:block}
figcaption{font-weight:600}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:16px}
.controls{display:flex;flex-wrap:wrap;gap:12px;align-items:end;margin:8px 0}
.controls label{display:flex;flex-direction:column;font-size:.9rem}
input,select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);
border-radius:4px;padding:4px 6px}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
#sources td:first-child{overflow-wrap:anywhere;min-width:12rem}
th button{font:inherit;font-weight:600;color:var(--fg);background:none;border:0;padding:0;
cursor:pointer;text-decoration:underline dotted}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.strip{display:inline-flex;gap:2px}.strip i{width:7px;height:16px;background:var(--none)}
.strip i.p{background:var(--pass)}.strip i.f{background:var(--fail)}
.fail{color:var(--fail)}.pass{color:var(--pass)}
details{margin:4px 0 12px}summary{cursor:pointer}
.report{border-top:1px solid var(--line)}.report ul{overflow-wrap:anywhere}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap}
"""

_SCRIPT = """
(function () {
  var table = document.getElementById("sources");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var text = document.getElementById("filter-text");
  var category = document.getElementById("filter-category");
  var shown = document.getElementById("shown");
  Array.prototype.forEach.call(table.querySelectorAll(".strip[data-v]"), function (strip) {
    var verdicts = strip.getAttribute("data-v");
    for (var i = 0; i < verdicts.length; i += 1) {
      var cell = document.createElement("i");
      if (verdicts[i] !== "-") { cell.className = verdicts[i]; }
      strip.appendChild(cell);
    }
  });
  function filter() {
    var words = text.value.toLowerCase();
    var wanted = category.value;
    var count = 0;
    rows.forEach(function (row) {
      var ok = (!wanted || row.cells[1].textContent === wanted) &&
        (!words || row.cells[0].textContent.toLowerCase().indexOf(words) !== -1);
      row.hidden = !ok;
      if (ok) { count += 1; }
    });
    shown.textContent =
      count + " of " + rows.length + (rows.length === 1 ? " source" : " sources") + " shown";
  }
  text.addEventListener("input", filter);
  category.addEventListener("change", filter);
  var headers = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(headers, function (header, column) {
    var button = header.querySelector("button");
    if (!button) { return; }
    button.addEventListener("click", function () {
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var numeric = header.hasAttribute("data-numeric");
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute("data-sort") || a.cells[column].textContent;
        var y = b.cells[column].getAttribute("data-sort") || b.cells[column].textContent;
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return ascending ? order : -order;
      });
      var fragment = document.createDocumentFragment();
      rows.forEach(function (row) { fragment.appendChild(row); });
      body.appendChild(fragment);
    });
  });
  filter();
})();
"""

_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode("utf-8")).digest()).decode("ascii")
_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; "
    f"script-src 'sha256-{_SCRIPT_HASH}'; base-uri 'none'; form-action 'none'"
)


def dashboard_html(
    store: HistoryStore,
    *,
    since: float | None = None,
    source: str | None = None,
    changes: Changes | None = None,
) -> str:
    """The dashboard of ``store``: the runs of its latest complete run's command and list
    (started at or after ``since``; sources narrowed by the glob ``source``).

    The page loads nothing: its Content-Security-Policy allows no request and only its own
    script (by hash), and every string from a card or an agent goes through ``_text``.
    """
    changes = changes or read_changes(store, since=since, source=source)
    latest = changes.latest
    if latest is None:
        runs: list[RunInfo] = []
        outcomes: dict[str, OutcomeRecord] = {}
        strips: dict[str, list[int | None]] = {}
        documents: dict[str, dict[str, Any]] = {}
    else:
        runs = [
            run
            for run in store.runs(
                command=latest.command,
                list_name=latest.list,
                since=since,
                status=("complete", "interrupted"),
            )
            if run.total is not None
        ]
        outcomes = store.outcomes(latest.id, source=source)
        recent = [run.id for run in runs if run.status == "complete"][-STRIP_RUNS:]
        strips = store.verdicts(recent, source=source)
        failing = sorted(name for name, outcome in outcomes.items() if not outcome.passed)
        documents = store.documents(latest.id, failing)
    names = sorted(outcomes)
    ids = {name: index for index, name in enumerate(names)}
    title = "th-ext history"
    if latest is not None:
        title += f": {_text(latest.command)} {_text(latest.list)}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title><style>{_STYLE}</style></head><body>",
        f"<header><h1>{title}</h1>{_meta(store, latest, runs)}</header><main>",
        _lists(changes, ids),
        _charts(runs),
        _table(names, outcomes, strips, ids),
        _reports(names, outcomes, documents, ids),
        f"</main><script>{_SCRIPT}</script></body></html>\n",
    ]
    return "\n".join(parts)


def _text(value: object) -> str:
    return escape(clean(str(value)), quote=True)


def _when(moment: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))


def _meta(store: HistoryStore, latest: RunInfo | None, runs: Sequence[RunInfo]) -> str:
    if latest is None:
        return '<p class="meta">No complete run is recorded in this store yet.</p>'
    passed = f"{latest.passed} of {latest.total} passed" if latest.total is not None else ""
    return (
        f'<p class="meta">Latest run {latest.id} at {_when(latest.started)}: {passed}. '
        f"{counted(len(runs), 'run')} of this command and list; "
        f"store <code>{_text(store.path)}</code>; "
        f"made by th-ext {escape(__version__)} at {_when(time.time())}.</p>"
    )


def _link(change: SourceChange, ids: dict[str, int]) -> str:
    outcome = change.now or change.before
    name = _text(change.source)
    category = f" ({escape(outcome.category)})" if outcome else ""
    if change.now is not None and not change.now.passed and change.source in ids:
        return f'<li><a href="#r{ids[change.source]}">{name}</a>{category}</li>'
    return f"<li>{name}{category}</li>"


def _lists(changes: Changes, ids: dict[str, int]) -> str:
    def change_section(key: str, heading: str, items: list[SourceChange]) -> str:
        body = (
            "<ul>" + "".join(_link(item, ids) for item in items) + "</ul>"
            if items
            else "<p>None.</p>"
        )
        return (
            f'<section id="{key}" aria-labelledby="{key}-h"><h2 id="{key}-h">{heading} '
            f"({len(items)})</h2>{body}</section>"
        )

    against = (
        f"against run {changes.previous.id} at {_when(changes.previous.started)}"
        if changes.previous
        else "the first complete run of this command and list"
    )
    return (
        f'<p class="meta">Latest run compared {against}.</p><div class="lists">'
        + change_section("new-failures", "New failures", changes.new_failures)
        + change_section("fixed", "Fixed", changes.fixed)
        + "</div>"
    )


def _svg(chart: Any, label: str) -> str:
    """The chart as inline SVG: pygal's tree without its tooltip script (nothing here loads
    or runs it), named for assistive technology."""
    tree = chart.render_tree()
    for parent in list(tree.iter()):
        for child in list(parent):
            if isinstance(child.tag, str) and child.tag.endswith("script"):
                parent.remove(child)
    tree.set("role", "img")
    tree.set("aria-label", label)
    text = ET.tostring(tree, encoding="unicode")
    return text.replace("ns0:", "").replace(":ns0", "")


def _chart(kind: Any, labels: list[str], colours: Sequence[str], **config: Any) -> Any:
    """A pygal chart of one value a run, its legend (three to a row) below it: each row of the
    legend makes the drawing taller, so that the plot keeps its height."""
    every = max(1, len(labels) // 6)
    legend_rows = -(-len(colours) // 3) if config.get("show_legend", True) else 0
    return kind(
        style=Style(
            background="transparent",
            plot_background="transparent",
            foreground="var(--fg)",
            foreground_strong="var(--fg)",
            foreground_subtle="var(--muted)",
            guide_stroke_color="var(--line)",
            major_guide_stroke_color="var(--line)",
            font_family="system-ui, sans-serif",
            label_font_size=15,
            major_label_font_size=15,
            legend_font_size=15,
            colors=tuple(colours),
            opacity=".55",
        ),
        js=[],
        disable_xml_declaration=True,
        show_dots=len(labels) <= 40,
        dots_size=3,
        width=640,
        height=280 + 24 * legend_rows,
        x_labels=labels,
        show_minor_x_labels=False,
        x_labels_major_every=every,
        truncate_label=-1,
        truncate_legend=-1,
        legend_at_bottom=True,
        legend_at_bottom_columns=3,
        include_x_axis=True,
        margin=8,
        margin_bottom=8 + 20 * legend_rows,  # room for the legend, which pygal does not leave
        **config,
    )


def _charts(runs: Sequence[RunInfo]) -> str:
    if not runs:
        return ""
    labels = [time.strftime("%m-%d", time.gmtime(run.started)) for run in runs]
    rate = [round(100 * (run.passed or 0) / run.total, 1) if run.total else None for run in runs]
    passing = _chart(pygal.Line, labels, ["#2da44e"], range=(0, 100), show_legend=False)
    passing.add("pass rate (%)", rate)
    names = [
        c.name
        for c in CATEGORIES
        if c.name != "passed" and any(run.categories.get(c.name) for run in runs)
    ]
    counts = [[run.categories.get(name, 0) for run in runs] for name in names]
    by_category = _chart(
        pygal.StackedLine, labels, [_CATEGORY_COLOURS[name] for name in names], fill=True
    )
    for name, points in zip(names, counts, strict=True):
        by_category.add(name, points)
    ranks = ["p50", "p90", "p99"]
    seconds = [[getattr(run, rank) for run in runs] for rank in ranks]
    latency = _chart(pygal.Line, labels, ["#0969da", "#9a6700", "#cf222e"])
    for rank, points in zip(ranks, seconds, strict=True):
        latency.add(f"{rank} (s)", points)
    figures: list[tuple[str, str, Any, list[str], list[list[Any]]]] = [
        ("pass-rate", "Pass rate over time (%)", passing, ["pass rate (%)"], [rate]),
        ("categories", "Failures by category over time", by_category, names, counts),
        (
            "latency",
            "Latency percentiles over time (seconds per source)",
            latency,
            ranks,
            seconds,
        ),
    ]
    out = ['<h2 id="trends">Over time</h2><div class="charts">']
    for key, caption, chart, series, values in figures:
        out.append(
            f'<figure id="chart-{key}"><figcaption id="{key}-caption">{caption}</figcaption>'
            f"{_svg(chart, caption)}{_data_table(key, caption, labels, runs, series, values)}"
            "</figure>"
        )
    out.append("</div>")
    return "".join(out)


def _data_table(  # noqa: PLR0917 (private; one call per chart)
    key: str,
    caption: str,
    labels: list[str],
    runs: Sequence[RunInfo],
    series: list[str],
    values: list[list[Any]],
) -> str:
    head = "".join(f'<th scope="col">{escape(name)}</th>' for name in series)
    rows = "".join(
        f'<tr><th scope="row">{_when(run.started)}</th>'
        + "".join(f"<td>{'' if v[index] is None else v[index]}</td>" for v in values)
        + "</tr>"
        for index, run in enumerate(runs)
    )
    return (
        f"<details><summary>{escape(caption)}: the numbers</summary>"
        f'<div class="scroll" tabindex="0" role="region" aria-label="{escape(caption)}: data">'
        f'<table id="{key}-data"><thead><tr><th scope="col">Run</th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div></details>"
    )


def _table(
    names: list[str],
    outcomes: dict[str, OutcomeRecord],
    strips: dict[str, list[int | None]],
    ids: dict[str, int],
) -> str:
    present = sorted({outcome.category for outcome in outcomes.values()})
    options = "".join(f'<option value="{escape(c)}">{escape(c)}</option>' for c in present)
    rows = []
    for name in names:
        outcome = outcomes[name]
        strip = strips.get(name, [])
        verdicts = "".join("-" if code is None else ("p" if code == 0 else "f") for code in strip)
        ran = [code for code in strip if code is not None]
        passes = sum(1 for c in ran if c == 0)
        label = f"last {counted(len(ran), 'run')}: {passes} passed, oldest first"
        shown = _text(name)
        if not outcome.passed:
            shown = f'<a href="#r{ids[name]}">{shown}</a>'
        # the strip's cells are drawn by the page's script from data-v (a tenth of the bytes
        # of ten thousand rows of elements); its label says the same in words
        rows.append(
            f"<tr><td>{shown}</td><td>{escape(outcome.category)}</td>"
            f"<td>{outcome.exit_code}</td><td>{outcome.seconds:.2f}</td>"
            f'<td data-sort="{passes}"><span class="strip" role="img" aria-label="{label}" '
            f'data-v="{verdicts}"></span></td></tr>'
        )
    numeric = ' data-numeric=""'
    headers = "".join(
        f'<th scope="col"{extra}><button type="button">{label}</button></th>'
        for label, extra in (
            ("Source", ""),
            ("Category", ""),
            ("Exit", numeric),
            ("Seconds", numeric),
            ("Recent runs", numeric),
        )
    )
    return (
        '<h2 id="sources-h">Sources</h2><div class="controls">'
        '<label for="filter-text">Filter by name<input id="filter-text" type="search"></label>'
        '<label for="filter-category">Category<select id="filter-category">'
        f'<option value="">all</option>{options}</select></label>'
        f'<p id="shown" role="status">{counted(len(names), "source")}</p></div>'
        '<div class="scroll" tabindex="0" role="region" aria-labelledby="sources-h">'
        f'<table id="sources"><thead><tr>{headers}</tr></thead><tbody>{"".join(rows)}'
        "</tbody></table></div>"
    )


def _reports(
    names: list[str],
    outcomes: dict[str, OutcomeRecord],
    documents: dict[str, dict[str, Any]],
    ids: dict[str, int],
) -> str:
    failing = [name for name in names if not outcomes[name].passed]
    if not failing:
        return ""
    out = ['<h2 id="reports">Last reports of the failing sources</h2>']
    for name in failing:
        outcome = outcomes[name]
        document = documents.get(name, {})
        items = _report_items(document)
        more = len(items) - REPORT_PROBLEMS
        listed = "".join(f"<li>{item}</li>" for item in items[:REPORT_PROBLEMS])
        if more > 0:
            listed += f"<li>and {more} more (th-ext history --source gives the whole report)</li>"
        out.append(
            f'<section class="report" id="r{ids[name]}"><h3>{_text(name)}</h3>'
            f"<p>{escape(outcome.category)}, exit {outcome.exit_code}, "
            f"{outcome.seconds:.2f} s</p><ul>{listed}</ul></section>"
        )
    return "".join(out)


def _report_items(document: dict[str, Any]) -> list[str]:
    error = document.get("error")
    if isinstance(error, dict):
        return [f"<code>{_text(error.get('code'))}</code> {_text(error.get('message'))}"]
    items = [
        f"{_text(p.get('severity'))} <code>{_text(p.get('code'))}</code> "
        f"{_text(p.get('path'))} {_text(p.get('message'))}"
        for p in document.get("problems") or []
        if isinstance(p, dict) and p.get("severity") in ("error", "warning")
    ]
    for key in ("requirements", "core"):
        items += [
            f"{_text(r.get('status'))} <code>{_text(r.get('id'))}</code> {_text(r.get('summary'))}"
            for r in document.get(key) or []
            if isinstance(r, dict) and r.get("status") in ("fail", "warn")
        ]
    return items
