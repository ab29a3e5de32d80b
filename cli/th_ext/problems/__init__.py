"""What a check finds, as data: problems, their safe text, and JUnit XML.

Its modules are private; the library's names are exported by ``th_ext`` and its
subpackages.
"""

__all__: list[str] = []
