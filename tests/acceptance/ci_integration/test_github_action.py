"""The GitHub Action's script, run here with the variables GitHub sets for a step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

from tests.acceptance.validate.conftest import good_card
from tests.conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "action" / "run.py"
TH_EXT = Path(sys.executable).parent / "th-ext"


def _run_action(
    workspace: Path, **inputs: str
) -> tuple[subprocess.CompletedProcess[str], str, str]:
    summary, output = workspace / "summary.md", workspace / "output.txt"
    env = {
        **os.environ,
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_ACTION_PATH": str(REPO_ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(workspace / "tmp"),
        "TH_EXT_BIN": str(TH_EXT),
        "NO_COLOR": "1",
        **{f"TH_EXT_{key.upper()}": value for key, value in inputs.items()},
    }
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done, _read(summary), _read(output)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _write_card(workspace: Path, *, broken: bool) -> None:
    card = good_card()
    if broken:
        card["capabilities"]["extensions"][0]["params"]["commands"][1]["name"] = "Help"
    folder = workspace / "agent"
    folder.mkdir()
    (folder / "agent-card.json").write_text(json.dumps(card, indent=2), encoding="utf-8")


def test_a_broken_card_annotates_its_line_and_fails_the_step(tmp_path: Path) -> None:
    _write_card(tmp_path, broken=True)
    done, summary, output = _run_action(tmp_path, card="agent/agent-card.json")
    assert done.returncode == 1, done.stderr
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 1
    assert annotations[0].startswith("::error file=agent/agent-card.json,line=")
    assert ",title=command-name-pattern::command name 'Help'" in annotations[0]
    assert "::group::th-ext validate agent/agent-card.json" in done.stdout
    assert output == "exit-code=1\n"
    junit = ET.parse(tmp_path / "th-ext-reports" / "th-ext-validate.xml").getroot()
    assert junit.get("failures") == "1"
    assert "| `th-ext validate` | `agent/agent-card.json` | ❌ problems found |" in summary
    assert "| validate | `command-name-pattern at /capabilities/extensions/0/params/" in summary


def test_a_good_card_passes_with_a_summary(tmp_path: Path) -> None:
    _write_card(tmp_path, broken=False)
    done, summary, output = _run_action(
        tmp_path, card="agent/agent-card.json", args="--strict", junit_dir="reports"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert output == "exit-code=0\n"
    assert "✅ passed" in summary
    assert "### Failures" not in summary
    assert (tmp_path / "reports" / "th-ext-validate.xml").is_file()


def test_nothing_to_check_is_an_error(tmp_path: Path) -> None:
    done, summary, output = _run_action(tmp_path)
    assert done.returncode == 2
    assert done.stdout.startswith("::error title=th-ext::give the action a card")
    assert output == "exit-code=2\n"
    assert "Nothing was checked" in summary


def test_an_unreadable_card_could_not_be_checked(tmp_path: Path) -> None:
    done, summary, _ = _run_action(tmp_path, card="missing.json")
    assert done.returncode == 2
    assert "could not check" in summary


def test_action_metadata_runs_this_script_with_its_inputs() -> None:
    action = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"card", "agent-url", "args", "junit-dir", "python", "keys"}
    check = next(step for step in action["runs"]["steps"] if step.get("id") == "check")
    assert "action/run.py" in check["run"]
    passed = {name.removeprefix("TH_EXT_").lower().replace("_", "-") for name in check["env"]}
    assert {"card", "agent-url", "args", "junit-dir", "keys"} <= passed


def test_the_keys_input_verifies_the_cards_signature(tmp_path: Path) -> None:
    from tests.support.signing import make_key
    from th_ext.signatures import sign_card

    key = make_key("ES256", "action-key")
    card = good_card()
    for command in card["capabilities"]["extensions"][0]["params"]["commands"]:
        command.pop("argument_hint", None)
    (tmp_path / "agent").mkdir()
    signed = sign_card(json.dumps(card, indent=2).encode(), key.pem, kid=key.kid).data
    (tmp_path / "agent" / "agent-card.json").write_bytes(signed)
    (tmp_path / "jwks.json").write_text(json.dumps(key.jwks()), encoding="utf-8")
    done, _, output = _run_action(tmp_path, card="agent/agent-card.json", keys="jwks.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::notice" in done.stdout and "signature-verified" in done.stdout
    tampered = json.loads(signed)
    tampered["version"] = "0.0.0-tampered"
    (tmp_path / "agent" / "agent-card.json").write_text(json.dumps(tampered), encoding="utf-8")
    done, _, output = _run_action(tmp_path, card="agent/agent-card.json", keys="jwks.json")
    assert done.returncode == 1
    assert "title=signature-invalid::" in done.stdout
    assert output.endswith("exit-code=1\n")
