"""th-ext's card verdict equals the official Python SDK's, on real cards and on mutations.

The SDK's verdict is ``tests.support.sdk_verdict.sdk_accepts``; th-ext's is "no error in the
document and card layers". Where th-ext knowingly checks more than the SDK, the rule is listed
in ``STRICTER`` (and on the validate page); no other disagreement is allowed.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.sdk_verdict import sdk_accepts
from tests.unit.validate.conftest import example_card
from th_ext.validate import Problem, validate_value

CORPUS = Path(__file__).resolve().parents[2] / "data" / "real_cards"

#: Problem codes of rules th-ext checks beyond the SDK's parse (each explained on the page).
STRICTER = frozenset({"invalid-url", "empty-oneof"})
_EXTENSION_URI = re.compile(r"^/capabilities/extensions/\d+/uri$")


def _stricter(problem: Problem) -> bool:
    if problem.code in STRICTER:
        return True
    # An extension entry must name its URI (the SDK's proto leaves it optional).
    return problem.code in ("missing-field", "empty-field") and bool(
        _EXTENSION_URI.match(problem.path)
    )


def th_ext_accepts(card: Any, *, stricter: bool = False) -> bool:
    report = validate_value(card)
    errors = [p for p in report.problems if p.severity == "error" and p.layer != "extension"]
    if not stricter:
        errors = [p for p in errors if not _stricter(p)]
    return not errors


def _corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def test_the_corpus_is_at_least_forty_cards_with_their_sources() -> None:
    cards = _corpus()
    assert len(cards) >= 40
    sources = (CORPUS / "SOURCES").read_text(encoding="utf-8").splitlines()
    recorded = {line.split("\t")[0] for line in sources if line and not line.startswith("#")}
    assert {path.name for path in cards} <= recorded
    for line in sources:
        if line and not line.startswith("#"):
            _name, repository, path, commit = line.split("\t")[:4]
            assert "/" in repository and path and len(commit) == 40, line


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_a_real_card_gets_the_sdks_verdict(path: Path) -> None:
    card = json.loads(path.read_text(encoding="utf-8"))
    assert th_ext_accepts(card) == sdk_accepts(card)


def rich_card() -> dict[str, Any]:
    """A valid 1.0 card that uses every message the card reaches."""
    card = example_card()
    flow = {"tokenUrl": "https://auth.example/token", "scopes": {"read": "Read the tasks"}}
    card["provider"] = {"organization": "Example", "url": "https://example.com"}
    card["securitySchemes"] = {
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
        "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
        "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": flow}}},
        "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://id.example/.w"}},
        "mtls": {"mtlsSecurityScheme": {"description": "client certificates"}},
    }
    card["securityRequirements"] = [
        {"schemes": {"bearer": {"list": []}}},
        {"schemes": {"oauth": {"list": ["read"]}}},
    ]
    card["skills"][0]["securityRequirements"] = [{"schemes": {"key": {}}}]
    card["signatures"] = [{"protected": "eyJhbGciOiJFUzI1NiJ9", "signature": "c2ln"}]
    return card


def test_the_rich_card_is_valid_for_both() -> None:
    card = rich_card()
    assert sdk_accepts(card)
    assert th_ext_accepts(card, stricter=True)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    return found


def _apply(card: dict[str, Any], path: tuple[Any, ...], operation: str) -> dict[str, Any]:
    card = copy.deepcopy(card)
    if not path:
        return card
    parent: Any = card
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    old = parent[key]
    if operation == "drop" and isinstance(parent, dict):
        del parent[key]
    elif operation == "empty":
        parent[key] = type(old)() if isinstance(old, str | list | dict) else old
    elif operation == "wrong-type":
        parent[key] = 42 if isinstance(old, str | list | dict) else "x"
    elif operation == "unknown-field" and isinstance(old, dict):
        old["someUnknownField"] = "x"
    elif operation == "0.3-scheme" and isinstance(old, dict):
        parent[key] = {"type": "http", "scheme": "bearer"}
    elif operation == "0.3-requirement":
        parent[key] = [{"bearer": []}]
    elif operation == "bare-scopes" and isinstance(old, dict):
        parent[key] = ["read", "write"]
    return card


OPERATIONS = [
    "drop",
    "empty",
    "wrong-type",
    "unknown-field",
    "0.3-scheme",
    "0.3-requirement",
    "bare-scopes",
]
BASES = [example_card(), rich_card()]


@settings(max_examples=400)
@given(st.data())
def test_a_mutated_card_gets_the_sdks_verdict(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(BASES))
    path = data.draw(st.sampled_from(_nodes(base)))
    operation = data.draw(st.sampled_from(OPERATIONS))
    card = _apply(base, path, operation)
    assert th_ext_accepts(card) == sdk_accepts(card), (path, operation)


def test_the_committed_card_model_is_what_the_installed_sdk_gives() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[3] / "scripts" / "generate_card_model.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
