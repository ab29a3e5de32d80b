"""The generation step on disk, the external catalog entries and the link rebasing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from th_ext import CatalogError, PublishError
from th_ext.publish import expand_nav, generate, plan_site, read_external, write_plan
from th_ext.publish._stage import page_url, rebase_links

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


def test_generate_writes_every_planned_file_byte_for_byte(
    extensions_dir: Path, tmp_path: Path
) -> None:
    plan = generate(SITE_URL, extensions_dir, tmp_path)
    written = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {generated.path for generated in plan.files}
    for generated in plan.files:
        assert (tmp_path / generated.path).read_bytes() == generated.content
    assert "a2a/ext/commands/v1/index.md" in written
    assert (tmp_path / "a2a/ext/commands/v1/schema.json").read_bytes() == (
        extensions_dir / "commands/v1/schema.json"
    ).read_bytes()


def test_write_plan_refuses_to_hide_a_hand_written_page(
    extensions_dir: Path, tmp_path: Path
) -> None:
    plan = plan_site(SITE_URL, extensions_dir)
    hand_written = tmp_path / "a2a/ext/index.md"
    hand_written.parent.mkdir(parents=True)
    hand_written.write_text("mine\n", encoding="utf-8")
    with pytest.raises(PublishError, match=r"a2a/ext/index.md is generated"):
        write_plan(plan, tmp_path, overwrite=False)
    assert hand_written.read_text(encoding="utf-8") == "mine\n"
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["index.md"]


def test_the_index_can_sit_at_the_sites_root(extensions_dir: Path) -> None:
    plan = plan_site(SITE_URL + "a2a/ext/", extensions_dir, index_dir="")
    paths = {generated.path for generated in plan.files}
    assert {"index.md", "index.json", "commands/v1/index.md"} <= paths
    assert "](commands/v1/index.md)" in plan.file("index.md").content.decode()


def test_expand_nav_grows_the_index_entry_into_the_extensions_section(
    extensions_dir: Path,
) -> None:
    plan = plan_site(SITE_URL, extensions_dir)
    nav = [{"Home": "index.md"}, {"Extensions": "a2a/ext/index.md"}, {"X": [{"Y": "y.md"}]}]
    expanded = expand_nav(nav, plan.nav, "a2a/ext/index.md")
    assert expanded[0] == nav[0] and expanded[2] == nav[2]
    assert expanded[1]["Extensions"][0] == {"All extensions": "a2a/ext/index.md"}
    assert {"Commands extension v1": "a2a/ext/commands/v1/index.md"} in expanded[1]["Extensions"]


def test_the_catalog_lists_external_uris_apart_from_its_own(extensions_dir: Path) -> None:
    """Built without the host's schemas, no schema of the host's is called served."""
    plan = plan_site(SITE_URL, extensions_dir)
    catalog = json.loads(plan.file("a2a/ext/index.json").content)
    external = read_external(extensions_dir / "external.toml")
    assert [entry["uri"] for entry in catalog["external"]] == [e.uri for e in external]
    assert all(entry["external"] is True for entry in catalog["external"])
    assert all(entry["schema_url"] is None for entry in catalog["external"])
    assert all(entry["schema_sha256"] is None for entry in catalog["external"])
    page = plan.file("a2a/ext/index.md").content.decode()
    for entry in external:
        assert (
            f"| `{entry.uri}` | not built here | not served here | — |"
            f" {'; '.join(entry.applies_to)} | {entry.publisher} |"
        ) in page


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[extension]]\nuri = "https://h.io/th/a2a/ext/x/v1"\n', "'publisher'"),
        ('publisher = "h"\n[[extension]]\nuri = "http://h.io/x/v1"\n', "https URI"),
        ('publisher = "h"\n[[extension]]\nuri = "https://h.io/x/v1/"\n', "https URI"),
        ('publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\ntitle = "X"\n', "'title'"),
        ('publisher = "h"\nowner = "x"\n', "unknown key 'owner'"),
        ('publisher = "h"\nschemas_folder = "/"\n', "'schemas_folder'"),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\nhost_file = "../x.json"\n',
            "'host_file'",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\napplies_to = ["params"]\n',
            "'applies_to' must be",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\n'
            'applies_to = ["card params", "card params"]\n',
            "names a place twice",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\n'
            'applies_to = ["Task.metadata key"]\n',
            "'metadata_key'",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\nmetadata_key = "k"\n',
            "'metadata_key'",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\n'
            'applies_to = ["data part media type"]\n',
            "'media_type'",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\n'
            'applies_to = ["data part media type"]\nmedia_type = "not a type"\n',
            "'media_type'",
        ),
        (
            'publisher = "h"\n[[extension]]\nuri = "https://h.io/x"\n' * 1
            + '[[extension]]\nuri = "https://h.io/x"\n',
            "listed twice",
        ),
        ("publisher = \n", "cannot be read"),
    ],
)
def test_a_malformed_external_list_is_refused(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "external.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError, match=message):
        read_external(path)


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        (SITE_URL + "a2a/ext/commands/v1", "but this project publishes it"),
        ("https://example.org/a2a/ext/task/v1", "but not under"),
    ],
)
def test_an_external_uri_must_be_foreign_and_under_the_site(
    uri: str, message: str, extensions_copy: Path
) -> None:
    (extensions_copy / "external.toml").write_text(
        f'publisher = "h"\n[[extension]]\nuri = "{uri}"\n', encoding="utf-8"
    )
    with pytest.raises(PublishError, match=message):
        plan_site(SITE_URL, extensions_copy)


def _moved(path: str) -> str | None:
    if path.startswith("a2a/ext/"):
        return path.removeprefix("a2a/ext/")
    return path if path.startswith("th-ext/") else None


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("../a2a/ext/commands/v1/index.md#rule", "../commands/v1/index.md#rule"),
        ("validate.md", "validate.md"),
        ("../index.md", SITE_URL),
        ("../about.md#team", SITE_URL + "about/#team"),
        ("#exit-codes", "#exit-codes"),
        ("https://a2a-protocol.org/", "https://a2a-protocol.org/"),
    ],
)
def test_links_are_rebased_or_made_absolute(link: str, expected: str) -> None:
    markdown = f"See [it]({link}) here.\n\n```md\n[kept]({link})\n```\n"
    rebased = rebase_links(markdown, "th-ext/dispatch.md", "th-ext/dispatch.md", _moved, SITE_URL)
    assert rebased == f"See [it]({expected}) here.\n\n```md\n[kept]({link})\n```\n"


def test_a_reference_definition_is_rebased_too() -> None:
    rebased = rebase_links("[spec]: ../index.md\n", "th-ext/a.md", "th-ext/a.md", _moved, SITE_URL)
    assert rebased == f"[spec]: {SITE_URL}\n"


@pytest.mark.parametrize(
    ("path", "url"),
    [("index.md", ""), ("a/index.md", "a/"), ("a/b.md", "a/b/"), ("a/x.json", "a/x.json")],
)
def test_page_url(path: str, url: str) -> None:
    assert page_url(path) == url


def _publish(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "th-ext-publish"), *args],
        cwd=cwd, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_the_generate_command_writes_the_files(repo_root: Path, tmp_path: Path) -> None:
    result = _publish("generate", "--out", str(tmp_path / "out"), cwd=repo_root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote ")
    assert (tmp_path / "out/a2a/ext/commands/v1/index.md").is_file()


def test_the_generate_command_reports_a_missing_config_on_one_line(tmp_path: Path) -> None:
    result = _publish("generate", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "mkdocs.yml: cannot be read" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["generate"], "th-ext-publish generate needs --out"),
        (["genrate"], "th-ext-publish has no command 'genrate'; did you mean 'generate'?"),
        (["generate", "--out", "x", "--confg", "m.yml"], "has no option --confg"),
        ([], "missing command"),
    ],
)
def test_a_usage_error_is_one_line_in_th_ext_s_words(
    tmp_path: Path, args: list[str], said: str
) -> None:
    result = _publish(*args, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    error, usage = result.stderr.splitlines()
    assert error.startswith("th-ext-publish: error: ") and said in error, error
    assert usage.startswith("Usage: th-ext-publish") and usage.endswith("--help for more)")


def test_the_generate_command_exits_1_listing_each_broken_rule(
    repo_root: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "mkdocs.yml").write_text(
        (repo_root / "mkdocs.yml")
        .read_text("utf-8")
        .replace(
            "site_url: https://madarauchiha-314.github.io/tiny-harness/",
            "site_url: https://example.org/elsewhere/",
        ),
        encoding="utf-8",
    )
    (project / "extensions").symlink_to(repo_root / "extensions")
    result = _publish("generate", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) >= 2
    assert all(line.startswith("th-ext-publish generate: error: ") for line in lines)
    assert any("is not under the site URL" in line for line in lines)
