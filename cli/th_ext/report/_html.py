"""The conformance report as one self-contained HTML page (``th-ext conform --html FILE``)."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from th_ext.problems import clean, counted

if TYPE_CHECKING:
    from th_ext.conform import Check, ConformReport, RequirementResult

__all__ = ["conform_html"]

_STYLE = """
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700;
  --skip: #6e7781; --line: #d0d7de; }
body { font: 15px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 2rem auto;
  padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
.verdict { display: inline-block; padding: .2rem .8rem; border-radius: 1rem; color: #fff;
  font-weight: 600; }
.verdict.passed { background: var(--pass); } .verdict.failed { background: var(--fail); }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.summary dt { font-weight: 600; } dl.summary dd { margin: 0; }
.counts span { margin-right: 1rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin-top: 1.5rem; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem;
  border-bottom: 1px solid var(--line); }
.status { font-weight: 700; text-transform: uppercase; font-size: .8rem; }
.status.pass, .counts .pass { color: var(--pass); }
.status.fail, .counts .fail { color: var(--fail); }
.status.warn, .counts .warn { color: var(--warn); }
.status.skip, .counts .skip { color: var(--skip); }
td:first-child, td:nth-child(2) { white-space: nowrap; }
tr.fail td:first-child { border-left: 4px solid var(--fail); }
tr.warn td:first-child { border-left: 4px solid var(--warn); }
details ul { margin: .3rem 0; padding-left: 1.2rem; font-size: .9rem; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
.got { color: var(--skip); overflow-wrap: anywhere; }
"""


def _text(value: str) -> str:
    return escape(clean(value))


def _prose(value: str) -> str:
    """Text whose Markdown code spans (`x`) become ``<code>`` elements."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _text(value))


def _check_item(check: Check) -> str:
    where = f" <code>{_text(check.interface)}</code>" if check.interface else ""
    got = (
        f'<br><span class="got">got: <code>{_text(check.excerpt)}</code></span>'
        if check.excerpt
        else ""
    )
    return (
        f'<li><span class="status {check.status}">{check.status}</span> '
        + ("" if check.mode == "card" else f"{_text(check.binding)}{where} {_text(check.mode)}, ")
        + f"{_text(check.scenario)}: "
        f"{_text(check.detail)}{got}</li>"
    )


def _interfaces(report: ConformReport) -> str:
    """The per-interface table the report opens with."""
    from th_ext.conform import interface_rows  # loaded already: the report came from it

    rows = []
    for row in interface_rows(report):
        if row.status in ("unreachable", "not checked"):
            status, found = "skip", f"{escape(row.status)}: {_text(row.reason)}"
        elif row.failed:
            status = row.status
            found = f"{row.failed} of {counted(row.checks, 'check')} failed: " + ", ".join(
                f'<a href="#{escape(i.lower())}">{escape(i)}</a>' for i in row.requirements
            )
        else:
            status, found = "pass", f"{counted(row.checks, 'check')} passed"
        rows.append(
            f'<tr class="{status}"><td>{_text(row.binding)}</td><td><code>{_text(row.url)}</code>'
            f'</td><td>{escape(row.modes)}</td><td class="status {status}">'
            f"{escape(row.status)}</td><td>{found}</td></tr>"
        )
    return (
        '<table id="interfaces"><thead><tr><th>Binding</th><th>Interface</th><th>Modes</th>'
        f"<th>Status</th><th>Checks</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _row(requirement: RequirementResult) -> str:
    failing = [c for c in requirement.checks if c.status == "fail"]
    ran = [c for c in requirement.checks if c.status != "skip"]
    if requirement.status == "skip":
        detail = f"skipped: {_text(requirement.reason)}"
    else:
        shown = failing or requirement.checks
        checks = counted(len(ran), "check")
        label = f"{len(failing)} of {checks} failed" if failing else f"{checks} passed"
        items = "".join(_check_item(c) for c in shown)
        detail = f"<details><summary>{label}</summary><ul>{items}</ul></details>"
    return (
        f'<tr id="{escape(requirement.id.lower())}" class="{requirement.status}">'
        f'<td><a href="{escape(requirement.anchor_url)}">{escape(requirement.id)}</a></td>'
        f"<td>{escape(requirement.level)}</td>"
        f'<td class="status {requirement.status}">{requirement.status}</td>'
        f"<td>{_prose(requirement.summary)}</td><td>{detail}</td></tr>"
    )


def _other_section(report: ConformReport) -> str:
    """The host's own extensions: their payloads against their schemas (warnings)."""
    rows = []
    for result in report.other:
        if result.status == "skip":
            found = f"skipped: {_text(result.reason)}"
        else:
            found = f"{counted(result.checked, 'payload')} checked"
            if result.problems:
                found += "<ul>" + "".join(f"<li>{_text(p)}</li>" for p in result.problems)
                found += "</ul>"
        rows.append(
            f'<tr id="other-{escape(result.key.replace("/", "-"))}" class="{result.status}">'
            f"<td><code>{_text(result.uri)}</code></td>"
            f'<td class="status {result.status}">{result.status}</td><td>{found}</td></tr>'
        )
    if not rows:
        return ""
    return (
        "<h2>Other extensions</h2><p>The host's own extensions on the card, their payloads "
        "checked against their schemas: warnings, which fail the run only with "
        "<code>--strict</code>.</p>"
        '<table id="other"><thead><tr><th>Extension</th><th>Status</th><th>Payloads</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def conform_html(report: ConformReport) -> str:
    """The page: inline styles, and a Content Security Policy that forbids loading anything, so
    the file can be attached to a CI run or mailed as it is."""
    agent = report.agent
    counts = report.counts()
    verdict = "passed" if report.passed else "failed"
    not_checked = ", ".join(agent.bindings_not_checked) or "none"
    bindings = _text(", ".join(agent.bindings_checked))
    modes = "SendStreamingMessage and SendMessage" if agent.streaming else "SendMessage"
    ran = _text(", ".join(report.commands_run) or "none")
    strict = " (strict)" if report.strict else ""
    notes = "".join(f"<li>{_text(note)}</li>" for note in report.notes)
    rows = "".join(_row(r) for r in report.requirements)
    core_rows = "".join(_row(r) for r in report.core)
    core_section = (
        "<h2>Core A2A</h2><p>Rules of A2A itself that the answers showed, not requirements of "
        "the extension: each is a MUST or a SHOULD of A2A that th-ext reports as a warning, "
        "because it is not the extension's rule, so it fails the run only with "
        "<code>--strict</code>.</p>"
        '<table id="core"><thead><tr><th>ID</th><th>Level</th><th>Status</th><th>Rule</th>'
        f"<th>Checks</th></tr></thead><tbody>{core_rows}</tbody></table>"
        if core_rows
        else ""
    )
    notes_section = (
        "<h2>Notes</h2><p>Deviations from core A2A and other remarks; not failures of the "
        f'extension.</p><ul id="notes">{notes}</ul>'
        if notes
        else ""
    )
    summary = f"""
<dl class="summary">
<dt>Agent</dt><dd>{_text(agent.name)} — <code>{_text(agent.card_url)}</code></dd>
<dt>Extension</dt><dd><code>{escape(agent.extension_uri)}</code></dd>
<dt>Bindings</dt><dd>{bindings} (not checked: {_text(not_checked)})</dd>
<dt>Modes</dt><dd>{modes}</dd>
<dt>Commands run</dt><dd>{ran} (each may have side effects)</dd>
<dt>Requests</dt><dd>{report.requests} in {report.seconds:.2f} s{strict}</dd>
</dl>"""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>th-ext conform: {_text(agent.name)} {verdict}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>Commands extension conformance</h1>
<p><span class="verdict {verdict}" id="verdict">{verdict}</span></p>
<p class="counts" id="counts"><span class="pass">{counts["pass"]} passed</span>
<span class="fail">{counts["fail"]} failed</span>
<span class="warn">{counted(counts["warn"], "warning")}</span>
<span class="skip">{counts["skip"]} skipped</span></p>
{summary}
</header>
<main>
{_interfaces(report)}
<table id="requirements">
<thead><tr><th>ID</th><th>Level</th><th>Status</th><th>Requirement</th><th>Checks</th></tr></thead>
<tbody>{rows}</tbody>
</table>
{core_section}
{_other_section(report)}
{notes_section}
</main>
</body>
</html>
"""
