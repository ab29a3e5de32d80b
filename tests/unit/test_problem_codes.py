"""``th_ext.problems.CODES`` is the one list of problem codes: every code the code base can
report is in it, and the reference page lists exactly its codes, with the same severities."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import th_ext
from th_ext.problems import CODES, Problem, Selection
from th_ext.report import error_code
from th_ext.validate import Report

PACKAGE = Path(th_ext.__file__).parent
PAGE = Path(__file__).resolve().parents[2] / "site" / "th-ext" / "validate.md"
CODE_CHARACTERS = re.compile(r"[a-z0-9.-]+")


def kebab(text: str) -> bool:
    """A code's shape: words of ``a-z0-9.`` joined by single hyphens, the first with a letter."""
    words = text.split("-")
    return (
        CODE_CHARACTERS.fullmatch(text) is not None
        and all(words)
        and any(c.isalpha() for c in words[0])
    )


NOT_PROBLEMS = {
    # errors of the run's own options: the run stops before any source is read
    "bad-header-origin": "sources/_source.py",
    "bad-max-bytes": "sources/_source.py",
    "bad-timeout": "sources/_source.py",
    "bad-jobs": "batch/_run.py",
    "bad-per-origin": "batch/_run.py",
    "bad-origin-failures": "batch/_run.py",
    "bad-rate": "batch/_run.py",
    "bad-retries": "sources/_source.py",
    "unknown-code": "_exceptions.py",
    # only a signature's key fetch refuses another origin, and says so in signature-unverified
    "redirect-off-origin": "net/_fetch.py",
    # errors of the --db store: the run's own, never a source's
    "newer-store": "history/_store.py",
    "not-a-store": "history/_store.py",
    "store-busy": "history/_store.py",
}


def _literals(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _literals(node.body) | _literals(node.orelse)
    return set()


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _code_parameters(trees: list[ast.Module]) -> dict[str, int]:
    """Each function (or name bound to one) that takes a ``code``, and where it takes it."""
    found = {"Problem": 1}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
                names = names[1:] if names[:1] in (["self"], ["cls"]) else names
                if "code" in names:
                    found.setdefault(node.name, names.index("code"))
    for tree in trees:  # report = self.error if strict else self.warn
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):
                sides = {_name(node.value.body), _name(node.value.orelse)}
                indexes = {found[side] for side in sides if side in found}
                if len(indexes) == 1 and isinstance(node.targets[0], ast.Name):
                    found.setdefault(node.targets[0].id, indexes.pop())
    return found


def _code_returns(trees: list[ast.Module]) -> dict[str, int]:
    """Each function whose result is unpacked into a ``code`` (``code, message, hint =
    words(...)``), and the place of the code in the tuple it returns."""
    found: dict[str, int] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            target = node.targets[0]
            if isinstance(target, ast.Tuple):
                names = [_name(element) for element in target.elts]
                called = _name(node.value.func)
                if "code" in names and called is not None:
                    found[called] = names.index("code")
    return found


def _returned(trees: list[ast.Module], returns: dict[str, int]) -> dict[int, set[str]]:
    """The codes the functions of ``returns`` return, by the ``id`` of their module's tree."""
    found: dict[int, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in returns:
                index = returns[node.name]
                for inner in ast.walk(node):
                    value = inner.value if isinstance(inner, ast.Return) else None
                    if isinstance(value, ast.Tuple) and len(value.elts) > index:
                        found.setdefault(id(tree), set()).update(_literals(value.elts[index]))
    return found


def _lists_codes(node: ast.AST) -> bool:
    """``CACHING_CODES = ("card-etag-missing", ...)``: a tuple or list named ``..._CODES``."""
    return (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Tuple | ast.List)
        and any((_name(target) or "").endswith("_CODES") for target in node.targets)
    )


def _defines_codes(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.AnnAssign | ast.Assign) and "CODES" in {
        _name(target)
        for target in (
            statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        )
    }


def emitted_codes() -> dict[str, str]:
    """Every kebab-case string the package passes as a code: to ``Problem``, to a function's
    ``code`` parameter or ``code=`` keyword, as a class's ``code``, or returned where a caller
    unpacks it into its ``code``; with a file it is in."""
    paths = sorted(PACKAGE.rglob("*.py"))
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in paths]
    for tree in trees:  # the registry itself names every code: it is not a place that reports
        tree.body = [statement for statement in tree.body if not _defines_codes(statement)]
    parameters = _code_parameters(trees)
    returned = _returned(trees, _code_returns(trees))
    found: dict[str, str] = {}
    for path, tree in zip(paths, trees, strict=True):
        for code in returned.get(id(tree), ()):
            if kebab(code):
                found.setdefault(code, path.relative_to(PACKAGE).as_posix())
        for node in ast.walk(tree):
            codes: set[str] = set()
            if _lists_codes(node):  # a module's own list of the codes it reports
                assert isinstance(node, ast.Assign)
                codes |= {c for element in node.value.elts for c in _literals(element)}  # type: ignore[attr-defined]
            if isinstance(node, ast.Call):
                codes |= {c for k in node.keywords if k.arg == "code" for c in _literals(k.value)}
                index = parameters.get(_name(node.func) or "")
                if index is not None and len(node.args) > index:
                    codes |= _literals(node.args[index])
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, ast.Assign) and [
                        _name(t) for t in statement.targets
                    ] == ["code"]:
                        codes |= _literals(statement.value)
            for code in codes:
                if kebab(code):
                    found.setdefault(code, path.relative_to(PACKAGE).as_posix())
    return found


def page_codes() -> dict[str, str]:
    """The codes the reference page's "Problem codes" section lists, with the severity its
    table gives (``error`` unless marked ``(warning)`` or ``(note)``)."""
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("\n## Problem codes") : text.index("\n## In CI")]
    rows = re.findall(r"^\| `([^`]+)`(?: \((warning|note)\))? \|", section, re.MULTILINE)
    return {code: {"note": "info", "": "error"}.get(mark, mark) for code, mark in rows}


def test_every_code_the_code_base_reports_is_in_the_registry() -> None:
    emitted = emitted_codes()
    missing = {code: where for code, where in emitted.items() if code not in CODES}
    assert missing == NOT_PROBLEMS


def test_every_code_of_the_registry_is_reported_somewhere() -> None:
    # a source the batch could not check is reported with its error's code: its own, or its
    # class's name (ConformError: conform, DeadlineError: deadline)
    named = {error_code(kind("x")) for kind in (th_ext.ConformError, th_ext.DeadlineError)}
    assert set(CODES) - set(emitted_codes()) == named


def test_the_reference_page_lists_exactly_the_registry_with_its_severities() -> None:
    listed = page_codes()
    assert sorted(listed) == sorted(CODES)
    assert listed == {code: entry.severity for code, entry in CODES.items()}


def test_the_scan_finds_a_code_that_is_not_registered(tmp_path: Path) -> None:
    module = ast.parse('Problem("error", "not-a-registered-code", "", "m")')
    call = next(n for n in ast.walk(module) if isinstance(n, ast.Call))
    assert _literals(call.args[_code_parameters([module])["Problem"]]) == {"not-a-registered-code"}
    assert "not-a-registered-code" not in CODES


@pytest.mark.parametrize(
    ("selector", "kept"),
    [
        ("unknown-field", ["unknown-field"]),
        ("signature-", ["signature-invalid", "signature-verified"]),
        ("signature", ["signature-invalid", "signature-verified"]),
        ("SIGNATURE-INVALID", ["signature-invalid"]),
        ("a2a-0.3", ["a2a-0.3-card"]),
    ],
)
def test_select_keeps_a_code_or_a_family(selector: str, kept: list[str]) -> None:
    codes = ["unknown-field", "signature-invalid", "signature-verified", "a2a-0.3-card"]
    problems = [Problem("error", code, "", "m") for code in codes]
    assert [p.code for p in Selection.parse(selector, None).apply(problems)] == kept


def test_ignore_leaves_out_and_a_family_must_end_at_a_dash() -> None:
    codes = ["invalid-url", "invalid-json", "empty-field", "empty-array"]
    problems = [Problem("error", code, "", "m") for code in codes]
    assert [p.code for p in Selection.parse(None, "invalid-,empty-field").apply(problems)] == [
        "empty-array"
    ]
    # "empty" names the family empty-..., never a code that merely starts with the letters
    assert not Selection.parse("empty", None).counts("emptyish")


def test_a_problem_that_left_no_card_stays_and_more_problems_follows_its_code() -> None:
    fatal = Problem("error", "invalid-json", "", "not JSON", layer="document", fatal=True)
    more = Problem(
        "warning", "more-problems", "", "and 5 more", hidden=5, counts_code="unknown-field"
    )
    selection = Selection.parse(None, "invalid-json,unknown-field")
    assert selection.apply([fatal, more]) == [fatal]
    assert Selection.parse(None, "wrong-type").apply([fatal, more]) == [fatal, more]


@pytest.mark.parametrize(
    ("select", "ignore", "message"),
    [
        (
            "unknwn-field",
            None,
            "--select: no problem code 'unknwn-field'; did you mean 'unknown-field'?",
        ),
        (None, "sig", "--ignore: no problem code 'sig'; did you mean 'signature-'?"),
        (None, "zzzz", "--ignore: no problem code 'zzzz'"),
        (" , ", None, "--select: give one or more codes, comma-separated"),
    ],
)
def test_a_code_that_does_not_exist_is_refused_with_the_closest(
    select: str | None, ignore: str | None, message: str
) -> None:
    with pytest.raises(th_ext.UnknownCodeError) as raised:
        Selection.parse(select, ignore)
    assert str(raised.value) == message


def test_an_empty_selection_counts_every_code() -> None:
    report = Report("card.json", "card.json", [Problem("warning", "unknown-field", "/x", "m")])
    assert not Selection() and all(Selection().keeps(p) for p in report.problems)
