"""CONTRIBUTING.md's steps for a new extension version, followed word for word on a copy of the
repository: its shell commands run as written (with the next free version name), its edits of
``extension.toml`` made as it says, ``make diagrams``'s drawing run, and the site then builds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import in_ci
from tests.support.site_build import build_site, copy_project_for_build

pytestmark = pytest.mark.slow

MERMAID = Path("tools/diagrams/node_modules/mermaid/dist/mermaid.min.js")


def _steps(repo_root: Path) -> str:
    text = (repo_root / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split("## Start a new extension version", 1)[1].split("\n## ", 1)[0]


def _shell_blocks(steps: str) -> list[str]:
    """Each ``bash`` block of the steps, its lines (indented as list items) unindented."""
    blocks = re.findall(r"```bash\n(.*?)```", steps, re.S)
    return ["\n".join(line.strip() for line in block.strip().splitlines()) for block in blocks]


def _draft_start(meta_path: Path, change: str, date: str) -> None:
    """Step 3: draft status, one dated history entry (the copied errata stay)."""
    text = meta_path.read_text(encoding="utf-8")
    text = text.replace('status = "stable"', 'status = "draft"', 1)
    head, _, rest = text.partition("[[history]]")
    kept = re.split(r"(?m)^(?=\[\[)", rest)
    others = [t for t in kept[1:] if not t.startswith("[[history]]")]
    entry = f'[[history]]\ndate = "{date}"\nchange = "{change}"\n\n'
    meta_path.write_text(head + entry + "".join(others), encoding="utf-8")


def test_the_new_version_steps_work_as_written(repo_root: Path, tmp_path: Path) -> None:
    steps = _steps(repo_root)
    commands = _shell_blocks(steps)
    assert commands[0] == "cp -r extensions/commands/v1 extensions/commands/v2"
    assert commands[2] == "make diagrams"
    assert "needs a `date`" in steps and "make diagrams" in steps
    if not (repo_root / MERMAID).is_file():
        if in_ci():
            pytest.fail(f"{MERMAID} is missing: make test installs it (make diagram-tool)")
        pytest.skip(f"{MERMAID} is missing: run make diagram-tool")
    project = copy_project_for_build(repo_root, tmp_path / "project")
    taken = {int(p.name[1:]) for p in (project / "extensions/commands").glob("v[0-9]*")}
    new = f"v{max(taken) + 1}"

    # Steps 1 and 2, as written, with the next free version in place of v2.
    for command in commands[:2]:
        shell = command.replace("/commands/v2", f"/commands/{new}").replace('"v2"', f'"{new}"')
        shell = shell.replace(" v2/", f" {new}/").replace("\\1 v2", f"\\1 {new}")
        subprocess.run(["bash", "-c", shell], cwd=project, check=True, timeout=60)
    folder = project / "extensions/commands" / new
    assert json.loads((folder / "schema.json").read_bytes())["$id"].endswith(
        f"/commands/{new}/schema.json"
    )
    meta = tomllib.loads((folder / "extension.toml").read_text(encoding="utf-8"))
    assert (meta["version"], meta["title"]) == (new, f"Commands extension {new}")
    _draft_start(folder / "extension.toml", "Started from v1.", "2026-12-04")
    meta = tomllib.loads((folder / "extension.toml").read_text(encoding="utf-8"))
    assert meta["status"] == "draft" and meta["errata"]
    assert meta["history"] == [{"date": "2026-12-04", "change": "Started from v1."}]

    # Without step 4 the build stops, and says what to run.
    before = build_site(project, tmp_path / "before")
    assert before.returncode != 0
    assert "has no drawing" in before.output and "make diagrams" in before.output

    # Step 4: make diagrams (its recipe, on the copy's extensions), then step 5's site build.
    subprocess.run(
        [sys.executable, str(repo_root / "tools/render_diagrams.py"), str(project / "extensions")],
        check=True,
        timeout=300,
        capture_output=True,
    )
    after = build_site(project, tmp_path / "after")
    assert after.returncode == 0, after.output
    page = (after.site_dir / f"a2a/ext/commands/{new}/index.html").read_text(encoding="utf-8")
    assert "Draft: not published yet" in page
    assert f"/commands/{new}" in page and "Open the diagram full size" in page
