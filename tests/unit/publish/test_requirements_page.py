"""Requirement IDs on the spec page: read from the folder's requirements.toml, shown before
the passage each annotates without changing a word of it, and gathered in a table."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from th_ext import find
from th_ext._exceptions import CatalogError
from th_ext.catalog._reader import load_requirements, load_version, spec_text
from th_ext.publish import render_spec_page


def test_every_requirement_is_anchored_before_its_passage_and_in_the_table() -> None:
    version = find("commands/v1")
    page = render_spec_page(version, [version])
    requirements = load_requirements(version)
    assert [r.id for r in requirements] == [f"CMD-{n}" for n in range(1, 20)]
    table = page.split("## Requirements { #requirements }", 1)[1]
    for requirement in requirements:
        if not requirement.in_force:
            continue
        anchor = requirement.anchor
        marker = f"[{requirement.id} {requirement.level}](#{anchor}){{ #{anchor} "
        assert page.count(marker) == 1
        after = page.split(marker, 1)[1].split(" } ", 1)[1]
        after = re.sub(r"^(\[CMD-\d+ \w+\]\(#cmd-\d+\)\{[^}]*\} )+", "", after)
        passage = " ".join(requirement.annotates.split())
        assert " ".join(after.split()).startswith(passage)
        assert f"| [{requirement.id}](#{requirement.anchor}) | {requirement.level} |" in table


def test_the_specification_sentences_survive_the_markers_word_for_word() -> None:
    version = find("commands/v1")
    page = render_spec_page(version, [version])
    unmarked = re.sub(r"\[CMD-\d+ (MUST|SHOULD|MAY)\]\(#cmd-\d+\)\{[^}]*\} ", "", page)
    spec = spec_text(version)
    section = spec.split("## Specification", 1)[1].split("\n## ", 1)[0]
    paragraphs = [p for p in section.split("\n\n") if p.strip() and not p.startswith("<!--")]
    assert len(paragraphs) == 4
    for paragraph in paragraphs:
        assert " ".join(paragraph.split()) in " ".join(unmarked.split())


def test_a_retired_requirement_keeps_its_row_and_anchor_and_no_marker() -> None:
    version = find("commands/v1")
    page = render_spec_page(version, [version])
    table = page.split("## Requirements { #requirements }", 1)[1].split("\n## ", 1)[0]
    for rid in ("CMD-10", "CMD-13"):
        anchor = rid.lower()
        assert f"[{rid} MUST](#{anchor})" not in page  # no marker in the text any more
        row = next(line for line in table.splitlines() if f'<span id="{anchor}"></span>' in line)
        assert f"<del>{rid}</del> | MUST, retired |" in row
        assert "retired 2026-12-04 ([errata](#errata))" in row


def test_the_errata_are_listed_under_the_history_with_their_requirements() -> None:
    version = find("commands/v1")
    page = render_spec_page(version, [version])
    history, errata = page.split("## Version history", 1)[1].split("## Errata { #errata }", 1)
    assert "| 2026-12-04 |" in history
    rows = [line for line in errata.splitlines() if line.startswith("| 2026-12-04 |")]
    assert len(rows) == len(version.errata) == 4
    assert rows[0].startswith("| 2026-12-04 | [CMD-3](#cmd-3), [CMD-10](#cmd-10), ")
    assert all(entry.why and entry.change for entry in version.errata)


def test_a_retired_requirement_without_its_reason_is_refused(tmp_path: Path) -> None:
    folder = copy_version(tmp_path)
    path = folder / "requirements.toml"
    text = path.read_text()
    start = text.index("retired_why", text.index('id = "CMD-10"'))
    end = text.index("\n", start)
    path.write_text(text[:start] + text[end + 1 :])
    with pytest.raises(CatalogError, match="needs its date and retired_why"):
        load_requirements(load_version(folder))


def copy_version(tmp_path: Path) -> Path:
    folder = tmp_path / "commands" / "v1"
    shutil.copytree(find("commands/v1").folder, folder)
    return folder


def test_a_passage_missing_from_the_spec_is_refused(tmp_path: Path) -> None:
    folder = copy_version(tmp_path)
    path = folder / "requirements.toml"
    path.write_text(path.read_text().replace("The task's state does not change.", "Nowhere."))
    with pytest.raises(CatalogError, match="CMD-5 annotates a passage"):
        load_requirements(load_version(folder))


def test_a_duplicate_id_is_refused(tmp_path: Path) -> None:
    folder = copy_version(tmp_path)
    path = folder / "requirements.toml"
    path.write_text(path.read_text().replace('id = "CMD-2"', 'id = "CMD-1"'))
    with pytest.raises(CatalogError, match="duplicate requirement id CMD-1"):
        load_requirements(load_version(folder))


def test_a_version_without_requirements_renders_without_a_table(tmp_path: Path) -> None:
    folder = copy_version(tmp_path)
    (folder / "requirements.toml").unlink()
    version = load_version(folder)
    page = render_spec_page(version, [version])
    assert "## Requirements" not in page
    assert ".th-req" not in page
