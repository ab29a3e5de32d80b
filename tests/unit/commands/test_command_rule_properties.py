"""Properties of the dispatch rule, against an independent regular-expression oracle."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from th_ext.commands import ASCII_WHITESPACE, CommandCall, parse_command

REGISTERED = ("model", "help", "review", "set-model", "a")

# The rule as one regular expression over the whole text: "/", a name in the pattern, then
# either the end or one ASCII whitespace character followed by anything.
_ORACLE = re.compile(r"/([a-z][a-z0-9-]*)(?:[ \t\n\r\f\v](.*))?", re.DOTALL)
_EDGES = re.compile(r"\A[ \t\n\r\f\v]+|[ \t\n\r\f\v]+\Z")


def oracle(message: Any, registered: tuple[str, ...]) -> CommandCall | None:
    if type(message) is not dict:
        return None
    parts = message.get("parts")
    if type(parts) is not list or len(parts) != 1 or type(parts[0]) is not dict:
        return None
    part = parts[0]
    if {"raw", "url", "data"} & part.keys() or type(part.get("text")) is not str:
        return None
    match = _ORACLE.fullmatch(part["text"])
    if match is None or match.group(1) not in registered:
        return None
    return CommandCall(match.group(1), _EDGES.sub("", match.group(2) or ""))


WHITESPACE = st.sampled_from([*" \t\n\r\f\v", "\u00a0", "\u2003", "\x1c", "\x85", "\u3000"])
PIECES = st.one_of(
    st.sampled_from(["/", "//", ":", "-", "M", "x"]),
    st.sampled_from([f"/{name}" for name in REGISTERED] + ["/models", "/Model", "/set"]),
    WHITESPACE,
    st.text(max_size=6),
)
TEXTS = st.lists(PIECES, max_size=8).map("".join)

JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
PARTS = st.one_of(
    TEXTS.map(lambda text: {"text": text}),
    st.fixed_dictionaries(
        {"text": TEXTS},
        optional={
            "raw": st.just("AA=="),
            "url": st.just("https://example.com"),
            "data": JSON_VALUES,
            "mediaType": st.just("text/plain"),
        },
    ),
    JSON_VALUES,
)
MESSAGES = st.one_of(
    st.fixed_dictionaries({"parts": st.lists(PARTS, min_size=1, max_size=2)}),
    st.fixed_dictionaries({"parts": st.lists(PARTS, max_size=1)}),
    st.dictionaries(st.sampled_from(["parts", "role", "text"]), JSON_VALUES, max_size=3),
    JSON_VALUES,
)


@settings(max_examples=600)
@given(MESSAGES)
def test_the_parser_never_raises_and_agrees_with_the_oracle(message: Any) -> None:
    assert parse_command(message, REGISTERED) == oracle(message, REGISTERED)


@settings(max_examples=600)
@given(TEXTS)
def test_text_messages_agree_with_the_oracle(text: str) -> None:
    message = {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": text}]}
    assert parse_command(message, REGISTERED) == oracle(message, REGISTERED)


@settings(max_examples=600)
@given(TEXTS)
def test_arguments_never_have_surrounding_ascii_whitespace(text: str) -> None:
    call = parse_command({"parts": [{"text": text}]}, REGISTERED)
    if call is not None:
        assert call.arguments == call.arguments.strip(ASCII_WHITESPACE)
        assert call.arguments in text
        assert text.startswith("/" + call.name)
        assert call.name in REGISTERED


@given(st.sampled_from(REGISTERED), st.text(), st.sampled_from(list(ASCII_WHITESPACE)))
def test_any_registered_name_then_whitespace_then_text_is_that_command(
    name: str, rest: str, separator: str
) -> None:
    call = parse_command({"parts": [{"text": f"/{name}{separator}{rest}"}]}, REGISTERED)
    assert call == CommandCall(name, rest.strip(ASCII_WHITESPACE))
