"""A --header value reaches only the origin of the URL typed and the origins named with
--header-origin: two loopback servers on two ports are two origins, and B is asked what it got."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.acceptance.hostile.conftest import EXAMPLE_CARD, Origin, Result, card_for
from th_ext.net import HeaderScope, origin_of

SECRET = "Bearer s3cret-value"
ANSWER = {"jsonrpc": "2.0", "id": 1, "result": {"message": {"role": "ROLE_AGENT", "parts": []}}}


def test_validate_redirect_to_another_origin_drops_the_header_and_says_so(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    target = origin_b.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    url = origin_a.redirect("/card.json", target)
    result = th_ext("validate", url, "-f", "json", "-H", f"Authorization: {SECRET}")
    assert origin_a.header_values("Authorization") == [SECRET]
    assert origin_b.header_values("Authorization") == [None]
    assert "header-withheld" in result.stdout
    assert origin_b.base in result.stdout
    assert "s3cret" not in result.stdout + result.stderr


@pytest.mark.parametrize("task", [[], ["--task-id", "t-1"]])
def test_live_post_to_an_interface_on_another_origin_carries_no_header(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin, task: list[str]
) -> None:
    """The message and, with --task-id, the GetTask read before it."""
    origin_b.serve_json("/a2a", ANSWER)
    url = origin_a.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    result = th_ext(
        "dispatch", url, "/model fast", "--live", "-H", f"Authorization: {SECRET}", *task
    )
    assert origin_a.header_values("Authorization") == [SECRET]
    posts = [headers for method, _, headers in origin_b.received if method == "POST"]
    assert posts, "the live check sent nothing to B"
    methods = [json.loads(body)["method"] for body in origin_b.bodies]
    assert methods[-1] == "SendStreamingMessage"
    assert methods[0] == ("GetTask" if task else "SendStreamingMessage")
    assert origin_b.header_values("Authorization") == [None] * len(origin_b.received)
    assert f"not sent to {origin_b.base}" in result.stderr
    assert "s3cret" not in result.stdout + result.stderr


def test_card_redirected_to_b_naming_b_still_gives_b_no_header(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    """The case that leaked: the card's final location and its interface share origin B."""
    origin_b.serve_json("/a2a", ANSWER)
    target = origin_b.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    url = origin_a.redirect("/card.json", target)
    th_ext("dispatch", url, "/model", "--live", "-f", "json", "-H", f"Authorization: {SECRET}")
    assert len(origin_b.received) >= 2
    assert set(origin_b.header_values("Authorization")) == {None}


def test_header_origin_names_b_explicitly(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    origin_b.serve_json("/a2a", ANSWER)
    url = origin_a.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    result = th_ext(
        "dispatch", url, "/model", "--live", "-H", f"Authorization: {SECRET}",
        "--header-origin", origin_b.base + "/anything",
    )  # fmt: skip
    assert origin_b.header_values("Authorization") == [SECRET] * len(origin_b.received)
    assert "not sent" not in result.stderr


def test_well_known_fallback_on_another_origin_gets_no_header(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    target = origin_b.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    origin_a.redirect("/.well-known/agent.json", target)
    result = th_ext("commands", origin_a.base, "-H", f"X-Token: {SECRET}")
    assert result.exit_code == 0
    assert origin_a.header_values("X-Token") == [SECRET, SECRET]
    assert origin_b.header_values("X-Token") == [None]
    assert f"not sent to {origin_b.base}" in result.stderr


def test_same_host_other_port_is_another_origin(origin_a: Origin, origin_b: Origin) -> None:
    scope = HeaderScope.for_source([("A", "1")], origin_a.base + "/card.json")
    assert scope.headers_for(origin_a.base + "/x?y") == (("A", "1"),)
    assert scope.headers_for(origin_b.base + "/x") == ()
    assert scope.headers_for("https://127.0.0.1:" + origin_a.base.rsplit(":", 1)[1]) == ()
    assert [str(o) for o in scope.withheld] == [origin_b.base, "https" + origin_a.base[4:]]


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("https://A.example/x", "https://a.example:443/y", True),
        ("http://a.example", "http://a.example:80/", True),
        ("https://user:pw@a.example/", "https://a.example/", True),
        ("http://a.example", "https://a.example", False),
        ("https://a.example", "https://a.example:8443", False),
        ("https://a.example", "https://b.a.example", False),
        ("https://[::1]:8080/", "https://[::1]:8080/x", True),
    ],
)
def test_origins(first: str, second: str, same: bool) -> None:
    assert (origin_of(first) == origin_of(second)) is same


def test_a_file_card_sends_headers_only_to_named_origins() -> None:
    scope = HeaderScope.for_source([("A", "1")], "card.json", ["http://127.0.0.1:9/"])
    assert scope.headers_for("http://127.0.0.1:9/a2a") == (("A", "1"),)
    assert scope.headers_for("http://127.0.0.1:10/a2a") == ()
    assert scope.notices() == (
        "the --header value was not sent to http://127.0.0.1:10: it is not the origin of the "
        "URL given (allow it with --header-origin)",
    )


@pytest.mark.parametrize("command", ["validate", "commands", "dispatch"])
def test_a_bad_header_origin_is_a_usage_error(th_ext: Callable[..., Result], command: str) -> None:
    args = [command, str(card_for.__globals__["EXAMPLE_CARD"]), "--header-origin", "ftp://x"]
    if command == "dispatch":
        args.insert(2, "/model")
    result = th_ext(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "--header-origin" in result.stderr


def test_schema_redirected_to_another_origin_gets_no_header(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    schema = json.loads((EXAMPLE_CARD.parents[1] / "schema.json").read_text(encoding="utf-8"))
    target = origin_b.serve_json("/schema.json", schema)
    url = origin_a.redirect("/schema.json", target)
    result = th_ext("validate", str(EXAMPLE_CARD), "--schema", url, "-H", f"X-Key: {SECRET}")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert origin_a.header_values("X-Key") == [SECRET]
    assert origin_b.header_values("X-Key") == [None]
    assert result.stderr == (
        f"th-ext: note: --schema: the --header value was not sent to {origin_b.base}: it is "
        "not the origin of the URL given (allow it with --header-origin)\n"
    )


def test_header_origin_covers_a_redirect_of_the_card_fetch(
    th_ext: Callable[..., Result], origin_a: Origin, origin_b: Origin
) -> None:
    target = origin_b.serve_json("/card.json", card_for(origin_b.base + "/a2a"))
    url = origin_a.redirect("/card.json", target)
    result = th_ext(
        "validate", url, "-f", "json", "-H", f"Authorization: {SECRET}",
        "--header-origin", origin_b.base,
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    assert origin_b.header_values("Authorization") == [SECRET]
    assert "header-withheld" not in result.stdout
