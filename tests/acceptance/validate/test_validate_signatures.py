"""``th-ext validate --keys/--fetch-keys/--require-signature`` and ``th-ext sign``, end to end.

Keys are generated here; JWKS documents are served by real loopback servers. A second server
on another port is another origin: a ``jku`` there, or a redirect to it, must never reach it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.acceptance.validate.conftest import (
    CardServer,
    good_card,
    respond,
    run_validate,
    serve_routes,
)
from tests.support.signing import SigningKey, make_key, sdk_verifies
from th_ext.signatures import MAX_JKU, MAX_KEYS


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return make_key("ES256", "key-1")


@pytest.fixture
def other_origin() -> Iterator[CardServer]:
    """A server on another origin, which no test here may reach."""
    with serve_routes() as state:
        yield state


def agreeing_card() -> dict[str, Any]:
    card = good_card()
    for command in card["capabilities"]["extensions"][0]["params"]["commands"]:
        if command.get("argument_hint") == "":
            del command["argument_hint"]
    return card


def run_sign(*args: str) -> tuple[int, bytes, str]:
    from th_ext.cli import app

    outcome = CliRunner(env={"NO_COLOR": "1"}).invoke(app, ["sign", *args], catch_exceptions=False)
    return outcome.exit_code, outcome.stdout_bytes, outcome.stderr


def signed_file(
    tmp_path: Path, key: SigningKey, card: dict[str, Any] | None = None, jku: str | None = None
) -> Path:
    source = tmp_path / "card.json"
    source.write_text(json.dumps(card or agreeing_card(), indent=2), encoding="utf-8")
    (tmp_path / "key.pem").write_bytes(key.pem)
    extra = ["--jku", jku] if jku else []
    out = tmp_path / "signed.json"
    code, _, stderr = run_sign(
        str(source), "--key", str(tmp_path / "key.pem"), "--kid", key.kid, *extra, "-o", str(out)
    )
    assert code == 0, stderr
    return out


def problems(run: Any) -> list[tuple[str, str]]:
    return [(p["code"], p["severity"]) for p in run.report["problems"]]


def test_a_signed_card_verifies_with_a_keys_file(tmp_path: Path, key: SigningKey) -> None:
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(key.jwks()), encoding="utf-8")
    run = run_validate(str(signed_file(tmp_path, key)), "--keys", str(jwks), "--format", "json")
    assert run.code == 0
    (verified,) = run.report["problems"]
    assert verified["code"] == "signature-verified"
    assert verified["severity"] == "info"
    assert verified["line"] > 1
    assert f"key from {jwks}" in verified["message"]


def test_keys_from_a_url_are_read_with_no_header(
    tmp_path: Path, key: SigningKey, card_server: CardServer
) -> None:
    url = card_server.route("/jwks.json", respond(200, key.jwks()))
    run = run_validate(
        str(signed_file(tmp_path, key)),
        "--keys",
        url,
        "-H",
        "Authorization: Bearer secret",
        "--format",
        "json",
    )
    assert problems(run) == [("signature-verified", "info")]
    ((path, headers),) = card_server.seen
    assert path == "/jwks.json"
    assert "Authorization" not in headers


def test_a_tampered_card_fails_in_every_format(tmp_path: Path, key: SigningKey) -> None:
    signed = signed_file(tmp_path, key)
    card = json.loads(signed.read_text(encoding="utf-8"))
    card["version"] = "6.6.6"
    signed.write_text(json.dumps(card, indent=2), encoding="utf-8")
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(key.jwks()), encoding="utf-8")
    as_json = run_validate(str(signed), "--keys", str(jwks), "--format", "json")
    assert as_json.code == 1
    assert problems(as_json) == [("signature-invalid", "error")]
    junit = run_validate(str(signed), "--keys", str(jwks), "--format", "junit")
    assert junit.code == 1 and "signature-invalid" in junit.stdout
    github = run_validate(str(signed), "--keys", str(jwks), "--format", "github")
    assert github.code == 1 and "::error" in github.stdout and "signature-invalid" in github.stdout
    text = run_validate(str(signed), "--keys", str(jwks))
    assert text.code == 1 and "error signature-invalid at /signatures/0" in text.stdout


def test_a_jku_on_the_cards_origin_is_fetched(
    tmp_path: Path, key: SigningKey, card_server: CardServer
) -> None:
    jku = card_server.route("/keys/jwks.json", respond(200, key.jwks()))
    signed = signed_file(tmp_path, key, jku=jku)
    url = card_server.route("/card.json", respond(200, signed.read_bytes()))
    run = run_validate(url, "--fetch-keys", "--format", "json")
    assert problems(run) == [("signature-verified", "info")]
    assert f"key from jku {jku}" in run.report["problems"][0]["message"]


def test_a_jku_on_another_origin_is_never_contacted(
    tmp_path: Path, key: SigningKey, card_server: CardServer, other_origin: CardServer
) -> None:
    jku = other_origin.route("/jwks.json", respond(200, key.jwks()))
    signed = signed_file(tmp_path, key, jku=jku)
    url = card_server.route("/card.json", respond(200, signed.read_bytes()))
    run = run_validate(url, "--fetch-keys", "--format", "json")
    assert problems(run) == [("signature-unverified", "warning")]
    assert f"jku {jku} not contacted" in run.report["problems"][0]["message"]
    assert other_origin.seen == []


def test_a_jku_that_redirects_to_another_origin_is_not_followed(
    tmp_path: Path, key: SigningKey, card_server: CardServer, other_origin: CardServer
) -> None:
    away = other_origin.route("/jwks.json", respond(200, key.jwks()))
    jku = card_server.route("/jwks.json", respond(302, b"", {"Location": away}))
    signed = signed_file(tmp_path, key, jku=jku)
    url = card_server.route("/card.json", respond(200, signed.read_bytes()))
    run = run_validate(url, "--fetch-keys", "--format", "json")
    assert problems(run) == [("signature-unverified", "warning")]
    assert "on another origin: not followed" in run.report["problems"][0]["message"]
    assert other_origin.seen == []


def test_a_jku_redirect_on_the_same_origin_is_followed(
    tmp_path: Path, key: SigningKey, card_server: CardServer
) -> None:
    moved = card_server.route("/v2/jwks.json", respond(200, key.jwks()))
    jku = card_server.route("/jwks.json", respond(301, b"", {"Location": moved}))
    signed = signed_file(tmp_path, key, jku=jku)
    url = card_server.route("/card.json", respond(200, signed.read_bytes()))
    assert problems(run_validate(url, "--fetch-keys", "--format", "json")) == [
        ("signature-verified", "info")
    ]


def test_a_card_file_never_contacts_its_jku(
    tmp_path: Path, key: SigningKey, card_server: CardServer
) -> None:
    jku = card_server.route("/jwks.json", respond(200, key.jwks()))
    run = run_validate(str(signed_file(tmp_path, key, jku=jku)), "--fetch-keys", "--format", "json")
    assert problems(run) == [("signature-unverified", "warning")]
    assert card_server.seen == []


def _huge(request: BaseHTTPRequestHandler) -> None:
    request.send_response(200)
    request.send_header("Content-Length", str(50_000_000))
    request.end_headers()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        for _ in range(800):
            request.wfile.write(b" " * 65536)


@pytest.mark.parametrize(
    ("handler", "words"),
    [
        (respond(200, b"<html>not json</html>"), "not JSON"),
        (respond(200, {"keys": "none"}), "not a JWKS"),
        (respond(200, {"keys": [{"kty": "EC"}] * 5000}), "more than the 256"),
        (respond(500, b"oops"), "500"),
        (_huge, "cap"),
    ],
)
def test_a_bad_jku_answer_is_a_problem_not_a_traceback(
    tmp_path: Path, key: SigningKey, card_server: CardServer, handler: Any, words: str
) -> None:
    jku = card_server.route("/jwks.json", handler)
    signed = signed_file(tmp_path, key, jku=jku)
    url = card_server.route("/card.json", respond(200, signed.read_bytes()))
    run = run_validate(url, "--fetch-keys", "--max-bytes", "1000000", "--format", "json")
    assert run.code == 0, run.stderr
    (problem,) = run.report["problems"]
    assert problem["code"] == "signature-unverified"
    assert "gave no keys" in problem["message"] and words in problem["message"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json at all", "not JSON"),
        (b'{"kty": "EC"}', "not a JWKS"),
        (json.dumps({"keys": [{"kty": "EC"}] * (MAX_KEYS * 10)}).encode(), "keys, more than"),
        (b"[" * 2_000_000, "larger than the cap"),
        (json.dumps({"keys": [make_key().private_jwk() | {"kid": "k"}]}).encode(), "'k' holds"),
    ],
)
def test_a_bad_keys_file_is_one_line(
    tmp_path: Path, key: SigningKey, content: bytes, words: str
) -> None:
    jwks = tmp_path / "jwks.json"
    jwks.write_bytes(content)
    run = run_validate(
        str(signed_file(tmp_path, key)), "--keys", str(jwks), "--max-bytes", "1000000"
    )
    assert run.code == 2
    assert run.stderr.count("\n") == 1 and words in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_require_signature_fails_an_unsigned_card(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps(agreeing_card()), encoding="utf-8")
    assert run_validate(str(card)).code == 0
    run = run_validate(str(card), "--require-signature", "--format", "json")
    assert run.code == 1
    assert problems(run) == [("signature-unverified", "error")]


def test_sign_writes_the_card_and_warns_when_the_sdk_will_reject_it(
    tmp_path: Path, key: SigningKey
) -> None:
    source = tmp_path / "card.json"
    original = json.dumps(good_card(), indent=2).encode()
    source.write_bytes(original)
    (tmp_path / "key.pem").write_bytes(key.pem)
    code, stdout, stderr = run_sign(
        str(source), "--key", str(tmp_path / "key.pem"), "--kid", "key-1"
    )
    assert code == 0
    assert stdout.startswith(original[:-2])
    assert "signed with ES256, kid 'key-1'" in stderr
    assert "a2a-sdk 1.3's verifier will reject this signature" in stderr
    assert "argument_hint" in stderr
    assert not sdk_verifies(json.loads(stdout), key)


def test_sign_makes_a_card_the_sdk_accepts_when_the_forms_agree(
    tmp_path: Path, key: SigningKey
) -> None:
    signed = signed_file(tmp_path, key)
    assert sdk_verifies(json.loads(signed.read_bytes()), key)


@pytest.mark.parametrize(
    ("key_bytes", "card_bytes", "words"),
    [
        (b"garbage", b"{}", "neither a PEM private key nor a JWK"),
        (None, b"[1, 2]", "not a JSON card"),
        (None, b"{not json", "not a JSON card"),
    ],
)
def test_sign_refuses_bad_input_in_one_line(
    tmp_path: Path, key: SigningKey, key_bytes: bytes | None, card_bytes: bytes, words: str
) -> None:
    (tmp_path / "key").write_bytes(key_bytes or key.pem)
    (tmp_path / "card.json").write_bytes(card_bytes)
    code, stdout, stderr = run_sign(
        str(tmp_path / "card.json"), "--key", str(tmp_path / "key"), "--kid", "k"
    )
    assert code == 2
    assert stdout == b""
    assert stderr.count("\n") == 1 and words in stderr


@pytest.mark.parametrize(
    ("card_bytes", "words"),
    [
        (b'{"name": "n", "signatures": null}', '"signatures" is null, not an array'),
        (b'{"name": "n", "signatures": {}}', '"signatures" is an object, not an array'),
        (b'{"name": "a", "name": "b"}', "repeats the member 'name'"),
        (b'\xef\xbb\xbf{"name": "n"}', "byte-order mark"),
    ],
)
def test_sign_refuses_a_card_it_would_sign_ambiguously_and_writes_nothing(
    tmp_path: Path, key: SigningKey, card_bytes: bytes, words: str
) -> None:
    (tmp_path / "key.pem").write_bytes(key.pem)
    (tmp_path / "card.json").write_bytes(card_bytes)
    out = tmp_path / "out.json"
    code, stdout, stderr = run_sign(
        str(tmp_path / "card.json"),
        "--key",
        str(tmp_path / "key.pem"),
        "--kid",
        "k",
        "-o",
        str(out),
    )
    assert code == 2
    assert stdout == b"" and not out.exists()
    assert stderr.startswith(f"th-ext: error: {tmp_path / 'card.json'}: ")
    assert stderr.count("\n") == 1 and words in stderr


def test_a_crlf_card_signed_keeps_its_line_endings(tmp_path: Path, key: SigningKey) -> None:
    source = tmp_path / "card.json"
    source.write_bytes(json.dumps(agreeing_card(), indent=2).replace("\n", "\r\n").encode())
    (tmp_path / "key.pem").write_bytes(key.pem)
    code, stdout, stderr = run_sign(str(source), "--key", str(tmp_path / "key.pem"), "--kid", "k")
    assert code == 0, stderr
    assert stdout.count(b"\n") == stdout.count(b"\r\n") == source.read_bytes().count(b"\n") + 1


@pytest.mark.parametrize(
    "jku", ["not a url", "", "file:///etc/passwd", "ftp://a.example/jwks.json", "https://a\x1b[2J"]
)
def test_sign_refuses_a_jku_that_is_not_an_http_url_in_one_line(
    tmp_path: Path, key: SigningKey, jku: str
) -> None:
    (tmp_path / "key.pem").write_bytes(key.pem)
    (tmp_path / "card.json").write_bytes(b"{}")
    code, stdout, stderr = run_sign(
        str(tmp_path / "card.json"), "--key", str(tmp_path / "key.pem"), "--kid", "k", "--jku", jku
    )
    assert code == 2
    assert stdout == b""
    assert stderr.startswith("th-ext: error: --jku ") and stderr.count("\n") == 1


def test_sign_refuses_a_jku_over_the_limit_and_writes_nothing(
    tmp_path: Path, key: SigningKey
) -> None:
    (tmp_path / "key.pem").write_bytes(key.pem)
    (tmp_path / "card.json").write_bytes(b"{}")
    out = tmp_path / "signed.json"
    jku = "https://a.example/" + "j" * (MAX_JKU + 1 - len("https://a.example/"))
    args = ["--key", str(tmp_path / "key.pem"), "--kid", "k", "--jku", jku, "-o", str(out)]
    code, stdout, stderr = run_sign(str(tmp_path / "card.json"), *args)
    assert (code, stdout) == (2, b"")
    assert stderr == (
        f"th-ext: error: --jku is {MAX_JKU + 1:,} characters long, more than {MAX_JKU:,}: "
        "give a shorter URL where the JWKS is served\n"
    )
    assert not out.exists()


def test_a_card_signed_with_a_jku_at_the_limit_verifies(tmp_path: Path, key: SigningKey) -> None:
    jku = "https://a.example/" + "j" * (MAX_JKU - len("https://a.example/"))
    signed = signed_file(tmp_path, key, jku=jku)
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(key.jwks()), encoding="utf-8")
    run = run_validate(str(signed), "--keys", str(jwks), "--format", "json")
    assert run.code == 0, run.report["problems"]


def test_every_jku_of_a_card_shares_one_timeout(tmp_path: Path, card_server: CardServer) -> None:
    """Three slow jku URLs on the card's origin: the first takes the time there is, the others
    are not contacted, and the run ends with a report rather than past its --timeout."""
    import time

    def slow(request: BaseHTTPRequestHandler) -> None:
        time.sleep(6)
        respond(200, {"keys": []})(request)

    card = agreeing_card()
    text = json.dumps(card).encode()
    for index in range(3):
        k = make_key("ES256", f"slow-{index}")
        jku = card_server.route(f"/slow-{index}.json", slow)
        from th_ext.signatures import sign_card

        text = sign_card(text, k.pem, kid=k.kid, jku=jku).data
    url = card_server.route("/card.json", respond(200, text))
    run = run_validate(url, "--fetch-keys", "--timeout", "3", "--format", "json")
    assert run.code == 0, run.stderr
    messages = [p["message"] for p in run.report["problems"]]
    assert len(messages) == 3
    assert "no complete answer within" in messages[0]
    assert all("--timeout for reading keys was spent" in m for m in messages[1:]), messages
    assert [path for path, _ in card_server.seen].count("/slow-2.json") == 0


def test_a_fleet_verifies_each_card_with_the_keys(tmp_path: Path, key: SigningKey) -> None:
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(key.jwks()), encoding="utf-8")
    signed = signed_file(tmp_path, key)
    unsigned = tmp_path / "unsigned.json"
    unsigned.write_text(json.dumps(agreeing_card()), encoding="utf-8")
    run = run_validate(
        str(signed), str(unsigned), "--keys", str(jwks), "--require-signature", "-f", "jsonl"
    )
    found = {d["source"]: d for d in map(json.loads, run.stdout.splitlines())}
    assert [p["code"] for p in found[str(signed)]["problems"]] == ["signature-verified"]
    assert found[str(signed)]["exit_code"] == 0 and found[str(unsigned)]["exit_code"] == 1
    assert run.code == 1


def test_a_fleet_goes_on_with_other_sources_while_a_jku_is_read(
    tmp_path: Path, key: SigningKey, card_server: CardServer
) -> None:
    """A slow jku of one card does not hold up another card still being fetched: the other's
    report comes first."""
    import time

    def slow_keys(request: BaseHTTPRequestHandler) -> None:
        time.sleep(2)
        respond(200, key.jwks())(request)

    def slow_card(request: BaseHTTPRequestHandler) -> None:
        time.sleep(0.5)
        respond(200, agreeing_card())(request)

    jku = card_server.route("/keys/jwks.json", slow_keys)
    signed = card_server.route(
        "/signed.json", respond(200, signed_file(tmp_path, key, jku=jku).read_bytes())
    )
    plain = card_server.route("/plain.json", slow_card)
    run = run_validate(signed, plain, "--fetch-keys", "-j", "2", "-f", "jsonl", "--timeout", "8")
    found = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["source"] for d in found] == [plain, signed], run.stdout
    assert [p["code"] for p in found[1]["problems"]] == ["signature-verified"]
