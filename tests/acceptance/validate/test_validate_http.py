"""``th-ext validate URL`` against real HTTP servers on 127.0.0.1, good and misbehaving.

Every case runs the installed command in its own process and asserts the exit code and the
``code`` and ``path`` of the problem it reports.
"""

from __future__ import annotations

import gzip
import json
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict
from google.protobuf.struct_pb2 import Struct

from tests.acceptance.validate.conftest import (
    COMMANDS_URI,
    EXAMPLE_CARD,
    CardServer,
    good_card,
    respond,
    run_validate,
)

WELL_KNOWN = "/.well-known/agent-card.json"
OLD_WELL_KNOWN = "/.well-known/agent.json"
DEEP = "/a" * 64


def test_base_url_reads_the_well_known_card(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(200, good_card()))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 0, run.stdout
    report = run.report
    assert report["valid"] is True
    assert report["problems"] == []
    assert report["location"] == card_server.url(WELL_KNOWN)
    assert report["extensions"][0]["commands"] == ["model", "help", "review"]
    assert card_server.seen[0][1]["User-Agent"].startswith("th-ext/")


def test_json_url_is_the_card_itself(card_server: CardServer) -> None:
    url = card_server.route("/cards/agent.json", respond(200, good_card()))
    run = run_validate(url, "--format", "json")
    assert run.code == 0
    assert [path for path, _ in card_server.seen] == ["/cards/agent.json"]


def test_card_as_the_official_sdk_serialises_it(card_server: CardServer) -> None:
    from a2a.types import (
        AgentCapabilities,
        AgentCard,
        AgentExtension,
        AgentInterface,
        AgentSkill,
    )

    params = Struct()
    params.update({"commands": [{"name": "model", "description": "Pick a model"}]})
    card = AgentCard(
        name="SDK agent",
        description="Serialised by a2a-sdk",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(
                url="http://127.0.0.1:9/a2a", protocol_binding="JSONRPC", protocol_version="1.0"
            )
        ],
        capabilities=AgentCapabilities(
            streaming=True, extensions=[AgentExtension(uri=COMMANDS_URI, params=params)]
        ),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="chat", name="Chat", description="Talks", tags=["chat"])],
    )
    document = MessageToDict(card)
    assert "required" not in document["capabilities"]["extensions"][0]  # left out: default
    card_server.route(WELL_KNOWN, respond(200, document))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 0, run.stdout
    assert run.codes() == []


def test_extension_without_params_in_sdk_form_is_valid(card_server: CardServer) -> None:
    card = good_card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI}]
    card_server.route(WELL_KNOWN, respond(200, card))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 0, run.stdout
    assert run.report["extensions"][0]["commands"] == []


def test_a2a_0_3_card_is_recognised(card_server: CardServer) -> None:
    card = good_card()
    del card["supportedInterfaces"]
    card.update(url="http://127.0.0.1:9/a2a", preferredTransport="JSONRPC", protocolVersion="0.3.0")
    card_server.route(WELL_KNOWN, respond(200, card))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 1
    assert ("a2a-0.3-card", "") in run.codes()
    assert ("missing-field", "/supportedInterfaces") not in run.codes()
    problem = next(p for p in run.report["problems"] if p["code"] == "a2a-0.3-card")
    assert "supportedInterfaces" in problem["hint"]


def test_deprecated_path_is_read_only_after_404(card_server: CardServer) -> None:
    card_server.route(OLD_WELL_KNOWN, respond(200, good_card()))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 0, run.stdout
    assert run.codes() == [("deprecated-well-known-path", "")]
    assert run.report["problems"][0]["severity"] == "warning"
    assert [path for path, _ in card_server.seen] == [WELL_KNOWN, OLD_WELL_KNOWN]
    strict = run_validate(card_server.url(), "--format", "json", "--strict")
    assert strict.code == 1


def test_no_fallback_after_a_server_error(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(500, "boom", {"Content-Type": "text/plain"}))
    card_server.route(OLD_WELL_KNOWN, respond(200, good_card()))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("http-error", "")]
    assert "500" in run.report["problems"][0]["message"]
    assert [path for path, _ in card_server.seen] == [WELL_KNOWN]


def test_html_page_is_not_json(card_server: CardServer) -> None:
    page = "<!doctype html><html><body>Welcome</body></html>"
    card_server.route(WELL_KNOWN, respond(200, page, {"Content-Type": "text/html"}))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("invalid-json", "")]


def test_redirect_chain_is_followed(card_server: CardServer) -> None:
    for hop in range(4):
        card_server.route(
            f"/hop{hop}.json", respond(302, headers={"Location": f"/hop{hop + 1}.json"})
        )
    card_server.route("/hop4.json", respond(200, good_card()))
    run = run_validate(card_server.url("/hop0.json"), "--format", "json")
    assert run.code == 0, run.stdout
    assert run.report["location"] == card_server.url("/hop4.json")


def test_more_than_five_redirects_are_refused(card_server: CardServer) -> None:
    for hop in range(6):
        card_server.route(f"/r{hop}.json", respond(307, headers={"Location": f"/r{hop + 1}.json"}))
    card_server.route("/r6.json", respond(200, good_card()))
    run = run_validate(card_server.url("/r0.json"), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("too-many-redirects", "")]
    assert "/r6.json" not in [path for path, _ in card_server.seen]


def test_redirect_loop_is_refused(card_server: CardServer) -> None:
    card_server.route("/a.json", respond(301, headers={"Location": "/b.json"}))
    card_server.route("/b.json", respond(301, headers={"Location": "/a.json"}))
    run = run_validate(card_server.url("/a.json"), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("redirect-loop", "")]


def test_redirect_to_a_file_url_is_refused(card_server: CardServer) -> None:
    card_server.route("/card.json", respond(302, headers={"Location": "file:///etc/passwd"}))
    run = run_validate(card_server.url("/card.json"), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("redirect-not-http", "")]


def test_headers_are_sent_for_auth(card_server: CardServer) -> None:
    def guarded(request: BaseHTTPRequestHandler) -> None:
        if request.headers.get("Authorization") == "Bearer s3cret":
            respond(200, good_card())(request)
        else:
            respond(401, {"error": "unauthorized"})(request)

    card_server.route(WELL_KNOWN, guarded)
    denied = run_validate(card_server.url(), "--format", "json")
    assert denied.code == 2
    assert denied.codes() == [("http-error", "")]
    allowed = run_validate(
        card_server.url(), "-f", "json", "--header", "Authorization: Bearer s3cret"
    )
    assert allowed.code == 0, allowed.stdout


def test_server_that_never_answers_times_out(silent_server: str) -> None:
    started = time.monotonic()
    run = run_validate(silent_server, "--format", "json", "--timeout", "2", process=True)
    elapsed = time.monotonic() - started
    assert run.code == 2
    assert run.codes() == [("timeout", "")]
    # Well under the default 10 s: the option bounds the wait. The margin is the process's own
    # start and exit, which a busy machine stretches to seconds.
    assert elapsed < 2 + 5, f"took {elapsed:.1f} s with --timeout 2"


def test_body_that_never_ends_is_cut_at_the_cap(card_server: CardServer) -> None:
    def endless(request: BaseHTTPRequestHandler) -> None:
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Connection", "close")
        request.end_headers()
        request.wfile.write(b'{"name": "')
        chunk = b"x" * 65536
        while True:
            request.wfile.write(chunk)

    card_server.route(WELL_KNOWN, endless)
    run = run_validate(card_server.url(), "--format", "json", "--max-bytes", "1000000")
    assert run.code == 2
    assert run.codes() == [("too-large", "")]


def test_gzip_body_counted_after_decompression(card_server: CardServer) -> None:
    bomb = gzip.compress(b'{"name": "' + b" " * 20_000_000 + b'"}', 9)
    assert len(bomb) < 100_000
    card_server.route(WELL_KNOWN, respond(200, bomb, {"Content-Encoding": "gzip"}))
    run = run_validate(card_server.url(), "--format", "json", "--max-bytes", "1000000")
    assert run.code == 2
    assert run.codes() == [("too-large", "")]


def test_gzip_card_under_the_cap_is_read(card_server: CardServer) -> None:
    body = gzip.compress(json.dumps(good_card()).encode())
    card_server.route(WELL_KNOWN, respond(200, body, {"Content-Encoding": "gzip"}))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 0, run.stdout


def test_deep_nesting_is_a_problem_not_a_crash(card_server: CardServer) -> None:
    card_server.route("/deep.json", respond(200, '{"a":' * 100 + "1" + "}" * 100))
    card_server.route("/deeper.json", respond(200, "[" * 200_000 + "]" * 200_000))
    run = run_validate(card_server.url("/deep.json"), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("too-deep", DEEP)]
    deeper = run_validate(card_server.url("/deeper.json"), "--format", "json")
    assert deeper.code == 2
    assert deeper.codes() == [("too-deep", "/0" * 64)]
    assert "Traceback" not in deeper.stderr


def test_invalid_utf8(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(200, b'{"name": "caf\xe9"}'))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("invalid-utf8", "")]
    assert "byte 13" in run.report["problems"][0]["message"]


def test_empty_body(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(200, b""))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("empty-document", "")]


def test_json_array(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(200, json.dumps([good_card()])))
    run = run_validate(card_server.url(), "--format", "json")
    assert run.code == 2
    assert run.codes() == [("not-an-object", "")]


def test_connection_refused_is_a_network_error() -> None:
    run = run_validate("http://127.0.0.1:9/", "--format", "json", "--timeout", "3")
    assert run.code == 2
    assert run.codes() == [("network-error", "")]


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("https://[::1", "https://[::1: not a URL (Invalid IPv6 URL)"),
        (
            "http://127.0.0.1:99999/",
            "http://127.0.0.1:99999/: the port is not a number from 0 to 65535",
        ),
        ("http://:80/", "http://:80/: the URL names no host"),
    ],
)
def test_a_url_no_request_can_be_sent_to_is_one_line_naming_it_as_given(
    url: str, said: str, tmp_path: Path
) -> None:
    run = run_validate(url)
    assert (run.code, run.stdout, run.stderr) == (2, "", f"th-ext: error: {said}\n")
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    run = run_validate(str(card), url, "--format", "concise")
    assert run.code == 2
    assert f"{url}: error bad-argument {said}" in run.stdout.splitlines()


def test_escape_sequences_never_reach_the_terminal(card_server: CardServer) -> None:
    card = good_card()
    card["name"] = "Evil\x1b[2J\x1b]0;owned\x07 agent\x9b31m"
    card["description"] = "bell\x07 and\rreturn"
    card["supportedInterfaces"][0]["url"] = "http://127.0.0.1:9/\x1b[31mred"
    card["x\x1b[5mblink"] = True
    card["capabilities"]["extensions"][0]["params"]["commands"][1]["name"] = "Bad\x1b[0m"
    card_server.route(WELL_KNOWN, respond(200, card))
    text = run_validate(card_server.url())
    assert text.code == 1
    for forbidden in ("\x1b", "\x07", "\x9b", "\r"):
        assert forbidden not in text.stdout
        assert forbidden not in text.stderr
    assert "Evil" in text.stdout and "owned" not in text.stdout
    report = run_validate(card_server.url(), "--format", "json")
    assert ("unknown-field", "/x\x1b[5mblink") in report.codes()
    assert ("command-name-pattern", "/capabilities/extensions/0/params/commands/1/name") in (
        report.codes()
    )
    messages = " ".join(p["message"] + p["hint"] for p in report.report["problems"])
    assert "\x1b" not in messages
    assert "\x1b" not in report.report["card"]["name"]
    junit = run_validate(card_server.url(), "--format", "junit")
    assert "\x1b" not in junit.stdout and "\x07" not in junit.stdout


def test_schema_option_replaces_the_bundled_schema(card_server: CardServer) -> None:
    draft = json.loads((EXAMPLE_CARD.parents[1] / "schema.json").read_text(encoding="utf-8"))
    draft["$defs"]["CommandSpec"]["required"] = ["name", "description", "argument_hint"]
    schema_url = card_server.route("/draft/schema.json", respond(200, draft))
    card = good_card()
    del card["capabilities"]["extensions"][0]["params"]["commands"][0]["argument_hint"]
    card_server.route(WELL_KNOWN, respond(200, card))
    bundled = run_validate(card_server.url(), "--format", "json")
    assert bundled.code == 0, bundled.stdout
    drafted = run_validate(card_server.url(), "--format", "json", "--schema", schema_url)
    assert drafted.code == 1
    assert drafted.codes() == [
        ("schema-violation", "/capabilities/extensions/0/params/commands/0/argument_hint"),
    ]
    paths = [path for path, _ in card_server.seen]
    assert paths.count("/draft/schema.json") == 1


def test_card_served_by_a_real_a2a_sdk_server() -> None:
    from th_ext.demo import DemoServer

    with DemoServer() as agent:
        run = run_validate(agent.base_url, "--format", "json")
    assert run.code == 0, run.stdout
    assert run.codes() == []
    assert run.report["location"] == agent.base_url + WELL_KNOWN
    assert run.report["extensions"][0]["extension"] == "commands/v1"
    assert run.report["extensions"][0]["commands"]
