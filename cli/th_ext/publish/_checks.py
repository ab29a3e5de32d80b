"""The publishing rules every extension version must meet before the site is built.

Each rule returns the problems it finds as one-line messages; ``check_version`` runs them all
so that one build reports every broken rule at once.
"""

from __future__ import annotations

import importlib
from typing import Any

from th_ext.catalog._reader import load_example, schema_bytes, schema_document
from th_ext.catalog._records import ExtensionVersion, canonical_schema_text
from th_ext.catalog._schema_check import local_validator
from th_ext.catalog._schema_check import schema_defect as check_schema
from th_ext.validate._positions import resolve_pointer

__all__ = [
    "check_examples",
    "check_schema_document",
    "check_schema_source",
    "check_uri",
    "check_version",
    "relative_path",
    "resolve_pointer",
    "schema_defect",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def relative_path(uri: str, site_url: str) -> str | None:
    """The path of ``uri`` inside the site (``a2a/ext/commands/v1``), or None if outside it."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    if not uri.startswith(base) or len(uri) == len(base):
        return None
    rest = uri[len(base) :]
    if any(part in ("", ".", "..") for part in rest.split("/")):
        return None
    return rest


def check_uri(version: ExtensionVersion, site_url: str) -> list[str]:
    if relative_path(version.uri, site_url) is None:
        return [f"{version.key}: URI {version.uri} is not under the site URL {site_url}"]
    return []


def schema_defect(version: ExtensionVersion) -> str | None:
    """Why ``schema.json`` is not a valid draft 2020-12 schema, or None when it is."""
    defect = check_schema(schema_document(version))
    if defect is None:
        return None
    where = "/".join(str(p) for p in defect.path) or "(root)"
    return (
        f"{version.key}: schema.json is not a valid draft 2020-12 schema at {where}: "
        f"{defect.message}"
    )


def check_schema_document(version: ExtensionVersion) -> list[str]:
    """``$id`` is the URI plus ``/schema.json``, and the schema is valid draft 2020-12."""
    schema = schema_document(version)
    problems: list[str] = []
    if schema.get("$id") != version.schema_url:
        problems.append(
            f"{version.key}: schema $id is {schema.get('$id')!r}, expected {version.schema_url!r}"
        )
    dialect = schema.get("$schema", DRAFT_2020_12)
    if dialect != DRAFT_2020_12:
        problems.append(f"{version.key}: schema $schema is {dialect!r}, expected {DRAFT_2020_12}")
    defect = schema_defect(version)
    if defect is not None:
        problems.append(defect)
    return problems


def check_examples(version: ExtensionVersion) -> list[str]:
    """Valid examples pass the schema; examples marked invalid fail it.

    A ``$ref`` resolves only to the version's own schema: the build fetches nothing.
    """
    from referencing.exceptions import Unresolvable

    validator = local_validator(schema_document(version))
    problems: list[str] = []
    for example in version.examples:
        document = load_example(version, example)
        if example.params_pointer is None:
            continue
        try:
            params = resolve_pointer(document, example.params_pointer)
        except KeyError:
            problems.append(
                f"{version.key}: example {example.file} has nothing at {example.params_pointer!r}"
            )
            continue
        try:
            errors = list(validator.iter_errors(params))
        except Unresolvable as exc:
            return [
                f"{version.key}: schema.json refers to {str(exc.ref)[:200]!r}, which is not"
                " this version's own schema; the build resolves no other $ref and fetches nothing"
            ]
        if example.valid and errors:
            problems.append(
                f"{version.key}: example {example.file} fails its schema: {errors[0].message}"
            )
        elif not example.valid and not errors:
            problems.append(
                f"{version.key}: example {example.file} is marked invalid but passes its schema"
            )
    return problems


def check_schema_source(version: ExtensionVersion) -> list[str]:
    """When the version names a ``schema_source``, its output must equal schema.json exactly.

    A binding is for the version whose ``$id`` it generates. A draft made by copying a folder
    carries its parent's binding along; that binding generates another ``$id`` and is ignored
    until the draft names its own function. On any other version it is an error.
    """
    if version.schema_source is None:
        return []
    module_name, _, attribute = version.schema_source.partition(":")
    try:
        source = getattr(importlib.import_module(module_name), attribute)
        generated: dict[str, Any] = source()
    except (ImportError, AttributeError) as exc:
        return [f"{version.key}: schema_source {version.schema_source} cannot be loaded: {exc}"]
    generated_id = generated.get("$id")
    if generated_id != version.schema_url:
        if version.status == "draft":  # a binding copied along from the version it came from
            return []
        return [
            f"{version.key}: schema_source {version.schema_source} generates the schema "
            f"{generated_id!r}, not this version's; bind the version's own function or remove it"
        ]
    if canonical_schema_text(generated).encode("utf-8") != schema_bytes(version):
        return [f"{version.key}: schema.json differs from what {version.schema_source} generates"]
    return []


def check_version(version: ExtensionVersion, site_url: str) -> list[str]:
    """Every publishing rule for one version."""
    problems = [*check_uri(version, site_url), *check_schema_document(version)]
    if schema_defect(version) is None:  # examples can only be checked against a sound schema
        problems += check_examples(version)
    return problems + check_schema_source(version)
