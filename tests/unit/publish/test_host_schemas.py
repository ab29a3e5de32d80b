"""The host's schema folder as the subtree build reads it: what it serves, skips and refuses."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.host_schemas import PREFIX, URIS, make_host_schemas, status_schema
from th_ext._exceptions import HostSchemaDriftError, PublishError, SiteBuildError
from th_ext.catalog._reader import discover
from th_ext.publish._host import read_host_schemas
from th_ext.validate import first_difference


@pytest.fixture
def commands_schema(extensions_dir: Path) -> bytes:
    return (extensions_dir / "commands/v1/schema.json").read_bytes()


def _read(folder: Path, extensions_dir: Path) -> Any:
    return read_host_schemas(folder, PREFIX, discover(extensions_dir))


def test_the_stand_in_folder_serves_four_schemas_and_skips_two(
    tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    folder = make_host_schemas(tmp_path / "ext", commands_schema)
    host = _read(folder, extensions_dir)
    assert {schema.uri for schema in host.serve} == {
        URIS[name] for name in ("task", "channel", "status", "media")
    }
    for schema in host.serve:
        assert schema.file.content == (folder / schema.file.name).read_bytes()
        assert schema.path == schema.schema_id.removeprefix(PREFIX)
    assert [schema.uri for schema in host.same_as_published] == [URIS["commands"]]
    assert host.skipped == (
        f"a2ui.json ($id outside {PREFIX})",
        "attach-tool.json (no $id)",
    )


def test_a_drifted_published_schema_stops_the_build_on_one_line(
    tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    folder = make_host_schemas(tmp_path / "ext", commands_schema, drifted=True)
    with pytest.raises(HostSchemaDriftError) as caught:
        _read(folder, extensions_dir)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{URIS['commands']}/schema.json: ")
    assert hashlib.sha256((folder / "commands.json").read_bytes()).hexdigest() in message
    assert hashlib.sha256(commands_schema).hexdigest() in message
    assert "first difference at /$defs/CommandSpec/properties/runsOn" in message
    assert "as a new version (commands/v2)" in message
    assert isinstance(caught.value, SiteBuildError)  # exit 2: nothing could be built


def test_the_same_json_in_other_bytes_is_drift_too(
    tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    compact = json.dumps(json.loads(commands_schema), separators=(",", ":")).encode()
    folder = make_host_schemas(tmp_path / "ext", compact)
    with pytest.raises(HostSchemaDriftError, match=r"same JSON in other bytes"):
        _read(folder, extensions_dir)


def _with(tmp_path: Path, commands_schema: bytes, name: str, content: bytes | str) -> Path:
    folder = make_host_schemas(tmp_path / "ext", commands_schema, extras=False)
    data = content.encode("utf-8") if isinstance(content, str) else content
    (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        (b"\xff{}", "not UTF-8"),
        ('{"$id": "x", "$id": "y"}', "duplicate key '\\$id'"),
        ('{"type": NaN}', "NaN is not JSON"),
        ('{"$id": 5}', r"\$id must be a string"),
        (
            json.dumps({"$id": URIS["task"] + "/v2/schema.json", "type": 5}),
            "not a valid JSON Schema at /type",
        ),
        (
            json.dumps({"$schema": "https://example.org/mine", "$id": URIS["task"] + "/x.json"}),
            r"must be an extension URI .* followed by /schema.json",
        ),
        (
            json.dumps(
                {"$schema": "https://example.org/mine", "$id": URIS["task"] + "2/schema.json"}
            ),
            "is not a JSON Schema draft th-ext knows",
        ),
        (json.dumps({"$id": PREFIX + "schema.json"}), "must be an extension URI"),
        (json.dumps({"$id": PREFIX + "x/../y/schema.json"}), "must be an extension URI"),
        (
            json.dumps({**status_schema(), "title": "Again"}),
            "status.json and zz.json both have \\$id",
        ),
    ],
)
def test_each_check_refuses_the_file_made_to_break_it(
    content: str | bytes, message: str, tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    folder = _with(tmp_path, commands_schema, "zz.json", content)
    with pytest.raises(PublishError, match=message) as caught:
        _read(folder, extensions_dir)
    assert not isinstance(caught.value, SiteBuildError)  # exit 1: the input has problems
    assert all("\n" not in problem for problem in caught.value.problems)


def test_a_declared_older_draft_is_checked_as_that_draft(
    tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": URIS["task"].replace("task", "legacy") + "/schema.json",
        "definitions": {"x": {"type": "string"}},
    }
    folder = _with(tmp_path, commands_schema, "legacy.json", json.dumps(schema))
    assert URIS["task"].replace("task", "legacy") in {
        s.uri for s in _read(folder, extensions_dir).serve
    }
    schema["definitions"] = 5
    (folder / "legacy.json").write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(PublishError, match=r"legacy\.json: not a valid JSON Schema at /defin"):
        _read(folder, extensions_dir)


def test_a_link_or_an_oversized_file_is_not_read(
    tmp_path: Path, extensions_dir: Path, commands_schema: bytes
) -> None:
    folder = make_host_schemas(tmp_path / "ext", commands_schema, extras=False)
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps({"$id": URIS["task"] + "/v9/schema.json"}), encoding="utf-8")
    (folder / "linked.json").symlink_to(outside)
    with pytest.raises(PublishError, match=r"linked\.json: a symbolic link"):
        _read(folder, extensions_dir)
    (folder / "linked.json").unlink()
    (folder / "big.json").write_bytes(b" " * (1024 * 1024 + 1) + b"{}")
    with pytest.raises(PublishError, match=r"big\.json: 1048579 bytes, more than 1048576"):
        _read(folder, extensions_dir)


def test_a_missing_folder_means_nothing_could_be_built(
    tmp_path: Path, extensions_dir: Path
) -> None:
    with pytest.raises(SiteBuildError, match="not a folder"):
        _read(tmp_path / "absent", extensions_dir)


@pytest.mark.parametrize(
    ("ours", "theirs", "pointer"),
    [
        ({"a": 1}, {"a": 1}, None),
        ({"a": 1}, {"a": 1.0}, "/a"),
        ({"a": 1}, {"a": True}, "/a"),
        ({"a": {"b~/c": [1, 2]}}, {"a": {"b~/c": [1, 3]}}, "/a/b~0~1c/1"),
        ({"a": [1]}, {"a": [1, 2]}, "/a/1"),
        ({"a": 1, "b": 2}, {"b": 2}, "/a"),
        ({"b": 2}, {"c": 2, "b": 2}, "/c"),
        ([1], {"0": 1}, ""),
    ],
)
def test_first_difference_names_the_first_place_two_documents_differ(
    ours: Any, theirs: Any, pointer: str | None
) -> None:
    assert first_difference(theirs, ours) == pointer  # the host's order of members first
