"""Publishing: turn the extension folders into the site's pages, schemas and catalog.

Plain functions that run without MkDocs; ``th_ext.publish.mkdocs_plugin`` adapts them to a build.
"""

from th_ext.publish._catalog_page import render_catalog_json, render_index_page
from th_ext.publish._checks import check_version, relative_path, resolve_pointer
from th_ext.publish._field_table import FieldRow, FieldTable, field_tables
from th_ext.publish._lock import LOCK_FILE_NAME, add_to_lock, check_lock, read_lock, write_lock
from th_ext.publish._site_plan import GeneratedFile, NavEntry, SitePlan, plan_site
from th_ext.publish._spec_page import render_spec_page

__all__ = [
    "LOCK_FILE_NAME",
    "FieldRow",
    "FieldTable",
    "GeneratedFile",
    "NavEntry",
    "SitePlan",
    "add_to_lock",
    "check_lock",
    "check_version",
    "field_tables",
    "plan_site",
    "read_lock",
    "relative_path",
    "render_catalog_json",
    "render_index_page",
    "render_spec_page",
    "resolve_pointer",
    "write_lock",
]
