"""Every console sample of the README and the site is what th-ext prints when run.

Each ``<!-- sample -->`` block is run as ``tests/support/doc_samples.py`` says (in a scratch
folder holding the example cards, against demo agents on free loopback ports, pre-commit in a
scratch repository) and compared with what it shows. Only what must vary from run to run is
normalised: the ports of 127.0.0.1, UUIDs, durations in seconds and timestamps. A sample that
drifts fails here; ``make samples`` rewrites the whole ones from real runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.doc_samples import (
    REPO,
    Sample,
    SampleRunner,
    differences,
    find_samples,
    sample_files,
    snapshot_repo,
    unmarked_outputs,
)
from tests.support.run_once import folder_once, run_folder

pytestmark = pytest.mark.slow

SAMPLES = [sample for path in sample_files() for sample in find_samples(path)]


def _sample(page: str, first_line: str) -> Sample:
    found = [s for s in find_samples(REPO / page) if s.text.startswith(first_line + "\n")]
    assert len(found) == 1, f"{page}: {len(found)} samples begin with {first_line!r}"
    return found[0]


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SampleRunner]:
    hook_folder = folder_once(tmp_path_factory, "samples-hook-repo", _snapshot)
    hook = (hook_folder, (hook_folder / ".commit").read_text())
    home = run_folder(tmp_path_factory) / "pre-commit-home"
    home.mkdir(exist_ok=True)
    work = tmp_path_factory.mktemp("samples")
    with SampleRunner(work, hook_repo=hook, pre_commit_home=home) as running:
        yield running


def _snapshot(target: Path) -> None:
    commit = snapshot_repo(target)
    (target / ".commit").write_text(commit)  # untracked: the commit is already made


def test_every_console_block_that_shows_output_is_a_sample() -> None:
    unmarked = {
        str(path.relative_to(REPO)): blocks
        for path in sample_files()
        if (blocks := unmarked_outputs(path))
    }
    assert not unmarked, f"console blocks with output but no <!-- sample --> above: {unmarked}"


def test_a_block_of_output_without_the_mark_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ th-ext extensions\nEXTENSION  STATUS\n```\n\n"
        "```text\n  error missing-field at /name (card.json:1:1)\n```\n\n"
        "```console\n$ th-ext schema commands/v1 > schema.json\n```\n\n"
        "<!-- sample -->\n```console\n$ th-ext extensions\nEXTENSION  STATUS\n```\n",
        encoding="utf-8",
    )
    assert unmarked_outputs(page) == [
        "$ th-ext extensions",
        "  error missing-field at /name (card.json:1:1)",
    ]


def test_the_samples_cover_every_command_the_docs_show_output_of() -> None:
    first = {s.text.split("\n", 1)[0] for s in SAMPLES}
    assert "$ th-ext demo" in first
    assert any(line.startswith("$ pre-commit run") for line in first)
    assert len(SAMPLES) >= 15


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_the_sample_is_what_a_real_run_prints(sample: Sample, runner: SampleRunner) -> None:
    problem = differences(sample, runner.transcript(sample))
    assert not problem, f"{sample.name}\n{problem}\n(make samples rewrites it from a real run)"


def test_a_sample_changed_on_purpose_fails(runner: SampleRunner) -> None:
    demo = _sample("site/th-ext/dispatch.md", "$ th-ext demo")
    transcript = runner.transcript(demo)
    assert differences(demo, transcript) == ""
    counts = next(line for line in demo.text.splitlines() if " passed, " in line)
    changed = counts.replace(" passed, ", "0 passed, ", 1)
    wrong = Sample(demo.path, demo.text.replace(counts, changed), demo.start, demo.end)
    problem = differences(wrong, transcript)
    assert "130 passed, 0 failed" in problem and "13 passed, 0 failed" in problem

    # A line left out of a whole sample fails too; in an excerpt, "…" may stand for it.
    lines = demo.text.splitlines(keepends=True)
    shorter = "".join(lines[:5] + lines[6:])
    assert differences(Sample(demo.path, shorter, 0, 0), transcript)
    cut = "".join([*lines[:5], "…\n", *lines[6:]])
    assert differences(Sample(demo.path, cut, 0, 0, excerpt=True), transcript) == ""
    assert differences(Sample(demo.path, cut.replace("passed", "failed"), 0, 0, True), transcript)


def test_what_varies_between_runs_is_all_that_is_normalised() -> None:
    shown = "task 6483a0eb-b1a8-43b4-90c4-389e19f1e33d at http://127.0.0.1:8000 in 1.78 s"
    sample = Sample(REPO / "README.md", f"$ th-ext x\n{shown}\n", 0, 0)
    real = "task 0d1e2f3a-b1a8-43b4-90c4-389e19f1e33d at http://127.0.0.1:41999 in 0.93 s"
    other_run = f"$ th-ext x\n{real}\n"
    assert differences(sample, other_run) == ""
    for changed in ("task", "at", "http://127.0.0.1", "in", " s"):
        assert differences(sample, other_run.replace(changed, changed.upper(), 1)), changed
