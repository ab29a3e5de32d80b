"""``make samples``: rewrite the console samples of the README and the site from real runs.

Each ``<!-- sample -->`` block (see ``tests/support/doc_samples.py``) is run as the samples
test runs it, and a whole sample is replaced by what its commands print now, with the ports,
UUIDs, durations and timestamps it showed before, so that only what the tool now prints
differently changes. An excerpt (``<!-- sample: excerpt -->``) is not rewritten: it is checked,
and when it no longer matches, the tool prints where and the whole real output to choose the
lines from. ``python tools/update_samples.py --check`` rewrites nothing and exits 1 when a
sample differs (the test does the same).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.doc_samples import (  # noqa: E402
    Sample,
    SampleRunner,
    differences,
    find_samples,
    sample_files,
    snapshot_repo,
)

#: pre-commit's store, kept between runs so that the hook's environment is installed once.
PRE_COMMIT_HOME = REPO / "build" / "samples" / "pre-commit-home"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="rewrite nothing; exit 1 on a drift")
    parser.add_argument("files", nargs="*", type=Path, help="only these Markdown files")
    args = parser.parse_args()
    files = [path.resolve() for path in args.files] or sample_files()
    drifted = 0
    with tempfile.TemporaryDirectory(prefix="th-ext-samples-") as scratch:
        work = Path(scratch)
        hook = None
        if any("pre-commit run" in s.text for path in files for s in find_samples(path)):
            (work / "hook-repo").mkdir()
            hook = (work / "hook-repo", snapshot_repo(work / "hook-repo"))
        PRE_COMMIT_HOME.mkdir(parents=True, exist_ok=True)
        with SampleRunner(work / "runs", hook_repo=hook, pre_commit_home=PRE_COMMIT_HOME) as run:
            (work / "runs").mkdir()
            for path in files:
                drifted += _update(path, run, check=args.check)
    if drifted:
        verb = "differ from" if args.check else "could not be rewritten from"
        print(f"{drifted} sample(s) {verb} a real run", file=sys.stderr)
        return 1
    return 0


def _update(path: Path, run: SampleRunner, *, check: bool) -> int:
    """Rewrite the whole samples of ``path``; the number left differing."""
    samples = find_samples(path)
    text = path.read_text(encoding="utf-8")
    replaced: list[tuple[Sample, str]] = []
    drifted = 0
    for sample in samples:
        transcript = run.transcript(sample)
        problem = differences(sample, transcript)
        if not problem:
            print(f"ok       {sample.name}")
            continue
        if check or sample.excerpt:
            drifted += 1
            print(f"DIFFERS  {sample.name}\n{_indent(problem)}")
            if sample.excerpt:
                print(f"  the whole real output, to choose the lines from:\n{_indent(transcript)}")
            continue
        print(f"updated  {sample.name}")
        replaced.append((sample, transcript))
    for sample, transcript in reversed(replaced):  # from the end, so offsets stay right
        text = text[: sample.start] + transcript + text[sample.end :]
    if replaced:
        path.write_text(text, encoding="utf-8")
    return drifted


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.rstrip("\n").split("\n"))


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    sys.exit(main())
