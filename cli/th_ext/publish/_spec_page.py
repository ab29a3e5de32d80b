"""The Markdown of one extension version's specification page, and each part it is made of:
the check-your-agent box, the draft banner, the requirement markers and tables."""

from __future__ import annotations

import json
import posixpath
import re

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import (
    Requirement,
    annotation_pattern,
    example_bytes,
    load_requirements,
    requirement_anchor,
    schema_bytes,
)
from th_ext.catalog._records import Example, ExtensionVersion
from th_ext.publish._diagrams import inline_diagrams
from th_ext.publish._field_table import FieldTable, described_field_tables

__all__ = ["EXAMPLE_DIRECTIVE", "INLINE_LIMIT", "check_draft_examples", "render_spec_page"]


# The "Check your agent" box of a spec page: the commands that check an agent against it.
#
# A reader who has just learned what an extension version asks of an agent wants to know whether
# their agent does it. The box gives the exact ``th-ext validate`` line for this version's URI
# and, for a version with requirements, the ``th-ext conform`` line, with links to the th-ext
# reference pages (relative to the page, so that they hold in the whole site and in the subtree).

#: Where the th-ext reference pages are in the docs (the site's root folder ``th-ext/``).
REFERENCE_DIR = "th-ext"
_AGENT = "https://your-agent.example"


def check_box(version: ExtensionVersion, folder: str) -> list[str]:
    """The box's Markdown lines for the page at ``folder``/index.md."""

    def page_link(name: str) -> str:
        return posixpath.relpath(f"{REFERENCE_DIR}/{name}", folder)

    conform = bool(load_requirements(version))
    lines = [
        '!!! tip "Check your agent"',
        "",
        f"    With [th-ext]({page_link('index.md')}) installed "
        f"([how]({page_link('index.md')}#install)), check that your agent's card declares this "
        "version with valid params"
        + (", then that the agent does what this page requires:" if conform else ":"),
        "",
        "    ```bash",
        f"    th-ext validate {_AGENT} \\",
        f"      --extension {version.uri}",
    ]
    if conform:
        lines.append(f"    th-ext conform {_AGENT}")
    lines += [
        "    ```",
        "",
        f"    [`th-ext validate`]({page_link('validate.md')}) reads the card at "
        "`/.well-known/agent-card.json` (or a file) and shows each problem at its line.",
    ]
    if conform:
        lines[-1] += (
            f" [`th-ext conform`]({page_link('conform.md')}) sends the agent real messages and "
            "reports every requirement below by its ID."
        )
    return [*lines, ""]


# What marks a draft extension version apart from a published one.
#
# A draft's page carries a visible banner and no publication date, and a draft made by copying
# another version must not keep that version's URI in its examples: a reader copying an example
# from the draft would declare the wrong extension.


def draft_banner(version: ExtensionVersion) -> list[str]:
    """The Markdown lines of the draft banner, or none for a published version."""
    if version.status != "draft":
        return []
    return [
        '!!! warning "Draft: not published yet"',
        "",
        "    This version is a draft. It may change or disappear without notice; do not declare",
        "    its URI on a production agent card until it is published.",
        "",
    ]


def publication_lines(version: ExtensionVersion) -> list[str]:
    """The ``Published`` line of the identifiers box; a draft has no publication date."""
    if version.status == "draft" or not version.history:
        return []
    return [f"    - **Published:** {version.history[0].date}"]


def check_draft_examples(versions: list[ExtensionVersion]) -> list[str]:
    """Every draft example that still names another version's URI, one problem each."""
    problems: list[str] = []
    for draft in versions:
        if draft.status != "draft":
            continue
        others = [other.uri for other in versions if other.key != draft.key]
        for example in draft.examples:
            text = example_bytes(draft, example).decode("utf-8", errors="replace")
            for uri in others:
                # the URI followed by a character that cannot continue it (a quote, a slash...)
                if re.search(re.escape(uri) + r'(?:["/ ]|\Z)', text) is not None:
                    problems.append(
                        f"{draft.key}: example {example.file} still names {uri}; "
                        f"a draft's examples must use its own URI {draft.uri}"
                    )
    return problems


# The requirement IDs on a spec page: an anchored marker before each annotated passage, and
# the table that gathers them.
#
# The passages themselves are never altered: each marker is inserted just before the passage
# it annotates, so the specification's sentences stay word for word. It reads only the version's
# ``requirements.toml``, so it serves every extension alike.


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


EXAMPLE_DIRECTIVE = re.compile(r"^<!-- th-ext:example (?P<file>\S+) -->$", re.MULTILINE)
_RST_LITERAL = re.compile(r"``(.+?)``")
# A requirement tag of the extension owner's text, such as "(R6.7)": a reference, not prose.
_REQUIREMENT_TAG = re.compile(r" ?\((R[0-9][0-9.]*)\)")
# An example bigger than this is linked, not shown: highlighting a 40 MB block takes a
# gigabyte and makes a page nobody reads.
INLINE_LIMIT = 64 * 1024


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _prose(text: str) -> str:
    """A schema description as Markdown: reST ````literals```` become code spans, and a
    requirement tag such as ``(R6.7)`` a small reference after the words it marks."""
    text = _RST_LITERAL.sub(r"`\1`", text)
    text = _REQUIREMENT_TAG.sub(
        r' <small class="th-ref" title="requirement \1 of tiny-harness">\1</small>', text
    )
    return _cell(text)


def _json_block(text: str, title: str | None = None) -> str:
    """A JSON code block, left out of the site's search index: every page downloads that
    index, and the punctuation and keys of an example are not what a reader searches for."""
    header = f'```json title="{title}"' if title else "```json"
    return f"<div markdown data-search-exclude>\n\n{header}\n{text.rstrip()}\n```\n\n</div>"


def _shown_example(version: ExtensionVersion, example: Example) -> str:
    """The example as a code block, or, past ``INLINE_LIMIT``, a link to download it."""
    content = example_bytes(version, example)
    if len(content) > INLINE_LIMIT:
        return (
            f"*{example.file} is {len(content) // 1024} KiB, too big to show on this page:"
            f" [download it](examples/{example.file}).*"
        )
    return _json_block(content.decode("utf-8"), example.file)


def _example_block(version: ExtensionVersion, file: str) -> str:
    for example in version.examples:
        if example.file == file:
            return _shown_example(version, example)
    raise PublishError(f"{version.key}: spec.md shows example {file}, which extension.toml lacks")


def _type_cell(type_name: str, anchors: dict[str, str]) -> str:
    for title, anchor in anchors.items():
        if type_name == title or type_name.endswith(f" {title}"):
            prefix = _cell(type_name.removesuffix(title))
            return (f"{prefix} " if prefix else "") + f"[`{title}`](#{anchor})"
    return _cell(type_name)


def _field_section(tables: list[FieldTable]) -> str:
    anchors = {table.title: table.anchor for table in tables}
    parts = []
    for index, table in enumerate(tables):
        role = "the `params` object" if index == 0 else "definition"
        lines = [f"### `{table.title}` ({role}) {{ #{table.anchor} }}", ""]
        if table.description:
            lines += [_prose(table.description), ""]
        lines += [
            '<div class="th-fields" markdown>',
            "",
            "| Field | Type | Required | Default | Description |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{row.name}` | {_type_cell(row.type, anchors)} | "
            f"{'yes' if row.required else 'no'} | "
            f"{f'`{_cell(row.default)}`' if row.default is not None else '—'} | "
            f"{_prose(row.description) or '—'} |"
            for row in table.rows
        ]
        lines += ["", "</div>"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _examples_section(version: ExtensionVersion) -> str:
    blocks = []
    for example in version.examples:
        verdict = (
            ""
            if example.params_pointer is None
            else " It passes the schema."
            if example.valid
            else " It fails the schema, as it should."
        )
        blocks.append(
            f"### {example.title}\n\n{example.description}{verdict}\n\n"
            + _shown_example(version, example)
            + f"\n\n[Download {example.file}](examples/{example.file})"
        )
    return "\n\n".join(blocks)


def _history_section(version: ExtensionVersion, siblings: list[ExtensionVersion]) -> str:
    lines = ["| Date | Change |", "|---|---|"]
    lines += [f"| {entry.date} | {_cell(entry.change)} |" for entry in version.history]
    others = [other for other in siblings if other.key != version.key]
    if others:
        links = ", ".join(
            f"[{other.version}](../{other.version}/index.md) ({other.status})" for other in others
        )
        lines += ["", f"Other versions of this extension: {links}."]
    return "\n".join(lines)


def render_spec_page(
    version: ExtensionVersion, siblings: list[ExtensionVersion], folder: str | None = None
) -> str:
    """The page's Markdown; ``siblings`` are all versions of the same extension. ``folder``
    is where the page is in the docs (``a2a/ext/commands/v1``): given, the page carries the
    "Check your agent" box, linked to the th-ext pages from there."""
    body = EXAMPLE_DIRECTIVE.sub(
        lambda match: _example_block(version, match["file"]),
        annotate_requirements(version, inline_diagrams(version)),
    )
    schema_text = schema_bytes(version).decode("utf-8")
    front_matter: dict[str, object] = {
        "title": version.title,
        "description": version.summary,
    }
    if version.status == "draft":  # the navigation marks the page (mkdocs.yml extra.status)
        front_matter["status"] = "draft"
        # A draft's words are not final: the site's search leads to the published versions.
        front_matter["search"] = {"exclude": True}
    header = [
        "---",
        *(f"{key}: {json.dumps(value)}" for key, value in front_matter.items()),
        "---",
        "",
        f"# {version.title}",
        "",
        version.summary,
        "",
        *draft_banner(version),
        '!!! info "Identifiers"',
        "",
        f"    - **URI:** `{version.uri}`",
        f"    - **Schema:** [`{version.schema_url}`](schema.json)",
        f"    - **Status:** {version.status}",
        *publication_lines(version),
        "",
        *(check_box(version, folder) if folder is not None else []),
    ]
    sections = [
        "\n".join(header),
        body.strip(),
        *filter(None, [requirements_section(version)]),
        "## Schema\n\nThe extension's `params` on the agent card must validate against this "
        "schema (JSON Schema draft 2020-12). Absent `params` mean an empty object.",
        _field_section(described_field_tables(version)),
        "### The schema document { #schema-document }\n\n"
        f"Served at `{version.schema_url}`, where its `$id` points.\n\n"
        '[Download schema.json](schema.json){ download="schema.json" .md-button '
        "#download-schema }\n\n" + _json_block(schema_text, "schema.json"),
        "## Examples\n\n" + _examples_section(version),
        "## Version history\n\n" + _history_section(version, siblings),
        *filter(None, [errata_section(version)]),
    ]
    return "\n\n".join(sections) + "\n"
