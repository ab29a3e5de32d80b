"""How ``th-ext validate`` shows a report on a terminal, and its spinner while fetching.

The text format groups problems by layer; each problem is its severity and code, its location
(a JSON pointer), a one-line message and a hint. The concise format, like ruff's and
check-jsonschema's, is one line per problem, ``FILE:LINE:COL: SEVERITY CODE MESSAGE`` (the JSON
pointer in place of the line and column when the problem has none), for editors and hooks.
Colour and the spinner appear only on a terminal and never with ``NO_COLOR``; every string
goes through ``clean`` before it is printed, because the card it came from is untrusted.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

from th_ext.validate import LAYERS, Problem, Report, clean

if TYPE_CHECKING:
    import threading

__all__ = ["Spinner", "concise_count", "render_concise", "render_text"]

_LAYER_TITLES = {
    "source": "source",
    "document": "document",
    "card": "card (A2A 1.0)",
    "extension": "extensions",
}
#: The layers whose "ok" line ``--quiet`` leaves out: reading and parsing the card.
_QUIET_WHEN_OK = ("source", "document")
_SHOWN_COMMANDS = 10
_EXCERPT_WIDTH = 120


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def red(self, text: str) -> str:
        return self._wrap("31;1", text)

    def yellow(self, text: str) -> str:
        return self._wrap("33;1", text)

    def green(self, text: str) -> str:
        return self._wrap("32;1", text)

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)


def render_text(report: Report, *, color: bool, quiet: bool = False) -> str:
    """The report as the text format, ending in a newline; ``quiet`` leaves out the lines of
    the source and document layers when they are ok."""
    style = _Style(color)
    lines = [f"{style.bold('th-ext validate')} {clean(report.location)}"]
    lines.extend(_summary_lines(report))
    grouped = report.by_layer()
    for layer in LAYERS:
        problems = grouped[layer]
        title = _LAYER_TITLES[layer]
        if layer not in report.layers:
            lines.append(f"{title}: {style.dim('not checked (no card to check)')}")
            continue
        if not problems:
            if not (quiet and layer in _QUIET_WHEN_OK):
                lines.append(f"{title}: {style.green('ok')}")
            continue
        lines.append(f"{title}: {_counts(problems)}")
        for problem in problems:
            lines.extend(_problem_lines(problem, report, style))
    lines.append("")
    totals = report.totals()  # every problem found, the ones not listed too
    errors, warnings, notes = totals["error"], totals["warning"], totals["info"]
    counts = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if notes:
        counts += f", {notes} note{'s' * (notes != 1)}"
    if report.valid:
        lines.append(f"{style.green('valid')} ({counts})")
    elif not report.card_read:
        lines.append(f"{style.red('no card could be read')} ({counts})")
    else:
        strict = " with --strict" if report.strict and not errors else ""
        lines.append(f"{style.red('invalid')}{strict} ({counts})")
    return "\n".join(lines) + "\n"


def render_concise(report: Report) -> str:
    """One line per problem of the report, ``FILE:LINE:COL: SEVERITY CODE MESSAGE``; empty
    when there is none. The count is ``concise_count``'s, once after every report."""
    file = clean(report.location)
    lines = []
    grouped = report.by_layer()
    for problem in (p for layer in LAYERS for p in grouped[layer]):
        if problem.line is not None:
            where = f"{file}:{problem.line}:{problem.column}"
        elif problem.path:
            where = f"{file}:{clean(problem.path)}"
        else:
            where = file
        severity = "note" if problem.severity == "info" else problem.severity
        lines.append(f"{where}: {severity} {problem.code} {clean(problem.message)}")
    return "".join(line + "\n" for line in lines)


def concise_count(reports: list[Report]) -> str:
    """The last line of the concise format: the problems found in every report, and the
    verdict (of each card, when there are several)."""
    totals = {"error": 0, "warning": 0, "info": 0}
    for report in reports:
        for severity, count in report.totals().items():
            totals[severity] += count
    errors, warnings, notes = totals["error"], totals["warning"], totals["info"]
    counts = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if notes:
        counts += f", {notes} note{'s' * (notes != 1)}"
    if len(reports) == 1:
        report = reports[0]
        verdict = "valid" if report.valid else "invalid" if report.card_read else "unreadable"
        return f"{clean(report.location)}: {verdict} ({counts})"
    valid = sum(1 for r in reports if r.exit_code == 0)
    invalid = sum(1 for r in reports if r.exit_code == 1)
    unreadable = sum(1 for r in reports if r.exit_code == 2)
    verdicts = [f"{valid} valid", f"{invalid} invalid"]
    if unreadable:
        verdicts.append(f"{unreadable} could not be read")
    return f"{len(reports)} cards: {', '.join(verdicts)} ({counts})"


def _summary_lines(report: Report) -> list[str]:
    card: dict[str, Any] | None = report.card
    if card is None:
        return []
    name = clean(card.get("name") or "(no name)")
    version = clean(card.get("version") or "?")
    lines = [f"  card        {name} {version}"]
    for interface in card.get("interfaces", []):
        parts = [interface.get(k, "?") for k in ("protocolBinding", "url", "protocolVersion")]
        lines.append(f"  interface   {clean(parts[0])} {clean(parts[1])} (A2A {clean(parts[2])})")
    skills = card.get("skills", [])
    if skills:
        lines.append(f"  skills      {clean(', '.join(skills))}")
    for extension in report.extensions:
        uri = clean(extension["uri"])
        if not extension.get("checked"):
            lines.append(f"  extension   {uri} (not checked)")
            continue
        lines.append(f"  extension   {extension['extension']} ({uri})")
        if "commands" not in extension:  # an extension without commands (media/v1)
            continue
        commands = extension["commands"]
        shown = ", ".join(clean(c) for c in commands[:_SHOWN_COMMANDS])
        more = f", … ({len(commands)} in all)" if len(commands) > _SHOWN_COMMANDS else ""
        listed = f": {shown}{more}" if commands else ""
        lines.append(f"              {len(commands)} command{'s' * (len(commands) != 1)}{listed}")
    return lines


def _counts(problems: list[Problem]) -> str:
    def found(problem: Problem) -> int:
        return problem.hidden if problem.code == "more-problems" else 1

    errors = sum(found(p) for p in problems if p.severity == "error")
    warnings = sum(found(p) for p in problems if p.severity == "warning")
    notes = sum(found(p) for p in problems if p.severity == "info")
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' * (errors != 1)}")
    if warnings:
        parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    if notes:
        parts.append(f"{notes} note{'s' * (notes != 1)}")
    return ", ".join(parts)


def _problem_lines(problem: Problem, report: Report, style: _Style) -> list[str]:
    label = "note" if problem.severity == "info" else problem.severity
    if problem.severity == "info":
        marked = style.dim(label)
    else:
        marked = style.red(label) if report.fails(problem) else style.yellow(label)
    if problem.path:
        where = f" at {clean(problem.path)}"
    else:
        where = "" if problem.layer == "source" else " at (the whole document)"
    if problem.line is not None:
        where += f" ({clean(report.location)}:{problem.line}:{problem.column})"
    lines = [f"  {marked} {style.bold(problem.code)}{where}", f"    {clean(problem.message)}"]
    lines += [f"      {clean(part)}" for part in problem.excerpt.split("\n") if problem.excerpt]
    source_line = report.source_lines.get(problem.line) if problem.line is not None else None
    if source_line is not None and problem.column is not None and not problem.excerpt:
        lines += _source_excerpt(problem.line, problem.column, source_line, style)
    if problem.hint:
        lines.append(f"    {style.dim('hint: ' + clean(problem.hint))}")
    return lines


def _source_excerpt(number: int | None, column: int, text: str, style: _Style) -> list[str]:
    """The problem's line with its number, and a caret line under the token at ``column``
    (a long line is cut to a window around it)."""
    index = column - 1
    start = 0
    if len(text) > _EXCERPT_WIDTH:
        start = max(0, min(index - _EXCERPT_WIDTH // 2, len(text) - _EXCERPT_WIDTH))
    shown = text[start : start + _EXCERPT_WIDTH].replace("\t", " ")
    before = clean(shown[: index - start])
    width = max(1, min(_token_width(text, index), len(shown) - (index - start)))
    gutter = f"{number}"
    return [
        f"    {style.dim(gutter + ' |')} {clean(shown)}",
        f"    {' ' * len(gutter)} {style.dim('|')} {' ' * len(before)}{style.red('^' * width)}",
    ]


def _token_width(text: str, index: int) -> int:
    """How many characters the JSON token at ``index`` spans (a string with its quotes)."""
    if index >= len(text) or text[index] != '"':
        return 1
    end = index + 1
    while end < len(text) and text[end] != '"':
        end += 2 if text[end] == "\\" else 1
    return end - index + 1


class Spinner:
    """A one-line spinner on ``stream`` while a fetch runs; nothing unless ``enabled``."""

    _FRAMES = "|/-\\"

    def __init__(self, stream: TextIO, message: str, *, enabled: bool) -> None:
        self.stream = stream
        self.message = clean(message)
        self.enabled = enabled
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Spinner:
        if self.enabled:
            import threading  # only a terminal gets a spinner: the others never load threads

            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def _spin(self) -> None:
        frame = 0
        while not self._stop.wait(0.1 if frame else 0.2):
            self.stream.write(f"\r{self._FRAMES[frame % 4]} {self.message}")
            self.stream.flush()
            frame += 1


def stderr_is_terminal() -> bool:
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())
