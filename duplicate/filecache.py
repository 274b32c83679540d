"""What a program derives from data files, kept beside them for the next run: the message
catalogue read from its ``.po`` files (:mod:`duplicate.i18n`) takes a tenth of a second
to parse, longer than the whole start of a short command.

The value (plain data: what :mod:`marshal` writes) is kept where Python keeps the
compiled modules of the files' folder (its ``__pycache__``, or under
``$PYTHONPYCACHEPREFIX``), and written only when Python writes them (not under
``$PYTHONDONTWRITEBYTECODE``), stamped with every file's name, size and modification time:
a file changed, added or removed makes it be derived again. Where the folder cannot be
written (a read-only install), the value is derived each time; a cache that cannot be
read is derived again and replaced.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: the cache's format; a change of it (or of Python's marshal) makes it be derived again
VERSION = 1


def stamp(files: Sequence[Path]) -> tuple[tuple[str, int, int], ...]:
    """Each file's name, size and modification time (ns), in order."""
    out = []
    for path in files:
        info = path.stat()
        out.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(out)


def cache_path(folder: Path, name: str) -> Path:
    """Where the value ``name`` derived from files of ``folder`` is kept."""
    tag = f"{sys.implementation.cache_tag}-{marshal.version}-{VERSION}"
    if sys.pycache_prefix:  # as importlib.util.cache_from_source places bytecode
        base = Path(sys.pycache_prefix) / folder.resolve().relative_to(folder.resolve().anchor)
    else:
        base = folder / "__pycache__"
    return base / f"{name}.{tag}.marshal"


def cached(files: Sequence[Path], folder: Path | None, name: str,
           derive: Callable[[], Any]) -> Any:
    """The value ``derive()`` gives from ``files``: the one kept in ``folder`` from a run
    that read the same files, else derived now (and kept when ``folder`` can be written;
    never without a folder)."""
    if folder is None:
        return derive()
    where = cache_path(folder, name)
    try:
        now = stamp(files)
    except OSError:
        return derive()
    try:
        with where.open("rb") as f:
            kept_stamp, value = marshal.load(f)
        if kept_stamp == now:
            return value
    except (OSError, EOFError, ValueError, TypeError):
        pass  # none yet, or unreadable: derived again
    value = derive()
    if not sys.dont_write_bytecode:
        _keep(where, (now, value))
    return value


def _keep(where: Path, data: Any) -> None:
    """Write ``data`` to ``where`` whole or not at all (another process may be reading)."""
    temporary = where.with_name(f"{where.name}.{os.getpid()}.tmp")
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("wb") as f:
            marshal.dump(data, f)
        os.replace(temporary, where)
    except (OSError, ValueError):  # a read-only install: derived each time
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
