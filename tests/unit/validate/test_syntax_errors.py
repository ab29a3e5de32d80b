"""A JSON syntax error names its line and column, shows the line with a caret, and guesses why."""

from __future__ import annotations

import pytest

from th_ext.validate import parse_document


def _problem(text: str) -> tuple[str, str, str]:
    document = parse_document(text.encode())
    problem = document.problems[-1]
    assert (problem.code, problem.fatal) == ("invalid-json", True)
    return problem.message, problem.hint, problem.excerpt


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('{\n  "name": "a",\n}', "remove the comma before this closing bracket"),
        ('{"skills": [1, 2,]}', "remove the comma before this closing bracket"),
        ("{'name': 'a'}", "use double quotes"),
        ('{\n  // the name\n  "name": "a"\n}', "remove the comment"),
        ('{"a": 1, # note\n}', "remove the comment"),
        ("{name: 1}", "quote the key"),
        ('{"url": {{BASE_URL}}/a2a}', "the template placeholder {{BASE_URL}} was left in"),
        ('{"url": ${URL}}', "the template placeholder ${URL} was left in"),
        ("<!DOCTYPE html><html><body>Not found</body></html>", "this is an HTML page"),
    ],
)
def test_the_likely_cause_is_named(text: str, hint: str) -> None:
    assert _problem(text)[1].startswith(hint)


def test_the_line_is_shown_with_a_caret_under_the_column() -> None:
    message, _, excerpt = _problem('{\n  "name": "a",\n  "version": 1.0.0\n}')
    assert message == "not JSON: Expecting ',' delimiter at line 3 column 17"
    assert excerpt == '  "version": 1.0.0\n                ^'


def test_a_long_line_is_cut_around_the_column() -> None:
    text = '{"description": "' + "x" * 500 + '" "oops": 1}'
    _, _, excerpt = _problem(text)
    line, caret = excerpt.split("\n")
    assert len(line) == 120
    assert line[len(caret) - 1] == '"'


def test_the_html_hint_is_kept_for_html() -> None:
    assert not _problem('{"a": 1,}')[1].startswith("this is an HTML page")
