"""``th-ext dispatch`` without --live: the decision, the request and the reply, from any source."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from th_ext.demo import DemoServer, DemoVariant

from .conftest import Result

EXAMPLES = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples"
CARD = str(EXAMPLES / "card.json")


def test_the_text_output_gives_outcome_reason_request_and_reply(
    th_ext: Callable[..., Result],
) -> None:
    result = th_ext("dispatch", CARD, "/model fast")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith('outcome    command /model\narguments  "fast"\n')
    assert "reason     'model' is a registered command" in out
    assert "request    POST http://127.0.0.1:8000/a2a" in out
    assert "  A2A-Version: 1.0" in out
    assert (
        "  A2A-Extensions: https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
        in out
    )
    assert '"method": "SendStreamingMessage"' in out
    assert '"command": "model"' in out


def test_a_near_miss_stays_ordinary_and_names_the_command_meant(
    th_ext: Callable[..., Result],
) -> None:
    result = th_ext("dispatch", CARD, "/models")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("outcome    ordinary message (reaches the model)\n")
    assert (
        "reason     'models' is not registered (did you mean /model?); "
        "the registered commands are /model, /help, /review\n"
    ) in out
    assert "did you mean" not in th_ext("dispatch", CARD, "/deploy").stdout


@pytest.mark.parametrize(
    ("text", "outcome", "command", "arguments", "reason"),
    [
        ("/model fast", "command", "model", "fast", "'model' is a registered command"),
        (
            "/review  the tests ",
            "command",
            "review",
            "the tests",
            "'review' is a registered command",
        ),
        ("/help", "command", "help", "", "'help' is a registered command"),
        (
            "/models",
            "message",
            None,
            None,
            "'models' is not registered (did you mean /model?); "
            "the registered commands are /model, /help, /review",
        ),
        ("/Model", "message", None, None, "'Model' is not registered"),
        (" /model", "message", None, None, "whitespace before"),
        ("/model:x", "message", None, None, "'model:x' is not registered"),
        ("//model", "message", None, None, "'/model' is not registered"),
        ("/", "message", None, None, 'the name after "/" is empty'),
        ("what is A2A?", "message", None, None, "does not begin with"),
    ],
)
def test_the_json_output(  # noqa: PLR0917
    th_ext: Callable[..., Result],
    text: str,
    outcome: str,
    command: str | None,
    arguments: str | None,
    reason: str,
) -> None:
    result = th_ext("dispatch", CARD, text, "--format", "json")
    assert result.exit_code == 0
    plan = result.json()
    assert (plan["outcome"], plan["command"], plan["arguments"]) == (outcome, command, arguments)
    assert reason in plan["reason"]
    assert plan["request"]["body"]["params"]["message"]["parts"] == [{"text": text}]
    assert plan["expected_reply"]["kind"] == ("command-reply" if command else "model-reply")


def test_two_parts_from_a_message_file_are_an_ordinary_message(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    message = {
        "messageId": "m-2",
        "role": "ROLE_USER",
        "parts": [{"text": "/model"}, {"text": "fast"}],
    }
    path = tmp_path / "message.json"
    path.write_text(json.dumps(message))
    plan = th_ext("dispatch", CARD, "--message", str(path), "-f", "json").json()
    assert plan["outcome"] == "message"
    assert "2 parts" in plan["reason"]
    assert plan["request"]["body"]["params"]["message"] == message


def test_the_message_can_come_from_standard_input(th_ext: Callable[..., Result]) -> None:
    message = (EXAMPLES / "unregistered-command.json").read_text()
    plan = th_ext("dispatch", CARD, "--message", "-", "-f", "json", input=message).json()
    assert plan["outcome"] == "message"
    assert plan["reason"].startswith("'models' is not registered")


def test_the_card_can_come_from_standard_input(th_ext: Callable[..., Result]) -> None:
    result = th_ext(
        "dispatch", "-", "/help", "-f", "json", input=(EXAMPLES / "card.json").read_text()
    )
    assert result.exit_code == 0
    assert result.json()["source"] == "<stdin>"


def test_a_base_url_and_a_card_url_are_read_like_validate(
    th_ext: Callable[..., Result], demo_agent: Callable[[DemoVariant], DemoServer]
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    for source in (server.base_url, server.card_url):
        plan = th_ext("dispatch", source, "/model fast", "-f", "json").json()
        assert plan["source"] == server.card_url
        assert plan["outcome"] == "command"
        assert plan["request"]["url"] == server.base_url + "/a2a"


def test_a_card_without_the_extension_says_why(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["capabilities"]["extensions"] = []
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(card))
    result = th_ext("dispatch", str(path), "/model fast")
    assert result.exit_code == 0
    assert "outcome    ordinary message" in result.stdout
    assert "does not declare the commands extension" in result.stdout
    assert "commands extension not declared" in result.stdout


def test_a_card_that_does_not_stream_uses_send_message(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["capabilities"]["streaming"] = False
    path = tmp_path / "nostream.json"
    path.write_text(json.dumps(card))
    plan = th_ext("dispatch", str(path), "/model", "-f", "json").json()
    assert plan["request"]["body"]["method"] == "SendMessage"
    assert plan["request"]["headers"]["Accept"] == "application/json"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("no-such-card.json", "/model"), "no-such-card.json: no such file"),
        ((CARD,), "give the message either as TEXT or with --message"),
        ((CARD, "/model", "--message", CARD), "give the message either as TEXT"),
        (("-", "--message", "-"), "cannot both come from standard input"),
        ((CARD, "--message", "no-such-message.json"), "no-such-message.json: cannot be read"),
        ((CARD, "--message", CARD), "messageId is missing"),
        (("http://127.0.0.1:9/", "/model", "--timeout", "2"), "http://127.0.0.1:9/"),
        ((CARD, "/model", "--timeout", "0"), "--timeout must be a positive number"),
    ],
)
def test_unusable_input_is_one_line_and_exit_2(
    th_ext: Callable[..., Result], args: tuple[str, ...], message: str
) -> None:
    result = th_ext("dispatch", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("th-ext: error: ")
    assert result.stderr.count("\n") == 1
    assert message in result.stderr


def test_a_0_3_card_is_unusable(th_ext: Callable[..., Result], tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"name": "old", "url": "http://127.0.0.1:1/", "capabilities": {}}))
    result = th_ext("dispatch", str(path), "/model")
    assert result.exit_code == 2
    assert "A2A 0.3 card" in result.stderr


def test_live_needs_a_jsonrpc_interface(th_ext: Callable[..., Result], tmp_path: Path) -> None:
    card = json.loads((EXAMPLES / "card.json").read_text())
    card["supportedInterfaces"][0]["protocolBinding"] = "GRPC"
    path = tmp_path / "grpc.json"
    path.write_text(json.dumps(card))
    assert th_ext("dispatch", str(path), "/model").exit_code == 0
    result = th_ext("dispatch", str(path), "/model", "--live")
    assert result.exit_code == 2
    assert "no JSON-RPC interface" in result.stderr


def test_header_values_are_not_printed(th_ext: Callable[..., Result]) -> None:
    result = th_ext(
        "dispatch",
        CARD,
        "/model",
        "-H",
        "Authorization: Bearer secret-token",
        "--header-origin",
        "http://127.0.0.1:8000",
    )
    assert result.exit_code == 0
    assert "secret-token" not in result.stdout + result.stderr
    assert "1 header from --header, not shown" in result.stdout
    assert result.stderr == ""


def test_a_card_file_gives_its_interface_no_headers_unless_named(
    th_ext: Callable[..., Result],
) -> None:
    result = th_ext("dispatch", CARD, "/model", "-H", "Authorization: Bearer secret-token")
    assert result.exit_code == 0
    assert "secret-token" not in result.stdout + result.stderr
    assert "from --header" not in result.stdout
    assert result.stderr == (
        "th-ext: note: the --header value was not sent to http://127.0.0.1:8000: it is not "
        "the origin of the URL given (allow it with --header-origin)\n"
    )


def test_a_bug_is_one_line_unless_debug(
    th_ext: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    def broken(card: object, message: object) -> None:
        raise RuntimeError("boom")

    dispatch = importlib.import_module("th_ext.dispatch")
    monkeypatch.setattr(dispatch, "plan_dispatch", broken)
    result = th_ext("dispatch", CARD, "/model")
    assert result.exit_code == 2
    assert result.stderr == (
        "th-ext: error: internal error (RuntimeError: boom); rerun with --debug for the traceback\n"
    )
    with pytest.raises(RuntimeError, match="boom"):
        th_ext("dispatch", CARD, "/model", "--debug")


def test_the_card_line_lists_ten_commands_each_cut_and_counts_the_rest(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card = json.loads(Path(CARD).read_text(encoding="utf-8"))
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands += [
        {"name": "x" * 100_000 if n == 0 else f"c{n}", "description": "d"} for n in range(12)
    ]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = th_ext("dispatch", str(path), "/model fast")
    [line] = [line for line in result.stdout.splitlines() if line.startswith("card ")]
    assert line.endswith(
        "commands /model, /help, /review, /" + "x" * 38 + "…, /c1, /c2, /c3, /c4, /c5, /c6, "
        "… (15 in all)"
    )
