"""A JSON syntax error names its line and column, shows the line with a caret, and guesses why."""

from __future__ import annotations

import json

import pytest

from th_ext.validate import parse_document
from th_ext.validate._document import SyntaxExplanation, explain, parse_text


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


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (
            '{"a": 1,}',
            "remove the comma before this closing bracket: JSON allows no trailing comma",
        ),
        ('{"a": 1,', "remove the comma before this closing bracket: JSON allows no trailing comma"),
        ("{'a': 1}", "use double quotes: JSON strings and keys are in double quotes"),
        ('{"a": 1 /* note */}', "remove the comment: JSON has no comments"),
        ("{name: 1}", "quote the key: JSON keys are strings in double quotes"),
        ("{Name: 1}", "quote the key: JSON keys are strings in double quotes"),
        ("{$ref: 1}", "quote the key: JSON keys are strings in double quotes"),
        ('{"a": 1,X}', "quote the key: JSON keys are strings in double quotes"),
        ("{1: 2}", "check the card with a JSON parser near this place"),
        ('{"a": x}', "check the card with a JSON parser near this place"),
        (
            '{"url": "{{BASE_URL}}/a2a", "b" 1}',
            "the template placeholder {{BASE_URL}} was left in: fill it in before serving the card",
        ),
        (
            '{"url": <%= url %>}',
            "the template placeholder <%= url %> was left in: fill it in before serving the card",
        ),
        (
            '{"url": {BASE_URL}}',
            "the template placeholder {BASE_URL} was left in: fill it in before serving the card",
        ),
    ],
)
def test_each_hint_is_said_whole(text: str, hint: str) -> None:
    assert _problem(text)[1] == hint


HTML_HINT = "this is an HTML page, not a card: an HTML page here usually means a wrong URL"


@pytest.mark.parametrize(
    "text",
    [
        "<!DOCTYPE html>\n<title>Not found</title>",
        "<html><body>Not found</body></html>",
        "<HTML><BODY>Not found</BODY></HTML>",
        "<head><title>Not found</title></head>",
        "<body>Not found</body>",
        "\n  <body>Not found</body>",
        '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"></html>',
        "<!-- served by the proxy -->\n<html></html>",
    ],
)
def test_an_html_page_is_recognised_by_its_start(text: str) -> None:
    assert _problem(text)[1] == HTML_HINT


def test_only_the_first_200_characters_are_searched_for_html() -> None:
    preamble = "<!-- " + "x" * 186 + " -->"
    assert len(preamble) == 195
    assert _problem(preamble + "<html></html>")[1] == HTML_HINT
    assert _problem(preamble + " <html></html>")[1] == (
        "check the card with a JSON parser near this place"
    )


def test_the_caret_sits_under_the_column_in_the_middle_of_a_long_line() -> None:
    line = '{"description": "' + "x" * 300 + '" "oops": 1, "tail": "' + "y" * 300 + '"}'
    message, _, excerpt = _problem(line)
    column = len('{"description": "' + "x" * 300 + '" ') + 1
    assert message == f"not JSON: Expecting ',' delimiter at line 1 column {column}"
    start = column - 1 - 60
    assert excerpt == f"{line[start : start + 120]}\n{' ' * 60}^"


def test_a_long_line_with_the_error_near_its_start_is_shown_from_its_start() -> None:
    line = '{"a" 1, "description": "' + "x" * 300 + '"}'
    _, _, excerpt = _problem(line)
    assert excerpt == f"{line[:120]}\n     ^"


def test_a_line_of_exactly_the_window_is_shown_whole() -> None:
    line = '{"a" 1, "b": "' + "x" * 104 + '"}'
    assert len(line) == 120
    _, _, excerpt = _problem(line)
    assert excerpt == f"{line}\n     ^"


def test_an_error_at_the_start_of_a_line_has_the_caret_in_the_first_column() -> None:
    message, _, excerpt = _problem('{"a": 1\n"b": 2}')
    assert message == "not JSON: Expecting ',' delimiter at line 2 column 1"
    assert excerpt == '"b": 2}\n^'


def test_a_tab_is_shown_as_one_space_so_the_caret_stays_under_the_column() -> None:
    _, _, excerpt = _problem('{\t"a"\t1}')
    assert excerpt == '{ "a" 1}\n      ^'
    _, _, excerpt = _problem('{\n\t\t"a" 1\n}')
    assert excerpt == '  "a" 1\n      ^'


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{\r\n  "a" 1   \r\n}', '  "a" 1   '),
        ('{\r\n  "a" 1 X\r\n}', '  "a" 1 X'),
    ],
)
def test_a_crlf_line_ending_is_left_out_of_the_excerpt(text: str, line: str) -> None:
    message, _, excerpt = _problem(text)
    assert message == "not JSON: Expecting ':' delimiter at line 2 column 7"
    assert excerpt == f"{line}\n      ^"


def test_an_empty_text_is_not_json_at_its_first_column() -> None:
    (problem,) = parse_text("").problems
    assert (problem.code, problem.message, problem.excerpt) == (
        "invalid-json",
        "not JSON: Expecting value at line 1 column 1",
        "\n^",
    )


def test_the_explanation_names_the_line_and_the_column() -> None:
    text = '{\n  "name": "a",\n  "version": 1.0.0\n}'
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    assert explain(text, caught.value) == SyntaxExplanation(
        "not JSON: Expecting ',' delimiter at line 3 column 17",
        "check the card with a JSON parser near this place",
        '  "version": 1.0.0\n                ^',
        3,
        17,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"name": "x', "not JSON: Unterminated string starting at line 1 column 10"),
        ('{"a": "b\x01"}', "not JSON: Invalid control character at line 1 column 9"),
        ('{"a": 1', "not JSON: Expecting ',' delimiter at line 1 column 8"),
        ("", "not JSON: Expecting value at line 1 column 1"),
    ],
)
def test_the_position_is_named_once(text: str, message: str) -> None:
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text)
    error = raised.value
    explained = explain(text, error)
    assert explained.message == message
    assert explained.message.count(" at ") == 1
    assert (explained.line, explained.column) == (error.lineno, error.colno)


def test_the_problem_carries_the_line_and_column() -> None:
    document = parse_document(b'{\n  "name": "x')
    problem = document.problems[-1]
    assert (problem.code, problem.line, problem.column) == ("invalid-json", 2, 11)
    assert problem.to_dict()["line"] == 2
