"""One "did you mean" for every mistyped name: an extension key, a URI, a command, an option,
a ``/command`` in a message. They all come from ``th_ext.problems.closest_name``."""

from __future__ import annotations

import pytest

import th_ext.commands
import th_ext.problems
from th_ext import CatalogError, discover, find
from th_ext.cli import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err


def test_one_helper_serves_every_suggestion() -> None:
    assert th_ext.commands.closest_name is th_ext.problems.closest_name


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("commnds/v1", "commands/v1"), ("commands/v3", "commands/v1"), ("Commands/V2", "commands/v2")],
)
def test_schema_suggests_the_key_meant(
    capsys: pytest.CaptureFixture[str], typed: str, meant: str
) -> None:
    code, out, err = _run(capsys, "schema", typed)
    assert (code, out) == (2, "")
    assert err == (
        f"th-ext: error: no schema {typed!r}; did you mean {meant!r}? "
        "(known: agent-card, commands/v1, commands/v2)\n"
    )


def test_a_mistyped_uri_suggests_the_uri() -> None:
    uri = next(v.uri for v in discover() if v.key == "commands/v1")
    typed = uri.replace("commands", "comands")
    with pytest.raises(CatalogError, match=f"did you mean {uri!r}"):
        find(typed)


def test_nothing_close_suggests_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "schema", "weather/v1")
    assert code == 2
    assert err == (
        "th-ext: error: no schema 'weather/v1' (known: agent-card, commands/v1, commands/v2)\n"
    )
    assert "did you mean" not in err
