"""Publishing: turn the extension folders into the site's pages, schemas and catalog, with plain
functions that need no MkDocs and an MkDocs plugin (``mkdocs_plugin``) on top."""

from th_ext.catalog._family import ExternalExtension, read_external
from th_ext.publish._build import build_subtree, build_zensical
from th_ext.publish._catalog_page import render_catalog_json, render_index_page
from th_ext.publish._field_table import FieldRow, FieldTable, field_tables
from th_ext.publish._lock import (
    LOCK_FILE_NAME,
    add_to_lock,
    check_lock,
    lock_card_schema,
    read_lock,
    read_words,
    write_lock,
)
from th_ext.publish._site_plan import (
    GeneratedFile,
    NavEntry,
    SitePlan,
    check_version,
    expand_nav,
    generate,
    plan_site,
    relative_path,
    resolve_pointer,
    write_plan,
)
from th_ext.publish._spec_page import render_spec_page
from th_ext.publish._stage import ProjectSettings, load_config, stage_project, stage_subtree
from th_ext.publish._subtree import MANIFEST_NAME, SubtreeResult, install_subtree

__all__ = [
    "LOCK_FILE_NAME",
    "MANIFEST_NAME",
    "ExternalExtension",
    "FieldRow",
    "FieldTable",
    "GeneratedFile",
    "NavEntry",
    "ProjectSettings",
    "SitePlan",
    "SubtreeResult",
    "add_to_lock",
    "build_subtree",
    "build_zensical",
    "check_lock",
    "check_version",
    "expand_nav",
    "field_tables",
    "generate",
    "install_subtree",
    "load_config",
    "lock_card_schema",
    "plan_site",
    "read_external",
    "read_lock",
    "read_words",
    "relative_path",
    "render_catalog_json",
    "render_index_page",
    "render_spec_page",
    "resolve_pointer",
    "stage_project",
    "stage_subtree",
    "write_lock",
    "write_plan",
]
