"""Where a card comes from (a file, standard input or a URL) and the limits of each read.

Its modules are private; the library's names are exported by ``th_ext`` and its
subpackages.
"""

__all__: list[str] = []
