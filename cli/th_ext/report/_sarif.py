"""``--format sarif``: one SARIF 2.1.0 log of a run, for GitHub code scanning and other viewers."""

from __future__ import annotations

from pathlib import PurePath, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from th_ext._version import __version__
from th_ext.problems import CODES, Problem, clean
from th_ext.sources import is_url
from th_ext.validate import Report

if TYPE_CHECKING:
    from th_ext.conform import ConformReport

__all__ = ["SARIF_SCHEMA", "sarif_log"]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
"""The published SARIF 2.1.0 schema (its ``id``), named by each log's ``$schema``."""
_HOME = "https://madarauchiha-314.github.io/tiny-harness/th-ext/"
_CODES_PAGE = _HOME + "validate/#problem-codes"
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _artifact(source: str) -> dict[str, Any] | None:
    """Where a source is, as a SARIF artifact location: a URL as it is, a relative path as a
    relative URI (which code scanning resolves against the repository), an absolute path as a
    ``file`` URI; ``None`` for standard input."""
    if source in ("-", "<stdin>"):
        return None
    if is_url(source):
        return {"uri": source}
    path = PurePath(source)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(PurePosixPath(*path.parts).as_posix(), safe="/")}


def _location(
    artifact: dict[str, Any] | None,
    line: int | None = None,
    column: int | None = None,
    pointer: str | None = None,
    kind: str = "member",
) -> dict[str, Any]:
    location: dict[str, Any] = {}
    if artifact is not None:
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if line is not None:
            physical["region"] = {"startLine": line, "startColumn": column or 1}
        location["physicalLocation"] = physical
    if pointer is not None:
        location["logicalLocations"] = [
            {"fullyQualifiedName": pointer or "(the whole document)", "kind": kind}
        ]
    return location


def _message(problem: Problem) -> str:
    text = clean(problem.message)
    return f"{text}\nhint: {clean(problem.hint)}" if problem.hint else text


class _Rules:
    """The rules of the log, each added once, in the order they are first needed."""

    def __init__(self) -> None:
        self.rules: list[dict[str, Any]] = []
        self.index: dict[str, int] = {}

    def add(self, rule: dict[str, Any]) -> int:
        found = self.index.get(rule["id"])
        if found is None:
            found = self.index[rule["id"]] = len(self.rules)
            self.rules.append(rule)
        return found

    def code(self, code: str) -> int:
        """The rule of a problem code or error code."""
        known = CODES.get(code)
        text = known.help if known is not None else f"th-ext reported {code!r}."
        rule: dict[str, Any] = {
            "id": code,
            "shortDescription": {"text": text},
            "help": {"text": text},
            "helpUri": _CODES_PAGE,
        }
        if known is not None:
            rule["defaultConfiguration"] = {"level": _LEVELS[known.severity]}
            rule["properties"] = {"layer": known.layer or "any"}
        return self.add(rule)

    def result(
        self, rule_id: str, index: int, level: str, text: str, where: dict[str, Any]
    ) -> dict[str, Any]:
        result: dict[str, Any] = {
            "ruleId": rule_id,
            "ruleIndex": index,
            "level": level,
            "message": {"text": text},
        }
        if where:
            result["locations"] = [where]
        return result


def _validate_results(report: Report, rules: _Rules) -> list[dict[str, Any]]:
    artifact = _artifact(report.source if not is_url(report.source) else report.location)
    results = []
    for problem in report.problems:
        index = rules.code(problem.code)
        level = "error" if report.fails(problem) else _LEVELS[problem.severity]
        where = _location(
            artifact, problem.line, problem.column, None if problem.fatal else problem.path
        )
        results.append(rules.result(problem.code, index, level, _message(problem), where))
    return results


def _conform_results(report: ConformReport, rules: _Rules) -> list[dict[str, Any]]:
    artifact = _artifact(report.agent.card_url)
    results = []
    for requirement in [*report.requirements, *report.core]:
        if requirement.status not in ("fail", "warn"):
            continue
        text = clean(requirement.summary)
        index = rules.add(
            {
                "id": requirement.id,
                "shortDescription": {"text": text},
                "help": {"text": text},
                "helpUri": requirement.anchor_url,
                "properties": {"level": requirement.level},
            }
        )
        level = "error" if requirement.status == "fail" or report.strict else "warning"
        for check in requirement.checks:
            if check.status != "fail":
                continue
            said = f"{check.scenario}: {check.detail}"
            if check.mode != "card":
                said = f"{check.binding} {check.mode}, {said}"
            where = _location(artifact, pointer=clean(check.interface), kind="resource")
            results.append(rules.result(requirement.id, index, level, clean(said), where))
    return results


def _error_results(document: dict[str, Any], rules: _Rules) -> list[dict[str, Any]]:
    """A source that could not be checked: its error document, one result."""
    error = document["error"]
    code = str(error["code"])
    source = document.get("source")
    artifact = _artifact(source) if isinstance(source, str) else None
    where = _location(artifact)
    return [rules.result(code, rules.code(code), "error", clean(str(error["message"])), where)]


def sarif_log(reports: list[Any], *, conform: bool = False) -> dict[str, Any]:
    """The SARIF log of a run's reports: validation ``Report`` s, ``ConformReport`` s, and the
    error documents (``{"source", "error": {"code", "message"}}``) of sources that could not
    be checked. ``conform`` names its rules by requirement; else every problem code is a rule.
    """
    rules = _Rules()
    if not conform:
        for code in CODES:
            rules.code(code)
    results: list[dict[str, Any]] = []
    for report in reports:
        if isinstance(report, Report):
            results += _validate_results(report, rules)
        elif isinstance(report, dict) and isinstance(report.get("error"), dict):
            results += _error_results(report, rules)
        else:
            results += _conform_results(report, rules)
    driver = {
        "name": "th-ext",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": _HOME,
        "rules": rules.rules,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {"tool": {"driver": driver}, "results": results, "columnKind": "unicodeCodePoints"}
        ],
    }
