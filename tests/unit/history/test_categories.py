"""Every problem and error code th-ext can emit has a stable category, and an outcome's
primary category is its most fundamental problem's."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
from pathlib import Path

import pytest

import th_ext
from th_ext import ThExtError
from th_ext.history import (
    CATEGORIES,
    CODE_CATEGORIES,
    category_of,
    category_of_code,
    problem_counts,
    signature_status,
)
from th_ext.report import error_record
from th_ext.validate import validate_bytes

PACKAGE = Path(th_ext.__file__).resolve().parent
CARD = (PACKAGE.parents[1] / "extensions/commands/v1/examples/card.json").read_bytes()
KEBAB = re.compile(r"[a-z][a-z0-9-]*")  # and no "--", no "-" at the end (see kebab)


def kebab(text: str) -> bool:
    return bool(KEBAB.fullmatch(text)) and "--" not in text and not text.endswith("-")


def emitted_codes(sources: dict[str, str]) -> dict[str, str]:
    """The codes the modules' text hands to a problem or an error, each with where: the second
    argument of ``Problem(...)``, a ``code=`` keyword, the ``code`` parameter of any function
    the modules define, a ``"code": ...`` member, a class's ``code = ...``."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    positions = {"Problem": 1}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                names = names[1:] if names[:1] in (["self"], ["cls"]) else names
                if "code" in names:
                    positions[node.name] = names.index("code")
    found: dict[str, str] = {}

    def add(value: ast.expr | None, where: str) -> None:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            if kebab(value.value):
                found.setdefault(value.value, where)
        elif isinstance(value, ast.IfExp):
            add(value.body, where)
            add(value.orelse, where)

    for name, tree in trees.items():
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        add(keyword.value, where)
                if called in positions and len(node.args) > positions[called]:
                    add(node.args[positions[called]], where)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        add(value, where)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                    add(node.value, where)
                # a registry of codes some of which are built (``f"card-{name}-malformed"``)
                named = [t.id for t in targets if isinstance(t, ast.Name)]
                if any(name.endswith("_CODES") for name in named) and isinstance(
                    node.value, ast.Tuple | ast.List | ast.Set
                ):
                    for element in node.value.elts:
                        add(element, where)
    return found


def package_codes() -> dict[str, str]:
    sources = {
        str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
        if "history" not in path.relative_to(PACKAGE).parts  # the registry itself
    }
    codes = emitted_codes(sources)
    # an error without a code of its own is named after its class (``error_record``); every
    # module is imported, so that each error class is seen however the tests were ordered
    for module in pkgutil.walk_packages(th_ext.__path__, "th_ext."):
        if not module.name.endswith("__main__"):  # which would run the command line
            importlib.import_module(module.name)
    for error in _subclasses(ThExtError):
        if not error.__module__.startswith("th_ext.") or error.__module__.startswith(
            "th_ext.history"  # the store's own errors, never an outcome's
        ):
            continue
        try:
            instance = error("x")
        except TypeError:
            continue
        codes.setdefault(error_record(instance, "validate", "s")["error"]["code"], error.__name__)
    return codes


def _subclasses(cls: type[ThExtError]) -> list[type[ThExtError]]:
    found: list[type[ThExtError]] = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_code_th_ext_emits_has_a_category() -> None:
    codes = package_codes()
    assert len(codes) > 50  # the collector sees the whole package
    assert {"invalid-json", "network-error", "http-error", "signature-invalid"} <= set(codes)
    missing = {code: where for code, where in codes.items() if code not in CODE_CATEGORIES}
    assert missing == {}


def test_the_collector_finds_a_code_that_has_no_category() -> None:
    module = (
        "def _error(code, path):\n    return Problem('error', code, path, 'm')\n"
        "x = _error('brand-new-code', '')\n"
        "y = Problem('warning', 'other-new-code', '', 'm')\n"
        "KNOWN_CODES = ('fourth-new-code',)\n"
        "class E(Exception):\n    code = 'third-new-code'\n"
    )
    found = emitted_codes({"new.py": module})
    assert set(found) == {"brand-new-code", "other-new-code", "third-new-code", "fourth-new-code"}
    assert not set(found) & set(CODE_CATEGORIES)


def test_every_category_a_code_names_is_on_the_list_and_the_list_is_stable() -> None:
    names = [c.name for c in CATEGORIES]
    assert names == [
        "passed",
        "unreachable",
        "http-status",
        "caching",
        "not-a-card",
        "card-invalid",
        "extension-invalid",
        "signature",
        "protocol",
        "conformance",
        "bad-input",
        "other",
    ]
    assert set(CODE_CATEGORIES.values()) <= set(names)


def report(card: bytes, **options: object) -> dict[str, object]:
    return validate_bytes(card, source="card.json").to_dict()


def changed(edit: object) -> bytes:
    card = json.loads(CARD)
    assert callable(edit)
    edit(card)
    return json.dumps(card).encode()


def test_a_valid_card_is_passed_and_each_layer_has_its_own_category() -> None:
    assert category_of(report(CARD), 0) == "passed"
    assert category_of(report(b"{"), 2) == "not-a-card"

    def bad_name(card: dict) -> None:  # type: ignore[type-arg]
        card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Bad Name"

    extension = report(changed(bad_name))
    assert category_of(extension, int(extension["exit_code"])) == "extension-invalid"  # type: ignore[call-overload]

    def no_name(card: dict) -> None:  # type: ignore[type-arg]
        del card["name"]
        bad_name(card)

    both = report(changed(no_name))
    # the card's own error comes before its extension's
    assert category_of(both, 1) == "card-invalid"
    assert problem_counts(both)["command-name-pattern"] == 1


@pytest.mark.parametrize(
    ("code", "category"),
    [
        ("network-error", "unreachable"),
        ("timeout", "unreachable"),
        ("http-error", "http-status"),
        ("too-large", "not-a-card"),
        ("bad-list-line", "bad-input"),
        ("conform", "card-invalid"),
        ("never-heard-of", "other"),
    ],
)
def test_an_error_document_takes_its_codes_category(code: str, category: str) -> None:
    document = {"source": "s", "exit_code": 2, "error": {"code": code, "message": "m"}}
    assert category_of(document, 2) == category
    assert problem_counts(document) == {code: 1}


def test_conform_failures_are_conformance_and_core_rules_alone_are_protocol() -> None:
    failing = {
        "passed": False,
        "requirements": [{"id": "CMD-5", "status": "fail"}, {"id": "CMD-6", "status": "pass"}],
        "core": [{"id": "A2A-3.1.2", "status": "warn"}],
    }
    assert category_of(failing, 1) == "conformance"
    assert problem_counts(failing) == {"CMD-5": 1, "A2A-3.1.2": 1}
    strict = {"passed": False, "requirements": [], "core": [{"id": "A2A-3.1.2", "status": "warn"}]}
    assert category_of(strict, 1) == "protocol"
    assert category_of_code("CMD-99") == "conformance"
    assert category_of_code("A2A-8.4") == "protocol"


def test_an_unknown_code_falls_back_on_its_layer() -> None:
    assert category_of_code("new-document-rule", "document") == "not-a-card"
    assert category_of_code("new-card-rule", "card") == "card-invalid"
    assert category_of_code("new-rule") == "other"


def test_signature_status_is_the_worst_signature_finding() -> None:
    def problems(*codes: str) -> dict[str, object]:
        return {"problems": [{"code": code, "severity": "error"} for code in codes]}

    assert signature_status(problems("signature-verified")) == "verified"
    assert signature_status(problems("signature-verified", "signature-invalid")) == "invalid"
    assert signature_status(problems("signature-unverified")) == "unverified"
    assert signature_status(problems("missing-field")) is None


def test_the_site_page_lists_every_category_with_its_codes() -> None:
    page = (PACKAGE.parents[1] / "site/th-ext/history.md").read_text(encoding="utf-8")
    section = page.split("## Categories", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    listed = {}
    for row in rows:
        name, _, codes = (cell.strip() for cell in row.strip("|").split("|"))
        listed[name.strip("`")] = set(re.findall(r"`([^`]+)`", codes))
    assert list(listed) == [c.name for c in CATEGORIES]
    for category in CATEGORIES:
        wanted = {code for code, name in CODE_CATEGORIES.items() if name == category.name}
        wanted |= {"protocol": {"A2A-*"}, "conformance": {"CMD-*"}}.get(category.name, set())
        assert listed[category.name] == wanted, category.name
