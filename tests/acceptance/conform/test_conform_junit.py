"""``th-ext conform --format junit`` and ``--junit-file``, run as a program against a demo agent:
the same well-formed document on both, a hostile card file name made safe, credentials redacted."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]
TH_EXT = str(Path(sys.executable).parent / "th-ext")
FILE_NAME = 'card\x1b[31m\x01<&"]]>\udcff\u202e.json'
SHOWN_NAME = 'card<&"]]>\ufffd.json'
NEVER = ("\x1b", "\x01", "\ufffe", "\u202e", "s3cret-pw")


def conform(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [TH_EXT, "conform", *args], capture_output=True, timeout=120, check=False, cwd=cwd
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def parse(document: str) -> ET.Element:
    for text in NEVER:
        assert text not in document, repr(text)
    suite = ET.fromstring(document.encode("utf-8")).find("testsuite")
    assert suite is not None
    return suite


def outcomes(suite: ET.Element) -> list[tuple[str, str]]:
    """``(requirement ID, outcome)`` of every test case."""
    return [
        (case.get("name", "").split(":")[0], next((child.tag for child in case), "pass"))
        for case in suite.iter("testcase")
    ]


def test_stdout_and_the_junit_file_agree_and_hide_the_credentials(
    conform_agent: Agent, tmp_path: Path
) -> None:
    agent = conform_agent(DemoVariant.USER_ROLE)
    url = agent.card_url.replace("http://", "http://user:s3cret-pw@", 1)
    report = tmp_path / "conform.xml"
    code, out, err = conform(url, "--format", "junit", "--junit-file", str(report))
    assert code == 1, err
    from_file = report.read_text(encoding="utf-8")
    suites = [parse(out), parse(from_file)]
    assert outcomes(suites[0]) == outcomes(suites[1])
    for suite in suites:
        counts = [suite.get(key) for key in ("tests", "failures", "errors", "skipped")]
        assert counts == ["17", "1", "0", "4"]
        assert [id_ for id_, outcome in outcomes(suite) if outcome == "failure"] == ["CMD-9"]
        properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
        assert properties["agent"] == agent.card_url.replace("http://", "http://***@", 1)


def test_a_hostile_card_file_name_is_made_safe(conform_agent: Agent, tmp_path: Path) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card = httpx.get(agent.card_url, timeout=10).json()
    (tmp_path / FILE_NAME).write_text(json.dumps(card), encoding="utf-8")
    code, out, err = conform(FILE_NAME, "--format", "junit", cwd=tmp_path)
    assert code == 0, err
    suite = parse(out)
    assert suite.get("failures") == "0"
    assert len(outcomes(suite)) == int(suite.get("tests", "0")) == 17
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["agent"] == SHOWN_NAME


def suite_names(document: str) -> list[str]:
    return [suite.get("name", "") for suite in ET.fromstring(document.encode()).iter("testsuite")]


def test_each_agent_s_suites_are_named_after_it(conform_agent: Agent, tmp_path: Path) -> None:
    good, broken = conform_agent(DemoVariant.CORRECT), conform_agent(DemoVariant.USER_ROLE)
    unreachable = "http://127.0.0.1:1"
    report = tmp_path / "conform.xml"
    code, _, err = conform(
        good.base_url, broken.base_url, unreachable, "--junit-file", str(report), "--quiet"
    )
    assert code == 2, err
    assert suite_names(report.read_text(encoding="utf-8")) == [
        f"th-ext.conform {good.card_url}",
        f"th-ext.conform.core-a2a {good.card_url}",
        f"th-ext.conform {broken.card_url}",
        f"th-ext.conform.core-a2a {broken.card_url}",
        f"th-ext conform {unreachable}",
    ]
    # A CI system keys a test case by its class name and name: two agents' cases stay apart.
    cases = [
        (case.get("classname", ""), case.get("name", ""))
        for case in ET.fromstring(report.read_bytes()).iter("testcase")
    ]
    assert len(set(cases)) == len(cases)
    for agent in (good, broken):
        mine = {classname for classname, _ in cases if classname.endswith(f" {agent.card_url}")}
        assert {classname.split(" ")[0] for classname in mine} == {
            "th-ext.conform.MUST",
            "th-ext.conform.SHOULD",
        }
    code, out, err = conform(good.base_url, "--format", "junit")
    assert (code, suite_names(out)) == (0, ["th-ext.conform", "th-ext.conform.core-a2a"]), err
    assert not any(" " in case.get("classname", "") for case in ET.fromstring(out).iter("testcase"))
