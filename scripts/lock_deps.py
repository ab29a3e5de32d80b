"""Write requirements/site.txt: every package the site build installs, pinned with its hashes.

The Pages subtree (the pages tiny-harness's docs workflow deploys) is built by MkDocs, Material
and their dependencies. Installed from the index on the day, one commit could deploy different
bytes on two days; installed from this file (``pip install --require-hashes``), it deploys the
same. The file holds th-ext's dependencies with its ``site`` extra, and the build backend that
installs th-ext itself, resolved by pip-compile for Python 3.11. Its first lines record the
sha256 of those inputs as pyproject.toml states them, so that a test notices when they change
and the file was not made again (``make lock-deps``).

    python scripts/lock_deps.py            # what `make lock-deps` runs
    python scripts/lock_deps.py --inputs   # print the inputs' sha256 and stop
    python scripts/lock_deps.py --inputs --pyproject OTHER/pyproject.toml
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "site.txt"
EXTRA = "site"
INPUTS_LINE = "# inputs sha256: "


def locked_inputs(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, list[str]]:
    """The requirements the lock file is made from, as pyproject.toml states them."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return {
        "dependencies": list(project["project"]["dependencies"]),
        EXTRA: list(project["project"]["optional-dependencies"][EXTRA]),
        "build-system": list(project["build-system"]["requires"]),
    }


def inputs_digest(pyproject: Path = ROOT / "pyproject.toml") -> str:
    text = json.dumps(locked_inputs(pyproject), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def header() -> str:
    return (
        "# The packages of the site build (th-ext's dependencies with its [site] extra, and the\n"
        "# backend that installs th-ext), pinned with their hashes. Made by `make lock-deps`\n"
        "# (scripts/lock_deps.py, pip-compile); do not edit by hand.\n"
        f"{INPUTS_LINE}{inputs_digest()}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", action="store_true", help="print the inputs' sha256")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args()
    if args.inputs:
        print(inputs_digest(args.pyproject))
        return
    LOCK.parent.mkdir(exist_ok=True)
    body = LOCK.with_suffix(".body")
    command = [
        sys.executable, "-m", "piptools", "compile", "--quiet", "--generate-hashes",
        "--allow-unsafe", "--strip-extras", "--no-header", "--no-emit-index-url",
        "--no-emit-find-links", "--no-emit-trusted-host", "--extra", EXTRA,
        "--build-deps-for", "wheel", "--build-deps-for", "editable",
        "--output-file", str(body), "pyproject.toml",
    ]  # fmt: skip
    if LOCK.exists():  # keep the pins that still satisfy pyproject.toml
        body.write_bytes(LOCK.read_bytes())
    try:
        subprocess.run(command, cwd=ROOT, check=True)
        LOCK.write_text(header() + body.read_text(encoding="utf-8"), encoding="utf-8")
    finally:
        body.unlink(missing_ok=True)
    print(f"wrote {LOCK.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
