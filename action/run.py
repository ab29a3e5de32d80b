"""The th-ext GitHub Action's one step: run the checks, keep their JUnit files, write a summary.

``action.yml`` installs th-ext and runs this script with its inputs in ``TH_EXT_*`` variables.
For a card it runs ``th-ext validate --format github`` (GitHub turns each line into an
annotation on the card's file), for an agent ``th-ext conform --format github``; the ``keys``
input becomes one ``--keys`` per JWKS for both, to verify the card's signatures; each also
writes its JUnit file, from which the Markdown job summary is made. The step's exit code is
the worst of the checks' (0 passed, 1 problems, 2 nothing could be checked), and the
``exit-code`` output says it.

It runs with the standard library only, so it can be tried outside GitHub with the variables
GitHub would set (``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``).

The summary is Markdown that GitHub renders, and the card's text in it is hostile: every
string from a card, a target or a JUnit file is shown as a code span (never a link, an image
or markup), cut at ``MAX_CELL`` characters, and at most ``MAX_LISTED_FAILURES`` failures are
listed, then "and N more", so the summary stays far below GitHub's 1 MiB limit (past which
GitHub drops the whole summary).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

MAX_LISTED_FAILURES = 30
MAX_CELL = 300
"""The most characters of one string shown in a cell; the JUnit files hold it whole."""
VERDICTS = {0: "passed", 1: "problems found", 2: "could not check"}


@dataclass
class Check:
    """One th-ext run: what it checked, its exit code and its JUnit file."""

    command: str
    target: str
    junit: Path
    exit_code: int = 2


def main() -> int:
    card = os.environ.get("TH_EXT_CARD", "").strip()
    agent = os.environ.get("TH_EXT_AGENT_URL", "").strip()
    binary = os.environ.get("TH_EXT_BIN", "th-ext")
    try:
        extra = shlex.split(os.environ.get("TH_EXT_ARGS", ""))
        keys = shlex.split(os.environ.get("TH_EXT_KEYS", ""))
    except ValueError as exc:
        print(f"::error title=th-ext::the args or keys input cannot be split: {exc}")
        return _finish([], 2)
    for jwks in keys:  # each JWKS verifies the card's signatures (validate and conform)
        extra += ["--keys", jwks]
    if not card and not agent:
        print("::error title=th-ext::give the action a card, an agent-url, or both")
        return _finish([], 2)
    folder = Path(os.environ.get("TH_EXT_JUNIT_DIR") or "th-ext-reports")
    folder.mkdir(parents=True, exist_ok=True)
    checks = []
    if card:
        checks.append(Check("validate", card, folder / "th-ext-validate.xml"))
    if agent:
        checks.append(Check("conform", agent, folder / "th-ext-conform.xml"))
    for check in checks:
        command = [binary, check.command, check.target, "--format", "github"]
        command += ["--junit-file", str(check.junit), *extra]
        print(f"::group::th-ext {check.command} {check.target}", flush=True)
        check.exit_code = subprocess.run(command, check=False).returncode
        print("::endgroup::", flush=True)
    return _finish(checks, max(c.exit_code for c in checks))


def _finish(checks: list[Check], exit_code: int) -> int:
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with Path(summary).open("a", encoding="utf-8") as out:
            out.write(markdown_summary(checks))
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with Path(output).open("a", encoding="utf-8") as out:
            out.write(f"exit-code={exit_code}\n")
    return exit_code


def markdown_summary(checks: list[Check]) -> str:
    """A table of the checks, then the failures each JUnit file lists."""
    lines = ["## th-ext", ""]
    if not checks:
        return "\n".join(
            [*lines, "Nothing was checked: the action needs a card or an agent-url.", ""]
        )
    lines += [
        "| Check | Target | Verdict | Tests | Failures | Skipped |",
        "|---|---|---|---|---|---|",
    ]
    failures: list[tuple[str, str, str]] = []
    for check in checks:
        tests, failed, skipped, listed = _read_junit(check.junit)
        verdict = VERDICTS.get(check.exit_code, f"exit {check.exit_code}")
        mark = "✅" if check.exit_code == 0 else "❌"
        lines.append(
            f"| `th-ext {check.command}` | {_code(check.target)} | {mark} {verdict} "
            f"| {tests} | {failed} | {skipped} |"
        )
        failures += [(check.command, name, message) for name, message in listed]
    if failures:
        lines += ["", "### Failures", "", "| Check | Where | Message |", "|---|---|---|"]
        for command, name, message in failures[:MAX_LISTED_FAILURES]:
            lines.append(f"| {command} | {_code(name)} | {_code(message)} |")
        if len(failures) > MAX_LISTED_FAILURES:
            lines.append(f"\n… and {len(failures) - MAX_LISTED_FAILURES} more in the JUnit files.")
    return "\n".join([*lines, ""])


def _read_junit(path: Path) -> tuple[int, int, int, list[tuple[str, str]]]:
    """Tests, failures (errors included), skipped, and each failure's test name and message."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return 0, 0, 0, []
    tests = failed = skipped = 0
    listed = []
    for case in root.iter("testcase"):
        tests += 1
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            failed += 1
            listed.append((case.get("name", ""), problem.get("message", "")))
        elif case.find("skipped") is not None:
            skipped += 1
    return tests, failed, skipped, listed


def _code(text: str) -> str:
    """``text`` as an inert code span for a table cell: one line, at most ``MAX_CELL``
    characters, fenced by more backticks than it holds in a row, its pipes escaped.

    Nothing inside a code span is a link, an image, HTML or emphasis; a table cell needs
    only its ``|`` escaped, even inside the span.
    """
    flat = " ".join(text.split())
    if len(flat) > MAX_CELL:
        flat = flat[: MAX_CELL - 1] + "…"
    if not flat:
        return "—"
    longest = run = 0
    for char in flat:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if flat[0] == "`" or flat[-1] == "`" else ""  # a space each side is dropped
    return f"{fence}{pad}{flat.replace('|', chr(92) + '|')}{pad}{fence}"


if __name__ == "__main__":
    sys.exit(main())
