"""``conform --har`` and ``dispatch --live --har``: every exchange of the run as HAR 1.2.

The agent is the real demo agent on 127.0.0.1. Each HAR is validated against HAR 1.2's
structure (``tests.support.har_schema``, written from the specification) and opened by
haralyzer, a HAR parser that is not th-ext's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from haralyzer import HarParser
from typer.testing import CliRunner

from tests.support.har_schema import HAR_1_2
from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]
SECRET = "Bearer s3cret-token-value"


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


def opened(path: Path) -> dict[str, Any]:
    """The HAR at ``path``, once it passed the HAR 1.2 schema and haralyzer read it whole."""
    text = path.read_text(encoding="ascii")
    document: dict[str, Any] = json.loads(text)
    jsonschema.validate(document, HAR_1_2)
    parser = HarParser(document)
    assert parser.version == "1.2"
    (page,) = parser.pages
    assert len(page.entries) == len(document["log"]["entries"])
    for entry in page.entries:  # haralyzer parses every date and reads every body
        assert entry.startTime is not None
        assert entry.request.method in ("GET", "POST")
        assert isinstance(entry.response.text, str | None)
    return document


def test_conform_records_every_request_streams_included(
    conform_agent: Agent, tmp_path: Path
) -> None:
    har = tmp_path / "run.har"
    base = conform_agent(DemoVariant.CORRECT).base_url
    code, out, err = run("conform", base, "--har", str(har), "-H", f"Authorization: {SECRET}")
    assert code == 0, err
    document = opened(har)
    entries = document["log"]["entries"]
    requests = int(re.search(r"; (\d+) requests in", out).group(1))  # type: ignore[union-attr]
    assert len(entries) == requests
    assert f"wrote {har}: {requests} HTTP exchanges (HAR 1.2)" in err
    assert document["log"]["pages"][0]["title"] == f"th-ext conform {base}"

    card = entries[0]
    assert card["request"]["method"] == "GET"
    assert card["request"]["url"] == f"{base}/.well-known/agent-card.json"
    assert json.loads(card["response"]["content"]["text"])["name"]

    streams = [e for e in entries if e["request"]["headers"] and _accepts_events(e)]
    assert streams, "no stream was recorded"
    for entry in streams:
        content = entry["response"]["content"]
        assert content["mimeType"].startswith("text/event-stream")
        assert content["text"].startswith("data: ")
        assert content["size"] == len(content["text"].encode("utf-8"))
    for entry in entries[1:]:
        assert entry["request"]["method"] == "POST" or "/tasks/" in entry["request"]["url"]
        if entry["request"]["method"] == "POST":
            assert json.loads(entry["request"]["postData"]["text"])
    rest = [e for e in entries if e["request"]["url"].endswith("/message:send")]
    assert rest, "no HTTP+JSON request was recorded"


def test_a_header_given_with_header_is_never_written(conform_agent: Agent, tmp_path: Path) -> None:
    har = tmp_path / "run.har"
    base = conform_agent(DemoVariant.CORRECT).base_url
    code, _, err = run(
        "conform",
        base,
        "--command",
        "help",
        "--har",
        str(har),
        "-H",
        f"Authorization: {SECRET}",
        "-H",
        "X-Api-Key: k-0123456789",
    )
    assert code == 0, err
    text = har.read_text(encoding="ascii")
    assert "s3cret" not in text and "k-0123456789" not in text
    for entry in json.loads(text)["log"]["entries"]:
        sent = {h["name"].lower(): h["value"] for h in entry["request"]["headers"]}
        assert sent["authorization"] == "***"
        assert sent["x-api-key"] == "***"


def test_dispatch_live_records_the_card_and_the_stream(
    conform_agent: Agent, tmp_path: Path
) -> None:
    har = tmp_path / "live.har"
    base = conform_agent(DemoVariant.CORRECT).base_url
    code, _, err = run("dispatch", base, "/model", "--live", "--har", str(har))
    assert code == 0, err
    entries = opened(har)["log"]["entries"]
    assert entries[0]["request"]["url"].endswith("/.well-known/agent-card.json")
    sent = [json.loads(e["request"]["postData"]["text"])["method"] for e in entries[1:]]
    assert "SendStreamingMessage" in sent
    (stream,) = [e for e in entries[1:] if _accepts_events(e)]
    events = stream["response"]["content"]["text"]
    assert events.count("data: ") >= 2 and '"statusUpdate"' in events  # the whole stream
    assert f"wrote {har}: {len(entries)} HTTP exchanges (HAR 1.2)" in err


def test_a_run_that_reaches_no_agent_still_writes_its_har(tmp_path: Path) -> None:
    card = json.loads(
        (
            Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"
        ).read_text(encoding="utf-8")
    )
    card["supportedInterfaces"][0]["url"] = "http://127.0.0.1:9/a2a"
    (tmp_path / "card.json").write_text(json.dumps(card), encoding="utf-8")
    har = tmp_path / "run.har"
    code, _, err = run("conform", str(tmp_path / "card.json"), "--har", str(har))
    assert code == 2
    assert "cannot be reached" in err
    entries = opened(har)["log"]["entries"]
    assert entries
    for entry in entries:
        assert entry["response"]["status"] == 0
        assert "cannot connect" in entry["response"]["_error"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("conform", "http://127.0.0.1:9/", "--har", "{missing}/run.har"), "does not exist"),
        (("conform", "--from", "{list}", "--har", "{ok}/run.har"), "--har records the run of one"),
        (("dispatch", "{card}", "/model", "--har", "{ok}/run.har"), "a dry run sends nothing"),
    ],
)
def test_har_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    card = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"
    (tmp_path / "list.txt").write_text("http://127.0.0.1:9/\n", encoding="utf-8")
    places = {
        "missing": str(tmp_path / "missing"),
        "ok": str(tmp_path),
        "list": str(tmp_path / "list.txt"),
        "card": str(card),
    }
    code, _, err = run(*(arg.format(**places) for arg in args))
    assert code == 2
    assert err.startswith("th-ext: error: ") and err.count("\n") == 1, err
    assert words in err
    assert not (tmp_path / "run.har").exists()


def test_har_dash_is_standard_output_when_o_takes_the_report(
    conform_agent: Agent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = conform_agent(DemoVariant.CORRECT).base_url
    code, out, err = run("conform", base, "--har", "-", "-o", "report.txt", "--quiet")
    assert code == 0, err
    (tmp_path / "stdout.har").write_text(out, encoding="ascii")
    entries = opened(tmp_path / "stdout.har")["log"]["entries"]
    assert entries[0]["request"]["url"] == f"{base}/.well-known/agent-card.json"
    assert f"wrote standard output: {len(entries)} HTTP exchanges (HAR 1.2)" in err
    assert "passed" in (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert not (tmp_path / "-").exists()


MIXED = "standard output carries the command's own output; give it -o FILE, or give --har a file"
HAR_DASH_REFUSED = [
    (("conform", "{base}", "--har", "-"), "--har -: " + MIXED),
    (("conform", "{base}", "--har", "-", "--quiet"), "--har -: " + MIXED),
    (("conform", "{base}", "--har", "-", "-o", "-"), "--har -: " + MIXED),
    (
        ("conform", "{base}", "--har", "-", "-o", "{ok}/report.txt", "--junit-file", "-"),
        "--har -: standard output carries --junit-file -; give one of them a file",
    ),
    (
        ("dispatch", "{base}", "/help", "--live", "--har", "-"),
        "--har -: standard output carries the command's own output; give --har a file",
    ),
]


@pytest.mark.parametrize(
    ("args", "message"), HAR_DASH_REFUSED, ids=[" ".join(a[2:]) for a, _ in HAR_DASH_REFUSED]
)
def test_har_dash_is_refused_where_it_would_mix_with_standard_output(
    conform_agent: Agent,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    places = {"base": conform_agent(DemoVariant.CORRECT).base_url, "ok": str(tmp_path)}
    code, out, err = run(*(arg.format(**places) for arg in args))
    assert (code, out, err) == (2, "", f"th-ext: error: {message}\n")
    assert list(tmp_path.iterdir()) == []


def _accepts_events(entry: dict[str, Any]) -> bool:
    return any(
        h["name"].lower() == "accept" and h["value"] == "text/event-stream"
        for h in entry["request"]["headers"]
    )
