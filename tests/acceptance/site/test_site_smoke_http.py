"""The built site served as GitHub Pages serves it: each extension URI answers as published.

Served under ``/tiny-harness/`` on 127.0.0.1, every extension URI without its trailing slash
redirects to its page, the page is HTML carrying the specification's normative sentences,
``schema.json`` beside it is JSON whose ``$id`` is the URL it was fetched from (once the local
address is replaced by the published one), the catalog lists each schema's sha256, and an
unknown address gets the site's 404 page. The same checks run on both builds of the site: the
deployed MkDocs build and the Zensical build of the generated files.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from tests.conftest import EXTENSIONS_DIR
from tests.support.extension_folders import ExtensionFolder, extension_folders
from tests.support.html_page import normalise_space, parse_html
from tests.support.site_config import mkdocs_setting
from tests.support.static_site import serve_site

pytestmark = pytest.mark.slow

EXTENSIONS = extension_folders(EXTENSIONS_DIR)
_IDS = [extension.key for extension in EXTENSIONS]


def normative_sentences(spec_markdown: str) -> list[str]:
    """The sentences of the ``## Specification`` section, as plain text (no Markdown marks)."""
    match = re.search(r"^## Specification[ \t]*$(.*?)(?=^## |\Z)", spec_markdown, re.M | re.S)
    assert match, "spec.md has no '## Specification' section"
    section = re.sub(r"^```.*?^```[ \t]*$", " ", match.group(1), flags=re.M | re.S)
    section = re.sub(r"<!--.*?-->", " ", section, flags=re.S)
    section = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", section)
    section = section.replace("`", "")
    sentences: list[str] = []
    for paragraph in re.split(r"\n[ \t]*\n", section):
        text = normalise_space(paragraph)
        if text:
            sentences.extend(re.split(r"(?<=[.:!?])\s+(?=[A-Z])", text))
    return sentences


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def built_site(request: pytest.FixtureRequest) -> Path:
    """Each build of the site in turn (``mkdocs_site``, ``zensical_site``)."""
    site: Path = request.getfixturevalue(f"{request.param}_site")
    return site


@pytest.fixture(scope="module")
def site_base_url(built_site: Path) -> Iterator[str]:
    with serve_site(built_site) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def site_url(repo_root: Path) -> str:
    return mkdocs_setting(repo_root, "site_url")


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(follow_redirects=False, timeout=10, trust_env=False) as client:
        yield client


def _local(url: str, site_url: str, base_url: str) -> str:
    """A published URL as served by the local server."""
    assert url.startswith(site_url), f"{url} is not under site_url {site_url}"
    return base_url + url[len(site_url) :]


def _media_type(response: httpx.Response) -> str:
    return str(response.headers.get("content-type", "")).split(";")[0].strip()


def test_the_commands_extension_v1_is_among_the_checked_extensions() -> None:
    assert "commands/v1" in _IDS


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_uri_without_trailing_slash_redirects_to_the_page(
    extension: ExtensionFolder, http: httpx.Client, site_base_url: str, site_url: str
) -> None:
    uri = _local(extension.uri.rstrip("/"), site_url, site_base_url)
    response = http.get(uri)
    assert response.status_code == 301, f"{uri} answered {response.status_code}"
    assert urljoin(uri, response.headers["location"]) == uri + "/"
    assert http.get(uri + "/").status_code == 200


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_page_is_html_with_the_normative_text(
    extension: ExtensionFolder, http: httpx.Client, site_base_url: str, site_url: str
) -> None:
    response = http.get(_local(extension.uri, site_url, site_base_url) + "/")
    assert response.status_code == 200
    assert _media_type(response) == "text/html"
    page_text = parse_html(response.text).text
    sentences = normative_sentences(extension.spec_path.read_text(encoding="utf-8"))
    assert len(sentences) >= 3, f"too few normative sentences found in {extension.spec_path}"
    missing = [sentence for sentence in sentences if sentence not in page_text]
    assert not missing, "normative sentences missing from the page:\n" + "\n".join(missing)


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_schema_json_is_json_whose_id_is_the_url_it_is_served_from(
    extension: ExtensionFolder, http: httpx.Client, site_base_url: str, site_url: str
) -> None:
    fetched_url = _local(extension.uri, site_url, site_base_url) + "/schema.json"
    response = http.get(fetched_url)
    assert response.status_code == 200
    assert _media_type(response) == "application/json"
    assert response.content == extension.schema_path.read_bytes()
    schema_id = json.loads(response.content)["$id"]
    assert site_url + fetched_url.removeprefix(site_base_url) == schema_id
    assert urlsplit(schema_id).path == urlsplit(fetched_url).path


def test_the_catalog_lists_every_uri_schema_url_and_served_sha256(
    http: httpx.Client, site_base_url: str, site_url: str
) -> None:
    response = http.get(site_base_url + "a2a/ext/index.json")
    assert response.status_code == 200
    assert _media_type(response) == "application/json"
    entries = {entry["uri"]: entry for entry in response.json()["extensions"]}
    assert set(entries) == {extension.uri for extension in EXTENSIONS}
    for extension in EXTENSIONS:
        entry = entries[extension.uri]
        assert entry["schema_url"] == extension.uri + "/schema.json"
        served = http.get(_local(entry["schema_url"], site_url, site_base_url))
        assert served.status_code == 200
        assert entry["schema_sha256"] == hashlib.sha256(served.content).hexdigest()


@pytest.mark.parametrize("address", ["a2a/ext/commands/v0/", "a2a/ext/commands/v1/schema.yaml"])
def test_an_unknown_address_answers_404_with_the_sites_404_page(
    address: str, http: httpx.Client, site_base_url: str, built_site: Path
) -> None:
    response = http.get(site_base_url + address)
    assert response.status_code == 404
    assert _media_type(response) == "text/html"
    assert response.content == (built_site / "404.html").read_bytes()


def test_the_catalog_lists_the_host_sites_extensions_as_external(
    http: httpx.Client, site_base_url: str, repo_root: Path
) -> None:
    listed = tomllib.loads((repo_root / "extensions/external.toml").read_text(encoding="utf-8"))
    external_uris = [entry["uri"] for entry in listed["extension"]]
    assert external_uris, "extensions/external.toml lists no extension"
    catalog = http.get(site_base_url + "a2a/ext/index.json").json()
    assert [entry["uri"] for entry in catalog["external"]] == external_uris
    assert all(entry["external"] is True for entry in catalog["external"])
    assert not set(external_uris) & {entry["uri"] for entry in catalog["extensions"]}
    # This site serves none of the host's schemas: neither file says it does.
    assert all(entry["schema_url"] is None for entry in catalog["external"])
    assert all(entry["schema_sha256"] is None for entry in catalog["external"])
    index = http.get(site_base_url + "a2a/ext/")
    assert index.status_code == 200
    text = parse_html(index.text).text
    for uri in external_uris:
        assert f"{uri} not built here not served here" in text, uri
        assert f"{listed['publisher']}" in text
