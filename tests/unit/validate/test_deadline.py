"""The deadline passed to a validation bounds that validation alone, without signals: in a worker
thread, beside other validations, and on an event loop, even when the time goes to a schema's
backtracking pattern."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest

from tests.unit.validate.conftest import COMMANDS_URI, commands_schema, example_card
from th_ext import DeadlineError
from th_ext._deadline import Deadline
from th_ext.validate import Report, SchemaOverride, ValidateOptions, validate_bytes, validate_value
from th_ext.validate._document import parse_text

HOSTILE = "^(a|a)*$"  # the pattern engine explores every way to split a run of "a"


def _hostile() -> tuple[bytes, ValidateOptions]:
    """A card whose first command name makes ``HOSTILE`` backtrack, and a --schema with it."""
    schema = commands_schema()
    schema["$defs"]["CommandSpec"]["properties"]["name"]["pattern"] = HOSTILE
    card = example_card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "a" * 64 + "!"
    options = ValidateOptions(extensions=(COMMANDS_URI,), schema=SchemaOverride(schema, "s.json"))
    return json.dumps(card).encode(), options


def _in_thread(work: Any) -> BaseException | Report:
    outcome: list[BaseException | Report] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return outcome[0]


def test_a_hostile_pattern_in_a_worker_thread_ends_at_the_deadline() -> None:
    data, options = _hostile()
    start = time.monotonic()
    outcome = _in_thread(
        lambda: validate_bytes(
            data, source="c", options=options, deadline=Deadline.after(0.3, "too slow")
        )
    )
    assert time.monotonic() - start < 10
    assert isinstance(outcome, DeadlineError)
    assert str(outcome) == "too slow"


def test_each_validation_is_bounded_by_its_own_deadline() -> None:
    """A hostile card with a short deadline and a plain one with a long deadline, at once."""
    data, options = _hostile()
    plain = json.dumps(example_card()).encode()
    results: dict[str, BaseException | Report] = {}

    def hostile() -> Report:
        return validate_bytes(data, source="h", options=options, deadline=Deadline.after(0.3))

    def good() -> Report:
        time.sleep(0.05)
        return validate_bytes(plain, source="g", deadline=Deadline.after(30))

    threads = [
        threading.Thread(target=lambda: results.setdefault("hostile", _in_thread(hostile))),
        threading.Thread(target=lambda: results.setdefault("good", _in_thread(good))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert isinstance(results["hostile"], DeadlineError)
    good_report = results["good"]
    assert isinstance(good_report, Report)
    assert good_report.exit_code == 0


def test_validations_on_an_event_loop_keep_their_own_deadlines() -> None:
    data, options = _hostile()
    plain = json.dumps(example_card()).encode()

    async def both() -> tuple[Any, Any]:
        return await asyncio.gather(
            asyncio.to_thread(
                validate_bytes, data, source="h", options=options, deadline=Deadline.after(0.3)
            ),
            asyncio.to_thread(validate_bytes, plain, source="g", deadline=Deadline.after(30)),
            return_exceptions=True,
        )

    hostile, good = asyncio.run(both())
    assert isinstance(hostile, DeadlineError)
    assert isinstance(good, Report)
    assert good.exit_code == 0


def test_without_a_deadline_the_same_card_is_answered_by_a_linear_pattern() -> None:
    data, options = _hostile()
    schema = options.schema
    assert schema is not None
    schema.schema["$defs"]["CommandSpec"]["properties"]["name"]["pattern"] = "^(a+)+$"
    report = validate_bytes(data, source="c", options=options)
    assert any(p.message == f"'{'a' * 64}!' does not match '^(a+)+$'" for p in report.problems)


def test_a_deadline_that_has_passed_stops_any_validation() -> None:
    passed = Deadline(time.monotonic() - 1, "over")
    with pytest.raises(DeadlineError, match=r"^over$"):
        validate_bytes(json.dumps(example_card()).encode(), source="c", deadline=passed)
    with pytest.raises(DeadlineError, match=r"^over$"):
        validate_value(example_card(), deadline=passed)


def test_a_deadline_stops_the_walk_of_a_large_document() -> None:
    text = json.dumps({"rows": [[{"a": [1]}] for _ in range(20_000)]})
    assert not parse_text(text, Deadline.after(30)).problems
    with pytest.raises(DeadlineError, match=r"^over$"):
        parse_text(text, Deadline(time.monotonic() - 1, "over"))


def test_a_deadline_not_reached_changes_nothing() -> None:
    data = json.dumps(example_card()).encode()
    assert validate_bytes(data, source="c", deadline=Deadline.after(30)).to_dict() == (
        validate_bytes(data, source="c").to_dict()
    )
