"""The package version, kept in one place for the build backend and ``th-ext --version``."""

__version__ = "0.1.0"
