"""Published means frozen for the words too: the lock records each published version's
requirements and normative text, and a change without its erratum, a lost ID or a new MUST
fails the build with one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from th_ext import PublishError, discover, find
from th_ext.publish import LOCK_FILE_NAME, add_to_lock, check_lock, plan_site, read_lock
from th_ext.publish._lock import read_words

SITE = "https://madarauchiha-314.github.io/tiny-harness"
ERRATUM = """
[[errata]]
date = "2026-12-05"
requirements = ["{rid}"]
change = "A change."
why = "A reason."
"""


def problems(extensions: Path) -> list[str]:
    path = extensions / LOCK_FILE_NAME
    return check_lock(discover(extensions), read_lock(path), read_words(path))


def rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def requirements(extensions: Path) -> Path:
    return extensions / "commands" / "v1" / "requirements.toml"


def spec(extensions: Path) -> Path:
    return extensions / "commands" / "v1" / "spec.md"


def add_erratum(extensions: Path, rid: str) -> None:
    meta = extensions / "commands" / "v1" / "extension.toml"
    meta.write_text(meta.read_text(encoding="utf-8") + ERRATUM.format(rid=rid), encoding="utf-8")


CMD_11 = 'id = "CMD-11"\nlevel = "SHOULD"'


def test_the_committed_lock_records_the_words_of_every_published_version(
    extensions_dir: Path,
) -> None:
    words = read_words(extensions_dir / LOCK_FILE_NAME)
    record = words["commands/v1"]
    assert record.errata == len(find("commands/v1", extensions_dir).errata)
    levels = {r.id: (r.level, r.retired) for r in record.requirements}
    assert levels["CMD-3"] == ("MUST", False)
    assert levels["CMD-10"] == ("MUST", True)
    assert levels["CMD-19"] == ("SHOULD", False)
    assert len(record.sentences) > 10
    assert problems(extensions_dir) == []


def test_a_changed_level_without_an_erratum_fails_the_build_in_one_line(
    extensions_copy: Path,
) -> None:
    rewrite(requirements(extensions_copy), CMD_11, 'id = "CMD-11"\nlevel = "MAY"')
    line = (
        "commands/v1: published requirement CMD-11 changed (level SHOULD -> MAY) without an "
        "errata entry"
    )
    assert problems(extensions_copy) == [line]
    with pytest.raises(PublishError) as raised:
        plan_site(SITE, extensions_copy)
    assert line in str(raised.value)


def test_the_same_change_with_its_erratum_passes_and_is_recorded(extensions_copy: Path) -> None:
    rewrite(requirements(extensions_copy), CMD_11, 'id = "CMD-11"\nlevel = "MAY"')
    add_erratum(extensions_copy, "CMD-11")
    assert problems(extensions_copy) == []
    lock = extensions_copy / LOCK_FILE_NAME
    assert add_to_lock(lock, find("commands/v1", extensions_copy)) is True
    record = read_words(lock)["commands/v1"]
    assert record.errata == 5
    assert ("CMD-11", "MAY") in {(r.id, r.level) for r in record.requirements}
    assert add_to_lock(lock, find("commands/v1", extensions_copy)) is False
    assert problems(extensions_copy) == []


def test_an_erratum_that_names_another_requirement_does_not_cover_it(
    extensions_copy: Path,
) -> None:
    rewrite(requirements(extensions_copy), CMD_11, 'id = "CMD-11"\nlevel = "MAY"')
    add_erratum(extensions_copy, "CMD-9")
    assert [p.split(" changed")[0] for p in problems(extensions_copy)] == [
        "commands/v1: published requirement CMD-11"
    ]


def test_a_should_raised_to_must_is_refused_even_with_an_erratum(extensions_copy: Path) -> None:
    rewrite(requirements(extensions_copy), CMD_11, 'id = "CMD-11"\nlevel = "MUST"')
    add_erratum(extensions_copy, "CMD-11")
    expected = (
        "commands/v1: CMD-11 became a MUST (SHOULD before); a new obligation belongs to a new "
        "version"
    )
    assert problems(extensions_copy) == [expected]
    with pytest.raises(PublishError, match="CMD-11 became a MUST"):
        add_to_lock(extensions_copy / LOCK_FILE_NAME, find("commands/v1", extensions_copy))


def test_a_new_must_is_refused_and_a_new_should_needs_its_erratum(extensions_copy: Path) -> None:
    path = requirements(extensions_copy)
    base = path.read_text(encoding="utf-8")
    entry = (
        '\n[[requirements]]\nid = "CMD-20"\nlevel = "{level}"\nsubject = "agent"\n'
        'summary = "More."\nannotates = "An agent still runs the command when the header is '
        'absent."\nconform = false\nwhy_not = "not yet"\n'
    )
    path.write_text(base + entry.format(level="MUST"), encoding="utf-8")
    add_erratum(extensions_copy, "CMD-20")
    assert problems(extensions_copy) == [
        "commands/v1: CMD-20 is a new MUST on a published version; a new obligation belongs to "
        "a new version"
    ]
    path.write_text(base + entry.format(level="SHOULD"), encoding="utf-8")
    assert problems(extensions_copy) == []


def test_a_new_should_without_an_erratum_is_refused(extensions_copy: Path) -> None:
    path = requirements(extensions_copy)
    path.write_text(
        path.read_text(encoding="utf-8")
        + '\n[[requirements]]\nid = "CMD-20"\nlevel = "SHOULD"\nsubject = "client"\n'
        'summary = "More."\nannotates = "An agent still runs the command when the header is '
        'absent."\nconform = false\nwhy_not = "a client rule"\n',
        encoding="utf-8",
    )
    assert problems(extensions_copy) == [
        "commands/v1: CMD-20 was added without an errata entry naming it"
    ]


def test_a_published_requirement_cannot_disappear(extensions_copy: Path) -> None:
    path = requirements(extensions_copy)
    text = path.read_text(encoding="utf-8")
    start = text.index('[[requirements]]\nid = "CMD-18"')
    end = text.index("[[requirements]]", start + 1)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    found = problems(extensions_copy)
    assert found[0].startswith("commands/v1: published requirement CMD-18 is gone")
    # the passage it annotated is no longer normative text either
    assert found[1:] == [
        "commands/v1: a normative sentence of spec.md changed after publication without an "
        "errata entry (a published normative sentence was removed)"
    ]


def test_a_changed_normative_sentence_is_named(extensions_copy: Path) -> None:
    rewrite(spec(extensions_copy), "as every message of a task\ndoes.", "as a task's messages do.")
    [problem] = problems(extensions_copy)
    assert problem.startswith(
        "commands/v1: a normative sentence of spec.md changed after publication without an "
        'errata entry: "The agent MUST put the command metadata'
    )
    assert "as a task's messages do. (spec.md line " in problem


def test_rewrapping_or_editing_prose_that_is_not_normative_passes(extensions_copy: Path) -> None:
    path = spec(extensions_copy)
    rewrite(path, "Chat front ends have long", "Chat front ends have for a long time")
    rewrite(path, "The task's state does not change. ", "The task's state does not change.\n")
    assert problems(extensions_copy) == []


def test_a_removed_erratum_is_caught(extensions_copy: Path) -> None:
    meta = extensions_copy / "commands" / "v1" / "extension.toml"
    text = meta.read_text(encoding="utf-8")
    meta.write_text(text[: text.rindex("[[errata]]")], encoding="utf-8")
    assert "commands/v1: an erratum was removed; errata are never removed" in problems(
        extensions_copy
    )


def test_a_version_whose_words_were_never_recorded_is_named(extensions_copy: Path) -> None:
    lock = extensions_copy / LOCK_FILE_NAME
    kept = [line for line in lock.read_text().splitlines() if len(line.split(" ")) == 2]
    lock.write_text("\n".join(kept) + "\n")
    assert problems(extensions_copy) == [
        "commands/v1: its requirements and normative text are not recorded; run: th-ext lock "
        "add commands/v1"
    ]
