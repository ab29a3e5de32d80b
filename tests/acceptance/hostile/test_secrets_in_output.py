"""No secret reaches the output: URL credentials are redacted in every format and error, and a
--header value is never printed, even when the header is malformed."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.acceptance.hostile.conftest import EXAMPLE_CARD, Origin, Result, card_for
from th_ext.net import redact, redact_url

PASSWORD = "pa55word-xyz"


def _with_credentials(url: str) -> str:
    return url.replace("http://", f"http://user:{PASSWORD}@", 1)


@pytest.mark.parametrize("output", ["text", "json", "junit"])
def test_validate_reports_redact_url_credentials(
    th_ext: Callable[..., Result], origin_a: Origin, output: str
) -> None:
    url = origin_a.serve_json("/card.json", card_for(_with_credentials(origin_a.base) + "/a2a"))
    result = th_ext("validate", _with_credentials(url), "-f", output)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    assert "***@127.0.0.1" in result.stdout


@pytest.mark.parametrize("output", ["text", "json", "junit"])
def test_validate_errors_redact_url_credentials(
    th_ext: Callable[..., Result], origin_a: Origin, output: str
) -> None:
    origin_a.redirect("/card.json", _with_credentials(origin_a.base) + "/gone.json")
    result = th_ext("validate", _with_credentials(origin_a.base) + "/card.json", "-f", output)
    assert result.exit_code == 2
    assert PASSWORD not in result.stdout + result.stderr
    assert "404" in (result.stderr if output == "text" else result.stdout)


@pytest.mark.parametrize("command", ["commands", "dispatch"])
@pytest.mark.parametrize("output", ["text", "json"])
def test_card_commands_redact_url_credentials(
    th_ext: Callable[..., Result], origin_a: Origin, command: str, output: str
) -> None:
    url = origin_a.serve_json("/card.json", card_for(_with_credentials(origin_a.base) + "/a2a"))
    args = [command, _with_credentials(url), "--format", output]
    if command == "dispatch":
        args.insert(2, "/model")
    result = th_ext(*args)
    assert result.exit_code == 0, result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    if output == "json":
        json.loads(result.stdout)


@pytest.mark.parametrize("command", ["commands", "dispatch", "validate"])
def test_card_fetch_errors_redact_url_credentials(
    th_ext: Callable[..., Result], command: str
) -> None:
    for url in (f"http://u:{PASSWORD}@127.0.0.1:9/card.json", f"ftp://u:{PASSWORD}@host/c"):
        args = [command, url] + (["/model"] if command == "dispatch" else [])
        result = th_ext(*args)
        assert result.exit_code == 2
        assert PASSWORD not in result.stdout + result.stderr
        assert "***@" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "header",
    [
        f"Authorization Bearer {PASSWORD}",
        f"{PASSWORD}",
        f"Bad Name: {PASSWORD}",
        f"Authorization: {PASSWORD}\u00e9\u4e2d",
        f"X: {PASSWORD}\x00",
    ],
)
@pytest.mark.parametrize("command", ["commands", "dispatch", "validate"])
def test_a_malformed_header_is_never_echoed(
    th_ext: Callable[..., Result], command: str, header: str
) -> None:
    args = [command, str(EXAMPLE_CARD), "-H", header]
    if command == "dispatch":
        args.insert(2, "/model")
    result = th_ext(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert PASSWORD not in result.stdout + result.stderr
    assert result.stderr.startswith("th-ext: error: --header")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://u:p@a.example/x", "https://***@a.example/x"),
        ("https://token@a.example", "https://***@a.example"),
        ("see http://a:b@h:1/p and HTTPS://c:d@e/", "see http://***@h:1/p and HTTPS://***@e/"),
        ("https://a.example/path@x", "https://a.example/path@x"),
        ("mailto:someone@a.example", "mailto:someone@a.example"),
    ],
)
def test_redaction(text: str, shown: str) -> None:
    assert redact(text) == shown
    assert redact_url(text) == shown


def test_redact_url_is_redact_under_its_former_name() -> None:
    assert redact_url is redact


def test_a_bad_header_origin_is_shown_without_credentials(th_ext: Callable[..., Result]) -> None:
    result = th_ext("commands", str(EXAMPLE_CARD), "--header-origin", f"ftp://u:{PASSWORD}@host/")
    assert result.exit_code == 2
    assert PASSWORD not in result.stderr
    assert "ftp://***@host/" in result.stderr
