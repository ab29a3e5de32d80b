"""The site plan: every file the extensions add to the built site, the publishing rules checked
first, and the plan written to disk for a generator that runs no plugin."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from referencing.exceptions import Unresolvable

from th_ext._exceptions import PublishError
from th_ext.catalog._family import EXTERNAL_FILE_NAME, read_external
from th_ext.catalog._reader import (
    discover,
    example_bytes,
    load_example,
    read_file,
    schema_bytes,
    schema_document,
)
from th_ext.catalog._records import ExtensionVersion, canonical_schema_text
from th_ext.catalog._schemas import local_validator
from th_ext.catalog._schemas import schema_defect as check_schema
from th_ext.publish._catalog_page import (
    ServedSchema,
    family_external,
    render_catalog_json,
    render_index_page,
)
from th_ext.publish._diagrams import (
    DIAGRAMS_DIR,
    check_diagrams,
    standalone_drawing,
    used_diagrams,
)
from th_ext.publish._field_table import check_field_descriptions
from th_ext.publish._lock import LOCK_FILE_NAME, check_lock, read_lock, read_words
from th_ext.publish._spec_page import check_draft_examples, render_spec_page
from th_ext.validate import CARD_SCHEMA_KEY, CARD_SCHEMA_URL, card_schema_bytes
from th_ext.validate._positions import resolve_pointer

__all__ = [
    "GeneratedFile",
    "NavEntry",
    "SitePlan",
    "check_examples",
    "check_schema_source",
    "check_version",
    "expand_nav",
    "generate",
    "plan_site",
    "relative_path",
    "resolve_pointer",
    "write_plan",
]


# The publishing rules every extension version must meet before the site is built.
#
# Each rule returns the problems it finds as one-line messages; ``check_version`` runs them all
# so that one build reports every broken rule at once.

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def relative_path(uri: str, site_url: str) -> str | None:
    """The path of ``uri`` inside the site (``a2a/ext/commands/v1``), or None if outside it."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    rest = uri.removeprefix(base)
    if not uri.startswith(base) or any(part in ("", ".", "..") for part in rest.split("/")):
        return None
    return rest


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
    problems = []
    if relative_path(version.uri, site_url) is None:
        problems.append(f"{version.key}: URI {version.uri} is not under the site URL {site_url}")
    problems += check_schema_document(version)
    if schema_defect(version) is None:  # examples can only be checked against a sound schema
        problems += check_examples(version)
    return problems + check_schema_source(version)


class GeneratedFile(BaseModel):
    """One file of the built site, by its path relative to the site's root."""

    model_config = ConfigDict(frozen=True)

    path: str
    content: bytes
    kind: Literal["page", "asset"]


class NavEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str
    path: str


class SitePlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    files: tuple[GeneratedFile, ...]
    nav: tuple[NavEntry, ...]

    def file(self, path: str) -> GeneratedFile:
        for generated in self.files:
            if generated.path == path:
                return generated
        raise KeyError(path)


def _version_files(
    version: ExtensionVersion, folder: str, siblings: list[ExtensionVersion]
) -> list[GeneratedFile]:
    files = [
        GeneratedFile(
            path=f"{folder}/index.md",
            content=render_spec_page(version, siblings, folder).encode("utf-8"),
            kind="page",
        ),
        GeneratedFile(path=f"{folder}/schema.json", content=schema_bytes(version), kind="asset"),
    ]
    files += [
        GeneratedFile(
            path=f"{folder}/examples/{example.file}",
            content=example_bytes(version, example),
            kind="asset",
        )
        for example in version.examples
    ]
    files += [  # each drawing, for its "open full size" link
        GeneratedFile(
            path=f"{folder}/{DIAGRAMS_DIR}/{name}",
            content=standalone_drawing(read_file(version, f"{DIAGRAMS_DIR}/{name}")),
            kind="asset",
        )
        for name in dict.fromkeys(used_diagrams(version))
    ]
    return files


def plan_site(
    site_url: str,
    extensions_dir: Path,
    *,
    index_dir: str = "a2a/ext",
    check_published: bool = True,
    served: Mapping[str, ServedSchema] | None = None,
) -> SitePlan:
    """Check every version under ``extensions_dir`` and plan the files to publish.

    ``check_published`` compares schemas with ``published.lock`` beside the versions.
    ``index_dir`` is where the index and catalog go ("" for the site's root); the URIs listed
    in ``external.toml`` beside the versions join the catalog, marked external. ``served``
    are the host schemas the build serves (by URI), which the catalog links with their sha256.
    No plan is made unless every rule holds: ``PublishError`` lists every problem found.
    """
    versions = discover(extensions_dir)
    external = read_external(extensions_dir / EXTERNAL_FILE_NAME)
    served = served or {}
    publisher = external[0].publisher if external else "the host"
    external = family_external(external, served, publisher)
    problems = [problem for version in versions for problem in check_version(version, site_url)]
    problems += check_draft_examples(versions)
    problems += check_field_descriptions(versions)
    problems += check_diagrams(versions)
    if check_published:
        lock_path = extensions_dir / LOCK_FILE_NAME
        problems += check_lock(versions, read_lock(lock_path), read_words(lock_path))
    paths: dict[str, str] = {}
    card_folder = relative_path(CARD_SCHEMA_URL.removesuffix("/schema.json"), site_url)
    if card_folder is not None:  # the agent card's schema, which binds every version's params
        paths[CARD_SCHEMA_KEY] = card_folder
    for version in versions:
        path = relative_path(version.uri, site_url)
        if path is None:
            continue
        clash = next((key for key, known in paths.items() if known == path), None)
        if clash is not None:
            problems.append(f"{version.key}: URI {version.uri} is also the URI of {clash}")
        paths[version.key] = path
    for entry in external:
        if relative_path(entry.uri, site_url) is None:
            problems.append(f"{entry.uri}: listed as external, but not under {site_url}")
        if any(version.uri == entry.uri for version in versions):
            problems.append(f"{entry.uri}: listed as external, but this project publishes it")
    if problems:
        raise PublishError("; ".join(problems), problems)

    files: list[GeneratedFile] = []
    if card_folder is not None:
        files.append(
            GeneratedFile(
                path=f"{card_folder}/schema.json",
                content=card_schema_bytes(extensions_dir),
                kind="asset",
            )
        )
    nav: list[NavEntry] = []
    for version in versions:
        siblings = [other for other in versions if other.name == version.name]
        files += _version_files(version, paths[version.key], siblings)
        nav.append(NavEntry(title=version.title, path=f"{paths[version.key]}/index.md"))
    prefix = f"{index_dir}/" if index_dir else ""
    files.append(
        GeneratedFile(
            path=f"{prefix}index.md",
            content=render_index_page(versions, paths, index_dir, external, served).encode("utf-8"),
            kind="page",
        )
    )
    files.append(
        GeneratedFile(
            path=f"{prefix}index.json",
            content=render_catalog_json(versions, external, served).encode("utf-8"),
            kind="asset",
        )
    )
    return SitePlan(files=tuple(files), nav=tuple(nav))


# The generation step as files on disk, for any site generator to render.
#
# ``plan_site`` makes the pages, schemas, examples and catalog in memory; ``write_plan`` puts
# them in a folder, the way mkdocstrings-style tools write Markdown for a generator that runs no
# plugin (Zensical, or MkDocs without ``th-ext``). ``expand_nav`` gives the navigation entries
# that the generated pages need.


def write_plan(plan: SitePlan, out_dir: Path, *, overwrite: bool = True) -> list[Path]:
    """Write every planned file under ``out_dir``; return the paths written, in plan order.

    With ``overwrite=False`` an existing file is an error, raised before anything is written:
    a generated page must not hide a hand-written one.
    """
    if not overwrite:
        for generated in plan.files:
            if (out_dir / generated.path).exists():
                raise PublishError(
                    f"{generated.path} is generated from the extensions; remove it from {out_dir}"
                )
    written: list[Path] = []
    for generated in plan.files:
        target = out_dir / generated.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(generated.content)
        written.append(target)
    return written


def generate(
    site_url: str,
    extensions_dir: Path,
    out_dir: Path,
    *,
    index_dir: str = "a2a/ext",
    check_published: bool = True,
) -> SitePlan:
    """Check the extensions and write their pages, schemas, examples and catalog to ``out_dir``.

    Paths below ``out_dir`` are the paths in the site (``a2a/ext/commands/v1/index.md``).
    """
    plan = plan_site(site_url, extensions_dir, index_dir=index_dir, check_published=check_published)
    write_plan(plan, out_dir)
    return plan


def expand_nav(nav: list[Any], versions: Sequence[NavEntry], index_page: str) -> list[Any]:
    """``nav`` with the entry that points at ``index_page`` grown into the extensions section:
    the index first ("All extensions"), then one entry per version (``SitePlan.nav``)."""

    def expand_entry(entry: Any) -> Any:
        if isinstance(entry, dict) and len(entry) == 1:
            ((title, target),) = entry.items()
            if target == index_page:
                pages: list[Any] = [{"All extensions": index_page}]
                pages += [{item.title: item.path} for item in versions]
                return {title: pages}
            if isinstance(target, list):
                return {title: [expand_entry(child) for child in target]}
        return entry

    return [expand_entry(entry) for entry in nav]
