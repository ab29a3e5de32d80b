"""The report formats by name: ``FORMATS`` maps each name to one renderer, ``render`` and
``stream`` look it up."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from th_ext._exceptions import SourceError, ThExtError
from th_ext.problems import error_code, error_record
from th_ext.report._github import annotation, conform_github, validate_github
from th_ext.report._html import conform_html
from th_ext.report._json import demo_json, to_json, to_line
from th_ext.report._junit import run_junit
from th_ext.report._sarif import sarif_log
from th_ext.report._text import (
    cards_verdicts,
    conform_text,
    demo_text,
    render_live,
    render_plan,
    validate_concise,
    validate_count,
    validate_text,
)
from th_ext.sources import is_url
from th_ext.validate import Report, report_for_source_error

if TYPE_CHECKING:
    from th_ext.conform import ConformReport
    from th_ext.demo import DemoRun
    from th_ext.dispatch import DispatchPlan, LiveReport

__all__ = [
    "FORMATS",
    "Dispatched",
    "FormatError",
    "RenderOptions",
    "Renderer",
    "error_code",
    "error_document",
    "error_record",
    "render",
    "stream",
]


class FormatError(ThExtError):
    """A format that does not exist, or that cannot show this kind of report."""


@dataclass(frozen=True, slots=True)
class Dispatched:
    """What ``th-ext dispatch`` shows: the dry run of one message against the card read at
    ``location``, the live check when there was one, and how many extra headers went out."""

    location: str
    plan: DispatchPlan
    live: LiveReport | None = None
    headers_sent: int = 0


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How to render: ``color`` (ANSI colours, for a terminal), and ``many`` when the run
    checked several sources (text then ends with a line counting the verdicts, and leaves out
    a source that could not be read at all, whose error the caller shows; JSON is an array)."""

    color: bool = False
    many: bool = False
    quiet: bool = False
    """Text: leave out the ``source: ok`` and ``document: ok`` lines of a validation report."""


Renderer = Callable[[Iterable[Any], RenderOptions], Iterator[str]]
"""A format: the reports of one run and the options, to the text to print."""


def _cannot(format_name: str, report: object) -> FormatError:
    return FormatError(f"the {format_name} format cannot show a {type(report).__name__}")


def _is_conform(report: object) -> TypeGuard[ConformReport]:
    """A ``ConformReport``, told by its shape: importing ``th_ext.conform`` to ask would load
    its HTTP client and runner into every command that renders anything."""
    return hasattr(report, "requirements") and hasattr(report, "agent")


def _is_demo(report: object) -> TypeGuard[DemoRun]:
    """A ``DemoRun``, told by its shape (``th_ext.demo`` loads the A2A SDK)."""
    return hasattr(report, "conformance") and hasattr(report, "dry_run")


def _is_error(item: object) -> TypeGuard[dict[str, Any]]:
    """The error document of a source that could not be checked (``error_document``'s)."""
    return isinstance(item, dict) and isinstance(item.get("error"), dict)


def _checked(reports: Iterable[Any], format_name: str) -> list[Any]:
    """The reports as a list, each a validation or conformance report or an error document."""
    listed = list(reports)
    for report in listed:
        if not (isinstance(report, Report) or _is_conform(report) or _is_error(report)):
            raise _cannot(format_name, report)
    return listed


def _read_nothing(report: Report) -> bool:
    """A source that could not be read at all: the report holds only its error."""
    return not report.card_read and report.layers == ("source",)


def text(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """For people: each report in turn; several sources end with a count of the verdicts."""
    seen: list[Report] = []
    for report in reports:
        if isinstance(report, Report):
            if not (options.many and _read_nothing(report)):
                after = any(r.card_read for r in seen)
                shown = validate_text(report, color=options.color, quiet=options.quiet)
                yield ("\n" if after else "") + shown
            seen.append(report)
        elif _is_conform(report):
            yield conform_text(report, color=options.color, quiet=options.quiet) + "\n"
        elif isinstance(report, Dispatched):
            # the live run prints the dry run whole: the same request, then what came back
            plan = render_plan(
                report.plan, report.location, report.headers_sent, color=options.color
            )
            yield plan + "\n"
            if report.live is not None:
                yield "\n" + render_live(report.live, report.plan, color=options.color) + "\n"
        elif _is_demo(report):
            yield demo_text(report, color=options.color) + "\n"
        else:
            raise _cannot("text", report)
    if options.many:
        yield "\n" + cards_verdicts(seen) + "\n"


def concise(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """For editors and hooks, like ruff's and check-jsonschema's concise output: one line per
    problem, ``FILE:LINE:COL: SEVERITY CODE MESSAGE``, and one count line for the whole run.
    A source that could not be read at all is its one line, ``SOURCE: error CODE MESSAGE``."""
    seen: list[Report] = []
    for item in reports:
        report = item
        if _is_error(item):  # counted as a card that could not be read
            error = SourceError(item["error"]["message"], code=item["error"]["code"])
            report = report_for_source_error(item["source"], error)
        if not isinstance(report, Report):
            raise _cannot("concise", report)
        yield validate_concise(report)
        seen.append(report)
    yield validate_count(seen) + "\n"


def _document(report: Any) -> Any:
    if _is_error(report):
        return report
    if isinstance(report, Report) or _is_conform(report):
        return report.to_dict()
    if isinstance(report, Dispatched):
        document: dict[str, Any] = {"source": report.location, **report.plan.to_dict()}
        if report.live is not None:
            document["live"] = report.live.to_dict()
        return document
    if _is_demo(report):
        return demo_json(report)
    raise _cannot("json", report)


def json(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """One strict JSON document: the report, or with several sources an array of them."""
    documents = [_document(report) for report in reports]
    yield to_json(documents if options.many else documents[0]) + "\n"


def junit(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """One JUnit XML document: every validation or conformance report's suites, and an error
    suite for each error document."""
    listed = _checked(reports, "junit")
    if any(_is_conform(r) for r in listed):
        command = "conform"
    else:
        errors = [r for r in listed if _is_error(r)]
        command = errors[0]["command"] if errors and len(errors) == len(listed) else "validate"
    yield run_junit(command, listed)


def github(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """GitHub Actions workflow commands, which annotate the file each problem is in."""
    for report in reports:
        if isinstance(report, Report):
            source = report.source
            yield validate_github(report, file=None if source == "-" or is_url(source) else source)
        elif _is_conform(report):
            yield conform_github(report)
        elif _is_error(report):
            title = f"th-ext {report['command']}" if report["command"] else "th-ext"
            yield annotation("error", report["error"]["message"], title=title) + "\n"
        else:
            raise _cannot("github", report)


def html(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """One self-contained HTML page of a conformance report."""
    for report in reports:
        if not _is_conform(report):
            raise _cannot("html", report)
        yield conform_html(report)


def sarif(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """One SARIF 2.1.0 log of every report (and of every error document of a source that
    could not be checked), for GitHub code scanning."""
    listed = _checked(reports, "sarif")
    yield to_json(sarif_log(listed, conform=any(_is_conform(r) for r in listed))) + "\n"


def jsonl(reports: Iterable[Any], options: RenderOptions) -> Iterator[str]:
    """JSON Lines: one line per report as each arrives, the object ``json`` gives for it alone.
    A document already made (a dict, such as an agent's report with its ``source``) is written
    as it is."""
    for report in reports:
        yield to_line(report if isinstance(report, dict) else _document(report)) + "\n"


FORMATS: dict[str, Renderer] = {
    "text": text,
    "concise": concise,
    "json": json,
    "jsonl": jsonl,
    "junit": junit,
    "github": github,
    "html": html,
    "sarif": sarif,
}
"""Every format by name. Adding one: a ``Renderer`` and its entry here."""


def stream(
    reports: Iterable[Any], format: str = "text", options: RenderOptions | None = None
) -> Iterator[str]:
    """The reports in ``format``, chunk by chunk, each as soon as its report arrives."""
    renderer = FORMATS.get(format)
    if renderer is None:
        raise FormatError(f"no format named {format!r} (known: {', '.join(FORMATS)})")
    return renderer(reports, options or RenderOptions())


def render(report: Any, format: str = "text", *, color: bool = False) -> str:
    """One report (or a list of several validation reports) in ``format``, whole."""
    many = isinstance(report, list | tuple)
    reports = list(report) if many else [report]
    return "".join(stream(reports, format, RenderOptions(color=color, many=many)))


def error_document(
    exc: ThExtError, format: str, *, command: str | None, source: object = None
) -> str:
    """The document a machine format gets when a command could not run at all (exit 2).

    JSON: ``{"command", "source", "exit_code": 2, "error": {"code", "message"}}``; JUnit: one
    suite for the command with one test case in ``<error>``; GitHub: one ``::error`` command:
    each as the format shows such a document among a run's reports.
    ``code`` is the error's stable name when it has one (``unreadable``, ``http-error``...),
    else its kind (``dispatch``, ``conform``...). Credentials in a source URL are redacted.
    """
    document = error_record(exc, command, source)
    return "".join(stream([document], format))
