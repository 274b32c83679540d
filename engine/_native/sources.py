"""What a build of the compiled core reads: its C sources, the header of shared constants
generated from engine/constants.py, and the fingerprint of both (docs/CORE.md).

setup.py builds the fingerprint into the module (``SOURCE_HASH``) and engine.core compares
it with the checkout's ("A stale core"). Standalone (the standard library only) so that
setup.py and tools/core_sanitize.sh load it by path before the engine can be imported:
``python engine/_native/sources.py header DIR`` writes the header into DIR, ``python
engine/_native/sources.py hash [DIR ...]`` prints the fingerprint of an extension built
from those directories (the engine's alone by default).
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:  # the built-in SHA-256: hashlib would load OpenSSL, a few ms of every start
        from _sha256 import sha256
    except ImportError:  # an interpreter without it
        from hashlib import sha256

#: the one definition of the constants the C shares with Python
CONSTANTS = Path(__file__).resolve().parent.parent / "constants.py"
#: the generated header's name (setup.py puts it in the build's temporary directory)
HEADER = "core_consts.h"

#: the suffixes of the files a build reads
SUFFIXES = (".c", ".h")


def source_files(directory: Path) -> list[Path]:
    """The C sources and headers of ``directory``, by name, then engine/constants.py (the
    generated header's source)."""
    files = sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())
    return [*files, directory.parent / CONSTANTS.name] if files else []


def extension_files(*directories: Path) -> list[Path]:
    """What an extension built from the C of ``directories`` reads (the first a layer's
    own, the last the engine's): their sources and headers, then engine/constants.py once;
    empty when the first holds no C source (an installed wheel)."""
    own = source_files(directories[0]) if directories[0].is_dir() else []
    if not any(p.suffix == ".c" for p in own):
        return []
    files = [p for d in directories for p in source_files(d) if p.suffix in SUFFIXES]
    return [*files, directories[-1].parent / CONSTANTS.name]


def header_text(constants: Path = CONSTANTS) -> str:
    """The C header of the shared constants: the combination enum (``T_<NAME>``,
    ``N_TYPES``), their FORMAT.md names (``COMBO_RECORD_NAMES``, an initialiser) and the
    integers of ``C_INTEGERS``."""
    values = runpy.run_path(str(constants))
    types = values["COMBO_TYPES"]
    lines = [
        "/* Generated from engine/constants.py by engine/_native/sources.py: do not edit. */",
        "#ifndef GUANDAN_CORE_CONSTS_H",
        "#define GUANDAN_CORE_CONSTS_H",
        "enum { " + ", ".join(f"T_{name} = {i}" for i, (name, _) in enumerate(types))
        + f", N_TYPES = {len(types)} }};",
        "#define COMBO_RECORD_NAMES {" + ", ".join(f'"{rec}"' for _, rec in types) + "}",
    ]
    lines += [f"#define {name} {int(v)}" for name, v in values["C_INTEGERS"].items()]
    return "\n".join([*lines, "#endif", ""])


def write_header(directory: Path) -> Path:
    """Write the header into ``directory`` (made if missing) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / HEADER
    text = header_text()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def source_hash(files: Iterable[Path]) -> str:
    """A short SHA-256 of the files' names and bytes, in the order given."""
    h = sha256()
    for p in files:
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


if __name__ == "__main__":  # tools/core_sanitize.sh and hand builds
    if sys.argv[1:2] == ["header"] and len(sys.argv) == 3:
        print(write_header(Path(sys.argv[2])))
    elif sys.argv[1:2] == ["hash"]:
        dirs = [Path(d) for d in sys.argv[2:]] or [Path(__file__).resolve().parent]
        print(source_hash(extension_files(*dirs)))
    else:
        sys.exit("usage: sources.py header DIR | hash [DIR ...] (a layer's, then the engine's)")
