"""``th-ext validate URL`` on what a card response says of caching (A2A 1.0 section 8.6),
against real servers on 127.0.0.1: each warning made by a response built to break exactly its
check, the malformed and hostile values as one problem each, a 304 as one line, and a card read
from a file or standard input with nothing said of caching."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.validate.conftest import (
    EXAMPLE_CARD,
    CardServer,
    good_card,
    respond,
    run_validate,
)
from tests.support.raw_http import raw_server
from th_ext.sources import CACHING_CODES

WELL_KNOWN = "/.well-known/agent-card.json"
SECTION = (
    "A2A 1.0 section 8.6.1: card endpoints SHOULD include a Cache-Control response header with "
    "a max-age directive appropriate for the agent's expected update frequency"
)
SEND = "send for example 'Cache-Control: public, max-age=3600'"


def served(card_server: CardServer, headers: dict[str, str], *, cached: bool = False) -> str:
    """The example card at the well-known path, with ``headers`` and no caching fields but
    those (unless ``cached``, which adds a max-age and an ETag)."""
    card_server.route(WELL_KNOWN, respond(200, good_card(), headers, cached=cached))
    return card_server.url()


def caching(url: str, *args: str) -> list[dict[str, Any]]:
    run = run_validate(url, "--format", "json", *args)
    assert run.code == 0, run.stdout + run.stderr
    return [p for p in run.report["problems"] if p["code"] in CACHING_CODES]


def test_a_card_response_that_says_nothing_of_caching_gets_both_warnings_with_their_hints(
    card_server: CardServer,
) -> None:
    problems = caching(served(card_server, {}))
    assert [(p["code"], p["severity"], p["layer"], p["path"]) for p in problems] == [
        ("card-cache-control-missing", "warning", "source", ""),
        ("card-etag-missing", "warning", "source", ""),
    ]
    missing, etag = problems
    assert missing["message"] == (
        "the card response has no Cache-Control header: a client cannot tell how long it may "
        "keep the card"
    )
    assert missing["hint"] == f"{SECTION}; {SEND}"
    assert etag["hint"].startswith(
        "A2A 1.0 section 8.6.1: card endpoints SHOULD include an ETag response header derived "
        "from the card's version field or a hash of the card content; send for example "
        "'ETag: \"<sha-256 of the card>\"'"
    )


def test_a_card_response_that_says_what_section_8_6_asks_gets_no_warning(
    card_server: CardServer,
) -> None:
    headers = {
        "Cache-Control": "public, max-age=86400",
        "ETag": 'W/"card-v3"',
        "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
        "Expires": "Mon, 07 Nov 1994 08:49:37 GMT",
    }
    assert caching(served(card_server, headers)) == []


def test_the_warnings_are_in_the_text_report_and_fail_a_strict_run(card_server: CardServer) -> None:
    url = served(card_server, {"ETag": '"v1"'})
    run = run_validate(url)
    assert run.code == 0
    assert "card-cache-control-missing" in run.stdout
    assert SEND in run.stdout
    assert run_validate(url, "--strict").code == 1


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("no-store", "no-store"),
        ("public, no-cache", "public, no-cache"),
        ("max-age=0", "max-age=0"),
        ("NO-STORE, max-age=600", "no-store, max-age=600"),
    ],
)
def test_a_response_that_forbids_caching_without_saying_why_is_warned(
    card_server: CardServer, value: str, shown: str
) -> None:
    (problem,) = caching(served(card_server, {"Cache-Control": value, "ETag": '"v1"'}))
    assert problem["code"] == "card-cache-forbidden"
    assert problem["message"] == (
        f"the card response forbids caching (Cache-Control: {shown}) without saying why: every "
        "client must fetch the card again each time it needs it"
    )
    assert problem["hint"].startswith(f"{SECTION}; {SEND}, or, for a card that differs")
    assert "'Cache-Control: private, no-cache'" in problem["hint"]


def test_a_private_card_may_forbid_caching(card_server: CardServer) -> None:
    headers = {"Cache-Control": "private, no-store", "ETag": '"v1"'}
    assert caching(served(card_server, headers)) == []


@pytest.mark.parametrize(
    ("value", "code", "message"),
    [
        (
            "public",
            "card-cache-max-age-missing",
            "the card response's Cache-Control (public) gives no max-age: a client cannot tell "
            "how long it may keep the card",
        ),
        (
            "max-age=31536001",
            "card-cache-max-age-too-long",
            "the card response's max-age of 31536001 seconds is over a year: clients would keep "
            "the card that long after it changes",
        ),
        (
            "max-age=99999999999999999999",
            "card-cache-max-age-too-long",
            "the card response's max-age of 2147483648 seconds is over a year (RFC 9111 caps it "
            "at 2^31 seconds): clients would keep the card that long after it changes",
        ),
        (
            "max-age=-60",
            "card-cache-control-malformed",
            "the card response's Cache-Control 'max-age=-60' is malformed: max-age=-60 is not "
            "a number of seconds (digits only, 0 or more)",
        ),
        (
            "max-age=60;public",
            "card-cache-control-malformed",
            "the card response's Cache-Control 'max-age=60;public' is malformed: ';' at "
            "character 11, after max-age, where a comma should be",
        ),
    ],
)
def test_a_cache_control_that_does_not_say_how_long_is_warned_with_its_own_code(
    card_server: CardServer, value: str, code: str, message: str
) -> None:
    (problem,) = caching(served(card_server, {"Cache-Control": value, "ETag": '"v1"'}))
    assert (problem["code"], problem["message"]) == (code, message)


def test_a_directive_repeated_over_two_field_lines_is_malformed(card_server: CardServer) -> None:
    body = json.dumps(good_card()).encode()

    def twice(request: BaseHTTPRequestHandler) -> None:
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Cache-Control", "public, max-age=600")
        request.send_header("Cache-Control", "max-age=60")
        request.send_header("ETag", '"v1"')
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    card_server.route(WELL_KNOWN, twice)
    (problem,) = caching(card_server.url())
    assert problem["code"] == "card-cache-control-malformed"
    assert problem["message"].endswith("is malformed: max-age is given more than once")
    assert "'public, max-age=600, max-age=60'" in problem["message"]


def test_a_cache_control_of_64_kb_is_one_problem_and_its_text_is_not_repeated(
    card_server: CardServer,
) -> None:
    (problem,) = caching(served(card_server, {"Cache-Control": "public, " * 8192, "ETag": '"a"'}))
    assert problem["code"] == "card-cache-control-malformed"
    # (the server's trailing space is not part of the value)
    assert problem["message"].endswith("is 65535 characters long, over the 8192 th-ext reads")
    assert len(problem["message"]) < 200


def test_a_cache_control_of_100_kb_is_one_problem_in_a_process_of_its_own(
    card_server: CardServer,
) -> None:
    url = served(card_server, {"Cache-Control": "x" * (100 * 1024), "ETag": '"v1"'})
    run = run_validate(url, "--format", "json", process=True)
    assert run.code == 0 and run.stderr == ""
    (problem,) = run.report["problems"]
    assert problem["code"] == "card-cache-control-malformed"
    assert problem["message"].endswith("is 102400 characters long, over the 8192 th-ext reads")


@pytest.mark.parametrize(
    ("etag", "message"),
    [
        (
            '"card\x01v1"',
            "the card response's ETag '\"card\\x01v1\"' is malformed: it holds a control character",
        ),
        (
            "card-v1",
            "the card response's ETag 'card-v1' is malformed: it is not a quoted entity tag "
            'such as "v1" or W/"v1"',
        ),
    ],
)
def test_a_malformed_etag_is_named_as_such(
    card_server: CardServer, etag: str, message: str
) -> None:
    headers = {"Cache-Control": "max-age=60", "ETag": etag}
    (problem,) = caching(served(card_server, headers))
    assert (problem["code"], problem["message"]) == ("card-etag-malformed", message)
    assert problem["hint"].startswith("RFC 9110 section 8.8.3: one quoted entity tag")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "Last-Modified",
            "2026-12-06T00:00:00Z",
            "the card response's Last-Modified '2026-12-06T00:00:00Z' is malformed: it is not "
            "an HTTP date",
        ),
        (
            "Last-Modified",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "the card response's Last-Modified 'Sunday, 06-Nov-94 08:49:37 GMT' is malformed: "
            "it is not in the IMF-fixdate form an HTTP date is sent in (such as 'Sun, 06 Nov "
            "1994 08:49:37 GMT')",
        ),
        (
            "Expires",
            "0",
            "the card response's Expires '0' is malformed: it is not an HTTP date (a client "
            "takes it as already expired)",
        ),
    ],
)
def test_a_malformed_date_is_named_with_its_field(
    card_server: CardServer, field: str, value: str, message: str
) -> None:
    headers = {"Cache-Control": "max-age=60", "ETag": '"v1"', field: value}
    (problem,) = caching(served(card_server, headers))
    assert problem["code"] == f"card-{field.lower()}-malformed"
    assert problem["message"] == message
    assert problem["hint"] == (
        f"RFC 9110 section 5.6.7: one date in the IMF-fixdate form, such as "
        f"'{field}: Sun, 06 Nov 1994 08:49:37 GMT'"
    )


def test_a_card_read_from_a_file_or_standard_input_says_nothing_of_caching() -> None:
    run = run_validate(str(EXAMPLE_CARD), "--format", "json", "--strict")
    assert run.code == 0 and run.report["problems"] == []
    run = run_validate("-", "--format", "json", "--strict", stdin=EXAMPLE_CARD.read_bytes())
    assert run.code == 0 and run.report["problems"] == []


def test_a_fleet_s_jsonl_lines_carry_the_warnings(card_server: CardServer, tmp_path: Path) -> None:
    bare = served(card_server, {})
    listed = tmp_path / "cards.txt"
    listed.write_text(f"{bare}\n{EXAMPLE_CARD}\n", encoding="utf-8")
    run = run_validate("--from", str(listed), "--format", "jsonl", "--quiet")
    assert run.code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    codes = {line["source"]: [p["code"] for p in line["problems"]] for line in lines}
    assert codes == {
        bare: ["card-cache-control-missing", "card-etag-missing"],
        str(EXAMPLE_CARD): [],
    }


def _not_modified(body: bytes) -> bytes:
    return b'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\nContent-Length: %d\r\n\r\n%s' % (
        len(body),
        body,
    )


@pytest.mark.parametrize("body", [b"", json.dumps(good_card()).encode()], ids=["empty", "body"])
def test_a_304_to_a_request_without_a_condition_is_one_line(body: bytes) -> None:
    with raw_server(lambda request: _not_modified(body)) as server:
        run = run_validate(server.base_url, process=True)
    assert run.code == 2
    assert run.stdout == ""
    assert run.stderr == (
        f"th-ext: error: {server.base_url}{WELL_KNOWN}: HTTP 304 Not Modified to a request that "
        "sent no condition (If-None-Match, If-Modified-Since)\n"
    )


def test_a_304_to_a_condition_the_caller_sent_says_there_is_nothing_to_read() -> None:
    with raw_server(lambda request: _not_modified(b"")) as server:
        run = run_validate(server.base_url, "--header", 'If-None-Match: "v1"', "-f", "json")
    assert run.code == 2
    (problem,) = run.report["problems"]
    assert problem["code"] == "http-error"
    assert problem["message"].endswith(
        "HTTP 304 Not Modified to the condition sent (If-None-Match): there is no document to read"
    )


#: For each code, the fields of a card response that give it (with the others well formed).
BREAKS: dict[str, list[tuple[str, str]]] = {
    "card-cache-control-missing": [("etag", '"v1"')],
    "card-cache-forbidden": [("cache-control", "no-store"), ("etag", '"v1"')],
    "card-cache-max-age-missing": [("cache-control", "public"), ("etag", '"v1"')],
    "card-cache-max-age-too-long": [("cache-control", "max-age=31536001"), ("etag", '"v1"')],
    "card-cache-control-malformed": [("cache-control", "max-age=-1"), ("etag", '"v1"')],
    "card-etag-missing": [("cache-control", "max-age=60")],
    "card-etag-malformed": [("cache-control", "max-age=60"), ("etag", "v1")],
    "card-last-modified-malformed": [
        ("cache-control", "max-age=60"),
        ("etag", '"v1"'),
        ("last-modified", "0"),
    ],
    "card-expires-malformed": [("cache-control", "max-age=60"), ("etag", '"v1"'), ("expires", "0")],
}


def site_page(name: str) -> str:
    return (Path(__file__).resolve().parents[3] / "site" / "th-ext" / name).read_text("utf-8")


def test_the_validate_page_lists_every_code_with_the_hint_th_ext_prints() -> None:
    from th_ext.sources import caching_problems

    assert list(BREAKS) == list(CACHING_CODES)
    text = site_page("validate.md")
    for code, fields in BREAKS.items():
        (problem,) = caching_problems(fields)
        assert problem.code == code
        assert f"| `{code}` (warning) | " in text
        assert f"| `{problem.hint}` |" in text, code


def test_the_conform_page_names_every_code_of_a2a_8_6() -> None:
    section = site_page("conform.md").split("`A2A-8.6` (a SHOULD", 1)[1].split("\n\n", 1)[0]
    assert "validate.md#how-the-card-is-served-warnings" in section
    for code in CACHING_CODES:
        assert f"`{code}`" in section
