"""The wheel carries the extensions' published files, so th-ext works offline once installed."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def unpacked_wheel(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(repo_root),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [wheel] = out.glob("th_ext-*.whl")
    target = out / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def run_from_wheel(unpacked: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    return subprocess.run(
        [sys.executable, "-m", "th_ext", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_wheel_holds_every_published_file(unpacked_wheel: Path, extensions_dir: Path) -> None:
    bundled = unpacked_wheel / "th_ext" / "_bundled" / "extensions"
    for source in extensions_dir.rglob("*"):
        if source.is_file():
            copy = bundled / source.relative_to(extensions_dir)
            assert copy.read_bytes() == source.read_bytes(), source


def test_installed_th_ext_reads_its_bundled_copy(
    unpacked_wheel: Path, extensions_dir: Path, tmp_path: Path
) -> None:
    # Run far from the checkout, so only the wheel's own files can answer.
    result = run_from_wheel(unpacked_wheel, "schema", "commands/v1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (extensions_dir / "commands/v1/schema.json").read_bytes()
    listing = run_from_wheel(unpacked_wheel, "extensions", cwd=tmp_path)
    assert b"commands/v1" in listing.stdout
    env = {**os.environ, "PYTHONPATH": str(unpacked_wheel)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "from th_ext.catalog._records import bundled_extensions_dir as d; print(d())",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert Path(where.stdout.strip()).is_relative_to(unpacked_wheel)
