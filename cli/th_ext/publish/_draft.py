"""What marks a draft extension version apart from a published one.

A draft's page carries a visible banner and no publication date, and a draft made by copying
another version must not keep that version's URI in its examples: a reader copying an example
from the draft would declare the wrong extension.
"""

from __future__ import annotations

from th_ext.catalog._reader import example_bytes
from th_ext.catalog._records import ExtensionVersion

__all__ = ["check_draft_examples", "draft_banner", "publication_lines"]


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
                if any(
                    text[at + len(uri) : at + len(uri) + 1] in ('"', "/", "", " ")
                    for at in _occurrences(text, uri)
                ):
                    problems.append(
                        f"{draft.key}: example {example.file} still names {uri}; "
                        f"a draft's examples must use its own URI {draft.uri}"
                    )
    return problems


def _occurrences(text: str, needle: str) -> list[int]:
    found, start = [], text.find(needle)
    while start != -1:
        found.append(start)
        start = text.find(needle, start + 1)
    return found
