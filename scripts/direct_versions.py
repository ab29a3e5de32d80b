"""Print the installed version of each dependency pyproject.toml declares for th-ext itself.

``make test-deps`` prints this line for each of its environments, so a CI log says which
versions were tested at each end of the declared ranges.
"""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def declared() -> list[str]:
    """The names of the runtime dependencies and of the demo extra's."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["demo"]]
    names = []
    for requirement in requirements:
        match = NAME.match(requirement.strip())
        if match:
            names.append(match.group(0))
    return names


def main() -> None:
    pins = []
    for name in declared():
        try:
            pins.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            pins.append(f"{name} (not installed)")
    print(" ".join(pins))


if __name__ == "__main__":
    main()
