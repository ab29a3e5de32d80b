"""``th_ext.report``: every format by name, and a new one is a function and an entry."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from th_ext.report import FORMATS, FormatError, RenderOptions, render, stream, to_json
from th_ext.validate import Report, validate_bytes

CARD = Path(__file__).resolve().parents[3] / "extensions" / "commands" / "v1" / "examples"


def report() -> Report:
    return validate_bytes((CARD / "card.json").read_bytes(), source="card.json")


def test_the_formats_by_name() -> None:
    assert list(FORMATS) == [
        "text",
        "concise",
        "json",
        "jsonl",
        "junit",
        "github",
        "html",
        "sarif",
    ]


def test_jsonl_is_a_line_per_report_each_its_json() -> None:
    one = report()
    lines = render([one, one], "jsonl").splitlines()
    assert len(lines) == 2
    assert [json.loads(line) for line in lines] == [json.loads(render(one, "json"))] * 2
    document = {"source": "agent", "deep": [[[[float("inf")]]]]}
    assert json.loads(render(document, "jsonl")) == {"source": "agent", "deep": [[[["Infinity"]]]]}


def test_render_is_the_format_s_whole_text() -> None:
    one = report()
    assert render(one, "json") == to_json(one.to_dict()) + "\n"
    assert json.loads(render([one, one], "json"))[1]["valid"] is True
    assert render(one).startswith("th-ext validate card.json\n")


def test_a_new_format_is_one_function_and_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    def names(reports: Iterable[object], options: RenderOptions) -> Iterator[str]:
        for shown in reports:
            assert isinstance(shown, Report)
            yield f"{shown.source}\n"

    monkeypatch.setitem(FORMATS, "names", names)
    assert render([report(), report()], "names") == "card.json\ncard.json\n"


def test_stream_yields_as_the_reports_arrive() -> None:
    seen: list[str] = []

    def reports() -> Iterator[Report]:
        for _ in range(2):
            seen.append("checked")
            yield report()

    chunks = stream(reports(), "github", RenderOptions(many=True))
    next(chunks)
    assert seen == ["checked"]  # the first report's annotations before the second is checked


def test_a_format_that_does_not_exist_or_cannot_show_a_report() -> None:
    with pytest.raises(FormatError, match="no format named 'yaml'"):
        render(report(), "yaml")
    with pytest.raises(FormatError, match="html format cannot show a Report"):
        render(report(), "html")
