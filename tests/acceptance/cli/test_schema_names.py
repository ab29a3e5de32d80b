"""``th-ext schema NAME``: a schema by its short name, by its ``$id``, an extension's by its URI.

Every accepted name prints the same bytes; a URL that is none of them exactly is a one-line
error that says the closest one."""

from __future__ import annotations

import pytest

from th_ext import CatalogError, discover
from th_ext.catalog import schema_bytes
from th_ext.cli import main
from th_ext.validate import CARD_SCHEMA_URL, card_schema_bytes, published_schema_bytes

VERSIONS = discover()
KNOWN = ", ".join(["agent-card", *(version.key for version in VERSIONS)])
URL_KNOWN = f"{KNOWN}, or a schema's exact $id, or an extension's exact URI"


def _run(capsys: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, str]:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err.decode()


def _names() -> list[tuple[str, str]]:
    """(the short name, another name of the same schema), for every schema of the catalog."""
    pairs = [("agent-card", "agent-card/v1"), ("agent-card", CARD_SCHEMA_URL)]
    for version in VERSIONS:
        pairs += [
            (version.key, version.uri),
            (version.key, version.uri + "/"),
            (version.key, version.schema_url),
        ]
    return pairs


@pytest.mark.parametrize(("short", "name"), _names(), ids=lambda value: value)
def test_every_name_of_a_schema_prints_the_same_bytes(
    capsysbinary: pytest.CaptureFixture[bytes], short: str, name: str
) -> None:
    code, by_short_name, err = _run(capsysbinary, "schema", short)
    assert (code, err) == (0, "")
    code, out, err = _run(capsysbinary, "schema", name)
    assert (code, err) == (0, "")
    assert out == by_short_name


def test_the_schema_id_names_the_published_bytes() -> None:
    for version in VERSIONS:
        assert published_schema_bytes(version.schema_url) == schema_bytes(version)
    assert published_schema_bytes(CARD_SCHEMA_URL) == card_schema_bytes()


def _schema_url(key: str) -> str:
    return next(version.schema_url for version in VERSIONS if version.key == key)


def _uri(key: str) -> str:
    return next(version.uri for version in VERSIONS if version.key == key)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        (_schema_url("commands/v1") + "/", _schema_url("commands/v1")),
        (_schema_url("commands/v2").replace("https://", "http://", 1), _schema_url("commands/v2")),
        (_uri("commands/v1").replace("https://", "http://", 1), _uri("commands/v1")),
        (CARD_SCHEMA_URL.removesuffix("/schema.json"), CARD_SCHEMA_URL),
    ],
    ids=["trailing slash", "http $id", "http uri", "card folder"],
)
def test_a_near_miss_url_suggests_the_one_meant(
    capsysbinary: pytest.CaptureFixture[bytes], typed: str, meant: str
) -> None:
    code, out, err = _run(capsysbinary, "schema", typed)
    assert (code, out) == (2, b"")
    assert err == (
        f"th-ext: error: no schema {typed!r}; did you mean {meant!r}? (known: {URL_KNOWN})\n"
    )


def test_an_unknown_url_says_which_names_there_are(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    code, out, err = _run(capsysbinary, "schema", "https://weather.example/ext/v1/schema.json")
    assert (code, out) == (2, b"")
    assert err == (
        "th-ext: error: no schema 'https://weather.example/ext/v1/schema.json' "
        f"(known: {URL_KNOWN})\n"
    )


@pytest.mark.parametrize("typed", ["x" * 100_000, "https://agent.example/" + "x" * 100_000])
def test_a_name_of_any_length_is_named_in_a_short_line(
    capsysbinary: pytest.CaptureFixture[bytes], typed: str
) -> None:
    code, out, err = _run(capsysbinary, "schema", typed)
    assert (code, out) == (2, b"")
    assert err.startswith("th-ext: error: no schema '" + typed[:20])
    assert err.count("\n") == 1
    assert len(err) < 600


def test_a_mistyped_card_version_suggests_the_card_schema() -> None:
    with pytest.raises(
        CatalogError, match=r"^no schema 'agent-card/v2'; did you mean 'agent-card/v1'"
    ):
        published_schema_bytes("agent-card/v2")
