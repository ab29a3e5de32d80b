"""The extensions th-ext bundles and the family it knows of: their folders read into
records, their schemas, requirements and files.

Its modules are private; the library's names are exported by ``th_ext`` and its
subpackages.
"""

__all__: list[str] = []
