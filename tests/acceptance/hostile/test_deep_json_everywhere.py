"""JSON nested deeper than Python's parser goes is one line and exit 2 wherever th-ext reads a
JSON document a person gives: a card to sign, a message to dispatch, a key, a schema, as
well as a card to validate. ``json.loads`` raises ``RecursionError`` there, which is no
``ValueError``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.acceptance.hostile.conftest import Result
from th_ext.signatures import new_key

DEEP_ARRAYS = "[" * 10_000 + "]" * 10_000  # under the 64 KiB a key file may have
DEEP_OBJECTS = '{"a":' * 10_000 + "1" + "}" * 10_000
CARD = '{"name": "x"}'


@pytest.mark.parametrize("deep", [DEEP_ARRAYS, DEEP_OBJECTS], ids=["arrays", "objects"])
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("sign", "{deep}", "--key", "{key}", "--kid", "k"), "the card is nested deeper than 64"),
        (("dispatch", "{card}", "--message", "{deep}"), "{deep}: nested too deep to read"),
        (("sign", "{card}", "--key", "{deep}", "--kid", "k"), "not a key"),
        (("keys", "jwks", "--kid", "k", "{deep}"), "not a key"),
        (("validate", "{deep}"), "nested more than 64 deep"),
        (("validate", "{card}", "--schema", "{deep}"), ""),
        (("validate", "{card}", "--keys", "{deep}"), ""),
    ],
    ids=["sign card", "dispatch message", "sign key", "jwks key", "validate", "schema", "keys"],
)
def test_deep_json_is_one_line(
    th_ext: Callable[..., Result],
    tmp_path: Path,
    args: tuple[str, ...],
    said: str,
    deep: str,
) -> None:
    files = {"deep": tmp_path / "deep.json", "card": tmp_path / "card.json"}
    files["deep"].write_text(deep, encoding="utf-8")
    files["card"].write_text(CARD, encoding="utf-8")
    key = tmp_path / "key.pem"
    key.write_bytes(new_key("ES256"))
    given = [arg.format(deep=files["deep"], card=files["card"], key=key) for arg in args]
    result = th_ext(*given)
    assert "internal error" not in result.stderr, result.stderr
    if args[0] == "validate" and len(args) == 2:
        assert result.exit_code == 2
        assert said in result.stdout
        return
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert said.format(deep=files["deep"]) in result.stderr
