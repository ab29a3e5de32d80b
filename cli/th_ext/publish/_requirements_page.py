"""The requirement IDs on a spec page: an anchored marker before each annotated passage, and
the table that gathers them.

The passages themselves are never altered: each marker is inserted just before the passage
it annotates, so the specification's sentences stay word for word. It reads only the version's
``requirements.toml``, so it serves every extension alike.
"""

from __future__ import annotations

from th_ext.catalog._records import ExtensionVersion
from th_ext.catalog._requirements import (
    Requirement,
    annotation_pattern,
    load_requirements,
    requirement_anchor,
)

__all__ = ["annotate_requirements", "errata_section", "requirements_section"]


def _marker(requirements: list[Requirement]) -> str:
    return " ".join(
        f"[{r.id} {r.level}](#{r.anchor}){{ #{r.anchor} .th-req "
        f'title="{r.level} ({r.subject}): {_attr(r.summary)}" }}'
        for r in requirements
    )


def _attr(text: str) -> str:
    """Text for an attribute value: no backticks, quotes or angle brackets to escape."""
    plain = text.replace("`", "").replace('"', "'").replace("<", "\u2039").replace(">", "\u203a")
    return " ".join(plain.split())


def annotate_requirements(version: ExtensionVersion, body: str) -> str:
    """``body`` (the spec text) with each requirement's ID marked before its passage."""
    at: dict[int, list[Requirement]] = {}
    for requirement in load_requirements(version):
        if not requirement.in_force:
            continue
        match = annotation_pattern(requirement.annotates).search(body)
        if match is not None:
            at.setdefault(match.start(), []).append(requirement)
    for start in sorted(at, reverse=True):
        body = body[:start] + _marker(at[start]) + " " + body[start:]
    return body


def requirements_section(version: ExtensionVersion) -> str:
    """The ``## Requirements`` section, or "" for a version without requirements."""
    requirements = load_requirements(version)
    if not requirements:
        return ""
    lines = [
        "## Requirements { #requirements }",
        "",
        "Every requirement of this version, with the level RFC 2119 gives its words. Each ID "
        "links to the passage it annotates above; `th-ext conform` checks the agent's "
        "requirements against a live agent and names these IDs in its report (✓ in the last "
        "column).",
        "",
        '<div class="th-requirements" markdown>',
        "",
        "| ID | Level | Who | Requirement | Checked |",
        "|---|---|---|---|---|",
    ]
    # A version copied from one with errata keeps the retired IDs (never reused), not the errata.
    errata = " ([errata](#errata))" if version.errata else ""
    for r in requirements:
        if not r.in_force:
            # A retired ID keeps its row and its anchor, so that old links still land here.
            lines.append(
                f'| <span id="{r.anchor}"></span><del>{r.id}</del> | {r.level}, retired | '
                f"{r.subject} | {_cell(r.summary)}<br><small>retired {r.retired}{errata}: "
                f"{_cell(r.retired_why)}</small> | — |"
            )
            continue
        # The requirement's words take the width; "Checked" is a mark, and when th-ext
        # conform cannot check it, the reason is said under the requirement.
        summary = _cell(r.summary)
        if not r.conform:
            summary += f"<br><small>Not checked by th-ext conform: {_cell(r.why_not)}</small>"
        checked = (
            '<span class="th-checked" title="checked by th-ext conform">✓</span>'
            if r.conform
            else "—"
        )
        lines.append(f"| [{r.id}](#{r.anchor}) | {r.level} | {r.subject} | {summary} | {checked} |")
    lines += ["", "</div>"]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def errata_section(version: ExtensionVersion) -> str:
    """The ``## Errata`` section: every dated erratum, newest last, or "" when there is none."""
    if not version.errata:
        return ""
    lines = [
        "## Errata { #errata }",
        "",
        "How the published words are read, decided after publication. An erratum explains or "
        "relaxes a requirement, or adds a SHOULD; it never adds a MUST, and the specification's "
        "normative sentences above stay as published. Requirement IDs are never reused: a "
        "retired one stays in the table above.",
        "",
        "| Date | Requirements | What changed | Why |",
        "|---|---|---|---|",
    ]
    for entry in version.errata:
        ids = ", ".join(f"[{rid}](#{requirement_anchor(rid)})" for rid in entry.requirements)
        lines.append(f"| {entry.date} | {ids} | {_cell(entry.change)} | {_cell(entry.why)} |")
    return "\n".join(lines)
