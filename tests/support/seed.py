"""What the commands extension v1's owner wrote, as the repository keeps it for the tests.

The published files are compared with the owner's source text: its normative sentences, which
the spec page quotes word for word, and the digest of its schema, which ``schema.json`` keeps
key for key. Both live in ``tests/data/commands-v1/``, so every clone runs the comparisons.
"""

from __future__ import annotations

import hashlib
import json

from tests.conftest import REPO_ROOT

__all__ = ["canonical_digest", "normative_sentences", "source_schema_digest"]

_DATA = REPO_ROOT / "tests" / "data" / "commands-v1"


def _lines(name: str) -> list[str]:
    text = (_DATA / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def normative_sentences() -> list[str]:
    """The sentences the spec must quote exactly, in the owner's order."""
    return _lines("normative-sentences.txt")


def source_schema_digest() -> str:
    """The sha256 (hex) of the owner's schema as canonical JSON."""
    [digest] = _lines("source-schema.sha256")
    return digest


def canonical_digest(value: object) -> str:
    """The sha256 (hex) of ``value`` as canonical JSON, the form ``source_schema_digest`` uses."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
