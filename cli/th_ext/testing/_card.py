"""``check_card``: one call that validates an agent card and fails a test with the report; a card
file is checked as ``th-ext validate`` checks it, by the library's one check of a source."""

from __future__ import annotations

import json
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from th_ext.batch import validate_source
from th_ext.problems import clean, counted, escape_unsafe
from th_ext.signatures import KeySet, SignatureOptions, check_signatures, parse_jwks, read_keys
from th_ext.sources import DEFAULT_MAX_BYTES, SourceLimits
from th_ext.validate import Problem, Report, ValidateOptions, validate_bytes

__all__ = ["CardCheckFailed", "check_card"]


class CardCheckFailed(AssertionError):
    """The card is not valid; ``report`` holds every problem, and the message lists them.

    A card file that cannot be read (missing, over the cap) gives the report ``th-ext
    validate`` gives it: one ``source`` problem, exit code 2. The message's first line, the one
    pytest's short summary shows, begins with the reason: the first problem's own words.
    """

    __module__ = "th_ext.testing"  # its public home: tracebacks and ``-ra`` name it so

    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__(describe(report))


def check_card(
    card_or_path: dict[str, Any] | str | PathLike[str] | bytes,
    *,
    strict: bool = False,
    extensions: tuple[str, ...] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    keys: Sequence[str | PathLike[str] | dict[str, Any]] = (),
    require_signature: bool = False,
) -> Report:
    """Validate a card exactly as ``th-ext validate`` does, and return the report.

    ``card_or_path`` is the card as a dict, the path of a card file, or the card's bytes.
    ``extensions`` (URIs or keys such as ``commands/v1``) must be declared; ``strict`` fails
    on warnings too; a card file larger than ``max_bytes`` (5 MiB by default, as the command
    line) is not read past the cap. ``keys`` (JWKS files or URLs, or JWKS documents as dicts)
    verify the card's signatures as ``--keys`` does; ``require_signature`` fails a card with
    no signature that verifies. Raises ``CardCheckFailed`` (an ``AssertionError``) when the
    card is not valid or cannot be read, with every problem and its line in the message, and
    ``th_ext.signatures.KeysError`` when a keys source gives no JWKS.
    """
    # A failure shows the agent author's line and the problems, not th-ext's own source.
    __tracebackhide__ = True
    signatures = SignatureOptions(
        tuple(_key_set(source, max_bytes) for source in keys), require=require_signature
    )
    checks = (lambda card: check_signatures(card, signatures),) if signatures.active else ()
    options = ValidateOptions(strict=strict, extensions=extensions, card_checks=checks)
    if isinstance(card_or_path, dict):
        card_or_path = json.dumps(card_or_path, indent=2).encode()
    if not isinstance(card_or_path, bytes):  # a card file, read and checked as validate does
        limits = SourceLimits(max_bytes=max_bytes)
        report = validate_source(str(Path(card_or_path)), options=options, limits=limits).report
        assert isinstance(report, Report)
    else:
        report = validate_bytes(card_or_path, source="<card>", options=options)
    if not report.valid:
        raise CardCheckFailed(report)
    return report


def _key_set(source: str | PathLike[str] | dict[str, Any], max_bytes: int) -> KeySet:
    if isinstance(source, dict):
        return parse_jwks(json.dumps(source).encode(), "<keys>")
    return read_keys(str(source), SourceLimits(max_bytes=max_bytes))


def describe(report: Report) -> str:
    """The report in a few plain lines: the reason and the verdict, then one line per problem.

    The first line leads with the first failing problem's message, so that a summary cut to
    the width of a terminal still shows why the card failed.
    """
    failing = [p for p in report.problems if report.fails(p)]
    location = clean(report.location)
    verdict = f"agent card {location} is not valid: {counted(len(failing), 'problem')}"
    if failing:
        first = failing[0]
        where = f" at {clean(first.path)}" if first.path else ""
        verdict = f"{clean(first.message)} ({first.code}{where}); {verdict}"
    lines = [verdict, *(_line(p, location) for p in report.problems)]
    return escape_unsafe("\n".join(lines))


def _line(problem: Problem, location: str) -> str:
    """One problem on one line: every string from the card passes ``clean``."""
    where = f" at {clean(problem.path)}" if problem.path else ""
    if problem.line is not None:
        where += f" ({location}:{problem.line}:{problem.column})"
    hint = f" (hint: {clean(problem.hint)})" if problem.hint else ""
    return f"  {problem.severity} {problem.code}{where}: {clean(problem.message)}{hint}"
