"""Published means frozen for the words too: the requirements and normative text in the lock.

Beside each published schema's sha256, ``published.lock`` records the version's words:

    commands/v1 words errata=4 text=sha256:<hex>
    commands/v1 requirement CMD-3 MUST "<summary>"
    commands/v1 requirement CMD-10 MUST retired "<summary>"
    commands/v1 sentence <16 hex digits>

``check_words`` compares a version with its record. A requirement or a normative sentence that
changed needs an erratum (``[[errata]]`` in extension.toml) added since the record, naming the
requirement; a requirement never disappears (it is retired); a MUST is never added, and no
requirement becomes a MUST: a new obligation is a new version. ``words_lines`` is what
``th-ext lock add`` writes once the check passes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import spec_text
from th_ext.catalog._records import ExtensionVersion
from th_ext.catalog._requirements import Requirement, load_requirements
from th_ext.publish._normative import block_digest, normative_blocks, text_digest

__all__ = ["LockedRequirement", "WordsRecord", "check_words", "read_words", "words_lines"]


@dataclass(frozen=True, slots=True)
class LockedRequirement:
    """A requirement as it was recorded."""

    id: str
    level: str
    summary: str
    retired: bool


@dataclass(frozen=True, slots=True)
class WordsRecord:
    """What the lock holds of one version's words."""

    errata: int
    text: str
    requirements: tuple[LockedRequirement, ...]
    sentences: frozenset[str]


def _locked(requirement: Requirement) -> LockedRequirement:
    return LockedRequirement(
        requirement.id, requirement.level, requirement.summary, bool(requirement.retired)
    )


def _current(version: ExtensionVersion) -> tuple[list[Requirement], list[str], str, list[str]]:
    requirements = list(load_requirements(version))
    passages = [r.annotates for r in requirements if r.in_force]
    blocks = normative_blocks(spec_text(version), passages)
    digests = [block_digest(b) for b in blocks]
    texts = [f"{b.text} (spec.md line {b.line})" for b in blocks]
    return requirements, digests, text_digest(blocks), texts


def words_lines(version: ExtensionVersion) -> list[str]:
    """The lock lines that record ``version``'s words as they are now."""
    requirements, digests, text, _ = _current(version)
    lines = [f"{version.key} words errata={len(version.errata)} text=sha256:{text}"]
    for r in requirements:
        state = " retired" if r.retired else ""
        lines.append(f"{version.key} requirement {r.id} {r.level}{state} {json.dumps(r.summary)}")
    lines += [f"{version.key} sentence {digest}" for digest in sorted(set(digests))]
    return lines


def read_words(path: Path) -> dict[str, WordsRecord]:
    """Every version's recorded words, by key; lines of other kinds are left to ``read_lock``."""
    if not path.exists():
        return {}
    heads: dict[str, tuple[int, str]] = {}
    requirements: dict[str, list[LockedRequirement]] = {}
    sentences: dict[str, set[str]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        parts = line.split(" ", 2)
        if len(parts) < 3 or line.startswith("#"):
            continue
        key, kind, rest = parts
        try:
            if kind == "words":
                errata, text = rest.split(" ")
                digest = text.removeprefix("text=sha256:")
                heads[key] = (int(errata.removeprefix("errata=")), digest)
            elif kind == "requirement":
                rid, level, rest = rest.split(" ", 2)
                retired = rest.startswith("retired ")
                summary = json.loads(rest.removeprefix("retired ") if retired else rest)
                requirements.setdefault(key, []).append(
                    LockedRequirement(rid, level, summary, retired)
                )
            elif kind == "sentence":
                sentences.setdefault(key, set()).add(rest)
        except ValueError:
            raise PublishError(f"{path}:{number}: not a lock line: {line!r}") from None
    return {
        key: WordsRecord(
            errata=errata,
            text=text,
            requirements=tuple(requirements.get(key, [])),
            sentences=frozenset(sentences.get(key, set())),
        )
        for key, (errata, text) in heads.items()
    }


def check_words(version: ExtensionVersion, record: WordsRecord) -> list[str]:
    """One line per change to ``version``'s published words that no new erratum covers."""
    requirements, digests, text, texts = _current(version)
    new_errata = version.errata[record.errata :]
    covered = {rid for erratum in new_errata for rid in erratum.requirements}
    key = version.key
    problems: list[str] = []
    if len(version.errata) < record.errata:
        problems.append(f"{key}: an erratum was removed; errata are never removed")
    now = {r.id: r for r in requirements}
    for was in record.requirements:
        found = now.get(was.id)
        if found is None:
            problems.append(
                f"{key}: published requirement {was.id} is gone from requirements.toml; an ID "
                "stays, retired (retired = date, retired_why) by an erratum"
            )
            continue
        problems += _changed(key, was, _locked(found), was.id in covered)
    known = {was.id for was in record.requirements}
    for r in requirements:
        if r.id in known:
            continue
        if r.level == "MUST" and r.in_force:
            problems.append(
                f"{key}: {r.id} is a new MUST on a published version; a new obligation "
                "belongs to a new version"
            )
        elif r.id not in covered:
            problems.append(f"{key}: {r.id} was added without an errata entry naming it")
    if text != record.text and not new_errata:
        fresh = [t for d, t in zip(digests, texts, strict=True) if d not in record.sentences]
        what = f': "{fresh[0]}"' if fresh else " (a published normative sentence was removed)"
        problems.append(
            f"{key}: a normative sentence of spec.md changed after publication without an "
            f"errata entry{what}"
        )
    return problems


def _changed(key: str, was: LockedRequirement, now: LockedRequirement, covered: bool) -> list[str]:
    if now == was:
        return []
    if now.level == "MUST" and was.level != "MUST" and not now.retired:
        return [
            f"{key}: {was.id} became a MUST ({was.level} before); a new obligation belongs "
            "to a new version"
        ]
    if covered:
        return []
    what = (
        f"level {was.level} -> {now.level}"
        if now.level != was.level
        else "retired"
        if now.retired != was.retired
        else "summary reworded"
    )
    return [f"{key}: published requirement {was.id} changed ({what}) without an errata entry"]
