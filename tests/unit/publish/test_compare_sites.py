"""``tools/compare_sites.py``: two small builds made to differ in one thing each, and the
report naming exactly that thing; two equal builds reported as matching."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "tools" / "compare_sites.py"

PAGE = """<html><head><title>Commands v1</title>
<link rel="canonical" href="https://example.org/a2a/ext/commands/v1/"></head>
<body><nav><a href="/elsewhere/">theme link</a></nav><article>
<h1 id="commands-v1">Commands v1</h1>
<p>See <a href="../schema.json">the schema</a>.</p>
<div class="admonition tip"><p class="admonition-title">Check your agent</p><p>run it</p></div>
<h2 id="fields">Fields<a class="headerlink" href="#fields">#</a></h2>
<pre><code>th-ext validate card.json</code></pre>
</article></body></html>
"""


def _tree(root: Path, page: str = PAGE, schema: bytes = b'{"type": "object"}\n') -> Path:
    (root / "a2a/ext/commands/v1").mkdir(parents=True)
    (root / "a2a/ext/commands/v1/index.html").write_text(page, encoding="utf-8")
    (root / "a2a/ext/commands/v1/schema.json").write_bytes(schema)
    return root


def _compare(first: Path, second: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(first), str(second), *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_equal_builds_match(tmp_path: Path) -> None:
    result = _compare(_tree(tmp_path / "a"), _tree(tmp_path / "b"))
    assert result.returncode == 0, result.stdout
    assert result.stdout == "the builds match\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('href="../schema.json"', 'href="schema.json"', "link only in the first: '../schema.json'"),
        (
            'id="fields">Fields',
            'id="fields-1">Fields',
            "heading only in the second: 'h2#fields-1 Fields'",
        ),
        ('id="commands-v1"', 'id="v1"', "anchor only in the second: 'v1'"),
        (
            "admonition tip",
            "admonition note",
            "admonition only in the first: 'div.tip: Check your agent'",
        ),
        (
            "validate card.json",
            "validate  card",
            "code block only in the second: 'th-ext validate  card'",
        ),
        ("<title>Commands v1", "<title>Commands", "head only in the first: 'title Commands v1'"),
    ],
)
def test_a_difference_in_a_page_is_named(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in PAGE
    result = _compare(_tree(tmp_path / "a"), _tree(tmp_path / "b", page=PAGE.replace(old, new)))
    assert result.returncode == 1
    assert "a2a/ext/commands/v1/index.html:" in result.stdout
    assert expected in result.stdout, result.stdout


def test_a_theme_link_outside_the_content_is_not_a_difference(tmp_path: Path) -> None:
    changed = PAGE.replace('href="/elsewhere/"', 'href="/other/"')
    assert _compare(_tree(tmp_path / "a"), _tree(tmp_path / "b", page=changed)).returncode == 0


def test_a_schema_that_differs_by_one_byte_is_named(tmp_path: Path) -> None:
    second = _tree(tmp_path / "b", schema=b'{"type": "object"} \n')
    result = _compare(_tree(tmp_path / "a"), second)
    assert result.returncode == 1
    assert "a2a/ext/commands/v1/schema.json: the bytes differ" in result.stdout


def test_files_only_in_one_build_are_listed_and_can_be_ignored(tmp_path: Path) -> None:
    first, second = _tree(tmp_path / "a"), _tree(tmp_path / "b")
    (second / "assets").mkdir()
    (second / "assets/theme.css").write_text("x", encoding="utf-8")
    (first / "sitemap.xml.gz").write_bytes(b"gz")
    result = _compare(first, second)
    assert result.returncode == 1
    assert f"only in {first}: sitemap.xml.gz" in result.stdout
    assert f"only in {second}: assets/theme.css" in result.stdout
    ignored = _compare(first, second, "--ignore", "assets/", "--ignore", "sitemap")
    assert ignored.returncode == 0, ignored.stdout


def test_a_missing_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = _compare(tmp_path / "nowhere", _tree(tmp_path / "b"))
    assert result.returncode == 2
    assert "not a folder" in result.stderr and "Traceback" not in result.stderr
