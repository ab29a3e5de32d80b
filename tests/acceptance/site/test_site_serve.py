"""``mkdocs serve``, the preview of ``make serve``: it starts, serves the spec page and schema
under the published path, and rebuilds when an extension's files change (live reload).

The server runs on a scratch copy of the project, so the edit never touches the checkout.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import yaml

from tests.support.site_build import copy_project_for_build

pytestmark = pytest.mark.slow

SPEC_PATH = "tiny-harness/a2a/ext/commands/v1/"
SCHEMA_ID = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1/schema.json"
_START_TIMEOUT = 90.0
# mkdocs serve answers no request while it rebuilds, which takes many seconds on a busy machine.
_REQUEST_TIMEOUT = 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(url: str, process: subprocess.Popen[str], timeout: float) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            pytest.fail(f"mkdocs serve exited with {process.returncode}:\n{output}")
        try:
            response = httpx.get(url, timeout=_REQUEST_TIMEOUT)
        except httpx.TransportError:
            time.sleep(0.3)
            continue
        if response.status_code == 200:
            return response
        time.sleep(0.3)
    pytest.fail(f"mkdocs serve did not answer {url} within {timeout:.0f} s")


@contextmanager
def _serve(project: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    try:
        yield f"http://127.0.0.1:{port}/", process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def test_preview_serves_the_spec_and_reloads_on_an_extension_edit(
    repo_root: Path, tmp_path: Path
) -> None:
    project = copy_project_for_build(repo_root, tmp_path / "project")
    with _serve(project) as (base, process):
        page = _wait_for(base + SPEC_PATH, process, _START_TIMEOUT)
        assert "<title>Commands extension v1" in page.text
        assert "livereload" in page.text  # the page asks the server for reloads
        schema = httpx.get(base + SPEC_PATH + "schema.json", timeout=_REQUEST_TIMEOUT)
        assert schema.status_code == 200
        assert schema.json()["$id"] == SCHEMA_ID  # served byte for byte, published $id

        marker = "Preview edits appear without a restart."
        spec = project / "extensions/commands/v1/spec.md"
        spec.write_text(
            spec.read_text(encoding="utf-8").replace("## Overview", f"## Overview\n\n{marker}", 1),
            encoding="utf-8",
        )
        deadline = time.monotonic() + _START_TIMEOUT
        while marker not in _wait_for(base + SPEC_PATH, process, _START_TIMEOUT).text:
            assert time.monotonic() < deadline, "the edit was not served"
            time.sleep(0.5)


def test_the_preview_links_to_the_published_tiny_harness_docs(
    repo_root: Path, tmp_path: Path
) -> None:
    """The preview serves only this project's pages, under ``/tiny-harness/``: its link to
    the tiny-harness docs leads to the published docs, and says so, instead of back into
    the preview. The built site keeps the root-relative link of the Pages origin."""
    project = copy_project_for_build(repo_root, tmp_path / "project")
    config = yaml.safe_load((repo_root / "mkdocs.yml").read_text(encoding="utf-8"))
    published = config["extra"]["host_docs"]["published"]
    assert published.startswith("https://") and published.endswith("/tiny-harness/")
    with _serve(project) as (base, process):
        page = _wait_for(base + SPEC_PATH, process, _START_TIMEOUT)
    link = f'<a href="{published}" class="th-host-link" target="_self" title="The published'
    assert link in page.text
    assert 'href="/tiny-harness/" class="th-host-link"' not in page.text


def test_make_serve_installs_the_site_extra_only(repo_root: Path) -> None:
    makefile = (repo_root / "Makefile").read_text(encoding="utf-8")
    rule = next(line for line in makefile.splitlines() if line.startswith("serve:"))
    assert rule.split(":", 1)[1].split() == ["$(VENV)/.installed-site"]
