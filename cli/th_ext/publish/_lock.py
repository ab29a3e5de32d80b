"""The published lock: once a version is published its schema.json and its words never change."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from th_ext._exceptions import PublishedSchemaChangedError, PublishError, os_reason
from th_ext.catalog._reader import Requirement, load_requirements, schema_sha256, spec_text
from th_ext.catalog._records import ExtensionVersion
from th_ext.validate import CARD_SCHEMA_KEY, card_rules_sha256

__all__ = [
    "LOCK_FILE_NAME",
    "LockedRequirement",
    "NormativeBlock",
    "WordsRecord",
    "add_to_lock",
    "check_lock",
    "lock_card_schema",
    "read_lock",
    "read_words",
    "write_lock",
]


# The normative text of a spec page: the sentences a published version may not change silently.
#
# A version's normative text is every block (paragraph, or list item) of ``spec.md`` that the
# ``## Specification`` section holds, that uses an RFC 2119 keyword in capitals, or that holds a
# passage a requirement annotates. Code blocks, HTML comments and example directives are left
# out, and whitespace is normalised, so re-wrapping a paragraph is not a change. Each block has
# a short digest, which the lock records; the whole text has one too.

_KEYWORDS = re.compile(r"\b(?:MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)\b")
_ITEM = re.compile(r"(?:[-*+]|[0-9]{1,3}[.)]) ")


@dataclass(frozen=True, slots=True)
class NormativeBlock:
    """One normative block, its words joined by single spaces, and its first line in spec.md."""

    text: str
    line: int


def _blocks(spec: str) -> list[tuple[str, int, str]]:
    """``(text, line, section)`` for every paragraph and list item outside code fences."""
    found: list[tuple[str, int, str]] = []
    section, fence = "", False
    current: list[str] = []
    start = 0

    def close_block() -> None:
        text = " ".join(" ".join(current).split())
        if text and not text.startswith("<!--"):
            found.append((text, start, section))
        current.clear()

    for number, line in enumerate(spec.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            close_block()
            fence = not fence
            continue
        if fence:
            continue
        if stripped.startswith("#"):
            close_block()
            section = stripped.lstrip("#").strip()
            continue
        if not stripped or _ITEM.match(stripped) is not None:
            close_block()
        if stripped:
            if not current:
                start = number
            current.append(stripped)
    close_block()
    return found


def normative_blocks(spec: str, passages: list[str]) -> list[NormativeBlock]:
    """The normative blocks of ``spec``, in order; ``passages`` are the annotated passages."""
    wanted = [" ".join(passage.split()) for passage in passages if passage.strip()]
    return [
        NormativeBlock(text, line)
        for text, line, section in _blocks(spec)
        if section == "Specification"
        or _KEYWORDS.search(text) is not None
        or any(passage in text for passage in wanted)
    ]


def block_digest(block: NormativeBlock) -> str:
    """The first 16 hex digits of the sha256 of the block's text."""
    return hashlib.sha256(block.text.encode("utf-8")).hexdigest()[:16]


def text_digest(blocks: list[NormativeBlock]) -> str:
    """The sha256 of the whole normative text, one block per line."""
    return hashlib.sha256("\n".join(b.text for b in blocks).encode("utf-8")).hexdigest()


# Published means frozen for the words too: the requirements and normative text in the lock.
#
# Beside each published schema's sha256, ``published.lock`` records the version's words:
#
#     commands/v1 words errata=4 text=sha256:<hex>
#     commands/v1 requirement CMD-3 MUST "<summary>"
#     commands/v1 requirement CMD-10 MUST retired "<summary>"
#     commands/v1 sentence <16 hex digits>
#
# ``check_words`` compares a version with its record. A requirement or a normative sentence that
# changed needs an erratum (``[[errata]]`` in extension.toml) added since the record, naming the
# requirement; a requirement never disappears (it is retired); a MUST is never added, and no
# requirement becomes a MUST: a new obligation is a new version. ``words_lines`` is what
# ``th-ext lock add`` writes once the check passes.


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
    for number, line in enumerate(_lock_text(path).splitlines(), start=1):
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


LOCK_FILE_NAME = "published.lock"
_HEADER = (
    "# sha256 of every published schema.json, and the requirements and normative text of each\n"
    "# published version. A published schema never changes; its words change only by an\n"
    "# erratum. Add a new version, or record an erratum, with: th-ext lock add <name>/<version>\n"
)
_WORD_KINDS = ("words", "requirement", "sentence")
_LINE = re.compile(r"^(?P<key>[a-z][a-z0-9-]*/v[1-9][0-9]*) sha256:(?P<digest>[0-9a-f]{64})$")


def _lock_text(path: Path) -> str:
    """The lock file's text; ``PublishError`` naming it when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PublishError(f"{path}: cannot be read ({os_reason(exc)})") from None
    except UnicodeDecodeError:
        raise PublishError(f"{path}: cannot be read (not UTF-8 text)") from None


def read_lock(path: Path) -> dict[str, str]:
    """The lock as ``{key: sha256}``; an absent file is an empty lock."""
    if not path.exists():
        return {}
    entries: dict[str, str] = {}
    for number, line in enumerate(_lock_text(path).splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.split(" ", 2)[1:2] and line.split(" ", 2)[1] in _WORD_KINDS:
            continue  # a line of the version's words: read_words reads it
        match = _LINE.fullmatch(line)
        if match is None:
            raise PublishError(f"{path}:{number}: not a lock line: {line!r}")
        if match["key"] in entries:
            raise PublishError(f"{path}:{number}: {match['key']} is locked twice")
        entries[match["key"]] = match["digest"]
    return entries


def _word_lines(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    if path.exists():
        for line in _lock_text(path).splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] in _WORD_KINDS and not line.startswith("#"):
                found.setdefault(parts[0], []).append(line)
    return found


def write_lock(
    path: Path, entries: dict[str, str], words: dict[str, list[str]] | None = None
) -> None:
    """Write the schema lines of ``entries`` and, for each key, its words lines (``words``, or
    those the file already holds)."""
    kept = _word_lines(path) if words is None else words
    lines: list[str] = []
    for key in sorted(entries):
        lines.append(f"{key} sha256:{entries[key]}\n")
        lines += [line + "\n" for line in kept.get(key, [])]
    path.write_text(_HEADER + "".join(lines), encoding="utf-8")


def check_lock(
    versions: list[ExtensionVersion],
    lock: dict[str, str],
    words: dict[str, WordsRecord] | None = None,
) -> list[str]:
    """Problems: a locked schema that changed or vanished, a non-draft version not locked, and,
    given the recorded ``words``, a published requirement or normative sentence that changed
    without its erratum (or a published version whose words were never recorded)."""
    by_key = {version.key: version for version in versions}
    problems: list[str] = []
    for key, digest in sorted(lock.items()):
        version = by_key.get(key)
        if key == CARD_SCHEMA_KEY:
            if card_rules_sha256() != digest:
                problems.append(
                    f"{key}: the agent card schema's rules changed after publication (sha256 "
                    f"{card_rules_sha256()}, published {digest}); publish a new version instead"
                )
        elif version is None:
            problems.append(f"{key}: published, but its folder is gone; published files stay")
        elif schema_sha256(version) != digest:
            problems.append(
                f"{key}: schema.json changed after publication (sha256 {schema_sha256(version)},"
                f" published {digest}); publish a new version instead"
            )
    problems.extend(
        f"{version.key}: status is {version.status} but it is not in the lock;"
        f" run: th-ext lock add {version.key}"
        for version in versions
        if version.status != "draft" and version.key not in lock
    )
    if words is not None:
        for key in sorted(lock.keys() & by_key.keys()):
            record = words.get(key)
            if record is None:
                problems.append(
                    f"{key}: its requirements and normative text are not recorded;"
                    f" run: th-ext lock add {key}"
                )
            else:
                problems += check_words(by_key[key], record)
    return problems


def _locked_digest(entries: dict[str, str], key: str, digest: str) -> str | None:
    """The sha256 the lock holds for ``key``, or None; a locked schema is never replaced."""
    known = entries.get(key)
    if known is not None and known != digest:
        raise PublishedSchemaChangedError(
            f"{key}: already published with sha256 {known}; a published schema cannot be replaced"
        )
    return known


def add_to_lock(path: Path, version: ExtensionVersion) -> bool:
    """Lock ``version``'s schema and record its words. False if nothing changed.

    A locked schema is never replaced. The words of a locked version are recorded again only
    when every change since the last record has its erratum (``PublishError`` names the first
    one that has not).
    """
    if version.status == "draft":
        raise PublishError(f"{version.key}: a draft is not published; set its status first")
    entries = read_lock(path)
    known = _locked_digest(entries, version.key, schema_sha256(version))
    words = _word_lines(path)
    record = read_words(path).get(version.key)
    if known is not None and record is not None:
        problems = check_words(version, record)
        if problems:
            raise PublishError(problems[0])
    fresh = words_lines(version)
    if known is not None and words.get(version.key) == fresh:
        return False
    entries[version.key] = schema_sha256(version)
    words[version.key] = fresh
    write_lock(path, entries, words)
    return True


def lock_card_schema(path: Path) -> bool:
    """Lock the agent card schema's rules (the schema with no extension bound: each extension
    version adds its own binding). False if they were locked already."""
    entries = read_lock(path)
    digest = card_rules_sha256()
    if _locked_digest(entries, CARD_SCHEMA_KEY, digest) is not None:
        return False
    entries[CARD_SCHEMA_KEY] = digest
    write_lock(path, entries)
    return True
