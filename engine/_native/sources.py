"""The fingerprint of the compiled core's sources: setup.py builds it into the module
(``SOURCE_HASH``), engine.core compares it with the checkout's (docs/CORE.md, "A stale core").

Standalone (the standard library only) so that setup.py loads it by path before the engine
can be imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

#: the suffixes of the files a build reads
SUFFIXES = (".c", ".h")


def source_files(directory: Path) -> list[Path]:
    """The C sources and headers of ``directory``, by name."""
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())


def source_hash(files: Iterable[Path]) -> str:
    """A short SHA-256 of the files' names and bytes, in the order given."""
    h = hashlib.sha256()
    for p in files:
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]
