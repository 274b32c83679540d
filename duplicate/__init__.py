"""Duplicate Guandan: boards, records, rooms, scoring and storage."""

#: the package's version (pyproject.toml reads it from here)
__version__ = "0.1.0"
