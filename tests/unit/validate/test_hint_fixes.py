"""No hint proposes a value that fails its own check: every hint that proposes a replacement
value is applied to the card it came from, and the card validated again. The fix must clear the
problem and bring no new error anywhere. A hint with a JSON value of a kind this test does not
know how to apply fails the sweep, so a new kind of hint is checked as soon as it appears."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.unit.validate.conftest import example_card
from th_ext.validate import Problem, validate_value

# Where the proposed value starts, by the words before it.
REPLACE = ("in A2A 1.0 it is ", "for example ", "nests them under schemes: ", "StringList: ")
ADD = "add "

Break = Callable[[dict[str, Any]], None]


def _scheme(value: dict[str, Any]) -> Break:
    return lambda card: card.update({"securitySchemes": {"s": value}})


def _without(key: str) -> Break:
    return lambda card: card.pop(key)


def _skill_without(key: str) -> Break:
    return lambda card: card["skills"][0].pop(key)


BROKEN: dict[str, Break] = {
    "http without scheme": _scheme({"type": "http"}),
    "http bearer": _scheme({"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}),
    "apiKey": _scheme({"type": "apiKey", "in": "header", "name": "X-Key"}),
    "apiKey without name": _scheme({"type": "apiKey", "description": "a key"}),
    "oauth2 without flows": _scheme({"type": "oauth2", "description": "sign in"}),
    "oauth2 with empty scopes": _scheme(
        {
            "type": "oauth2",
            "flows": {"clientCredentials": {"tokenUrl": "https://a/t", "scopes": {}}},
        }
    ),
    "oauth2 with an empty flow": _scheme({"type": "oauth2", "flows": {"implicit": {}}}),
    "openIdConnect without url": _scheme({"type": "openIdConnect"}),
    "mutualTLS": _scheme({"type": "mutualTLS", "description": "certificates"}),
    "an unknown kind": _scheme({"type": "magic"}),
    "0.3 requirement": lambda card: card.update({"securityRequirements": [{"bearer": ["a"]}]}),
    "0.3 scopes": lambda card: card.update(
        {"securityRequirements": [{"schemes": {"oauth": ["read", "write"]}}]}
    ),
    **{
        f"no {key}": _without(key)
        for key in (
            "name",
            "description",
            "version",
            "supportedInterfaces",
            "capabilities",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
        )
    },
    **{
        f"a skill without {key}": _skill_without(key)
        for key in ("id", "name", "description", "tags")
    },
    "an interface without url": lambda card: card["supportedInterfaces"][0].pop("url"),
    "an interface without protocolBinding": lambda card: card["supportedInterfaces"][0].pop(
        "protocolBinding"
    ),
}


def errors(card: dict[str, Any]) -> set[tuple[str, str]]:
    return {(p.code, p.path) for p in validate_value(card).problems if p.is_error}


def proposed(problem: Problem) -> tuple[str, Any] | None:
    """How the hint's value applies (``replace`` or ``add``) and the value, if it has one."""
    for marker in REPLACE:
        at = problem.hint.find(marker)
        if at >= 0 and problem.hint[at + len(marker) :][:1] in ("{", "["):
            value, _ = json.JSONDecoder().raw_decode(problem.hint[at + len(marker) :])
            return "replace", value
    if problem.hint.startswith(ADD + '"'):
        member, _ = json.JSONDecoder().raw_decode(
            "{" + problem.hint[len(ADD) :].split("; ")[0] + "}"
        )
        return "add", member
    return None


def apply(card: dict[str, Any], problem: Problem, how: str, value: Any) -> dict[str, Any]:
    fixed = copy.deepcopy(card)
    steps = [s.replace("~1", "/").replace("~0", "~") for s in problem.path.split("/")[1:]]
    if how == "add":
        steps = steps[:-1]
    target: Any = fixed
    for step in steps[:-1] if how == "replace" else steps:
        target = target[int(step)] if isinstance(target, list) else target[step]
    if how == "replace":
        last = steps[-1]
        target[int(last) if isinstance(target, list) else last] = value
    else:
        target.update(value)
    return fixed


@pytest.mark.parametrize("case", list(BROKEN))
def test_every_proposed_value_passes_and_clears_its_problem(case: str) -> None:
    card = example_card()
    BROKEN[case](card)
    before = errors(card)
    with_values = [(p, proposed(p)) for p in validate_value(card).problems]
    applicable = [(p, found) for p, found in with_values if found is not None]
    assert applicable, f"{case}: no hint proposes a value"
    for problem, (how, value) in applicable:
        after = errors(apply(card, problem, how, value))
        assert (problem.code, problem.path) not in after, (case, problem.hint)
        assert after <= before, (case, problem.hint, after - before)


def test_no_hint_carries_a_value_this_test_cannot_apply() -> None:
    for case, breaks in BROKEN.items():
        card = example_card()
        breaks(card)
        for problem in validate_value(card).problems:
            if "{" in problem.hint or "[" in problem.hint:
                assert proposed(problem) is not None, (case, problem.code, problem.hint)


def test_the_oauth2_hint_proposes_flows() -> None:
    card = example_card()
    BROKEN["oauth2 without flows"](card)
    [problem] = [p for p in validate_value(card).problems if p.code == "a2a-0.3-security-scheme"]
    assert proposed(problem) == (
        "replace",
        {
            "oauth2SecurityScheme": {
                "description": "sign in",
                "flows": {"clientCredentials": {"tokenUrl": "…", "scopes": {"…": "…"}}},
            }
        },
    )
